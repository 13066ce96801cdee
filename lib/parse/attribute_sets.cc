// Which attributes each opcode accepts, with value types and required flags,
// as set up per opcode in XLA's HloParserImpl::CreateInstruction.
#include <array>
#include <utility>

#include "parse/attribute_sets.h"

namespace hlolint {
namespace {

using A = AttrName;
using T = AttrType;

void AddCommon(AttrSet& s) {
  s.Allow(A::kSharding, T::kSharding);
  s.Allow(A::kFrontendAttributes, T::kFrontendAttributes);
  s.Allow(A::kStatistics, T::kStatistics);
  s.Allow(A::kParameterReplication, T::kParameterReplication);
  s.Allow(A::kControlPredecessors, T::kInstructionList);
  s.Allow(A::kOrigin, T::kOriginalValue);
  s.Allow(A::kMetadata, T::kMetadata);
  s.Allow(A::kBackendConfig, T::kStringOrJson);
  // Accepted on every instruction by TF 2.x-era parsers; still in old dumps.
  s.Allow(A::kOuterDimensionPartitions, T::kIntList);
}

void AddCollective(AttrSet& s) {
  s.Allow(A::kReplicaGroups, T::kReplicaGroups);
  s.Allow(A::kChannelId, T::kInt64);
}

void AddDotDims(AttrSet& s) {
  s.Allow(A::kLhsContractingDims, T::kIntList);
  s.Allow(A::kRhsContractingDims, T::kIntList);
  s.Allow(A::kLhsBatchDims, T::kIntList);
  s.Allow(A::kRhsBatchDims, T::kIntList);
  s.Allow(A::kOperandPrecision, T::kPrecisionList);
}

// Which name XLA's parser gives a convolution's kind (XlaChange::kConvKindAccepted,
// kConvKindRenamed).
enum class ConvKindName : uint8_t { kNone, kConvKind, kConvolutionKind };
constexpr size_t kConvKindNames = 3;

ConvKindName ConvKindNameOf(const XlaProfile& xla) {
  if (xla.Has(XlaChange::kConvKindRenamed)) return ConvKindName::kConvolutionKind;
  if (xla.Has(XlaChange::kConvKindAccepted)) return ConvKindName::kConvKind;
  return ConvKindName::kNone;
}

// The attributes an opcode's instructions accept, by family; false when
// `op` is not of the family.
// Collectives, sends and receives, infeeds and outfeeds, async ops.
bool AllowCommunicationAttributes(Opcode op, AttrSet& s) {
  switch (op) {
    case Opcode::kAllGather:
    case Opcode::kAllGatherStart:
      AddCollective(s);
      s.Allow(A::kDimensions, T::kIntList, true);
      s.Allow(A::kConstrainLayout, T::kBool);
      s.Allow(A::kUseGlobalDeviceIds, T::kBool);
      return true;
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
    case Opcode::kReduceScatter:
    case Opcode::kCollectiveReduce:
      AddCollective(s);
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kConstrainLayout, T::kBool);
      s.Allow(A::kUseGlobalDeviceIds, T::kBool);
      if (op == Opcode::kCollectiveReduce) {
        s.Allow(A::kHasDynamicRoot, T::kBool);
      } else {
        s.Allow(A::kMode, T::kMode);
      }
      if (op == Opcode::kReduceScatter) s.Allow(A::kDimensions, T::kIntList, true);
      return true;
    case Opcode::kAllToAll:
      AddCollective(s);
      s.Allow(A::kDimensions, T::kIntList);
      s.Allow(A::kConstrainLayout, T::kBool);
      return true;
    case Opcode::kRaggedAllToAll:
      AddCollective(s);
      s.Allow(A::kDimensions, T::kIntList);
      return true;
    case Opcode::kCollectiveBroadcast:
      AddCollective(s);
      s.Allow(A::kHasDynamicRoot, T::kBool);
      return true;
    case Opcode::kCollectivePermute:
    case Opcode::kCollectivePermuteStart:
      s.Allow(A::kSourceTargetPairs, T::kIntListList, true);
      s.Allow(A::kChannelId, T::kInt64);
      s.Allow(A::kSliceSizes, T::kIntListList);
      return true;
    case Opcode::kAsyncStart:
      s.Allow(A::kAsyncExecutionThread, T::kString);
      s.Allow(A::kOutputToOperandAliasing, T::kInstructionAliasing);
      s.Allow(A::kCalls, T::kComputation, true);
      return true;
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
      s.Allow(A::kAsyncExecutionThread, T::kString);
      s.Allow(A::kCalls, T::kComputation);
      return true;
    case Opcode::kCopyStart:
      s.Allow(A::kCrossProgramPrefetchIndex, T::kInt32);
      s.Allow(A::kIsCrossProgramPrefetch, T::kBool);  // TF 2.x dumps
      return true;
    case Opcode::kRecv:
    case Opcode::kRecvDone:
    case Opcode::kSend:
    case Opcode::kSendDone:
      s.Allow(A::kChannelId, T::kInt64);
      s.Allow(A::kIsHostTransfer, T::kBool);
      return true;
    case Opcode::kInfeed:
      s.Allow(A::kInfeedConfig, T::kString);
      return true;
    case Opcode::kOutfeed:
      s.Allow(A::kOutfeedConfig, T::kString);
      s.Allow(A::kOutfeedShape, T::kShape);
      return true;
    default:
      return false;
  }
}

// Instructions that call computations (control flow, fusions, reductions,
// custom calls) and domains.
bool AllowCallAttributes(Opcode op, AttrSet& s) {
  switch (op) {
    case Opcode::kSort:
      s.Allow(A::kDimensions, T::kIntList, true);
      s.Allow(A::kIsStable, T::kBool);
      s.Allow(A::kToApply, T::kComputation, true);
      return true;
    case Opcode::kWhile:
      s.Allow(A::kCondition, T::kComputation, true);
      s.Allow(A::kBody, T::kComputation, true);
      return true;
    case Opcode::kCall:
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kIsComposite, T::kBool);
      return true;
    case Opcode::kReduceWindow:
      s.Allow(A::kWindow, T::kWindow);
      s.Allow(A::kToApply, T::kComputation, true);
      return true;
    case Opcode::kMap:
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kDimensions, T::kIntList);
      return true;
    case Opcode::kScan:
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kDimensions, T::kIntList, true);
      s.Allow(A::kNumCarries, T::kInt64, true);
      s.Allow(A::kIsReverse, T::kBool);
      s.Allow(A::kIsAssociative, T::kBool);
      return true;
    case Opcode::kReduce:
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kDimensions, T::kIntList, true);
      return true;
    case Opcode::kSelectAndScatter:
      s.Allow(A::kSelect, T::kComputation, true);
      s.Allow(A::kScatter, T::kComputation, true);
      s.Allow(A::kWindow, T::kWindow);
      return true;
    case Opcode::kFusion:
      s.Allow(A::kCalls, T::kComputation, true);
      s.Allow(A::kKind, T::kFusionKind, true);
      s.Allow(A::kOutputToOperandAliasing, T::kInstructionAliasing);
      return true;
    case Opcode::kConditional:
      // Chosen per instruction from the branch index type.
      return true;
    case Opcode::kCustomCall:
      s.Allow(A::kCustomCallTarget, T::kString, true);
      s.Allow(A::kWindow, T::kWindow);
      s.Allow(A::kDimLabels, T::kConvDims);
      s.Allow(A::kFeatureGroupCount, T::kInt64);
      s.Allow(A::kBatchGroupCount, T::kInt64);
      s.Allow(A::kOperandLayoutConstraints, T::kShapeList);
      s.Allow(A::kCustomCallHasSideEffect, T::kBool);
      s.Allow(A::kToApply, T::kComputation);
      s.Allow(A::kCalledComputations, T::kComputationList);
      s.Allow(A::kOutputToOperandAliasing, T::kInstructionAliasing);
      s.Allow(A::kPaddingType, T::kPaddingType);
      s.Allow(A::kLiteral, T::kLiteral);
      s.Allow(A::kOperandPrecision, T::kPrecisionList);
      s.Allow(A::kSchedule, T::kCustomCallSchedule);
      s.Allow(A::kApiVersion, T::kApiVersion);
      return true;
    case Opcode::kDomain:
      s.Allow(A::kDomain, T::kDomain, true);
      return true;
    default:
      return false;
  }
}

