// Every attribute name XLA's HLO parser accepts on instructions.
#pragma once

#include <cstdint>
#include <string_view>

namespace hlolint {

#define HLOLINT_ATTR_NAMES(V)                                             \
  V(kSharding, "sharding")                                                \
  V(kFrontendAttributes, "frontend_attributes")                           \
  V(kStatistics, "statistics")                                            \
  V(kParameterReplication, "parameter_replication")                       \
  V(kControlPredecessors, "control-predecessors")                         \
  V(kOrigin, "origin")                                                    \
  V(kMetadata, "metadata")                                                \
  V(kBackendConfig, "backend_config")                                     \
  V(kResultAccuracy, "result_accuracy")                                   \
  V(kIotaDimension, "iota_dimension")                                     \
  V(kK, "k")                                                              \
  V(kLargest, "largest")                                                  \
  V(kReplicaGroups, "replica_groups")                                     \
  V(kChannelId, "channel_id")                                             \
  V(kDimensions, "dimensions")                                            \
  V(kConstrainLayout, "constrain_layout")                                 \
  V(kUseGlobalDeviceIds, "use_global_device_ids")                         \
  V(kToApply, "to_apply")                                                 \
  V(kMode, "mode")                                                        \
  V(kSourceTargetPairs, "source_target_pairs")                            \
  V(kSliceSizes, "slice_sizes")                                           \
  V(kAsyncExecutionThread, "async_execution_thread")                      \
  V(kOutputToOperandAliasing, "output_to_operand_aliasing")               \
  V(kCalls, "calls")                                                      \
  V(kCrossProgramPrefetchIndex, "cross_program_prefetch_index")           \
  V(kInferredDimension, "inferred_dimension")                             \
  V(kIsStable, "is_stable")                                               \
  V(kCondition, "condition")                                              \
  V(kBody, "body")                                                        \
  V(kIsHostTransfer, "is_host_transfer")                                  \
  V(kIndex, "index")                                                      \
  V(kIsComposite, "is_composite")                                         \
  V(kWindow, "window")                                                    \
  V(kDimLabels, "dim_labels")                                             \
  V(kFeatureGroupCount, "feature_group_count")                            \
  V(kBatchGroupCount, "batch_group_count")                                \
  V(kConvKind, "conv_kind")                                               \
  V(kOperandPrecision, "operand_precision")                               \
  V(kFftType, "fft_type")                                                 \
  V(kFftLength, "fft_length")                                             \
  V(kLeftSide, "left_side")                                               \
  V(kLower, "lower")                                                      \
  V(kUnitDiagonal, "unit_diagonal")                                       \
  V(kTransposeA, "transpose_a")                                           \
  V(kDirection, "direction")                                              \
  V(kType, "type")                                                        \
  V(kNumCarries, "num_carries")                                           \
  V(kIsReverse, "is_reverse")                                             \
  V(kIsAssociative, "is_associative")                                     \
  V(kSelect, "select")                                                    \
  V(kScatter, "scatter")                                                  \
  V(kSlice, "slice")                                                      \
  V(kDynamicSliceSizes, "dynamic_slice_sizes")                            \
  V(kEpsilon, "epsilon")                                                  \
  V(kFeatureIndex, "feature_index")                                       \
  V(kPadding, "padding")                                                  \
  V(kKind, "kind")                                                        \
  V(kInfeedConfig, "infeed_config")                                       \
  V(kOutfeedConfig, "outfeed_config")                                     \
  V(kOutfeedShape, "outfeed_shape")                                       \
  V(kDistribution, "distribution")                                        \
  V(kDelta, "delta")                                                      \
  V(kAlgorithm, "algorithm")                                              \
  V(kExponentBits, "exponent_bits")                                       \
  V(kMantissaBits, "mantissa_bits")                                       \
  V(kTrueComputation, "true_computation")                                 \
  V(kFalseComputation, "false_computation")                               \
  V(kBranchComputations, "branch_computations")                           \
  V(kCustomCallTarget, "custom_call_target")                              \
  V(kOperandLayoutConstraints, "operand_layout_constraints")              \
  V(kCustomCallHasSideEffect, "custom_call_has_side_effect")              \
  V(kCalledComputations, "called_computations")                           \
  V(kPaddingType, "padding_type")                                         \
  V(kLiteral, "literal")                                                  \
  V(kSchedule, "schedule")                                                \
  V(kApiVersion, "api_version")                                           \
  V(kLhsContractingDims, "lhs_contracting_dims")                          \
  V(kRhsContractingDims, "rhs_contracting_dims")                          \
  V(kLhsBatchDims, "lhs_batch_dims")                                      \
  V(kRhsBatchDims, "rhs_batch_dims")                                      \
  V(kLhsRaggedDims, "lhs_ragged_dims")                                    \
  V(kRhsGroupDims, "rhs_group_dims")                                      \
  V(kOffsetDims, "offset_dims")                                           \
  V(kCollapsedSliceDims, "collapsed_slice_dims")                          \
  V(kStartIndexMap, "start_index_map")                                    \
  V(kIndexVectorDim, "index_vector_dim")                                  \
  V(kIndicesAreSorted, "indices_are_sorted")                              \
  V(kOperandBatchingDims, "operand_batching_dims")                        \
  V(kStartIndicesBatchingDims, "start_indices_batching_dims")             \
  V(kUpdateWindowDims, "update_window_dims")                              \
  V(kInsertedWindowDims, "inserted_window_dims")                          \
  V(kScatterDimsToOperandDims, "scatter_dims_to_operand_dims")            \
  V(kUniqueIndices, "unique_indices")                                     \
  V(kInputBatchingDims, "input_batching_dims")                            \
  V(kScatterIndicesBatchingDims, "scatter_indices_batching_dims")         \
  V(kDomain, "domain")                                                    \
  V(kConvolutionKind, "convolution_kind")                                 \
  V(kSparsityConfig, "sparsity_config")                                   \
  V(kBlockScalingConfig, "block_scaling_config")                          \
  V(kHasDynamicRoot, "has_dynamic_root")                                  \
  V(kOrder, "order")                                                      \
  V(kShifts, "shifts")                                                    \
  V(kOuterDimensionPartitions, "outer_dimension_partitions")              \
  V(kIsCrossProgramPrefetch, "is_cross_program_prefetch")

enum class AttrName : uint8_t {
#define HLOLINT_DECLARE(e, text) e,
  HLOLINT_ATTR_NAMES(HLOLINT_DECLARE)
#undef HLOLINT_DECLARE
  kUnknown,
};

inline constexpr int kAttrNameCount = static_cast<int>(AttrName::kUnknown);
static_assert(kAttrNameCount <= 128, "attribute sets are 128-bit masks");

std::string_view AttrNameText(AttrName name);

// AttrNameText(name).size(), inline: the parser asks for every attribute.
inline constexpr uint8_t kAttrNameSizes[] = {
#define HLOLINT_SIZE(e, text) static_cast<uint8_t>(sizeof(text) - 1),
    HLOLINT_ATTR_NAMES(HLOLINT_SIZE)
#undef HLOLINT_SIZE
    9,  // "<unknown>"
};
constexpr uint32_t AttrNameSize(AttrName name) { return kAttrNameSizes[static_cast<int>(name)]; }

AttrName AttrNameFromText(std::string_view text);

}  // namespace hlolint
