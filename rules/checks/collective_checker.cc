#include "rules/checks/collective_checker.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "analysis/attribute_text.h"
#include "parse/attributes.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string_view ModeName(CollectiveGroupMode mode) {
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica: return "cross_replica";
    case CollectiveGroupMode::kCrossPartition: return "cross_partition";
    case CollectiveGroupMode::kCrossReplicaAndPartition: return "cross_replica_and_partition";
    case CollectiveGroupMode::kFlattenedId: return "flattened_id";
  }
  return "";
}

int64_t CeilOfRatio(int64_t a, int64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

}  // namespace

CollectiveChecker::CollectiveChecker(const Module& module)
    : m_(module),
      replica_count_(module.header().replica_count),
      num_partitions_(module.header().num_partitions) {}

bool CollectiveChecker::Fail(std::string_view check, std::string message, VerifyFinding* f,
                             AttrName attribute) {
  f->check = std::string(check);
  f->message = std::move(message);
  f->attribute = attribute;
  return false;
}

bool CollectiveChecker::Compare(InstrId id, const Shape& inferred, std::string_view check,
                                VerifyFinding* f) {
  if (!m_.instr(id).has(Instruction::kShapeWritten)) return true;
  if (CompatibleIgnoringFpPrecision(m_.shape(id), inferred)) return true;
  return Fail(check, StrCat("Expected instruction to have shape equal to ", HumanString(inferred),
                            ", actual shape is ", HumanString(m_.shape(id))),
              f);
}

bool CollectiveChecker::GroupMode(InstrId id, bool has_use_global_device_ids,
                                  CollectiveGroupMode* mode, VerifyFinding* f) {
  if (std::optional<std::string_view> written = IdentAttr(m_, id, AttrName::kMode)) {
    if (*written == "cross_replica") *mode = CollectiveGroupMode::kCrossReplica;
    else if (*written == "cross_partition") *mode = CollectiveGroupMode::kCrossPartition;
    else if (*written == "flattened_id") *mode = CollectiveGroupMode::kFlattenedId;
    else *mode = CollectiveGroupMode::kCrossReplicaAndPartition;
    return true;
  }
  const bool channel = m_.FindAttribute(id, AttrName::kChannelId) != nullptr;
  const bool global =
      has_use_global_device_ids && BoolAttr(m_, id, AttrName::kUseGlobalDeviceIds).value_or(false);
  if (!channel) {
    if (global) {
      return Fail("GetCollectiveOpGroupMode",
                  "Cannot have use_global_device_ids=true without channel_id", f,
                  AttrName::kUseGlobalDeviceIds);
    }
    *mode = CollectiveGroupMode::kCrossReplica;
  } else if (!has_use_global_device_ids) {
    *mode = CollectiveGroupMode::kCrossPartition;
  } else {
    *mode = global ? CollectiveGroupMode::kFlattenedId
                   : CollectiveGroupMode::kCrossReplicaAndPartition;
  }
  return true;
}

bool CollectiveChecker::LoadGroups(InstrId id) {
  if (m_.FindAttribute(id, AttrName::kReplicaGroups) == nullptr) {
    groups_ = &kNoGroups;
    groups_known_ = true;
    return true;
  }
  const ParsedGroups& parsed = parsed_groups_.Get(m_, id, AttrName::kReplicaGroups, [&] {
    ParsedGroups result;
    std::optional<ReplicaGroups> groups = ReplicaGroupsAttr(m_, id);
    if (!groups || !groups->expanded || groups->form == ReplicaGroups::Form::kMesh) {
      result.known = false;
    } else {
      result.groups = std::move(groups->groups);
    }
    return result;
  });
  groups_ = parsed.known ? &parsed.groups : &kNoGroups;
  groups_known_ = parsed.known;
  return groups_known_;
}

int64_t CollectiveChecker::SubgroupSize(CollectiveGroupMode mode) const {
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica:
    case CollectiveGroupMode::kCrossReplicaAndPartition: {
      int64_t size =
          groups_->empty() ? replica_count_ : static_cast<int64_t>((*groups_)[0].size());
      if (mode == CollectiveGroupMode::kCrossReplicaAndPartition) size *= num_partitions_;
      return size;
    }
    case CollectiveGroupMode::kFlattenedId:
      return groups_->empty() ? 1 : static_cast<int64_t>((*groups_)[0].size());
    case CollectiveGroupMode::kCrossPartition:
      return groups_->empty() ? num_partitions_ : static_cast<int64_t>((*groups_)[0].size());
  }
  return 1;
}

