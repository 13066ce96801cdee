// api::Module: a text's parsed modules behind ids that number the
// computations and instructions of all of them, and the queries an editor
// asks (what is here, where is that defined, who uses it).
#include "hlolint/module.h"

#include <algorithm>
#include <exception>

#include "ir/module.h"
#include "ir/opcode.h"
#include "ir/shape.h"
#include "parse/parser.h"
#include "source/source_file.h"

namespace hlolint::api {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

bool IsAnonymous(const hlolint::Module& m, InstrId id) {
  return m.instr(id).has(Instruction::kAnonymous);
}

}  // namespace

struct Module::Impl {
  // Declared first, destroyed last: the modules read their names from it.
  std::unique_ptr<SourceFile> source;
  std::vector<std::unique_ptr<hlolint::Module>> modules;
  // The first global id of each module's instructions and computations.
  std::vector<uint32_t> instruction_base;
  std::vector<uint32_t> computation_base;
  std::vector<ParseProblem> errors;

  // A module and its own id for a global one.
  struct Local {
    size_t module;
    uint32_t id;
  };

  void Parse();
  Location Locate(uint32_t begin, uint32_t end) const;
  std::optional<uint32_t> OffsetOf(Position at) const;
  std::optional<Local> LocalInstruction(InstructionId id) const;
  std::optional<Local> LocalComputation(ComputationId id) const;
  // The computations whose text holds `offset`, innermost first (an
  // unnamed computation inside an attribute, then the one around it).
  std::vector<Local> ComputationsAt(uint32_t offset) const;
  std::optional<Local> ComputationAt(uint32_t offset) const {
    std::vector<Local> around = ComputationsAt(offset);
    if (around.empty()) return std::nullopt;
    return around.front();
  }
  std::optional<InstrId> InstructionIn(const Local& computation, uint32_t offset) const;
  std::optional<Location> FindInstruction(size_t module, std::string_view name,
                                          std::optional<CompId> only_in) const;
  std::optional<Location> FindComputation(size_t module, std::string_view name) const;
  ComputationInfo DescribeComputation(const Local& c) const;
  InstructionInfo DescribeInstruction(const Local& i) const;
  Location NameLocation(const hlolint::Module& m, InstrId id) const {
    const Instruction& instr = m.instr(id);
    return Locate(instr.name_offset, instr.name_offset + m.NameSize(instr));
  }
};

void Module::Impl::Parse() {
  uint32_t instructions = 0;
  uint32_t computations = 0;
  ParseModules(*source, [&](ParsedModule&& parsed) {
    if (parsed.error) {
      ParseProblem problem;
      problem.message = parsed.error->message;
      problem.location = Locate(parsed.error->offset, parsed.error->offset);
      errors.push_back(std::move(problem));
      return;
    }
    if (parsed.module == nullptr) return;
    instruction_base.push_back(instructions);
    computation_base.push_back(computations);
    instructions += static_cast<uint32_t>(parsed.module->instruction_count());
    computations += static_cast<uint32_t>(parsed.module->computation_count());
    modules.push_back(std::move(parsed.module));
  });
  if (modules.empty() && errors.empty()) {
    // As XLA's parser, which rejects a text without a module.
    errors.push_back({"no HLO module in the text", Locate(0, 0)});
  }
}

Location Module::Impl::Locate(uint32_t begin, uint32_t end) const {
  Location location;
  location.path = source->path();
  const LineCol from = source->Locate(begin);
  const LineCol to = source->Locate(end);
  location.line = from.line;
  location.column = from.column;
  location.end_line = to.line;
  location.end_column = to.column;
  location.offset = begin;
  location.end_offset = end;
  return location;
}

std::optional<uint32_t> Module::Impl::OffsetOf(Position at) const {
  if (at.line == 0 || at.column == 0 || at.line > source->LineCount()) return std::nullopt;
  const std::string_view line = source->Line(at.line);
  if (line.data() == nullptr || at.column > line.size() + 1) return std::nullopt;
  return static_cast<uint32_t>(line.data() - source->data()) + at.column - 1;
}

std::optional<Module::Impl::Local> Module::Impl::LocalInstruction(InstructionId id) const {
  const auto after = std::upper_bound(instruction_base.begin(), instruction_base.end(), id);
  if (after == instruction_base.begin()) return std::nullopt;
  const size_t k = static_cast<size_t>(after - instruction_base.begin()) - 1;
  const uint32_t local = id - instruction_base[k];
  if (local >= modules[k]->instruction_count()) return std::nullopt;
  return Local{k, local};
}

std::optional<Module::Impl::Local> Module::Impl::LocalComputation(ComputationId id) const {
  const auto after = std::upper_bound(computation_base.begin(), computation_base.end(), id);
  if (after == computation_base.begin()) return std::nullopt;
  const size_t k = static_cast<size_t>(after - computation_base.begin()) - 1;
  const uint32_t local = id - computation_base[k];
  if (local >= modules[k]->computation_count()) return std::nullopt;
  return Local{k, local};
}

