#include "diag/fingerprint.h"

#include <cstdint>

#include "fmt/format.h"

namespace hlolint {
namespace {

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// FNV-1a, 64-bit: tiny, stable and good enough to tell findings apart.
class Fnv1a {
 public:
  // Each field is followed by a separator byte that cannot occur in names,
  // so ("ab","c") and ("a","bc") hash differently.
  void Field(std::string_view text) {
    for (char c : text) Byte(static_cast<uint8_t>(c));
    Byte(0x1f);
  }
  uint64_t value() const { return hash_; }

 private:
  void Byte(uint8_t b) {
    hash_ ^= b;
    hash_ *= 0x100000001b3ull;
  }
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::string NormalizeHloName(std::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  std::string out;
  out.reserve(name.size());
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = name.find('.', start);
    std::string_view piece =
        name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    // The first component is kept even when numeric ("0.1" is odd but possible).
    if (start == 0 || !AllDigits(piece)) {
      if (start != 0 && !out.empty()) out.push_back('.');
      out.append(piece);
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return out;
}

std::string NormalizeDigits(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_number = false;
  for (char c : text) {
    const bool digit = c >= '0' && c <= '9';
    if (digit) {
      if (!in_number) out.push_back('#');
    } else {
      out.push_back(c);
    }
    in_number = digit;
  }
  return out;
}

std::string ComputeFingerprint(const Diagnostic& d) {
  Fnv1a hash;
  hash.Field(kFingerprintVersion);
  hash.Field(d.rule);
  hash.Field(NormalizeHloName(d.module));
  hash.Field(NormalizeHloName(d.computation));
  hash.Field(NormalizeHloName(d.instruction));
  hash.Field(d.opcode);
  hash.Field(d.shape);
  hash.Field(d.op_name);
  // Without an instruction (parse errors, module-level findings, comments)
  // the message is all that tells two findings apart; its numbers are
  // dropped because they quote renumbered names and shapes alike.
  if (d.instruction.empty()) hash.Field(NormalizeDigits(d.message));
  return fmt::format("{:016x}", hash.value());
}

void AssignFingerprints(std::vector<Diagnostic>& diagnostics) {
  for (Diagnostic& d : diagnostics) d.fingerprint = ComputeFingerprint(d);
}

}  // namespace hlolint