bool CollectiveChecker::CheckReplicaGroups(InstrId, CollectiveGroupMode mode, bool uniform,
                                           VerifyFinding* f) {
  if (!groups_known_) return true;
  // The list's address is 8-aligned: the low bits hold the mode and `uniform`.
  static_assert(alignof(std::vector<std::vector<int64_t>>) >= 8);
  static_assert(static_cast<int>(CollectiveGroupMode::kFlattenedId) < 4, "mode fits in bits 1-2");
  const uintptr_t key = reinterpret_cast<uintptr_t>(groups_) |
                        (static_cast<uintptr_t>(mode) << 1) | (uniform ? 1 : 0);
  if (replica_groups_ok_.contains(key)) return true;
  if (!CheckReplicaGroupsUncached(mode, uniform, f)) return false;
  replica_groups_ok_.insert(key);
  return true;
}

bool CollectiveChecker::CheckReplicaGroupsUncached(CollectiveGroupMode mode, bool uniform,
                                                   VerifyFinding* f) {
  constexpr std::string_view kCheck = "CheckReplicaGroups";
  if (groups_->empty()) {
    if (mode == CollectiveGroupMode::kFlattenedId) {
      return Fail(kCheck, "Replica groups must be specified in flattened-id mode", f,
                  AttrName::kReplicaGroups);
    }
    return true;
  }
  // Ids are small in practice: a bitmap over [0, total) finds repeats and
  // gaps without hashing; an id outside it leaves a gap below the count of
  // distinct ids, so only repeats among such ids need the set.
  size_t total = 0;
  for (const std::vector<int64_t>& group : *groups_) total += group.size();
  seen_.assign(total, 0);
  absl::flat_hash_set<int64_t> outside;
  int64_t distinct = 0;
  for (const std::vector<int64_t>& group : *groups_) {
    if (group.empty()) {
      return Fail(kCheck, "Instruction cannot have an empty replica group", f,
                  AttrName::kReplicaGroups);
    }
    for (int64_t replica : group) {
      const bool inside = replica >= 0 && static_cast<size_t>(replica) < total;
      const bool fresh = inside ? !std::exchange(seen_[replica], 1) : outside.insert(replica).second;
      if (!fresh) {
        return Fail(kCheck, StrCat("Replica ", replica,
                                   " is repeated in instruction's replica-groups"),
                    f, AttrName::kReplicaGroups);
      }
      ++distinct;
    }
  }
  const int64_t n = distinct;
  for (int64_t i = 0; i < n; ++i) {
    if (!seen_[i]) {
      return Fail(kCheck, StrCat("Replica ", i, " is not named in instruction's replica-groups"),
                  f, AttrName::kReplicaGroups);
    }
  }
  int64_t expected = 1;
  std::string_view what;
  switch (mode) {
    case CollectiveGroupMode::kCrossReplica:
    case CollectiveGroupMode::kCrossReplicaAndPartition:
      expected = replica_count_;
      what = "replicas";
      break;
    case CollectiveGroupMode::kCrossPartition:
      expected = num_partitions_;
      what = "partitions";
      break;
    case CollectiveGroupMode::kFlattenedId:
      expected = replica_count_ * num_partitions_;
      what = "flattened IDs";
      break;
  }
  if (expected != 1 && n != expected) {
    return Fail(kCheck, StrCat("In ", ModeName(mode), " mode, replica groups should contain ",
                               expected, " ", what, ", but found ", n),
                f, AttrName::kReplicaGroups);
  }
  if (uniform) {
    for (const std::vector<int64_t>& group : *groups_) {
      if (group.size() != (*groups_)[0].size()) {
        return Fail(kCheck, "Replica groups expected to be of uniform size", f,
                    AttrName::kReplicaGroups);
      }
    }
  }
  return true;
}