std::vector<Module::Impl::Local> Module::Impl::ComputationsAt(uint32_t offset) const {
  std::vector<std::pair<uint32_t, Local>> around;  // by size
  for (size_t k = 0; k < modules.size(); ++k) {
    const hlolint::Module& m = *modules[k];
    for (CompId c = 0; c < m.computation_count(); ++c) {
      const Computation& comp = m.computation(c);
      if (offset < comp.begin_offset || offset >= comp.end_offset) continue;
      around.push_back({comp.end_offset - comp.begin_offset, Local{k, c}});
    }
  }
  std::sort(around.begin(), around.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Local> out;
  for (const auto& [size, local] : around) out.push_back(local);
  return out;
}

// A statement starts at the start of its name's line (`ROOT`, indentation),
// or right after the previous name where several share a line; it ends
// where the next starts or at the computation's closing brace.
std::optional<InstrId> Module::Impl::InstructionIn(const Local& computation,
                                                   uint32_t offset) const {
  const hlolint::Module& m = *modules[computation.module];
  const Computation& comp = m.computation(computation.id);
  if (offset + 1 >= comp.end_offset) return std::nullopt;  // the closing brace
  std::optional<InstrId> best;
  uint32_t best_begin = 0;
  uint32_t previous_name_end = comp.begin_offset;
  for (InstrId id : m.instructions(computation.id)) {
    if (IsAnonymous(m, id)) continue;
    const Instruction& instr = m.instr(id);
    const uint32_t line_start = instr.name_offset + 1 - source->Locate(instr.name_offset).column;
    const uint32_t begin = std::max(line_start, previous_name_end);
    previous_name_end = instr.name_offset + m.NameSize(instr);
    if (begin <= offset && (!best || begin >= best_begin)) {
      best = id;
      best_begin = begin;
    }
  }
  return best;
}

std::optional<Location> Module::Impl::FindInstruction(size_t module, std::string_view name,
                                                      std::optional<CompId> only_in) const {
  const hlolint::Module& m = *modules[module];
  auto matches = [&](InstrId id) { return !IsAnonymous(m, id) && m.name(id) == name; };
  if (only_in) {
    for (InstrId id : m.instructions(*only_in)) {
      if (matches(id)) return NameLocation(m, id);
    }
    return std::nullopt;
  }
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    if (matches(id)) return NameLocation(m, id);
  }
  return std::nullopt;
}

std::optional<Location> Module::Impl::FindComputation(size_t module, std::string_view name) const {
  const hlolint::Module& m = *modules[module];
  for (CompId c = 0; c < m.computation_count(); ++c) {
    const Computation& comp = m.computation(c);
    if (!comp.is_inline && m.computation_name(c) == name) {
      return Locate(comp.name_offset, comp.name_offset + comp.name_size);
    }
  }
  return std::nullopt;
}

ComputationInfo Module::Impl::DescribeComputation(const Local& c) const {
  const hlolint::Module& m = *modules[c.module];
  const Computation& comp = m.computation(c.id);
  const uint32_t base = instruction_base[c.module];
  ComputationInfo info;
  info.id = computation_base[c.module] + c.id;
  info.name = std::string(m.computation_name(c.id));
  info.module = std::string(m.name());
  info.is_entry = comp.is_entry;
  info.location = comp.is_inline ? Locate(comp.begin_offset, comp.begin_offset + 1)
                                  : Locate(comp.name_offset, comp.name_offset + comp.name_size);
  info.extent = Locate(comp.begin_offset, comp.end_offset);
  for (InstrId id : m.instructions(c.id)) info.instructions.push_back(base + id);
  if (comp.root != kNoId) info.root = base + comp.root;
  return info;
}

InstructionInfo Module::Impl::DescribeInstruction(const Local& i) const {
  const hlolint::Module& m = *modules[i.module];
  InstructionInfo info;
  info.id = instruction_base[i.module] + i.id;
  info.name = std::string(m.name(i.id));
  info.opcode = std::string(OpcodeName(m.opcode(i.id)));
  if (m.instr(i.id).shape != kNoShape) info.shape = ShapeToString(m.shape(i.id));
  const CompId parent = m.parent(i.id);
  if (parent != kNoId) info.computation = computation_base[i.module] + parent;
  info.is_root = m.IsRoot(i.id);
  info.location = NameLocation(m, i.id);
  return info;
}

