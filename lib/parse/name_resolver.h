// What the names an instruction refers to stand for, as the parser's checks
// ask it: known, unknown, or not known yet.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "parse/name_table.h"

namespace hlolint {

// Parsing a module front to back, a name is known (defined in the text
// before) or unknown (an error). A fragment of the two-thread parse
// (parallel_parse.cc) starts in the middle of a module, so a name defined
// in the text before it is "not known yet": the fragment refers to it
// through a placeholder that the merge replaces (a stub instruction with
// the shape its operand declares, a computation id from
// kNotKnownYetComputation on). A check that needs what such a name stands
// for cannot decide: it gives the fragment up (GiveUp) and the first
// thread parses that text itself, so errors are found as on one thread.
//
// A plain class with inline answers: the checks ask it for many
// instructions, and on one thread every answer is "known" at once.
class NameResolver {
 public:
  enum class Answer : uint8_t { kKnown, kUnknown, kNotKnownYet };
  // Placeholder ids of computations not known yet start here.
  static constexpr CompId kNotKnownYetComputation = 0x80000000u;

  // A fragment: computations defined before it are not known yet. In a
  // continuation (a fragment that starts inside a computation), operands
  // not defined in it may be instructions defined before it as well.
  void BeginFragment(bool continuation) {
    in_fragment_ = true;
    in_continuation_ = continuation;
  }
  bool in_fragment() const { return in_fragment_; }
  bool in_continuation() const { return in_continuation_; }

  Answer Instruction(InstrId id) const {
    if (id == kNoId) return Answer::kUnknown;
    return IsStub(id) ? Answer::kNotKnownYet : Answer::kKnown;
  }
  Answer Computation(CompId c) const {
    if (c == kNoId) return Answer::kUnknown;
    return in_fragment_ && c >= kNotKnownYetComputation ? Answer::kNotKnownYet : Answer::kKnown;
  }
  bool InstructionNotKnownYet(InstrId id) const {
    return Instruction(id) == Answer::kNotKnownYet;
  }
  bool ComputationNotKnownYet(CompId c) const { return Computation(c) == Answer::kNotKnownYet; }

  // The computation `name` refers to among those `defined` so far; in a
  // fragment, a name it has not defined gets a placeholder.
  CompId FindComputation(std::string_view name, const CopyingNameTable& defined) {
    if (!in_fragment_) return defined.Find(name);
    return FindInFragment(name, defined);
  }
  // In a fragment: notes a computation it defines (FindComputation looks
  // there first only for names that may be among them).
  void NoteComputationDefined(std::string_view name) {
    if (in_fragment_) defined_in_fragment_.Add(NameHashOf(name));
  }
  // The names behind the computation placeholders, by index.
  const ExternalNames& computations_not_known_yet() const { return not_known_yet_; }

  // A stub made for an operand not known yet (ids grow: the list stays sorted).
  void AddStub(InstrId id) { stubs_.push_back(id); }
  std::span<const InstrId> stubs() const { return stubs_; }

  // A check met a name not known yet: the fragment cannot be used.
  void GiveUp() { gave_up_ = true; }
  bool gave_up() const { return gave_up_; }

 private:
  bool IsStub(InstrId id) const {
    return !stubs_.empty() && std::binary_search(stubs_.begin(), stubs_.end(), id);
  }
  CompId FindInFragment(std::string_view name, const CopyingNameTable& defined) {
    // One hash for the filter, the table and the placeholders.
    const uint32_t hash = NameHashOf(name);
    if (defined_in_fragment_.MayHold(hash)) {
      const CompId found = defined.FindHashed(name, hash);
      if (found != CopyingNameTable::kNotFound) return found;
    }
    return kNotKnownYetComputation + not_known_yet_.ReferHashed(name, hash);
  }

  bool in_fragment_ = false;
  bool in_continuation_ = false;
  bool gave_up_ = false;
  std::vector<InstrId> stubs_;  // sorted
  // Most computations an entry chunk calls are defined before it: a filter
  // of the names it defines spares a miss in its table for each.
  NameFilter defined_in_fragment_;
  ExternalNames not_known_yet_;
};

}  // namespace hlolint
