// StringViewHash reads a name's last bytes with overlapping loads; the value
// must be what a memcpy into a zeroed word gives, or tables keyed by these
// hashes (verify-names) would change.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "util/hash.h"

namespace hlolint {
namespace {

TEST_CASE("StringViewHash::LoadTail equals a memcpy into a zeroed word", "[hash]") {
  const std::string text = "\x01\x82\x03\xf4\x05\x86\x07\xf8";
  for (size_t n = 0; n < 8; ++n) {
    uint64_t expected = 0;
    std::memcpy(&expected, text.data(), n);
    INFO("n = " << n);
    CHECK(StringViewHash::LoadTail(text.data(), n) == expected);
  }
}

TEST_CASE("StringViewHash tells apart names differing only in their tail", "[hash]") {
  const StringViewHash hash;
  for (const char* base : {"", "a", "add.1", "fusion.12345678", "param_0.3"}) {
    const std::string name = base;
    INFO(name);
    CHECK(hash(name + "1") != hash(name + "2"));
    CHECK(hash(name) != hash(name + std::string(1, '\0')));
  }
}

TEST_CASE("BytesEqual agrees with memcmp at every length and differing byte", "[hash]") {
  const std::string a = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (size_t n = 0; n <= a.size(); ++n) {
    CHECK(BytesEqual(a.data(), a.c_str(), n));
    for (size_t k = 0; k < n; ++k) {
      std::string b = a;
      b[k] ^= 0x20;
      INFO("n = " << n << ", differing byte " << k);
      CHECK_FALSE(BytesEqual(a.data(), b.data(), n));
    }
  }
}

}  // namespace
}  // namespace hlolint
