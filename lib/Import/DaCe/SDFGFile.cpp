//===- SDFGFile.cpp - Reading an SDFG file's bytes ------------------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What is done with an SDFG file's text before llvm::json parses it:
// remember where each JSON object and array starts so that diagnostics can
// point into the file, and find nesting too deep for a recursive parser.
// (Gunzipping a `.sdfgz` comes first: SDFGDecompression.cpp.)
//
//===----------------------------------------------------------------------===//

#include "SDFGFile.h"

#include "SDFGStream/Import/DaCe.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>


using namespace mlir::sdfg::dace;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// JSON paths
//===----------------------------------------------------------------------===//

std::string mlir::sdfg::dace::joinJsonPath(StringRef path, StringRef key) {
  if (path.empty())
    return key.str();
  return (path + "/" + key).str();
}

std::string mlir::sdfg::dace::joinJsonPath(StringRef path, size_t index) {
  return joinJsonPath(path, llvm::utostr(index));
}

//===----------------------------------------------------------------------===//
// JsonLocator
//===----------------------------------------------------------------------===//

namespace {
/// Deeper containers are not recorded: a path per level costs memory
/// quadratic in the depth, and the importer refuses such text anyway
/// (JsonLocator::kMaxNesting).
constexpr size_t kMaxDepth = 1024;
static_assert(kMaxDepth >= JsonLocator::kMaxNesting,
              "every container of an accepted file is recorded");

/// One linear pass over the text. Nesting is an explicit stack rather than
/// recursion, so that a deeply nested (or hostile) file cannot overflow the
/// stack; the path is one string truncated on the way out of a container,
/// so that building paths costs time linear in the text.
class JsonScanner {
public:
  JsonScanner(StringRef text, llvm::StringMap<size_t> &offsets)
      : text(text), offsets(offsets) {}

  void scan();

private:
  struct Container {
    bool isArray;
    /// Length of `path` for the container itself.
    size_t pathLength;
    size_t nextIndex;
  };

  bool skipBlank() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
    return pos < text.size();
  }

  bool skipString();
  bool readString(std::string &decoded);
  bool readKeyIntoPath();
  bool skipScalar();
  void appendSegment(StringRef segment) {
    if (!path.empty())
      path += '/';
    path += segment;
  }

  StringRef text;
  llvm::StringMap<size_t> &offsets;
  size_t pos = 0;
  std::string path;
  llvm::SmallVector<Container, 16> stack;
};

/// Skips a string starting at its opening quote.
bool JsonScanner::skipString() {
  for (++pos; pos < text.size(); ++pos) {
    if (text[pos] == '\\')
      ++pos;
    else if (text[pos] == '"')
      return ++pos, true;
  }
  return false;
}

