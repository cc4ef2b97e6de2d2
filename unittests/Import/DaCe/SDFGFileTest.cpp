//===- SDFGFileTest.cpp - JSON positions and .sdfgz decompression ---------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// JsonLocator must find the element a diagnostic is about in files of any
// size and shape, malformed ones included; decompressSDFGFile must turn a
// damaged `.sdfgz` into an error that names the file.
//
//===----------------------------------------------------------------------===//

#include "SDFGFile.h"

#include "SDFGStream/Import/DaCe.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <chrono>
#include <random>

#include <zlib.h>

using namespace mlir::sdfg::dace;
using llvm::StringRef;

namespace {
/// The offset of the `occurrence`-th (0-based) `needle` in `text`.
size_t positionIn(StringRef text, StringRef needle, unsigned occurrence = 0) {
  size_t offset = text.find(needle);
  while (occurrence-- > 0 && offset != StringRef::npos)
    offset = text.find(needle, offset + 1);
  EXPECT_NE(offset, StringRef::npos) << needle.str();
  return offset;
}

//===----------------------------------------------------------------------===//
// Paths
//===----------------------------------------------------------------------===//

TEST(JsonPathTest, Join) {
  EXPECT_EQ(joinJsonPath("", "nodes"), "nodes");
  EXPECT_EQ(joinJsonPath("nodes", "3"), "nodes/3");
  EXPECT_EQ(joinJsonPath("nodes", size_t(3)), "nodes/3");
  EXPECT_EQ(joinJsonPath("", size_t(0)), "0");
  EXPECT_EQ(joinJsonPath(joinJsonPath("nodes", size_t(12)), "attributes"),
            "nodes/12/attributes");
}

//===----------------------------------------------------------------------===//
// JsonLocator
//===----------------------------------------------------------------------===//

TEST(JsonLocatorTest, NestedObjectsAndArrays) {
  StringRef text = R"({"a": {"b": [1, {"c": 2}, [3], []]}, "d": [], "e": {}})";
  JsonLocator locator(text);
  EXPECT_EQ(locator.offsetOf(""), 0u);
  EXPECT_EQ(locator.offsetOf("a"), positionIn(text, "{\"b\""));
  EXPECT_EQ(locator.offsetOf("a/b"), positionIn(text, "[1"));
  EXPECT_EQ(locator.offsetOf("a/b/1"), positionIn(text, "{\"c\""));
  EXPECT_EQ(locator.offsetOf("a/b/2"), positionIn(text, "[3]"));
  EXPECT_EQ(locator.offsetOf("a/b/3"), positionIn(text, "[]]"));
  EXPECT_EQ(locator.offsetOf("d"), positionIn(text, "[],"));
  EXPECT_EQ(locator.offsetOf("e"), positionIn(text, "{}"));
}

TEST(JsonLocatorTest, FallsBackToLongestPrefix) {
  StringRef text = R"({"a": {"b": [1, {"c": 2}]}, "s": "x"})";
  JsonLocator locator(text);
  // Scalars are not recorded: their container stands in for them.
  EXPECT_EQ(locator.offsetOf("a/b/0"), locator.offsetOf("a/b"));
  EXPECT_EQ(locator.offsetOf("a/b/1/c"), locator.offsetOf("a/b/1"));
  EXPECT_EQ(locator.offsetOf("s"), 0u);
  // Paths to nothing fall back as far as needed.
  EXPECT_EQ(locator.offsetOf("a/zzz/q/7"), locator.offsetOf("a"));
  EXPECT_EQ(locator.offsetOf("a/b/9"), locator.offsetOf("a/b"));
  EXPECT_EQ(locator.offsetOf("x/y/z"), 0u);
  EXPECT_EQ(locator.offsetOf("/"), 0u);
  // "a/b1" is not "a/b" plus something.
  EXPECT_EQ(locator.offsetOf("a/b1"), locator.offsetOf("a"));
}

TEST(JsonLocatorTest, StringsWithBracesAndEscapes) {
  StringRef text = R"({"s": "{[\"}]", "k\"ey": {"x": "\\"},)"
                   R"( "n": [ "]", {"m": "}"}, [ "[" ] ],)"
                   R"( "sl\/ash": {}, "t\tab": {}})";
  JsonLocator locator(text);
  EXPECT_EQ(locator.offsetOf("k\"ey"), positionIn(text, "{\"x\""));
  EXPECT_EQ(locator.offsetOf("n"), positionIn(text, "[ \"]\""));
  EXPECT_EQ(locator.offsetOf("n/1"), positionIn(text, "{\"m\""));
  EXPECT_EQ(locator.offsetOf("n/2"), positionIn(text, "[ \"[\""));
  EXPECT_EQ(locator.offsetOf("sl/ash"), positionIn(text, "{}"));
  EXPECT_EQ(locator.offsetOf("t\tab"), positionIn(text, "{}", 1));
}

TEST(JsonLocatorTest, UnicodeEscapesInKeys) {
  StringRef text = R"({"\u00e9": {}, "\ud83d\ude00": [], "\ud800x": [],)"
                   R"( "\u0041\u00": {}})";
  JsonLocator locator(text);
  EXPECT_EQ(locator.offsetOf("\xC3\xA9"), positionIn(text, "{}"));
  EXPECT_EQ(locator.offsetOf("\xF0\x9F\x98\x80"), positionIn(text, "[]"));
  // A lone surrogate becomes U+FFFD, as llvm::json makes it.
  EXPECT_EQ(locator.offsetOf("\xEF\xBF\xBDx"), positionIn(text, "[]", 1));
  // A broken escape ends the scan; what came before stays.
  EXPECT_EQ(locator.offsetOf("A"), 0u);
  EXPECT_EQ(locator.offsetOf("\xC3\xA9"), positionIn(text, "{}"));
}

TEST(JsonLocatorTest, RootPositions) {
  StringRef text = "  \n {\"a\": []}";
  JsonLocator locator(text);
  EXPECT_EQ(locator.offsetOf(""), 4u);
  EXPECT_EQ(locator.offsetOf("zzz"), 4u);
  EXPECT_EQ(locator.offsetOf("a"), positionIn(text, "[]"));

  JsonLocator scalar("  42 ");
  EXPECT_EQ(scalar.offsetOf(""), 2u);
  EXPECT_EQ(scalar.offsetOf("a/b"), 2u);

  JsonLocator empty("");
  EXPECT_EQ(empty.offsetOf(""), 0u);
  EXPECT_EQ(empty.lineAndColumn(0), std::make_pair(1u, 1u));

  StringRef bom = "\xEF\xBB\xBF{\"a\": {}}";
  JsonLocator withBom(bom);
  EXPECT_EQ(withBom.offsetOf(""), 3u);
  EXPECT_EQ(withBom.offsetOf("a"), positionIn(bom, "{}"));

  JsonLocator array(R"([{"x": [0, [1]]}, 5, {"y": {}}])");
  EXPECT_EQ(array.offsetOf("0"), 1u);
  EXPECT_EQ(array.offsetOf("0/x"), 7u);
  EXPECT_EQ(array.offsetOf("0/x/1"), 11u);
  EXPECT_EQ(array.offsetOf("2"), 21u);
  EXPECT_EQ(array.offsetOf("2/y"), 27u);
}

TEST(JsonLocatorTest, Scalars) {
  StringRef text = R"({"a": true, "b": false, "c": null, "d": -1.5e+3,)"
                   R"( "e": 0, "f": {"g": [true, null, 2E-1, "x"]}})";
  JsonLocator locator(text);
  EXPECT_EQ(locator.offsetOf("f"), positionIn(text, "{\"g\""));
  EXPECT_EQ(locator.offsetOf("f/g"), positionIn(text, "[true"));
}

TEST(JsonLocatorTest, MalformedText) {
  {
    StringRef text = R"({"a": {"b": [1, 2)";
    JsonLocator locator(text);
    EXPECT_EQ(locator.offsetOf("a/b"), positionIn(text, "[1"));
  }
  {
    // Recording stops at the stray '}'; "b" was never seen.
    StringRef text = R"({"a": [1, }, "b": {}})";
    JsonLocator locator(text);
    EXPECT_EQ(locator.offsetOf("a"), positionIn(text, "[1"));
    EXPECT_EQ(locator.offsetOf("b"), 0u);
  }
  for (StringRef text :
       {R"({"a" 1})", R"({"a": tru})", R"({"a": "unterminated)", R"({,})",
        R"({"a": [1 2]})", R"([)", R"(])", R"("\)", R"({"a\)", R"({"a":)",
        R"({"a": {"b": @}})", "{\"a\": [\"x\\", R"({"\u12": {}})"}) {
    JsonLocator locator(text);
    EXPECT_LE(locator.offsetOf("a/b/c"), text.size()) << text.str();
    EXPECT_LE(locator.offsetOf("0"), text.size()) << text.str();
  }
  {
    // Trailing text after the root is ignored.
    StringRef text = R"({"a": {}} {"b": {}})";
    JsonLocator locator(text);
    EXPECT_EQ(locator.offsetOf("a"), 6u);
    EXPECT_EQ(locator.offsetOf("b"), 0u);
  }
}

TEST(JsonLocatorTest, DeepNestingDoesNotExhaustMemory) {
  // A hostile file: one path per level would cost memory quadratic in the
  // depth, so recording stops at a depth no SDFG reaches.
  std::string deep(1000000, '[');
  JsonLocator locator(deep);
  EXPECT_EQ(locator.offsetOf(""), 0u);
  EXPECT_EQ(locator.offsetOf("0"), 1u);
  EXPECT_EQ(locator.offsetOf("0/0/0/0"), 4u);

  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"k\": ";
  JsonLocator objectLocator(objects);
  EXPECT_EQ(objectLocator.offsetOf("k/k"), 12u);
}

TEST(JsonLocatorTest, LineAndColumn) {
  StringRef text = "ab\ncd\n\nx";
  JsonLocator locator(text);
  EXPECT_EQ(locator.lineAndColumn(0), std::make_pair(1u, 1u));
  EXPECT_EQ(locator.lineAndColumn(1), std::make_pair(1u, 2u));
  EXPECT_EQ(locator.lineAndColumn(2), std::make_pair(1u, 3u)); // the '\n'
  EXPECT_EQ(locator.lineAndColumn(3), std::make_pair(2u, 1u));
  EXPECT_EQ(locator.lineAndColumn(5), std::make_pair(2u, 3u));
  EXPECT_EQ(locator.lineAndColumn(6), std::make_pair(3u, 1u));
  EXPECT_EQ(locator.lineAndColumn(7), std::make_pair(4u, 1u));
  EXPECT_EQ(locator.lineAndColumn(8), std::make_pair(4u, 2u)); // the end
  EXPECT_EQ(locator.lineAndColumn(1000), std::make_pair(4u, 2u));

  // Columns count bytes: a '\r' and a UTF-8 sequence are columns too.
  StringRef crlf = "{\r\n  \"\xC3\xA9\": [\r\n    {}]}";
  JsonLocator crlfLocator(crlf);
  EXPECT_EQ(crlfLocator.lineAndColumn(crlfLocator.offsetOf("\xC3\xA9")),
            std::make_pair(2u, 9u));
  EXPECT_EQ(crlfLocator.lineAndColumn(crlfLocator.offsetOf("\xC3\xA9/0")),
            std::make_pair(3u, 5u));
}

TEST(JsonLocatorTest, IndentedSDFG) {
  StringRef text = R"({
  "type": "SDFG",
  "nodes": [
    {
      "type": "SDFGState",
      "nodes": [
        {"type": "Tasklet", "attributes": {"code": {"string_data": "a = {b}"}}},
        {"type": "MapEntry", "attributes": {"range": {"ranges": [{"start": "0"}]}}}
      ]
    }
  ]
})";
  JsonLocator locator(text);
  auto at = [&](StringRef path) {
    return locator.lineAndColumn(locator.offsetOf(path));
  };
  EXPECT_EQ(at("nodes"), std::make_pair(3u, 12u));
  EXPECT_EQ(at("nodes/0"), std::make_pair(4u, 5u));
  EXPECT_EQ(at("nodes/0/nodes/0"), std::make_pair(7u, 9u));
  EXPECT_EQ(at("nodes/0/nodes/0/attributes"), std::make_pair(7u, 43u));
  EXPECT_EQ(at("nodes/0/nodes/0/attributes/code"), std::make_pair(7u, 52u));
  // The braces inside the string are no objects.
  EXPECT_EQ(at("nodes/0/nodes/0/attributes/code/string_data"),
            std::make_pair(7u, 52u));
  EXPECT_EQ(at("nodes/0/nodes/1"), std::make_pair(8u, 9u));
  EXPECT_EQ(at("nodes/0/nodes/1/attributes/range/ranges/0"),
            std::make_pair(8u, 66u));
}

