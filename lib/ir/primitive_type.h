// XLA element types (xla/xla_data.proto PrimitiveType) as written in HLO text.
#pragma once

#include <cstdint>
#include <string_view>

namespace hlolint {

#define HLOLINT_PRIMITIVE_TYPES(V) \
  V(kPred, "pred", 1)              \
  V(kS1, "s1", 1)                  \
  V(kS2, "s2", 2)                  \
  V(kS4, "s4", 4)                  \
  V(kS8, "s8", 8)                  \
  V(kS16, "s16", 16)               \
  V(kS32, "s32", 32)               \
  V(kS64, "s64", 64)               \
  V(kU1, "u1", 1)                  \
  V(kU2, "u2", 2)                  \
  V(kU4, "u4", 4)                  \
  V(kU8, "u8", 8)                  \
  V(kU16, "u16", 16)               \
  V(kU32, "u32", 32)               \
  V(kU64, "u64", 64)               \
  V(kF16, "f16", 16)               \
  V(kF32, "f32", 32)               \
  V(kF64, "f64", 64)               \
  V(kBF16, "bf16", 16)             \
  V(kF8E5M2, "f8e5m2", 8)          \
  V(kF8E4M3, "f8e4m3", 8)          \
  V(kF8E4M3FN, "f8e4m3fn", 8)      \
  V(kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8) \
  V(kF8E3M4, "f8e3m4", 8)          \
  V(kF8E5M2FNUZ, "f8e5m2fnuz", 8)  \
  V(kF8E4M3FNUZ, "f8e4m3fnuz", 8)  \
  V(kF4E2M1FN, "f4e2m1fn", 4)      \
  V(kF8E8M0FNU, "f8e8m0fnu", 8)    \
  V(kC64, "c64", 64)               \
  V(kC128, "c128", 128)            \
  V(kToken, "token", 0)            \
  V(kOpaque, "opaque", 0)

enum class PrimitiveType : uint8_t {
  kInvalid,
#define HLOLINT_DECLARE(e, name, bits) e,
  HLOLINT_PRIMITIVE_TYPES(HLOLINT_DECLARE)
#undef HLOLINT_DECLARE
  // Not written as type names: tuple shapes `(...)` and buffer shapes `b(...)`.
  kTuple,
  kBuffer,
};

std::string_view PrimitiveTypeName(PrimitiveType type);
// Returns kInvalid when `name` is not an element type name.
PrimitiveType PrimitiveTypeFromName(std::string_view name);

// Storage size of one element in bits (0 for token/opaque/tuple).
int PrimitiveTypeBits(PrimitiveType type);

bool IsFloatingPoint(PrimitiveType type);  // includes all f8/f4 types, not complex
bool IsComplex(PrimitiveType type);
bool IsSignedInteger(PrimitiveType type);
bool IsUnsignedInteger(PrimitiveType type);
inline bool IsInteger(PrimitiveType type) { return IsSignedInteger(type) || IsUnsignedInteger(type); }
// Array element types: everything but token, opaque, tuple, buffer.
bool IsArrayType(PrimitiveType type);

}  // namespace hlolint
