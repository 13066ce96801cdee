#include "ir/primitive_type.h"

#include <array>
#include <cstdint>

#include "util/keyword_table.h"

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

// Element type names only (not "<invalid>", "tuple" or "buffer").
struct ElementTypeNameAt {
  constexpr std::string_view operator[](size_t i) const {
    return i >= 1 && i <= static_cast<size_t>(PrimitiveType::kOpaque) ? kTypes[i].name
                                                                       : std::string_view();
  }
};
constexpr size_t kElementTypeNames = static_cast<size_t>(PrimitiveType::kOpaque) + 1;
constexpr KeywordTable<PrimitiveType, KeywordSlotsFor(kElementTypeNames)> kElementTypeIndex(
    ElementTypeNameAt{}, kElementTypeNames);

}  // namespace

std::string_view PrimitiveTypeName(PrimitiveType type) {
  return kTypes[static_cast<int>(type)].name;
}

int PrimitiveTypeBits(PrimitiveType type) { return kTypes[static_cast<int>(type)].bits; }

PrimitiveType PrimitiveTypeFromName(std::string_view name) {
  // Called for every identifier the lexer sees and every instruction name:
  // reject most names on their length and first two characters before
  // comparing. Every element type name starts with a digit after s/u/f/c,
  // or is pred, bf16, token or opaque.
  if (name.size() < 2 || name.size() > 13) return PrimitiveType::kInvalid;
  const char second = name[1];
  switch (name[0]) {
    case 's': case 'u': case 'f': case 'c':
      if (second < '0' || second > '9') return PrimitiveType::kInvalid;
      break;
    case 'p': if (second != 'r') return PrimitiveType::kInvalid; break;
    case 'b': if (second != 'f') return PrimitiveType::kInvalid; break;
    case 't': if (second != 'o') return PrimitiveType::kInvalid; break;
    case 'o': if (second != 'p') return PrimitiveType::kInvalid; break;
    default: return PrimitiveType::kInvalid;
  }
  return kElementTypeIndex.Find(name, PrimitiveType::kInvalid);
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