TEST(JsonLocatorTest, LargeFileIsLinear) {
  // About 12 MB shaped like an SDFG: many small objects under long paths.
  std::string text = "{\"type\": \"SDFG\", \"nodes\": [";
  const int count = 60000;
  std::vector<size_t> expected;
  for (int i = 0; i < count; ++i) {
    if (i)
      text += ",\n";
    expected.push_back(text.size());
    text += "{\"type\": \"Tasklet\", \"label\": \"t_{" + std::to_string(i) +
            "}\", \"attributes\": {\"code\": {\"string_data\": "
            "\"out = in_a * 2 + in_b\", \"language\": \"Python\"}, "
            "\"in_connectors\": {\"in_a\": null, \"in_b\": null}, "
            "\"debuginfo\": {\"type\": \"DebugInfo\", \"start_line\": 17, "
            "\"filename\": \"/home/user/program.py\"}, \"padding\": \"" +
            std::string(40, 'x') + "\"}, \"id\": " + std::to_string(i) +
            ", \"scope_entry\": null, \"scope_exit\": null}";
  }
  text += "]}";
  ASSERT_GT(text.size(), 10u << 20);

  auto start = std::chrono::steady_clock::now();
  JsonLocator locator(text);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // Linear takes well under a second even under sanitizers; quadratic
  // would take hours.
  EXPECT_LT(seconds, 10.0);

  for (int i : {0, 1, 12345, count - 1}) {
    std::string node = joinJsonPath("nodes", size_t(i));
    EXPECT_EQ(locator.offsetOf(node), expected[i]);
    EXPECT_EQ(locator.lineAndColumn(locator.offsetOf(node)),
              std::make_pair(unsigned(i) + 1, i == 0 ? 28u : 1u));
    EXPECT_GT(locator.offsetOf(node + "/attributes/debuginfo"), expected[i]);
  }
}

