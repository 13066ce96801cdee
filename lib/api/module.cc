// api::Module: a text's parsed modules behind ids that number the
// computations and instructions of all of them, and the queries an editor
// asks (what is here, where is that defined, who uses it).
#include "hlolint/module.h"

#include "api/module_impl.h"

#include <algorithm>
#include <exception>

#include "ir/module.h"
#include "ir/opcode.h"
#include "ir/shape.h"
#include "parse/attributes.h"
#include "parse/parser.h"
#include "source/source_file.h"

namespace hlolint::api {
namespace {

// A `{...}` value as written, from its opening brace to the matching one;
// braces inside strings do not count. A value that is not braced: its
// first token.
std::string_view BracedValue(std::string_view text, uint32_t begin) {
  if (begin >= text.size()) return {};
  if (text[begin] != '{') {
    uint32_t end = begin;
    while (end < text.size() && IsNameChar(text[end])) ++end;
    return text.substr(begin, end - begin);
  }
  int depth = 0;
  bool in_string = false;
  for (size_t i = begin; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return text.substr(begin, i + 1 - begin);
    }
  }
  return text.substr(begin);
}

}  // namespace

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
    IndexStatements(*parsed.module);
    modules.push_back(std::move(parsed.module));
  });
  if (modules.empty() && errors.empty()) {
    // As XLA's parser, which rejects a text without a module.
    errors.push_back({"no HLO module in the text", Locate(0, 0)});
  }
}

void Module::Impl::IndexStatements(const hlolint::Module& m) {
  std::vector<std::vector<NamedStatement>>& by_computation = statements.emplace_back();
  by_computation.resize(m.computation_count());
  for (CompId c = 0; c < m.computation_count(); ++c) {
    std::vector<NamedStatement>& named = by_computation[c];
    for (InstrId id : m.instructions(c)) {
      if (!IsAnonymous(m, id)) named.push_back({m.instr(id).name_offset, id});
    }
    // Text order already, except where the parser numbers instructions
    // out of it.
    std::stable_sort(named.begin(), named.end(), [](const auto& a, const auto& b) {
      return a.name_offset < b.name_offset;
    });
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

ComputationInfo Module::Impl::DescribeComputation(const Local& c) const {
  const hlolint::Module& m = *modules[c.module];
  const Computation& comp = m.computation(c.id);
  const uint32_t base = instruction_base[c.module];
  ComputationInfo info;
  info.id = computation_base[c.module] + c.id;
  info.name = std::string(m.computation_name(c.id));
  info.module = std::string(m.name());
  info.is_entry = comp.is_entry;
  info.location = ComputationNameLocation(c);
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
  info.extent = Locate(StatementBegin(i), StatementEnd(i));
  if (const Attribute* sharding = m.FindAttribute(i.id, AttrName::kSharding)) {
    info.sharding = std::string(BracedValue(source->text(), sharding->value_offset));
  }
  if (std::optional<OpMetadata> metadata = Metadata(m, i.id)) {
    info.origin = ProgramOrigin{metadata->op_type, metadata->op_name, metadata->source_file,
                                metadata->source_line};
  }
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

std::vector<ModuleInfo> Module::modules() const {
  std::vector<ModuleInfo> out;
  for (const auto& m : impl_->modules) {
    const ModuleHeader& header = m->header();
    ModuleInfo& info = out.emplace_back();
    info.name = std::string(m->name());
    info.location = header.present
                        ? impl_->Locate(header.name_offset, header.name_offset + header.name_size)
                        : impl_->Locate(m->begin_offset(), m->begin_offset());
    info.extent = impl_->Locate(m->begin_offset(), m->end_offset());
  }
  return out;
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

std::vector<ComputationId> Module::called_computations(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return {};
  std::vector<ComputationId> out;
  for (CompId c : impl_->modules[i->module]->called(i->id)) {
    out.push_back(impl_->GlobalComputation(i->module, c));
  }
  return out;
}

std::vector<InstructionId> Module::callers(ComputationId id) const {
  const std::optional<Impl::Local> c = impl_->LocalComputation(id);
  if (!c) return {};
  const hlolint::Module& m = *impl_->modules[c->module];
  std::vector<InstructionId> out;
  for (InstrId i = 0; i < m.instruction_count(); ++i) {
    const std::span<const CompId> called = m.called(i);
    if (std::find(called.begin(), called.end(), c->id) != called.end()) {
      out.push_back(impl_->GlobalInstruction(c->module, i));
    }
  }
  return out;
}

std::vector<InstructionId> Module::control_predecessors(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return {};
  std::vector<InstructionId> out;
  for (InstrId p : impl_->modules[i->module]->control_predecessors(i->id)) {
    out.push_back(impl_->GlobalInstruction(i->module, p));
  }
  return out;
}

std::vector<InstructionId> Module::control_successors(InstructionId id) const {
  const std::optional<Impl::Local> i = impl_->LocalInstruction(id);
  if (!i) return {};
  const hlolint::Module& m = *impl_->modules[i->module];
  const CompId parent = m.parent(i->id);
  if (parent == kNoId) return {};
  std::vector<InstructionId> out;
  for (InstrId s : m.instructions(parent)) {
    const std::span<const InstrId> predecessors = m.control_predecessors(s);
    if (std::find(predecessors.begin(), predecessors.end(), i->id) != predecessors.end()) {
      out.push_back(impl_->GlobalInstruction(i->module, s));
    }
  }
  return out;
}

std::string_view Module::text() const { return impl_->source->text(); }

std::string_view Module::Line(uint32_t line) const {
  if (line == 0 || line > impl_->source->LineCount()) return {};
  return impl_->source->Line(line);
}

uint32_t Module::LineCount() const { return impl_->source->LineCount(); }


}  // namespace hlolint::api