bool CollectiveChecker::Check(InstrId id, VerifyFinding* f) {
  if (!IsChecked(m_.opcode(id))) return true;
  if (unbounded_.UnknownOrUnbounded(m_, id)) return true;
  operands_.clear();
  for (InstrId op : m_.operands(id)) {
    if (unbounded_.UnknownOrUnbounded(m_, op)) return true;
    operands_.push_back(&m_.shape(op));
  }
  arena_.Reset();
  switch (m_.opcode(id)) {
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kReduceScatter:
      return CheckAllGatherLike(id, f);
    case Opcode::kAllReduce: case Opcode::kAllReduceStart:
      return CheckAllReduce(id, f);
    case Opcode::kAllToAll:
      return CheckAllToAll(id, f);
    case Opcode::kRaggedAllToAll:
      return CheckRaggedAllToAll(id, f);
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
      return CheckCollectivePermute(id, f);
    case Opcode::kAllGatherDone: case Opcode::kAllReduceDone: case Opcode::kCollectivePermuteDone:
      return CheckDone(id, f);
    case Opcode::kCollectiveBroadcast:
      // With has_dynamic_root=true the last operand names the root.
      if (BoolAttr(m_, id, AttrName::kHasDynamicRoot).value_or(false) && !operands_.empty()) {
        operands_.pop_back();
      }
      if (!InferAllReduceShape(operands_, &inferred_, &error_)) {
        return Fail("ShapeVerifier::HandleCollectiveBroadcast", error_, f);
      }
      return Compare(id, inferred_, "ShapeVerifier::HandleCollectiveBroadcast", f);
    default:
      return true;
  }
}

bool CollectiveChecker::CheckAllGatherLike(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  const bool scatter = op == Opcode::kReduceScatter;
  const bool start = op == Opcode::kAllGatherStart;
  const std::string check = scatter ? "ShapeVerifier::HandleReduceScatter"
                            : start ? "ShapeVerifier::HandleAllGatherStart"
                                    : "ShapeVerifier::HandleAllGather";
  CollectiveGroupMode mode{};
  if (!GroupMode(id, true, &mode, f)) return false;
  LoadGroups(id);
  if (!CheckReplicaGroups(id, mode, true, f)) return false;
  std::optional<std::vector<int64_t>> dims = IntListAttr(m_, id, AttrName::kDimensions);
  if (!dims || dims->size() != 1 || operands_.empty()) return true;
  const int64_t dim = (*dims)[0];
  if (dim < 0) return Fail(check, StrCat("dimension ", dim, " must be >= 0"), f);
  const Shape& result = m_.shape(id);
  const size_t n = operands_.size();
  // The gathered/scattered output shapes.
  const Shape* outputs_holder = &result;
  if (start) {
    if (!result.IsTuple() || result.tuple_shapes.size() != 2) {
      return Fail(check, StrCat("all-gather-start must produce (operands, gathered), got ",
                                HumanString(result)), f);
    }
    outputs_holder = result.tuple_shapes[1];
  }
  for (size_t i = 0; i < n; ++i) {
    if (!operands_[i]->IsArray()) {
      return Fail(check, StrCat("operand ", i, " must be an array, got ",
                                HumanString(*operands_[i])), f);
    }
  }
  if (n > 1 && (!outputs_holder->IsTuple() || outputs_holder->tuple_shapes.size() != n)) {
    return Fail(check, StrCat("with ", n, " operands the result must be a tuple of ", n,
                              " arrays, got ", HumanString(*outputs_holder)), f);
  }
  auto output = [&](size_t i) -> const Shape& {
    return n == 1 ? *outputs_holder : *outputs_holder->tuple_shapes[i];
  };
  // Rank-0 operands (torch-neuronx dumps carry a trailing scalar) pass through.
  int64_t shard_count = 0;
  for (size_t i = 0; i < n; ++i) {
    if (operands_[i]->rank() == 0) continue;
    if (dim >= operands_[i]->rank() || !output(i).IsArray() || dim >= output(i).rank()) {
      return Fail(check, StrCat("dimension ", dim, " is out of range for operand ",
                                HumanString(*operands_[i]), " / output ",
                                HumanString(output(i))),
                  f, AttrName::kDimensions);
    }
    if (shard_count == 0) {
      shard_count = scatter ? CeilOfRatio(operands_[i]->dimensions[dim], output(i).dimensions[dim])
                            : CeilOfRatio(output(i).dimensions[dim], operands_[i]->dimensions[dim]);
    }
  }
  if (shard_count == 0) return true;
  const int64_t subgroup = SubgroupSize(mode);
  if (subgroup != 1 && shard_count != subgroup) {
    return Fail(scatter ? "ShapeVerifier::HandleReduceScatter"
                        : "CheckCommonAllGatherInvariants",
                StrCat("shard_count = ", shard_count, ", subgroup_size = ", subgroup), f);
  }
  // Inferred outputs; scalar operands are carried over unchanged.
  Shape* single = n == 1 ? &scratch_ : nullptr;
  if (!single) {
    scratch_.element_type = PrimitiveType::kTuple;
    scratch_.dimensions.clear();
    scratch_.dynamic_dimensions.clear();
    scratch_.tuple_shapes.clear();
    scratch_.has_layout = false;
  }
  for (size_t i = 0; i < n; ++i) {
    Shape& out = single ? *single : arena_.New();
    if (operands_[i]->rank() == 0) {
      out = *operands_[i];
      out.has_layout = false;
    } else {
      std::span<const Shape* const> one(&operands_[i], 1);
      const bool ok = scatter ? InferReduceScatterShape(one, dim, shard_count, arena_, &out,
                                                        &error_)
                              : InferAllGatherShape(one, dim, shard_count, arena_, &out, &error_);
      if (!ok) return Fail(check, error_, f);
    }
    if (!single) scratch_.tuple_shapes.push_back(&out);
  }
  if (!start) return Compare(id, scratch_, check, f);
  if (!CompatibleIgnoringFpPrecision(*outputs_holder, scratch_)) {
    return Fail(check, StrCat("Expected the gathered result (tuple index {1}) to have shape ",
                              HumanString(scratch_), ", actual shape is ",
                              HumanString(*outputs_holder)), f);
  }
  return true;
}

