// Parsing HLO text and asking about its structure: computations, the
// instruction at a line and column, the definition of a name, users and
// operands. For editors (the language server) and scripts (the Python
// package).
//
// A text may hold several HLO modules one after another; a Module holds
// all of them, and its ids number the computations and instructions of all
// of them. Ids stay valid for the Module's lifetime. Positions are 1-based
// (location.h). Never throws and never aborts on any input: what did not
// parse is in errors(), and a query with an id or position that names
// nothing returns nullopt or an empty list.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hlolint/location.h"

namespace hlolint::api {

using ComputationId = uint32_t;
using InstructionId = uint32_t;

struct ParseProblem {
  std::string message;
  std::optional<Location> location;  // none: not about a place in the text (e.g. unreadable file)
};

struct ModuleInfo {
  std::string name;
  Location location;  // its name after `HloModule` (without the line: where it starts)
  Location extent;    // from `HloModule` to its last computation's closing brace
};

struct ComputationInfo {
  ComputationId id = 0;
  std::string name;         // "_" for an unnamed computation written inside an attribute
  std::string module;       // the HLO module holding it
  bool is_entry = false;
  Location location;        // its name (for an unnamed one: its opening brace)
  Location extent;          // from ENTRY or the name to the closing brace
  std::vector<InstructionId> instructions;  // in text order
  std::optional<InstructionId> root;
};

// Where an instruction came from in the program that produced the HLO: its
// `metadata={...}`. Empty strings and line 0 where the metadata says nothing.
struct ProgramOrigin {
  std::string op_type;
  std::string op_name;      // e.g. "jit(f)/jit(main)/dot_general"
  std::string source_file;
  int64_t source_line = 0;
};

struct InstructionInfo {
  InstructionId id = 0;
  std::string name;    // without '%'
  std::string opcode;  // "add", "fusion", "custom-call", ...
  std::string shape;   // the result shape as text, e.g. "f32[2,3]{1,0}"
  ComputationId computation = 0;
  bool is_root = false;
  Location location;   // its name
  Location extent;     // its statement (see InstructionAt)
  std::string sharding;  // the `sharding=` value as written, e.g. "{replicated}"; empty: none
  std::optional<ProgramOrigin> origin;  // none without metadata
};

// What a name in the text refers to.
struct Symbol {
  enum class Kind { kInstruction, kComputation };
  Kind kind = Kind::kInstruction;
  uint32_t id = 0;  // an InstructionId or a ComputationId
  bool operator==(const Symbol&) const = default;
};

class Module {
 public:
  // Parses text held by the caller (it is copied); `display_path` names it
  // in locations.
  static Module FromText(std::string_view text, const std::string& display_path);
  // Reads and parses a file.
  static Module FromFile(const std::string& path);

  ~Module();
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;

  // Why the text, or some of its modules, did not parse; the modules that
  // did are queried as usual.
  const std::vector<ParseProblem>& errors() const;
  // The names of the HLO modules that parsed, in text order.
  std::vector<std::string> module_names() const;
  // The same modules with where they are.
  std::vector<ModuleInfo> modules() const;

  std::vector<ComputationInfo> computations() const;  // in id order
  std::optional<ComputationInfo> computation(ComputationId id) const;
  std::optional<InstructionInfo> instruction(InstructionId id) const;
  // Distinct users and the operands (in order, repeated as written).
  std::vector<InstructionId> users(InstructionId id) const;
  std::vector<InstructionId> operands(InstructionId id) const;
  std::optional<ComputationId> computation_of(InstructionId id) const;
  // The computations an instruction calls (calls=, to_apply=, condition=,
  // body=, branch_computations=, ...), in the order it names them.
  std::vector<ComputationId> called_computations(InstructionId id) const;
  // The instructions that call a computation, in id order.
  std::vector<InstructionId> callers(ComputationId id) const;
  // `control-predecessors={...}` of an instruction, and the reverse.
  std::vector<InstructionId> control_predecessors(InstructionId id) const;
  std::vector<InstructionId> control_successors(InstructionId id) const;

  // The parsed text, and one of its lines (1-based, without the line
  // break; empty past the end).
  std::string_view text() const;
  std::string_view Line(uint32_t line) const;
  uint32_t LineCount() const;

  // The instruction whose statement holds the position: from the start of
  // the line of its name (`ROOT` and indentation included) to where the
  // next statement or the computation's closing brace starts. In an
  // unnamed computation written inside an attribute, its instructions (its
  // braces belong to the statement around it). None in headers, between
  // computations, or at a closing brace.
  std::optional<InstructionId> InstructionAt(Position at) const;
  // The instruction named `name` (a leading '%' is ignored), else the
  // computation of that name. With `from`, an instruction of the
  // computation at that position wins over one of another computation.
  std::optional<Location> Definition(std::string_view name,
                                     std::optional<Position> from = std::nullopt) const;
  // The name under the cursor (letters, digits, '_', '.', '-'; without
  // '%'), or empty.
  std::string NameAt(Position at) const;
  // Definition(NameAt(at), at): go to definition.
  std::optional<Location> DefinitionAt(Position at) const;

  // The instruction or computation a name refers to, resolved as Definition
  // does; a name written as an attribute's computation (calls=, to_apply=,
  // body=, branch_computations={...}, ...) is a computation first.
  std::optional<Symbol> Resolve(std::string_view name,
                                std::optional<Position> from = std::nullopt) const;
  // What the name under the cursor refers to: at a use or at the definition.
  std::optional<Symbol> SymbolAt(Position at) const;
  // Where a symbol is defined: the name of an instruction or computation.
  std::optional<Location> DefinitionOf(Symbol symbol) const;
  // Where its name is written as a use, in text order: an instruction as an
  // operand or control predecessor of another, a computation in the
  // attributes of its callers. Not the definition; names inside strings
  // and comments are not uses.
  std::vector<Location> References(Symbol symbol) const;

 private:
  struct Impl;
  explicit Module(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hlolint::api
