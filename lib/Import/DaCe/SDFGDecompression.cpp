//===- SDFGDecompression.cpp - Gunzipping a .sdfgz file ------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// DaCe saves `.sdfgz` files gzip-compressed (`SDFG.save(..., compress=True)`);
// they are inflated with zlib before the JSON is read. A file past 4 GiB
// goes through zlib in pieces, and truncated or trailing data is an error.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Import/DaCe.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include <zlib.h>

using llvm::StringRef;

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::sdfg::dace::decompressSDFGFile(
    std::unique_ptr<llvm::MemoryBuffer> buffer) {
  StringRef data = buffer->getBuffer();
  if (data.size() < 2 || static_cast<unsigned char>(data[0]) != 0x1f ||
      static_cast<unsigned char>(data[1]) != 0x8b)
    return buffer;
  StringRef name = buffer->getBufferIdentifier();
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::errc::illegal_byte_sequence,
                                   name + ": " + why);
  };

  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  // 15 + 32: the largest window, and a gzip or zlib header detected.
  if (inflateInit2(&stream, 15 + 32) != Z_OK)
    return fail(llvm::Twine("cannot initialize zlib: ") +
                (stream.msg ? stream.msg : "unknown error"));
  llvm::scope_exit end([&] { inflateEnd(&stream); });

  const unsigned char *input =
      reinterpret_cast<const unsigned char *>(data.data());
  size_t inputLeft = data.size();
  // zlib counts in `uInt`; a file past 4 GiB goes in in pieces.
  auto refill = [&] {
    if (stream.avail_in != 0 || inputLeft == 0)
      return;
    uInt piece = static_cast<uInt>(std::min<size_t>(inputLeft, UINT_MAX));
    stream.next_in = const_cast<unsigned char *>(input);
    stream.avail_in = piece;
    input += piece;
    inputLeft -= piece;
  };

  // JSON compresses about tenfold; grow geometrically from there.
  std::string output;
  output.resize(std::max<size_t>(data.size() * 4, 1 << 16));
  size_t produced = 0;
  while (true) {
    refill();
    if (produced == output.size())
      output.resize(output.size() * 2);
    size_t room = std::min<size_t>(output.size() - produced, UINT_MAX);
    stream.next_out = reinterpret_cast<unsigned char *>(&output[produced]);
    stream.avail_out = static_cast<uInt>(room);
    int status = inflate(&stream, Z_NO_FLUSH);
    produced += room - stream.avail_out;
    if (status == Z_STREAM_END)
      break;
    if (status == Z_OK)
      continue;
    // No progress although there was room to write: the input ran out
    // before the end of the stream.
    if (status == Z_BUF_ERROR && stream.avail_in == 0 && inputLeft == 0)
      return fail("truncated gzip data");
    if (status == Z_BUF_ERROR && stream.avail_in == 0)
      continue;
    return fail(llvm::Twine("corrupt gzip data: ") +
                (stream.msg ? stream.msg : zError(status)));
  }
  if (stream.avail_in != 0 || inputLeft != 0)
    return fail("unexpected data after the gzip stream (concatenated gzip "
                "members are not supported)");
  output.resize(produced);
  return llvm::MemoryBuffer::getMemBufferCopy(output, name);
}
