// The 16-byte scans of lex/byte_scan.h against their byte-by-byte meaning.
#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "lex/byte_scan.h"

using namespace hlolint;

namespace {

const char* SkipIdentCharsBytewise(const char* p) {
  while (IsIdentCharByte(*p)) ++p;
  return p;
}

}  // namespace

TEST_CASE("SkipIdentChars stops at the first byte of every non-identifier value",
          "[byte_scan]") {
  // Every byte value, at every position of a 40-byte identifier (so within
  // the first, second and third 16-byte load and the byte-wise tail).
  const std::string ident = "abcXYZ_09.-zAmN-m.0_9qQ.x-y_z7Abc.de-FgH";
  REQUIRE(ident.size() == 40);
  int mismatches = 0;
  for (int value = 0; value < 256; ++value) {
    for (size_t at = 0; at < ident.size(); ++at) {
      std::string text = ident;
      text[at] = static_cast<char>(value);
      const char* begin = text.c_str();
      const char* end = begin + text.size();
      if (SkipIdentChars(begin, end) != SkipIdentCharsBytewise(begin)) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
  const std::string whole = ident + ident;
  CHECK(SkipIdentChars(whole.c_str(), whole.c_str() + whole.size()) ==
        whole.c_str() + whole.size());
}

TEST_CASE("BalancedEnd finds the closing bracket the byte-wise reading finds", "[byte_scan]") {
  // A tuple's text long enough for several 16-byte loads and a byte-wise
  // tail, with every byte value put at every position, and limits from
  // 1 byte on in steps of 7, against BalancedEndBytewise (the loop
  // ShapeTextEnd ran before).
  const std::string tuple =
      "(f32[8,128]{1,0:T(8,128)}, (s32[], bf16[2]{0}), pred[]) %p, f32[] %q)";
  int mismatches = 0;
  for (int value = 0; value < 256; ++value) {
    for (size_t at = 1; at < tuple.size(); ++at) {
      std::string text = tuple;
      text[at] = static_cast<char>(value);
      const char* begin = text.c_str();
      for (size_t limit = 1; limit <= text.size(); limit += 7) {
        if (BalancedEnd(begin, begin + limit) != BalancedEndBytewise(begin, begin + limit)) {
          ++mismatches;
        }
      }
    }
  }
  CHECK(mismatches == 0);
  // Where it ends: after the tuple's own ')', before the text that follows.
  const char* begin = tuple.c_str();
  CHECK(BalancedEnd(begin, begin + tuple.size()) - begin == 55);
  CHECK(ShapeTextEnd(begin, begin + tuple.size()) - begin == 55);
}

TEST_CASE("ScanSmallDecimal takes 1 to 9 digits without a leading zero", "[byte_scan]") {
  auto scan = [](const std::string& text) -> std::pair<long, int64_t> {
    int64_t value = -1;
    const char* end = ScanSmallDecimal(text.c_str(), &value);
    return {end == nullptr ? -1 : end - text.c_str(), value};
  };
  CHECK(scan("0}") == std::pair<long, int64_t>{1, 0});
  CHECK(scan("7 ") == std::pair<long, int64_t>{1, 7});
  CHECK(scan("123456789,") == std::pair<long, int64_t>{9, 123456789});
  CHECK(scan("1234567890").first == -1);  // 10 digits: the grammar decides
  CHECK(scan("07").first == -1);
  CHECK(scan("-1").first == -1);
  CHECK(scan("").first == -1);
  CHECK(scan("x1").first == -1);
}
