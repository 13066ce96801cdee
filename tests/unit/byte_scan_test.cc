// The 16-byte scans of lex/byte_scan.h against their byte-by-byte meaning.
#include <catch2/catch.hpp>
#include <string>

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
