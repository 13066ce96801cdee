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

struct InstructionInfo {
  InstructionId id = 0;
  std::string name;    // without '%'
  std::string opcode;  // "add", "fusion", "custom-call", ...
  std::string shape;   // the result shape as text, e.g. "f32[2,3]{1,0}"
  ComputationId computation = 0;
  bool is_root = false;
  Location location;   // its name
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

  std::vector<ComputationInfo> computations() const;  // in id order
  std::optional<ComputationInfo> computation(ComputationId id) const;
  std::optional<InstructionInfo> instruction(InstructionId id) const;
  // Distinct users and the operands (in order, repeated as written).
  std::vector<InstructionId> users(InstructionId id) const;
  std::vector<InstructionId> operands(InstructionId id) const;
  std::optional<ComputationId> computation_of(InstructionId id) const;

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

 private:
  struct Impl;
  explicit Module(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hlolint::api