Module::Module(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Module::~Module() = default;
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;

Module Module::FromText(std::string_view text, const std::string& display_path) {
  auto impl = std::make_unique<Impl>();
  try {
    impl->source = SourceFile::FromString(display_path, text);
    impl->Parse();
  } catch (const std::exception& e) {
    impl->modules.clear();
    impl->errors.push_back({std::string("internal error while parsing: ") + e.what(), {}});
  }
  return Module(std::move(impl));
}

Module Module::FromFile(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  try {
    absl::StatusOr<std::unique_ptr<SourceFile>> file = SourceFile::Open(path, path);
    if (!file.ok()) {
      impl->source = SourceFile::FromString(path, "");
      impl->errors.push_back({std::string(file.status().message()), std::nullopt});
      return Module(std::move(impl));
    }
    impl->source = std::move(*file);
    impl->Parse();
  } catch (const std::exception& e) {
    impl->modules.clear();
    impl->errors.push_back({std::string("internal error while parsing: ") + e.what(), {}});
  }
  return Module(std::move(impl));
}

const std::vector<ParseProblem>& Module::errors() const { return impl_->errors; }

std::vector<std::string> Module::module_names() const {
  std::vector<std::string> names;
  for (const auto& m : impl_->modules) names.emplace_back(m->name());
  return names;
}

std::vector<ComputationInfo> Module::computations() const {
  std::vector<ComputationInfo> all;
  for (size_t k = 0; k < impl_->modules.size(); ++k) {
    for (CompId c = 0; c < impl_->modules[k]->computation_count(); ++c) {
      all.push_back(impl_->DescribeComputation({k, c}));
    }
  }
  return all;
}

std::optional<ComputationInfo> Module::computation(ComputationId id) const {
  const std::optional<Impl::Local> c = impl_->LocalComputation(id);
  if (!c) return std::nullopt;
  return impl_->DescribeComputation(*c);
}

std::optional<InstructionInfo> Module::instruction(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return std::nullopt;
  return impl_->DescribeInstruction(*i);
}

std::vector<InstructionId> Module::users(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return {};
  const uint32_t base = impl_->instruction_base[i->module];
  std::vector<InstructionId> out;
  for (InstrId user : impl_->modules[i->module]->users(i->id)) out.push_back(base + user);
  return out;
}

std::vector<InstructionId> Module::operands(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return {};
  const uint32_t base = impl_->instruction_base[i->module];
  std::vector<InstructionId> out;
  for (InstrId operand : impl_->modules[i->module]->operands(i->id)) out.push_back(base + operand);
  return out;
}

std::optional<ComputationId> Module::computation_of(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return std::nullopt;
  const CompId parent = impl_->modules[i->module]->parent(i->id);
  if (parent == kNoId) return std::nullopt;
  return impl_->computation_base[i->module] + parent;
}

std::optional<InstructionId> Module::InstructionAt(Position at) const {
  const std::optional<uint32_t> offset = impl_->OffsetOf(at);
  if (!offset) return std::nullopt;
  // Outside the statements of an unnamed computation (its braces), the
  // statement around it holds the position.
  for (const Impl::Local& c : impl_->ComputationsAt(*offset)) {
    if (std::optional<InstrId> id = impl_->InstructionIn(c, *offset)) {
      return impl_->instruction_base[c.module] + *id;
    }
  }
  return std::nullopt;
}

std::optional<Location> Module::Definition(std::string_view name,
                                           std::optional<Position> from) const {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  if (name.empty()) return std::nullopt;
  std::optional<Impl::Local> here;
  if (from) {
    const std::optional<uint32_t> offset = impl_->OffsetOf(*from);
    if (offset) here = impl_->ComputationAt(*offset);
  }
  if (here) {
    if (auto found = impl_->FindInstruction(here->module, name, here->id)) return found;
    if (auto found = impl_->FindInstruction(here->module, name, std::nullopt)) return found;
    if (auto found = impl_->FindComputation(here->module, name)) return found;
  }
  for (size_t k = 0; k < impl_->modules.size(); ++k) {
    if (auto found = impl_->FindInstruction(k, name, std::nullopt)) return found;
  }
  for (size_t k = 0; k < impl_->modules.size(); ++k) {
    if (auto found = impl_->FindComputation(k, name)) return found;
  }
  return std::nullopt;
}

std::string Module::NameAt(Position at) const {
  const std::optional<uint32_t> offset = impl_->OffsetOf(at);
  if (!offset) return {};
  const std::string_view text = impl_->source->text();
  uint32_t begin = *offset;
  // A cursor right after a name (at its end) names it too.
  if (begin >= text.size() || !IsNameChar(text[begin])) {
    if (begin == 0 || !IsNameChar(text[begin - 1])) return {};
    --begin;
  }
  uint32_t end = begin;
  while (begin > 0 && IsNameChar(text[begin - 1])) --begin;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  return std::string(text.substr(begin, end - begin));
}

std::optional<Location> Module::DefinitionAt(Position at) const {
  const std::string name = NameAt(at);
  if (name.empty()) return std::nullopt;
  return Definition(name, at);
}

}  // namespace hlolint::api
