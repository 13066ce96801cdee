// Collective-op checks of XLA's ShapeVerifier: group mode
// (GetCollectiveOpGroupMode), CheckReplicaGroups, the all-gather /
// reduce-scatter / all-to-all / ragged-all-to-all invariants, collective
// permute pairs and in-place buffers, and the collectives' result shapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "analysis/parsed_by_text.h"
#include "analysis/shape_inference.h"
#include "ir/module.h"
#include "rules/checks/verify_finding.h"

namespace hlolint {

enum class CollectiveGroupMode : uint8_t {
  kCrossReplica,
  kCrossPartition,
  kCrossReplicaAndPartition,
  kFlattenedId,
};

class CollectiveChecker {
 public:
  explicit CollectiveChecker(const Module& module);

  // The opcodes Check looks at; callers skip the others without a call.
  static bool IsChecked(Opcode op) {
    switch (op) {
      case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kReduceScatter:
      case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kAllToAll:
      case Opcode::kRaggedAllToAll: case Opcode::kCollectivePermute:
      case Opcode::kCollectivePermuteStart: case Opcode::kAllGatherDone:
      case Opcode::kAllReduceDone: case Opcode::kCollectivePermuteDone:
      case Opcode::kCollectiveBroadcast:
        return true;
      default:
        return false;
    }
  }
  // False with `*finding` on the first failed check of a collective op.
  bool Check(InstrId id, VerifyFinding* finding);

 private:
  bool GroupMode(InstrId id, bool has_use_global_device_ids, CollectiveGroupMode* mode,
                 VerifyFinding* f);
  // Loads replica_groups into groups_ (false when they cannot be known).
  bool LoadGroups(InstrId id);
  bool CheckReplicaGroups(InstrId id, CollectiveGroupMode mode, bool uniform, VerifyFinding* f);
  bool CheckReplicaGroupsUncached(CollectiveGroupMode mode, bool uniform, VerifyFinding* f);
  int64_t SubgroupSize(CollectiveGroupMode mode) const;
  bool CheckAllGatherLike(InstrId id, VerifyFinding* f);
  bool CheckAllReduce(InstrId id, VerifyFinding* f);
  bool CheckAllToAll(InstrId id, VerifyFinding* f);
  bool CheckRaggedAllToAll(InstrId id, VerifyFinding* f);
  bool CheckCollectivePermute(InstrId id, VerifyFinding* f);
  bool CheckDone(InstrId id, VerifyFinding* f);
  bool Compare(InstrId id, const Shape& inferred, std::string_view check, VerifyFinding* f);
  bool Fail(std::string_view check, std::string message, VerifyFinding* f,
            AttrName attribute = AttrName::kUnknown);

  const Module& m_;
  int64_t replica_count_;
  int64_t num_partitions_;
  // Parsed replica_groups by their text: a dump's collectives repeat a few
  // group lists (often alternating, so remembering the last one misses).
  struct ParsedGroups {
    bool known = true;
    std::vector<std::vector<int64_t>> groups;
  };
  ParsedByText<ParsedGroups> parsed_groups_;
  static inline const std::vector<std::vector<int64_t>> kNoGroups{};
  const std::vector<std::vector<int64_t>>* groups_ = &kNoGroups;  // the current op's (LoadGroups)
  bool groups_known_ = true;
  Shape inferred_;
  Shape scratch_;
  ShapeArena arena_;
  UnboundedShapeCache unbounded_;
  std::string error_;
  std::vector<const Shape*> operands_;
  std::vector<uint8_t> seen_;  // replica ids named so far (CheckReplicaGroups)
  // (group list, mode, uniform) combinations CheckReplicaGroups passed: its
  // verdict depends on nothing else, and a group list (one per distinct
  // text, at a stable address) is checked again on every collective.
  absl::flat_hash_set<uintptr_t> replica_groups_ok_;
};

}  // namespace hlolint