// Convolutions, dots, FFTs, solvers, batch norms, gathers and scatters.
bool AllowLinearAlgebraAttributes(Opcode op, AttrSet& s, ConvKindName conv_kind) {
  switch (op) {
    case Opcode::kConvolution:
      s.Allow(A::kWindow, T::kWindow);
      s.Allow(A::kDimLabels, T::kConvDims, true);
      s.Allow(A::kFeatureGroupCount, T::kInt64);
      s.Allow(A::kBatchGroupCount, T::kInt64);
      // One name or none, by the XLA read for; the others are accepted by
      // some other XLA (ParseAttribute says which).
      for (const auto& [name, which] : {std::pair{A::kConvKind, ConvKindName::kConvKind},
                                        {A::kConvolutionKind, ConvKindName::kConvolutionKind}}) {
        if (conv_kind == which) {
          s.Allow(name, T::kConvKind);
        } else {
          s.other_xla.set(static_cast<size_t>(name));
        }
      }
      s.Allow(A::kOperandPrecision, T::kPrecisionList);
      s.Allow(A::kSparsityConfig, T::kSparsityConfig);
      s.Allow(A::kAlgorithm, T::kPrecisionAlgorithm);
      s.Allow(A::kBlockScalingConfig, T::kStringOrJson);
      return true;
    case Opcode::kFft:
      s.Allow(A::kFftType, T::kFftType, true);
      s.Allow(A::kFftLength, T::kIntList, true);
      return true;
    case Opcode::kTriangularSolve:
      s.Allow(A::kLeftSide, T::kBool);
      s.Allow(A::kLower, T::kBool);
      s.Allow(A::kUnitDiagonal, T::kBool);
      s.Allow(A::kTransposeA, T::kTranspose);
      return true;
    case Opcode::kCholesky:
      s.Allow(A::kLower, T::kBool);
      return true;
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad:
      s.Allow(A::kEpsilon, T::kFloat, true);
      s.Allow(A::kFeatureIndex, T::kInt64, true);
      return true;
    case Opcode::kDot:
      AddDotDims(s);
      s.Allow(A::kAlgorithm, T::kPrecisionAlgorithm);
      return true;
    case Opcode::kRaggedDot:
      AddDotDims(s);
      s.Allow(A::kLhsRaggedDims, T::kIntList);
      s.Allow(A::kRhsGroupDims, T::kIntList);
      return true;
    case Opcode::kScaledDot:
      AddDotDims(s);
      s.Allow(A::kAlgorithm, T::kPrecisionAlgorithm);
      return true;
    case Opcode::kGather:
      s.Allow(A::kOffsetDims, T::kIntList, true);
      s.Allow(A::kCollapsedSliceDims, T::kIntList, true);
      s.Allow(A::kStartIndexMap, T::kIntList, true);
      s.Allow(A::kIndexVectorDim, T::kInt64, true);
      s.Allow(A::kSliceSizes, T::kIntList, true);
      s.Allow(A::kIndicesAreSorted, T::kBool);
      s.Allow(A::kOperandBatchingDims, T::kIntList);
      s.Allow(A::kStartIndicesBatchingDims, T::kIntList);
      return true;
    case Opcode::kScatter:
      s.Allow(A::kUpdateWindowDims, T::kIntList, true);
      s.Allow(A::kInsertedWindowDims, T::kIntList, true);
      s.Allow(A::kScatterDimsToOperandDims, T::kIntList, true);
      s.Allow(A::kIndexVectorDim, T::kInt64, true);
      s.Allow(A::kToApply, T::kComputation, true);
      s.Allow(A::kIndicesAreSorted, T::kBool);
      s.Allow(A::kUniqueIndices, T::kBool);
      s.Allow(A::kInputBatchingDims, T::kIntList);
      s.Allow(A::kScatterIndicesBatchingDims, T::kIntList);
      return true;
    default:
      return false;
  }
}

