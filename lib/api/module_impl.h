// api::Module's state, shared by its files: module.cc (parsing, ids,
// descriptions) and module_navigation.cc (names, definitions, references).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "hlolint/module.h"
#include "ir/module.h"
#include "source/source_file.h"

namespace hlolint::api {

inline bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

inline bool IsAnonymous(const hlolint::Module& m, InstrId id) {
  return m.instr(id).has(Instruction::kAnonymous);
}

struct Module::Impl {
  // Declared first, destroyed last: the modules read their names from it.
  std::unique_ptr<SourceFile> source;
  std::vector<std::unique_ptr<hlolint::Module>> modules;
  // The first global id of each module's instructions and computations.
  std::vector<uint32_t> instruction_base;
  std::vector<uint32_t> computation_base;
  std::vector<ParseProblem> errors;
  // Each computation's named instructions by the offset of their names:
  // where statements start and end ([module][computation]).
  struct NamedStatement {
    uint32_t name_offset;
    InstrId id;
  };
  std::vector<std::vector<std::vector<NamedStatement>>> statements;

  // A module and its own id for a global one.
  struct Local {
    size_t module;
    uint32_t id;
  };

  void Parse();
  void IndexStatements(const hlolint::Module& m);
  // Where `id` is in its computation's statements, or the end.
  std::vector<NamedStatement>::const_iterator FindStatement(const Local& instruction) const;
  Location Locate(uint32_t begin, uint32_t end) const;
  std::optional<uint32_t> OffsetOf(Position at) const;
  std::optional<Local> LocalInstruction(InstructionId id) const;
  std::optional<Local> LocalComputation(ComputationId id) const;
  InstructionId GlobalInstruction(size_t module, InstrId id) const {
    return instruction_base[module] + id;
  }
  ComputationId GlobalComputation(size_t module, CompId id) const {
    return computation_base[module] + id;
  }
  // The computations whose text holds `offset`, innermost first (an
  // unnamed computation inside an attribute, then the one around it).
  std::vector<Local> ComputationsAt(uint32_t offset) const;
  std::optional<Local> ComputationAt(uint32_t offset) const {
    std::vector<Local> around = ComputationsAt(offset);
    if (around.empty()) return std::nullopt;
    return around.front();
  }
  std::optional<InstrId> InstructionIn(const Local& computation, uint32_t offset) const;
  // Where an instruction's statement starts and ends (see InstructionAt).
  uint32_t StatementBegin(const Local& instruction) const;
  uint32_t StatementEnd(const Local& instruction) const;
  // Where an instruction's statement can name others: after its own name
  // to its end (a nested expression: the statement around it).
  std::pair<uint32_t, uint32_t> UsesRange(const Local& instruction) const;
  std::optional<InstrId> FindInstruction(size_t module, std::string_view name,
                                         std::optional<CompId> only_in) const;
  std::optional<CompId> FindComputation(size_t module, std::string_view name) const;
  // Appends each use of `name` as a name token in [begin, end) of the text:
  // strings, comments, attribute names and opcodes skipped.
  void AppendNameUses(uint32_t begin, uint32_t end, std::string_view name,
                      std::vector<Location>* out) const;
  ComputationInfo DescribeComputation(const Local& c) const;
  InstructionInfo DescribeInstruction(const Local& i) const;
  Location NameLocation(const hlolint::Module& m, InstrId id) const {
    const Instruction& instr = m.instr(id);
    return Locate(instr.name_offset, instr.name_offset + m.NameSize(instr));
  }
  Location ComputationNameLocation(const Local& c) const {
    const Computation& comp = modules[c.module]->computation(c.id);
    return comp.is_inline ? Locate(comp.begin_offset, comp.begin_offset + 1)
                          : Locate(comp.name_offset, comp.name_offset + comp.name_size);
  }
};

}  // namespace hlolint::api
