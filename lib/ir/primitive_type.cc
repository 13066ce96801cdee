#include "ir/primitive_type.h"

#include <array>
#include <cstdint>

namespace hlolint {
namespace {

struct TypeInfo {
  std::string_view name;
  int bits;
};

constexpr TypeInfo kTypes[] = {
    {"<invalid>", 0},
#define HLOLINT_INFO(e, name, bits) {name, bits},
    HLOLINT_PRIMITIVE_TYPES(HLOLINT_INFO)
#undef HLOLINT_INFO
    {"tuple", 0},
    {"buffer", 0},
};

}  // namespace

std::string_view PrimitiveTypeName(PrimitiveType type) {
  return kTypes[static_cast<int>(type)].name;
}

int PrimitiveTypeBits(PrimitiveType type) { return kTypes[static_cast<int>(type)].bits; }

PrimitiveType PrimitiveTypeFromName(std::string_view name) {
  // Called for every identifier the lexer sees: reject most names on their
  // first character and length before comparing.
  if (name.size() < 2 || name.size() > 13) return PrimitiveType::kInvalid;
  const char c = name[0];
  if (c != 'p' && c != 's' && c != 'u' && c != 'f' && c != 'b' && c != 'c' && c != 't' && c != 'o') {
    return PrimitiveType::kInvalid;
  }
  if (c == 's' || c == 'u' || c == 'f') {
    // s1..s64, u1..u64, f16/f32/f64 and the f8/f4 family: a digit follows.
    if (name[1] < '0' || name[1] > '9') return PrimitiveType::kInvalid;
  }
  // A small open-addressing table keyed on length and three characters.
  struct Index {
    static size_t Slot(std::string_view n) {
      return (n.size() * 37 + static_cast<unsigned char>(n[0]) * 7 +
              static_cast<unsigned char>(n[1]) * 131 + static_cast<unsigned char>(n.back())) &
             127;
    }
    std::array<uint8_t, 128> slots{};  // type index, 0 = empty
    Index() {
      for (int i = 1; i <= static_cast<int>(PrimitiveType::kOpaque); ++i) {
        size_t k = Slot(kTypes[i].name);
        while (slots[k] != 0) k = (k + 1) & 127;
        slots[k] = static_cast<uint8_t>(i);
      }
    }
  };
  static const Index index;
  for (size_t k = Index::Slot(name);; k = (k + 1) & 127) {
    const int i = index.slots[k];
    if (i == 0) return PrimitiveType::kInvalid;
    if (kTypes[i].name == name) return static_cast<PrimitiveType>(i);
  }
}

bool IsFloatingPoint(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16: case PrimitiveType::kF32: case PrimitiveType::kF64:
    case PrimitiveType::kBF16: case PrimitiveType::kF8E5M2: case PrimitiveType::kF8E4M3:
    case PrimitiveType::kF8E4M3FN: case PrimitiveType::kF8E4M3B11FNUZ:
    case PrimitiveType::kF8E3M4: case PrimitiveType::kF8E5M2FNUZ:
    case PrimitiveType::kF8E4M3FNUZ: case PrimitiveType::kF4E2M1FN:
    case PrimitiveType::kF8E8M0FNU:
      return true;
    default:
      return false;
  }
}

bool IsComplex(PrimitiveType type) {
  return type == PrimitiveType::kC64 || type == PrimitiveType::kC128;
}

bool IsSignedInteger(PrimitiveType type) {
  return type >= PrimitiveType::kS1 && type <= PrimitiveType::kS64;
}

bool IsUnsignedInteger(PrimitiveType type) {
  return type >= PrimitiveType::kU1 && type <= PrimitiveType::kU64;
}

bool IsArrayType(PrimitiveType type) {
  return type >= PrimitiveType::kPred && type <= PrimitiveType::kC128;
}

}  // namespace hlolint
