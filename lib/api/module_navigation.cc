// api::Module's questions about names: what is at a position, where a name
// is defined, where it is used. Instruction names are scoped by their
// computation first, then by their module; computation names by module.
#include <algorithm>
#include <array>

#include "api/module_impl.h"
#include "hlolint/module.h"

namespace hlolint::api {
namespace {

// Attributes whose values name computations: a name written there is a
// computation even where an instruction has the same name.
constexpr std::array<std::string_view, 11> kComputationAttributes = {
    "calls",           "to_apply",         "condition",          "body",
    "branch_computations", "called_computations", "true_computation", "false_computation",
    "scatter",         "select",           "async_execution_thread"};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether the name starting at `begin` is written as the value of an
// attribute that names computations: `calls=%f`, `to_apply=f`,
// `branch_computations={%a, %b}`.
bool IsInComputationAttribute(std::string_view text, uint32_t begin) {
  size_t at = begin;
  if (at > 0 && text[at - 1] == '%') --at;
  // Back over the other names of a `{a, b}` list.
  while (at > 0) {
    const char c = text[at - 1];
    if (IsSpace(c) || c == ',' || c == '%' || IsNameChar(c)) {
      --at;
    } else if (c == '{') {
      --at;
      break;
    } else {
      break;
    }
  }
  while (at > 0 && IsSpace(text[at - 1])) --at;
  if (at == 0 || text[at - 1] != '=') return false;
  size_t end = at - 1;
  while (end > 0 && IsSpace(text[end - 1])) --end;
  size_t word = end;
  while (word > 0 && (IsNameChar(text[word - 1]))) --word;
  const std::string_view attribute = text.substr(word, end - word);
  return std::find(kComputationAttributes.begin(), kComputationAttributes.end(), attribute) !=
         kComputationAttributes.end();
}

// Whether the token ending at `end` is an attribute's name (`body=`) or an
// opcode (`add(`): written there, a name is not a use.
bool IsAttributeNameOrOpcode(std::string_view text, uint32_t end) {
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return end < text.size() && (text[end] == '=' || text[end] == '(');
}

// [begin, end) of the name token around `offset` (a cursor right after a
// name names it too); begin == end when there is none.
std::pair<uint32_t, uint32_t> NameTokenAt(std::string_view text, uint32_t offset) {
  uint32_t begin = offset;
  if (begin >= text.size() || !IsNameChar(text[begin])) {
    if (begin == 0 || begin > text.size() || !IsNameChar(text[begin - 1])) return {offset, offset};
    --begin;
  }
  uint32_t end = begin;
  while (begin > 0 && IsNameChar(text[begin - 1])) --begin;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  return {begin, end};
}

}  // namespace

std::vector<Module::Impl::Local> Module::Impl::ComputationsAt(uint32_t offset) const {
  std::vector<std::pair<uint32_t, Local>> around;  // by size
  for (size_t k = 0; k < modules.size(); ++k) {
    const hlolint::Module& m = *modules[k];
    if (offset < m.begin_offset() || offset >= m.end_offset()) continue;
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

std::vector<Module::Impl::NamedStatement>::const_iterator Module::Impl::FindStatement(
    const Local& instruction) const {
  const hlolint::Module& m = *modules[instruction.module];
  const CompId parent = m.parent(instruction.id);
  const std::vector<NamedStatement>& named = statements[instruction.module][parent];
  const uint32_t name_offset = m.instr(instruction.id).name_offset;
  auto it = std::lower_bound(named.begin(), named.end(), name_offset,
                             [](const NamedStatement& s, uint32_t at) { return s.name_offset < at; });
  while (it != named.end() && it->name_offset == name_offset && it->id != instruction.id) ++it;
  return it != named.end() && it->id == instruction.id ? it : named.end();
}

// A statement starts at the start of its name's line (`ROOT`, indentation),
// or right after the previous name where several share a line; it ends
// where the next starts or at the computation's closing brace.
uint32_t Module::Impl::StatementBegin(const Local& instruction) const {
  const hlolint::Module& m = *modules[instruction.module];
  const CompId parent = m.parent(instruction.id);
  const Instruction& instr = m.instr(instruction.id);
  const uint32_t line_start = instr.name_offset + 1 - source->Locate(instr.name_offset).column;
  if (parent == kNoId) return line_start;
  const std::vector<NamedStatement>& named = statements[instruction.module][parent];
  const auto it = FindStatement(instruction);
  uint32_t previous_name_end = m.computation(parent).begin_offset;
  if (it != named.end() && it != named.begin()) {
    const Instruction& previous = m.instr(std::prev(it)->id);
    previous_name_end = previous.name_offset + m.NameSize(previous);
  }
  return std::max(line_start, previous_name_end);
}

uint32_t Module::Impl::StatementEnd(const Local& instruction) const {
  const hlolint::Module& m = *modules[instruction.module];
  const CompId parent = m.parent(instruction.id);
  if (parent == kNoId) return NameLocation(m, instruction.id).end_offset;
  const std::vector<NamedStatement>& named = statements[instruction.module][parent];
  const auto it = FindStatement(instruction);
  if (it != named.end() && std::next(it) != named.end()) {
    return StatementBegin({instruction.module, std::next(it)->id});
  }
  return m.computation(parent).end_offset - 1;  // the closing brace
}

std::optional<InstrId> Module::Impl::InstructionIn(const Local& computation,
                                                   uint32_t offset) const {
  const hlolint::Module& m = *modules[computation.module];
  const Computation& comp = m.computation(computation.id);
  if (offset + 1 >= comp.end_offset) return std::nullopt;  // the closing brace
  const std::vector<NamedStatement>& named = statements[computation.module][computation.id];
  // The statement of the last name at or before `offset`, unless the next
  // statement (its `ROOT`, its indentation) already started.
  auto after = std::upper_bound(named.begin(), named.end(), offset,
                                [](uint32_t at, const NamedStatement& s) { return at < s.name_offset; });
  if (after != named.end() && StatementBegin({computation.module, after->id}) <= offset) {
    return after->id;
  }
  if (after == named.begin()) return std::nullopt;
  const InstrId id = std::prev(after)->id;
  if (StatementBegin({computation.module, id}) > offset) return std::nullopt;
  return id;
}

std::pair<uint32_t, uint32_t> Module::Impl::UsesRange(const Local& instruction) const {
  const hlolint::Module& m = *modules[instruction.module];
  Local named = instruction;
  if (IsAnonymous(m, instruction.id)) {
    // A nested expression: its statement is the named one around it.
    const CompId parent = m.parent(instruction.id);
    if (parent == kNoId) return {0, 0};
    const std::optional<InstrId> around =
        InstructionIn({instruction.module, parent}, m.instr(instruction.id).name_offset);
    if (!around) return {0, 0};
    named.id = *around;
  }
  const Instruction& instr = m.instr(named.id);
  return {instr.name_offset + m.NameSize(instr), StatementEnd(named)};
}

std::optional<InstrId> Module::Impl::FindInstruction(size_t module, std::string_view name,
                                                     std::optional<CompId> only_in) const {
  const hlolint::Module& m = *modules[module];
  auto matches = [&](InstrId id) { return !IsAnonymous(m, id) && m.name(id) == name; };
  if (only_in) {
    for (InstrId id : m.instructions(*only_in)) {
      if (matches(id)) return id;
    }
    return std::nullopt;
  }
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    if (matches(id)) return id;
  }
  return std::nullopt;
}

std::optional<CompId> Module::Impl::FindComputation(size_t module, std::string_view name) const {
  const hlolint::Module& m = *modules[module];
  for (CompId c = 0; c < m.computation_count(); ++c) {
    if (!m.computation(c).is_inline && m.computation_name(c) == name) return c;
  }
  return std::nullopt;
}

void Module::Impl::AppendNameUses(uint32_t begin, uint32_t end, std::string_view name,
                                  std::vector<Location>* out) const {
  const std::string_view text = source->text();
  end = std::min<uint32_t>(end, static_cast<uint32_t>(text.size()));
  uint32_t at = begin;
  while (at < end) {
    const char c = text[at];
    if (c == '"') {
      for (++at; at < end && text[at] != '"'; ++at) {
        if (text[at] == '\\') ++at;
      }
      ++at;
    } else if (c == '/' && at + 1 < end && text[at + 1] == '/') {
      while (at < end && text[at] != '\n') ++at;
    } else if (c == '/' && at + 1 < end && text[at + 1] == '*') {
      const size_t close = text.find("*/", at + 2);
      at = close == std::string_view::npos ? end : static_cast<uint32_t>(close) + 2;
    } else if (IsNameChar(c)) {
      uint32_t token_end = at;
      while (token_end < end && IsNameChar(text[token_end])) ++token_end;
      if (text.substr(at, token_end - at) == name && !IsAttributeNameOrOpcode(text, token_end)) {
        out->push_back(Locate(at, token_end));
      }
      at = token_end;
    } else {
      ++at;
    }
  }
}

std::optional<InstructionId> Module::InstructionAt(Position at) const {
  const std::optional<uint32_t> offset = impl_->OffsetOf(at);
  if (!offset) return std::nullopt;
  // Outside the statements of an unnamed computation (its braces), the
  // statement around it holds the position.
  for (const Impl::Local& c : impl_->ComputationsAt(*offset)) {
    if (std::optional<InstrId> id = impl_->InstructionIn(c, *offset)) {
      return impl_->GlobalInstruction(c.module, *id);
    }
  }
  return std::nullopt;
}

std::optional<Symbol> Module::Resolve(std::string_view name, std::optional<Position> from) const {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  if (name.empty()) return std::nullopt;
  std::optional<Impl::Local> here;
  bool computation_first = false;
  if (from) {
    if (const std::optional<uint32_t> offset = impl_->OffsetOf(*from)) {
      here = impl_->ComputationAt(*offset);
      const auto [begin, end] = NameTokenAt(impl_->source->text(), *offset);
      computation_first = begin != end && IsInComputationAttribute(impl_->source->text(), begin);
    }
  }
  auto instruction = [&](size_t k, std::optional<CompId> only_in) -> std::optional<Symbol> {
    const std::optional<InstrId> id = impl_->FindInstruction(k, name, only_in);
    if (!id) return std::nullopt;
    return Symbol{Symbol::Kind::kInstruction, impl_->GlobalInstruction(k, *id)};
  };
  auto computation = [&](size_t k) -> std::optional<Symbol> {
    const std::optional<CompId> id = impl_->FindComputation(k, name);
    if (!id) return std::nullopt;
    return Symbol{Symbol::Kind::kComputation, impl_->GlobalComputation(k, *id)};
  };
  if (here) {
    if (computation_first) {
      if (auto found = computation(here->module)) return found;
    }
    if (auto found = instruction(here->module, here->id)) return found;
    if (auto found = instruction(here->module, std::nullopt)) return found;
    if (auto found = computation(here->module)) return found;
  }
  for (size_t k = 0; k < impl_->modules.size(); ++k) {
    if (auto found = instruction(k, std::nullopt)) return found;
  }
  for (size_t k = 0; k < impl_->modules.size(); ++k) {
    if (auto found = computation(k)) return found;
  }
  return std::nullopt;
}

std::optional<Location> Module::DefinitionOf(Symbol symbol) const {
  if (symbol.kind == Symbol::Kind::kInstruction) {
    const std::optional<Impl::Local> i = impl_->LocalInstruction(symbol.id);
    if (!i) return std::nullopt;
    return impl_->NameLocation(*impl_->modules[i->module], i->id);
  }
  const std::optional<Impl::Local> c = impl_->LocalComputation(symbol.id);
  if (!c) return std::nullopt;
  return impl_->ComputationNameLocation(*c);
}

std::optional<Location> Module::Definition(std::string_view name,
                                           std::optional<Position> from) const {
  const std::optional<Symbol> symbol = Resolve(name, from);
  if (!symbol) return std::nullopt;
  return DefinitionOf(*symbol);
}

std::string Module::NameAt(Position at) const {
  const std::optional<uint32_t> offset = impl_->OffsetOf(at);
  if (!offset) return {};
  const auto [begin, end] = NameTokenAt(impl_->source->text(), *offset);
  return std::string(impl_->source->text().substr(begin, end - begin));
}

std::optional<Location> Module::DefinitionAt(Position at) const {
  const std::optional<Symbol> symbol = SymbolAt(at);
  if (!symbol) return std::nullopt;
  return DefinitionOf(*symbol);
}

std::optional<Symbol> Module::SymbolAt(Position at) const {
  const std::optional<uint32_t> offset = impl_->OffsetOf(at);
  if (!offset) return std::nullopt;
  const auto [begin, end] = NameTokenAt(impl_->source->text(), *offset);
  if (begin == end) return std::nullopt;
  // A computation's own name, where an instruction elsewhere may have it too.
  for (const Impl::Local& c : impl_->ComputationsAt(begin)) {
    const Computation& comp = impl_->modules[c.module]->computation(c.id);
    if (!comp.is_inline && comp.name_offset == begin) {
      return Symbol{Symbol::Kind::kComputation, impl_->GlobalComputation(c.module, c.id)};
    }
  }
  return Resolve(impl_->source->text().substr(begin, end - begin), at);
}

std::vector<Location> Module::References(Symbol symbol) const {
  std::vector<Location> uses;
  if (symbol.kind == Symbol::Kind::kInstruction) {
    const std::optional<Impl::Local> i = impl_->LocalInstruction(symbol.id);
    if (!i) return {};
    const hlolint::Module& m = *impl_->modules[i->module];
    const std::string_view name = m.name(i->id);
    std::vector<InstructionId> readers = users(symbol.id);
    for (InstructionId s : control_successors(symbol.id)) readers.push_back(s);
    std::sort(readers.begin(), readers.end());
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    for (InstructionId reader : readers) {
      const auto [begin, end] = impl_->UsesRange(*impl_->LocalInstruction(reader));
      impl_->AppendNameUses(begin, end, name, &uses);
    }
  } else {
    const std::optional<Impl::Local> c = impl_->LocalComputation(symbol.id);
    if (!c) return {};
    const hlolint::Module& m = *impl_->modules[c->module];
    if (m.computation(c->id).is_inline) return {};
    const std::string_view name = m.computation_name(c->id);
    for (InstructionId caller : callers(symbol.id)) {
      const auto [begin, end] = impl_->UsesRange(*impl_->LocalInstruction(caller));
      impl_->AppendNameUses(begin, end, name, &uses);
    }
  }
  std::sort(uses.begin(), uses.end(),
            [](const Location& a, const Location& b) { return a.offset < b.offset; });
  uses.erase(std::unique(uses.begin(), uses.end(),
                         [](const Location& a, const Location& b) { return a.offset == b.offset; }),
             uses.end());
  return uses;
}

}  // namespace hlolint::api