/// Reads a string starting at its opening quote, decoding its escapes as
/// llvm::json does, so that a path built from llvm::json's keys matches.
bool JsonScanner::readString(std::string &decoded) {
  size_t start = ++pos;
  // Most keys have no escapes: take them as they are.
  while (pos < text.size() && text[pos] != '"' && text[pos] != '\\')
    ++pos;
  decoded.assign(text.data() + start, pos - start);
  while (pos < text.size()) {
    char c = text[pos++];
    if (c == '"')
      return true;
    if (c != '\\') {
      decoded += c;
      continue;
    }
    if (pos >= text.size())
      return false;
    char escape = text[pos++];
    switch (escape) {
    case '"':
    case '\\':
    case '/':
      decoded += escape;
      break;
    case 'b':
      decoded += '\b';
      break;
    case 'f':
      decoded += '\f';
      break;
    case 'n':
      decoded += '\n';
      break;
    case 'r':
      decoded += '\r';
      break;
    case 't':
      decoded += '\t';
      break;
    case 'u': {
      auto readHex = [&](uint32_t &value) {
        if (pos + 4 > text.size())
          return false;
        value = 0;
        for (char h : text.substr(pos, 4)) {
          unsigned digit = llvm::hexDigitValue(h);
          if (digit == ~0U)
            return false;
          value = value * 16 + digit;
        }
        pos += 4;
        return true;
      };
      uint32_t codePoint;
      if (!readHex(codePoint))
        return false;
      // A surrogate pair, or a lone surrogate that llvm::json replaces.
      if (codePoint >= 0xD800 && codePoint < 0xDC00 &&
          text.substr(pos, 2) == "\\u") {
        size_t save = pos;
        pos += 2;
        uint32_t low;
        if (readHex(low) && low >= 0xDC00 && low < 0xE000)
          codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
        else
          pos = save;
      }
      if (codePoint >= 0xD800 && codePoint < 0xE000)
        codePoint = 0xFFFD;
      char utf8[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
      char *end = utf8;
      llvm::ConvertCodePointToUTF8(codePoint, end);
      decoded.append(utf8, end);
      break;
    }
    default:
      return false;
    }
  }
  return false;
}

/// Reads `"key" :` and appends the key to the path.
bool JsonScanner::readKeyIntoPath() {
  if (!skipBlank() || text[pos] != '"')
    return false;
  std::string key;
  if (!readString(key))
    return false;
  if (!skipBlank() || text[pos] != ':')
    return false;
  ++pos;
  appendSegment(key);
  return true;
}

/// Skips a number, true, false or null.
bool JsonScanner::skipScalar() {
  StringRef rest = text.drop_front(pos);
  for (StringRef word : {"true", "false", "null"}) {
    if (rest.starts_with(word)) {
      pos += word.size();
      return true;
    }
  }
  size_t start = pos;
  while (pos < text.size() &&
         (llvm::isDigit(text[pos]) || text[pos] == '-' || text[pos] == '+' ||
          text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E'))
    ++pos;
  return pos > start;
}

void JsonScanner::scan() {
  // The root is the fallback of every path: the first non-blank byte,
  // past a UTF-8 byte order mark, whatever the root value is.
  if (text.starts_with("\xEF\xBB\xBF"))
    pos = 3;
  skipBlank();
  offsets[""] = pos;

  while (true) {
    // A value at `path`.
    if (!skipBlank())
      return;
    char c = text[pos];
    if (c == '{' || c == '[') {
      bool isArray = c == '[';
      offsets[path] = pos;
      if (stack.size() == kMaxDepth)
        return;
      stack.push_back({isArray, path.size(), 0});
      ++pos;
      if (!skipBlank())
        return;
      if (text[pos] != (isArray ? ']' : '}')) {
        if (isArray)
          appendSegment("0");
        else if (!readKeyIntoPath())
          return;
        continue;
      }
      // An empty container: it is the value just read.
      ++pos;
      stack.pop_back();
    } else if (c == '"') {
      if (!skipString())
        return;
    } else if (!skipScalar()) {
      return;
    }

    // After a value: close containers, or go on to the next member.
    while (true) {
      if (stack.empty())
        return;
      Container &container = stack.back();
      path.resize(container.pathLength);
      if (!skipBlank())
        return;
      if (text[pos] == ',') {
        ++pos;
        if (container.isArray)
          appendSegment(llvm::utostr(++container.nextIndex));
        else if (!readKeyIntoPath())
          return;
        break;
      }
      if (text[pos] != (container.isArray ? ']' : '}'))
        return;
      ++pos;
      stack.pop_back();
    }
  }
}
} // namespace

/// The offset of the first '{' or '[' nested deeper than `limit`, counting
/// brackets outside strings. Independent of whether the text is valid JSON,
/// so that no text reaches a recursive parser deeper than `limit`.
static std::optional<size_t> findTooDeep(StringRef text, size_t limit) {
  size_t depth = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit)
        return i;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

JsonLocator::JsonLocator(StringRef text) : text(text) {
  tooDeepOffset = findTooDeep(text, kMaxNesting);
  JsonScanner(text, offsets).scan();
  for (const char *p = text.data(), *end = text.data() + text.size();
       (p = static_cast<const char *>(std::memchr(p, '\n', end - p)));)
    lineStarts.push_back(++p - text.data());
}

size_t JsonLocator::offsetOf(StringRef path) const {
  while (true) {
    auto it = offsets.find(path);
    if (it != offsets.end())
      return it->second;
    if (path.empty())
      return 0;
    size_t slash = path.rfind('/');
    path = slash == StringRef::npos ? StringRef() : path.take_front(slash);
  }
}

std::pair<unsigned, unsigned> JsonLocator::lineAndColumn(size_t offset) const {
  offset = std::min(offset, text.size());
  // The lines that start at or before `offset`, past the first.
  auto next = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t lineStart = next == lineStarts.begin() ? 0 : *std::prev(next);
  return {static_cast<unsigned>(next - lineStarts.begin()) + 1,
          static_cast<unsigned>(offset - lineStart) + 1};
}
