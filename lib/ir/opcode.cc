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

namespace {

int ParsedOperandCountOf(Opcode op) {
  switch (op) {
    case Opcode::kIota: case Opcode::kReplicaId: case Opcode::kPartitionId:
    case Opcode::kRngGetAndUpdateState:
      return 0;
    case Opcode::kAdd: case Opcode::kDivide: case Opcode::kMultiply: case Opcode::kSubtract:
    case Opcode::kAtan2: case Opcode::kComplex: case Opcode::kMaximum: case Opcode::kMinimum:
    case Opcode::kMulhi: case Opcode::kPower: case Opcode::kRemainder: case Opcode::kAnd:
    case Opcode::kOr: case Opcode::kXor: case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic: case Opcode::kShiftRightLogical:
    case Opcode::kStochasticConvert: case Opcode::kAddDependency: case Opcode::kSend:
    case Opcode::kTriangularSolve: case Opcode::kCompare: case Opcode::kPad:
    case Opcode::kGather: case Opcode::kOutfeed: case Opcode::kSetDimensionSize:
    case Opcode::kConvolution:
      return 2;
    case Opcode::kClamp: case Opcode::kSelect: case Opcode::kBatchNormTraining:
    case Opcode::kSelectAndScatter:
      return 3;
    case Opcode::kBatchNormInference: case Opcode::kBatchNormGrad:
      return 5;
    default:
      break;
  }
  if (IsElementwiseUnary(op)) return 1;
  switch (op) {
    case Opcode::kAllGatherDone: case Opcode::kAllReduceDone: case Opcode::kBitcast:
    case Opcode::kCollectivePermuteDone: case Opcode::kCopyDone:
    case Opcode::kOptimizationBarrier: case Opcode::kCopyStart: case Opcode::kReshape:
    case Opcode::kRecv: case Opcode::kRecvDone: case Opcode::kSendDone:
    case Opcode::kGetTupleElement: case Opcode::kWhile: case Opcode::kFft:
    case Opcode::kCholesky: case Opcode::kBroadcast: case Opcode::kReverse:
    case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kInfeed:
    case Opcode::kReducePrecision: case Opcode::kDomain: case Opcode::kGetDimensionSize:
    case Opcode::kTopK: case Opcode::kRngBitGenerator: case Opcode::kShuffle:
      return 1;
    default:
      return -1;
  }
}

}  // namespace

const std::array<int8_t, kOpcodeCount + 1> kParsedOperandCounts = [] {
  std::array<int8_t, kOpcodeCount + 1> counts{};
  for (int i = 0; i <= kOpcodeCount; ++i) {
    counts[i] = static_cast<int8_t>(ParsedOperandCountOf(static_cast<Opcode>(i)));
  }
  return counts;
}();

}  // namespace hlolint
