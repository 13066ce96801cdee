#include "ir/opcode.h"

#include <array>

#include "util/keyword_table.h"

namespace hlolint {
namespace {

struct OpcodeInfo {
  std::string_view name;
  int arity;
};

constexpr OpcodeInfo kOpcodes[] = {
#define HLOLINT_INFO(e, text, arity) {text, arity},
    HLOLINT_OPCODES(HLOLINT_INFO)
#undef HLOLINT_INFO
    {"<invalid>", 0},
};

struct OpcodeNameAt {
  constexpr std::string_view operator[](size_t i) const { return kOpcodes[i].name; }
};

constexpr KeywordTable<Opcode, KeywordSlotsFor(kOpcodeCount)> kOpcodeIndex(OpcodeNameAt{},
                                                                          kOpcodeCount);

}  // namespace

std::string_view OpcodeName(Opcode opcode) { return kOpcodes[static_cast<int>(opcode)].name; }

int OpcodeArity(Opcode opcode) { return kOpcodes[static_cast<int>(opcode)].arity; }

std::optional<Opcode> OpcodeFromName(std::string_view name) {
  const Opcode opcode = kOpcodeIndex.Find(name, Opcode::kInvalid);
  if (opcode == Opcode::kInvalid) return std::nullopt;
  return opcode;
}

bool IsElementwiseUnary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAbs: case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin:
    case Opcode::kAsinh: case Opcode::kAtan: case Opcode::kAtanh: case Opcode::kCbrt:
    case Opcode::kCeil: case Opcode::kClz: case Opcode::kConvert: case Opcode::kBitcastConvert:
    case Opcode::kCopy: case Opcode::kCos: case Opcode::kCosh: case Opcode::kErf:
    case Opcode::kExp: case Opcode::kExpm1: case Opcode::kFloor: case Opcode::kImag:
    case Opcode::kIsFinite: case Opcode::kLog: case Opcode::kLog1p: case Opcode::kLogistic:
    case Opcode::kNot: case Opcode::kNegate: case Opcode::kPopulationCount:
    case Opcode::kReal: case Opcode::kReducePrecision: case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven: case Opcode::kRsqrt: case Opcode::kSign: case Opcode::kSin:
    case Opcode::kSinh: case Opcode::kSqrt: case Opcode::kTan: case Opcode::kTanh:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseBinary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAdd: case Opcode::kAtan2: case Opcode::kCompare: case Opcode::kComplex:
    case Opcode::kDivide: case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kMulhi:
    case Opcode::kMultiply: case Opcode::kPower: case Opcode::kRemainder:
    case Opcode::kSubtract: case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
    case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical: case Opcode::kStochasticConvert:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseOpcode(Opcode opcode) {
  return IsElementwiseUnary(opcode) || IsElementwiseBinary(opcode) ||
         opcode == Opcode::kSelect || opcode == Opcode::kClamp;
}

}  // namespace hlolint