TEST(JsonLocatorTest, RandomInput) {
  std::mt19937 random(7);
  static const char *const pieces[] = {
      "{",          "}",     "[",  "]",           ",",    ":",    "\"k\"",
      "\"a\\\"b\"", "\"{\"", "1",  "-2.5e3",      "true", "null", " ",
      "\n",         "\"",    "\\", "\"\\u00e9\"", "x",
  };
  for (int i = 0; i < 10000; ++i) {
    std::string text;
    size_t length = random() % 48;
    for (size_t j = 0; j < length; ++j)
      text += i % 2 ? std::string(pieces[random() % 19])
                    : std::string(1, static_cast<char>(random() % 256));
    JsonLocator locator(text);
    for (StringRef path : {"", "k", "k/0", "0", "0/k", "a\"b"}) {
      size_t offset = locator.offsetOf(path);
      EXPECT_LE(offset, text.size());
      auto [line, column] = locator.lineAndColumn(offset);
      EXPECT_GE(line, 1u);
      EXPECT_GE(column, 1u);
    }
  }
}

//===----------------------------------------------------------------------===//
// decompressSDFGFile
//===----------------------------------------------------------------------===//

std::string gzip(StringRef data) {
  z_stream stream{};
  // 15 + 16: a gzip (not zlib) wrapper.
  EXPECT_EQ(deflateInit2(&stream, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  stream.avail_in = data.size();
  stream.next_out = reinterpret_cast<Bytef *>(&out[0]);
  stream.avail_out = out.size();
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
decompress(StringRef data, StringRef name = "program.sdfgz") {
  return decompressSDFGFile(llvm::MemoryBuffer::getMemBufferCopy(data, name));
}

std::string errorOf(StringRef data) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> result = decompress(data);
  if (result)
    return "no error";
  return llvm::toString(result.takeError());
}

TEST(DecompressSDFGFileTest, PlainJsonIsUnchanged) {
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy("{\"type\": \"SDFG\"}", "p.sdfg");
  const char *data = buffer->getBufferStart();
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> result =
      decompressSDFGFile(std::move(buffer));
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ((*result)->getBufferStart(), data);
  EXPECT_EQ((*result)->getBufferIdentifier(), "p.sdfg");

  for (StringRef plain : {StringRef(""), StringRef("\x1f"),
                          StringRef("\x1f\x8a rest"), StringRef("\x8b\x1f")}) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> same =
        decompress(plain);
    ASSERT_TRUE(static_cast<bool>(same)) << llvm::toString(same.takeError());
    EXPECT_EQ((*same)->getBuffer(), plain);
  }
}

TEST(DecompressSDFGFileTest, Gzip) {
  // Repetitive JSON compresses far more than the initial guess, so the
  // output buffer must grow several times.
  std::string json = "{\"nodes\": [";
  for (int i = 0; i < 50000; ++i)
    json += (i ? ", " : "") + std::string("{\"type\": \"AccessNode\"}");
  json += "]}";
  std::string compressed = gzip(json);
  ASSERT_LT(compressed.size() * 16, json.size());

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> result =
      decompress(compressed, "dir/program.sdfgz");
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ((*result)->getBuffer(), json);
  EXPECT_EQ((*result)->getBufferIdentifier(), "dir/program.sdfgz");

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> empty =
      decompress(gzip(""));
  ASSERT_TRUE(static_cast<bool>(empty)) << llvm::toString(empty.takeError());
  EXPECT_EQ((*empty)->getBuffer(), "");

  // Incompressible data: the output is about as large as the input.
  std::mt19937 random(3);
  std::string noise;
  for (int i = 0; i < 300000; ++i)
    noise += static_cast<char>(random() % 256);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> roundTrip =
      decompress(gzip(noise));
  ASSERT_TRUE(static_cast<bool>(roundTrip))
      << llvm::toString(roundTrip.takeError());
  EXPECT_EQ((*roundTrip)->getBuffer(), noise);
}

TEST(DecompressSDFGFileTest, TruncatedData) {
  std::string compressed = gzip("{\"type\": \"SDFG\", \"nodes\": []}");
  for (size_t length : {size_t(2), size_t(5), size_t(10), compressed.size() / 2,
                        compressed.size() - 1}) {
    EXPECT_EQ(errorOf(StringRef(compressed).take_front(length)),
              "program.sdfgz: truncated gzip data")
        << length;
  }
}

TEST(DecompressSDFGFileTest, CorruptData) {
  std::string compressed = gzip("{\"type\": \"SDFG\", \"nodes\": []}");

  std::string badMethod = compressed;
  badMethod[2] = 9;
  EXPECT_EQ(errorOf(badMethod),
            "program.sdfgz: corrupt gzip data: unknown compression method");

  std::string badChecksum = compressed;
  badChecksum[badChecksum.size() - 6] ^= 0x55; // in the CRC-32
  EXPECT_EQ(errorOf(badChecksum),
            "program.sdfgz: corrupt gzip data: incorrect data check");

  std::string badLength = compressed;
  badLength[badLength.size() - 2] ^= 0x01; // in ISIZE
  EXPECT_EQ(errorOf(badLength),
            "program.sdfgz: corrupt gzip data: incorrect length check");

  std::string trailing = compressed + "garbage";
  EXPECT_EQ(errorOf(trailing),
            "program.sdfgz: unexpected data after the gzip stream "
            "(concatenated gzip members are not supported)");

  // Every single-byte corruption is an error or a successful (if wrong)
  // decompression, never a crash.
  for (size_t i = 0; i < compressed.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string damaged = compressed;
      damaged[i] ^= flip;
      llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> result =
          decompress(damaged);
      if (!result) {
        std::string message = llvm::toString(result.takeError());
        EXPECT_TRUE(StringRef(message).starts_with("program.sdfgz: "))
            << message;
      }
    }
  }
}
} // namespace