bool CollectiveChecker::CheckAllReduce(InstrId id, VerifyFinding* f) {
  const bool start = m_.opcode(id) == Opcode::kAllReduceStart;
  const char* check = start ? "ShapeVerifier::HandleAllReduceStart" : "ShapeVerifier::HandleAllReduce";
  if (std::optional<int64_t> channel = IntAttr(m_, id, AttrName::kChannelId)) {
    if (*channel <= 0) {
      return Fail("InstructionVerifier::HandleAllReduce",
                  "All reduce channel id must be greater than 0", f, AttrName::kChannelId);
    }
  }
  CollectiveGroupMode mode{};
  if (!GroupMode(id, true, &mode, f)) return false;
  LoadGroups(id);
  if (!CheckReplicaGroups(id, mode, false, f)) return false;
  if (!InferAllReduceShape(operands_, &inferred_, &error_)) return Fail(check, error_, f);
  return Compare(id, inferred_, check, f);
}

bool CollectiveChecker::CheckAllToAll(InstrId id, VerifyFinding* f) {
  constexpr std::string_view kCheck = "ShapeVerifier::HandleAllToAll";
  CollectiveGroupMode mode{};
  if (!GroupMode(id, false, &mode, f)) return false;
  LoadGroups(id);
  if (!CheckReplicaGroups(id, mode, true, f)) return false;
  if (!groups_known_) return true;
  const int64_t split_count = SubgroupSize(mode);
  std::optional<std::vector<int64_t>> dims = IntListAttr(m_, id, AttrName::kDimensions);
  if (dims && !dims->empty()) {
    if (operands_.size() != 1) {
      return Fail(kCheck, StrCat("all-to-all with a split dimension takes 1 operand, has ",
                                 operands_.size()), f);
    }
    if (!InferAllToAllShape(*operands_[0], (*dims)[0], split_count, &inferred_, &error_)) {
      return Fail(kCheck, error_, f, AttrName::kDimensions);
    }
    return Compare(id, inferred_, kCheck, f);
  }
  if (static_cast<int64_t>(operands_.size()) != split_count) {
    return Fail(kCheck, StrCat("all-to-all without a split dimension needs one operand per "
                               "participant (", split_count, "), has ", operands_.size()), f);
  }
  if (!InferAllToAllTupleShape(operands_, &inferred_, &error_)) return Fail(kCheck, error_, f);
  return Compare(id, inferred_, kCheck, f);
}