// The other array ops: element-wise, shape and index manipulation, random
// numbers.
bool AllowArrayAttributes(Opcode op, AttrSet& s) {
  switch (op) {
    case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin: case Opcode::kAsinh:
    case Opcode::kAtan: case Opcode::kAtanh: case Opcode::kExpm1: case Opcode::kLog:
    case Opcode::kLog1p: case Opcode::kLogistic: case Opcode::kSqrt: case Opcode::kCbrt:
    case Opcode::kRsqrt: case Opcode::kTanh: case Opcode::kErf: case Opcode::kSin:
    case Opcode::kSinh: case Opcode::kCos: case Opcode::kCosh: case Opcode::kTan:
    case Opcode::kExp:
      s.Allow(A::kResultAccuracy, T::kResultAccuracy);
      return true;
    case Opcode::kIota:
      s.Allow(A::kIotaDimension, T::kInt64, true);
      return true;
    case Opcode::kTopK:
      s.Allow(A::kK, T::kInt64, true);
      s.Allow(A::kLargest, T::kBool);
      s.Allow(A::kIsStable, T::kBool);
      return true;
    case Opcode::kReshape:
      s.Allow(A::kInferredDimension, T::kInt64);
      return true;
    case Opcode::kGetTupleElement:
      s.Allow(A::kIndex, T::kInt64, true);
      return true;
    case Opcode::kCompare:
      s.Allow(A::kDirection, T::kComparisonDirection, true);
      s.Allow(A::kType, T::kComparisonType);
      s.Allow(A::kOrder, T::kComparisonType);
      return true;
    case Opcode::kBroadcast:
      s.Allow(A::kDimensions, T::kIntList, true);  // optional for scalar operands
      return true;
    case Opcode::kConcatenate:
      s.Allow(A::kDimensions, T::kIntList, true);
      return true;
    case Opcode::kReverse:
    case Opcode::kTranspose:
      s.Allow(A::kDimensions, T::kIntList, true);
      return true;
    case Opcode::kShuffle:
      s.Allow(A::kDimensions, T::kIntList, true);
      s.Allow(A::kMode, T::kMode, true);
      s.Allow(A::kShifts, T::kIntList);
      return true;
    case Opcode::kSlice:
      s.Allow(A::kSlice, T::kSliceRanges, true);
      return true;
    case Opcode::kDynamicSlice:
      s.Allow(A::kDynamicSliceSizes, T::kIntList, true);
      return true;
    case Opcode::kPad:
      s.Allow(A::kPadding, T::kPaddingConfig, true);
      return true;
    case Opcode::kRng:
      s.Allow(A::kDistribution, T::kDistribution, true);
      return true;
    case Opcode::kRngGetAndUpdateState:
      s.Allow(A::kDelta, T::kInt64, true);
      return true;
    case Opcode::kRngBitGenerator:
      s.Allow(A::kAlgorithm, T::kRandomAlgorithm, true);
      return true;
    case Opcode::kReducePrecision:
      s.Allow(A::kExponentBits, T::kInt64, true);
      s.Allow(A::kMantissaBits, T::kInt64, true);
      return true;
    case Opcode::kGetDimensionSize:
    case Opcode::kSetDimensionSize:
      s.Allow(A::kDimensions, T::kIntList, true);
      return true;

    default:
      return false;
  }
}

AttrSet Build(Opcode op, ConvKindName conv_kind) {
  AttrSet s;
  AddCommon(s);
  AllowCommunicationAttributes(op, s) || AllowCallAttributes(op, s) ||
      AllowLinearAlgebraAttributes(op, s, conv_kind) || AllowArrayAttributes(op, s);
  return s;
}

}  // namespace

const AttrSet* AttrSetTable(const XlaProfile& xla) {
  using Table = std::array<AttrSet, kOpcodeCount>;
  static const auto* tables = [] {
    auto* all = new std::array<Table, kConvKindNames>();
    for (size_t n = 0; n < kConvKindNames; ++n) {
      for (int i = 0; i < kOpcodeCount; ++i) {
        (*all)[n][i] = Build(static_cast<Opcode>(i), static_cast<ConvKindName>(n));
      }
    }
    return all;
  }();
  return (*tables)[static_cast<size_t>(ConvKindNameOf(xla))].data();
}

const AttrSet& AttrSetFor(Opcode opcode) {
  static const AttrSet* const latest = AttrSetTable(XlaProfile::Latest());
  return latest[static_cast<size_t>(opcode)];
}

}  // namespace hlolint
