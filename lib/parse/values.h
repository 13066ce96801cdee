// Typed values of HLO attributes, as produced by ValueParser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/shape.h"

namespace hlolint {

struct SliceRanges {
  std::vector<int64_t> starts;
  std::vector<int64_t> limits;
  std::vector<int64_t> strides;
  void Clear() { starts.clear(); limits.clear(); strides.clear(); }
};

struct WindowDimension {
  int64_t size = 0;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  int64_t base_dilation = 1;
  int64_t window_dilation = 1;
  bool window_reversal = false;
};
using Window = std::vector<WindowDimension>;

struct ConvolutionDimensionNumbers {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;
};

struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
};
using PaddingConfig = std::vector<PaddingDimension>;

// One `{out}: (operand, {operand_index})` entry of output_to_operand_aliasing.
struct OutputOperandAlias {
  ShapeIndex output_index;
  int64_t operand = 0;
  ShapeIndex operand_index;
  uint32_t offset = 0;  // offset of the entry in the source
};

// replica_groups in any of its forms, expanded to explicit groups when the
// expansion is small enough.
struct ReplicaGroups {
  enum class Form : uint8_t { kList, kIota, kMesh };
  Form form = Form::kList;
  std::vector<std::vector<int64_t>> groups;
  bool expanded = true;  // false when an iota form was too large to expand
  int64_t group_count = 0;
  int64_t group_size = 0;
};

// A `sharding={...}` value (XLA's HloSharding as written).
struct Sharding {
  enum class Kind : uint8_t {
    kReplicated, kMaximal, kManual, kUnknown, kUnreduced, kTiled, kTuple, kNamed,
  };
  Kind kind = Kind::kReplicated;
  int64_t device = -1;                // kMaximal
  std::vector<int64_t> tile_dims;     // kTiled: the tile assignment dimensions
  std::vector<int64_t> devices;       // kTiled with an explicit device list
  std::vector<int64_t> iota_reshape;  // kTiled with `<=[...]`: iota dims...
  std::vector<int64_t> iota_perm;     // ...and their transpose (identity when not written)
  bool last_tile_dim_replicate = false;
  std::vector<std::string> last_tile_dims;  // subgroup types, e.g. "manual"
  std::optional<int64_t> shard_as;
  std::optional<int64_t> shard_like;
  int metadata_count = 0;
  std::vector<std::string> mesh_axes;  // kNamed: axis names as written, without quotes...
  std::vector<int64_t> mesh_sizes;     // ...and sizes
  std::vector<Sharding> elements;      // kTuple
};

struct OpMetadata {
  std::string op_type;
  std::string op_name;
  std::string source_file;
  int64_t source_line = 0;
  std::string scheduling_name;
  bool has_source_line = false;
};

}  // namespace hlolint