bool CollectiveChecker::CheckRaggedAllToAll(InstrId id, VerifyFinding* f) {
  constexpr std::string_view kCheck = "ShapeVerifier::HandleRaggedAllToAll";
  CollectiveGroupMode mode{};
  if (!GroupMode(id, false, &mode, f)) return false;
  LoadGroups(id);
  if (!CheckReplicaGroups(id, mode, true, f)) return false;
  if (operands_.size() != 6) {
    return Fail(kCheck, StrCat("ragged-all-to-all takes 6 operands, has ", operands_.size()), f);
  }
  for (size_t i = 2; i < 6; ++i) {
    if (!operands_[i]->IsArray() || (operands_[i]->rank() != 1 && operands_[i]->rank() != 2)) {
      return Fail(kCheck, StrCat("RaggedAllToAll operand ", i, " must be rank 1 or 2: ",
                                 HumanString(*operands_[i])), f);
    }
  }
  for (size_t i = 3; i < 6; ++i) {
    if (!ShapesEqual(*operands_[2], *operands_[i])) {
      return Fail(kCheck, StrCat("RaggedAllToAll operands have different shapes (2, ", i, "): ",
                                 HumanString(*operands_[2]), " vs ", HumanString(*operands_[i])),
                  f);
    }
  }
  return Compare(id, *operands_[1], kCheck, f);
}

bool CollectiveChecker::CheckCollectivePermute(InstrId id, VerifyFinding* f) {
  const bool start = m_.opcode(id) == Opcode::kCollectivePermuteStart;
  const std::string check = start ? "ShapeVerifier::HandleCollectivePermuteStart"
                                  : "ShapeVerifier::HandleCollectivePermute";
  CollectiveGroupMode mode{};
  if (!GroupMode(id, false, &mode, f)) return false;
  const bool in_place = m_.FindAttribute(id, AttrName::kSliceSizes) != nullptr;
  const size_t n = operands_.size();
  size_t allowed = 1;
  if (in_place) {
    // CheckInplaceCollectivePermute.
    constexpr std::string_view kInPlace = "CheckInplaceCollectivePermute";
    if (n != 4) return Fail(kInPlace, StrCat("Unexpected number of operands: ", n, "."), f);
    const Shape& input = *operands_[0];
    const Shape& output = *operands_[1];
    const Shape& input_offset = *operands_[2];
    const Shape& output_offset = *operands_[3];
    auto check_offset = [&](const Shape& buffer, const Shape& offset) -> bool {
      if (!offset.IsTuple()) return Fail(kInPlace, "Buffer offset is not tuple.", f);
      bool all_array = true, all_tuple = true;
      for (const Shape* s : offset.tuple_shapes) {
        all_array &= s->IsArray();
        all_tuple &= s->IsTuple();
      }
      if (!all_array && !all_tuple) {
        return Fail(kInPlace, "Buffer offset should either be a tuple of arrays or a tuple of "
                              "tuples.", f);
      }
      bool ok = true;
      if (all_tuple) {
        for (const Shape* s : offset.tuple_shapes) {
          ok &= static_cast<int64_t>(s->tuple_shapes.size()) == buffer.rank();
        }
      } else {
        ok = static_cast<int64_t>(offset.tuple_shapes.size()) == buffer.rank();
      }
      if (!ok) {
        return Fail(kInPlace, "Buffer offset index should have the same number of elements as "
                              "the buffer's rank.", f);
      }
      return true;
    };
    if (input.IsArray() && output.IsArray()) {
      if (!check_offset(input, input_offset) || !check_offset(output, output_offset)) {
        return false;
      }
      allowed = input_offset.IsTuple() ? input_offset.tuple_shapes.size() : 1;
    } else if (input.IsTuple() && output.IsTuple()) {
      if (input.tuple_shapes.size() != output.tuple_shapes.size()) {
        return Fail(kInPlace, "Unmatching input buffers and output buffers.", f);
      }
      if (!input_offset.IsTuple() || input_offset.tuple_shapes.size() != input.tuple_shapes.size()) {
        return Fail(kInPlace, "Unmatching input buffers and input offset.", f);
      }
      for (size_t i = 0; i < input.tuple_shapes.size(); ++i) {
        if (!check_offset(*input.tuple_shapes[i], *input_offset.tuple_shapes[i])) return false;
      }
      if (!output_offset.IsTuple() ||
          output_offset.tuple_shapes.size() != output.tuple_shapes.size()) {
        return Fail(kInPlace, "Unmatching output buffers and output offset.", f);
      }
      for (size_t i = 0; i < output.tuple_shapes.size(); ++i) {
        if (!check_offset(*output.tuple_shapes[i], *output_offset.tuple_shapes[i])) return false;
      }
      const Shape& first = *input_offset.tuple_shapes[0];
      allowed = first.IsTuple() ? first.tuple_shapes.size() : 1;
    } else {
      return Fail(kInPlace, "Unmatching input buffers and output buffers.", f);
    }
  }
  // CheckDuplicatedSourceOrTarget.
  std::optional<std::vector<std::vector<int64_t>>> pairs =
      IntListListAttr(m_, id, AttrName::kSourceTargetPairs);
  if (pairs) {
    constexpr std::string_view kPairs = "CheckDuplicatedSourceOrTarget";
    const int64_t limit =
        mode == CollectiveGroupMode::kCrossReplica ? replica_count_ : num_partitions_;
    absl::flat_hash_map<int64_t, size_t> sources, targets;
    for (const std::vector<int64_t>& pair : *pairs) {
      if (pair.size() != 2) continue;
      for (int side = 0; side < 2; ++side) {
        const int64_t value = pair[side];
        const char* what = side == 0 ? "Source" : "Target";
        if (value < 0 || (limit != 1 && value >= limit)) {
          return Fail(kPairs, StrCat(what, " ", value, " in the instruction's source-target pair "
                                     "must be >= 0 and < ", limit),
                      f, AttrName::kSourceTargetPairs);
        }
        size_t& count = (side == 0 ? sources : targets)[value];
        if (count == allowed) {
          return Fail(kPairs,
                      allowed == 1
                          ? StrCat(what, " ", value, " appears more than once in instruction's "
                                   "source-target pairs")
                          : StrCat(what, " ", value, " appears more than ", allowed,
                                   " times in instruction's source-target pairs"),
                      f, AttrName::kSourceTargetPairs);
        }
        ++count;
      }
    }
  }
  // Result shape.
  const Shape& result = m_.shape(id);
  if (!start) {
    if (in_place) return Compare(id, *operands_[1], check, f);
    if (n == 1) return Compare(id, *operands_[0], check, f);
    InferTupleShape(operands_, &inferred_);
    return Compare(id, inferred_, check, f);
  }
  // collective-permute-start: (input, output, context...); combined
  // permutes of n operands have tuples of n in both slots.
  const Shape* input = operands_[0];
  const Shape* out = in_place ? operands_[1] : operands_[0];
  if (!in_place && n > 1) {
    InferTupleShape(operands_, &inferred_);
    input = out = &inferred_;
  }
  const bool ok = result.IsTuple() && result.tuple_shapes.size() >= 2 &&
                  CompatibleIgnoringFpPrecision(*result.tuple_shapes[0], *input) &&
                  CompatibleIgnoringFpPrecision(*result.tuple_shapes[1], *out);
  if (!ok) {
    return Fail(check, StrCat("Expected instruction to have shape equal to (",
                              HumanString(*input), ", ", HumanString(*out),
                              ", context...), actual shape is ", HumanString(result)), f);
  }
  return true;
}

bool CollectiveChecker::CheckDone(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  if (operands_.size() != 1) return true;
  const Shape& operand = *operands_[0];
  const char* check = op == Opcode::kAllGatherDone    ? "ShapeVerifier::HandleAllGatherDone"
                      : op == Opcode::kAllReduceDone  ? "ShapeVerifier::HandleAllReduceDone"
                                                      : "ShapeVerifier::HandleCollectivePermuteDone";
  if (op == Opcode::kAllReduceDone) return Compare(id, operand, check, f);
  // The result is element {1} of the start's tuple.
  if (!operand.IsTuple() || operand.tuple_shapes.size() < 2) return true;
  return Compare(id, *operand.tuple_shapes[1], check, f);
}

}  // namespace hlolint
