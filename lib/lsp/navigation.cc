#include "lsp/navigation.h"

#include <algorithm>
#include <cctype>

#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

// LSP's SymbolKind and DocumentHighlightKind values.
constexpr int kSymbolModule = 2;
constexpr int kSymbolFunction = 12;
constexpr int kSymbolVariable = 13;
constexpr int kHighlightRead = 2;
constexpr int kHighlightWrite = 3;

nlohmann::json LocationJson(const Document& document, const api::Location& location) {
  return {{"uri", document.uri()}, {"range", RangeIn(document.module().text(), location)}};
}

std::optional<api::Symbol> SymbolAtRequest(const Document& document,
                                           const nlohmann::json& params) {
  const std::optional<api::Position> at = RequestPosition(document, params);
  if (!at) return std::nullopt;
  return document.module().SymbolAt(*at);
}

std::string Lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

nlohmann::json InstructionSymbol(const Document& document, const api::InstructionInfo& info) {
  const std::string_view text = document.module().text();
  return {{"name", info.name},
          {"detail", info.shape.empty() ? info.opcode : info.opcode + " " + info.shape},
          {"kind", kSymbolVariable},
          {"range", RangeIn(text, info.extent)},
          {"selectionRange", RangeIn(text, info.location)}};
}

nlohmann::json ComputationSymbol(const Document& document, const api::ComputationInfo& info,
                                 bool with_instructions) {
  const std::string_view text = document.module().text();
  std::string detail = std::to_string(info.instructions.size()) + " instructions";
  if (info.is_entry) detail = "ENTRY, " + detail;
  nlohmann::json symbol = {{"name", info.name},
                           {"detail", detail},
                           {"kind", kSymbolFunction},
                           {"range", RangeIn(text, info.extent)},
                           {"selectionRange", RangeIn(text, info.location)}};
  if (with_instructions) {
    nlohmann::json children = nlohmann::json::array();
    for (api::InstructionId id : info.instructions) {
      const std::optional<api::InstructionInfo> instruction = document.module().instruction(id);
      if (instruction && !instruction->name.empty()) {
        children.push_back(InstructionSymbol(document, *instruction));
      }
    }
    symbol["children"] = std::move(children);
  }
  return symbol;
}

}  // namespace

std::optional<api::Position> RequestPosition(const Document& document,
                                             const nlohmann::json& params) {
  const auto position = params.find("position");
  if (position == params.end() || !IsLspPosition(*position)) return std::nullopt;
  const std::optional<uint32_t> line = LspLine(*position);
  return ToApiPosition(*position, document.module().Line(*line + 1));
}

nlohmann::json Definition(const Document& document, const nlohmann::json& params) {
  const std::optional<api::Symbol> symbol = SymbolAtRequest(document, params);
  if (!symbol) return nullptr;
  const std::optional<api::Location> definition = document.module().DefinitionOf(*symbol);
  if (!definition) return nullptr;
  return LocationJson(document, *definition);
}

nlohmann::json References(const Document& document, const nlohmann::json& params) {
  nlohmann::json out = nlohmann::json::array();
  const std::optional<api::Symbol> symbol = SymbolAtRequest(document, params);
  if (!symbol) return out;
  const auto context = params.find("context");
  const bool with_declaration = context != params.end() && context->is_object() &&
                                context->value("includeDeclaration", false);
  std::vector<api::Location> uses = document.module().References(*symbol);
  if (with_declaration) {
    if (std::optional<api::Location> definition = document.module().DefinitionOf(*symbol)) {
      uses.insert(uses.begin(), *definition);
    }
  }
  for (const api::Location& use : uses) out.push_back(LocationJson(document, use));
  return out;
}

nlohmann::json DocumentHighlight(const Document& document, const nlohmann::json& params) {
  nlohmann::json out = nlohmann::json::array();
  const std::optional<api::Symbol> symbol = SymbolAtRequest(document, params);
  if (!symbol) return out;
  const std::string_view text = document.module().text();
  if (std::optional<api::Location> definition = document.module().DefinitionOf(*symbol)) {
    out.push_back({{"range", RangeIn(text, *definition)}, {"kind", kHighlightWrite}});
  }
  for (const api::Location& use : document.module().References(*symbol)) {
    out.push_back({{"range", RangeIn(text, use)}, {"kind", kHighlightRead}});
  }
  return out;
}

nlohmann::json DocumentSymbols(const Document& document) {
  const api::Module& module = document.module();
  const std::string_view text = module.text();
  const std::vector<api::ModuleInfo> modules = module.modules();
  const std::vector<api::ComputationInfo> computations = module.computations();
  size_t instructions = 0;
  for (const api::ComputationInfo& c : computations) instructions += c.instructions.size();
  const bool with_instructions = instructions + computations.size() <= kMaxOutlineSymbols;
  // One entry per HLO module of the text, its named computations inside;
  // both are in text order, so the computations are dealt out in one pass.
  nlohmann::json out = nlohmann::json::array();
  for (const api::ModuleInfo& m : modules) {
    out.push_back({{"name", m.name},
                   {"kind", kSymbolModule},
                   {"range", RangeIn(text, m.extent)},
                   {"selectionRange", RangeIn(text, m.location)},
                   {"children", nlohmann::json::array()}});
  }
  size_t k = 0;
  size_t listed = 0;
  for (const api::ComputationInfo& c : computations) {
    if (c.name == "_") continue;  // written inside an attribute: part of that statement
    while (k + 1 < modules.size() && c.extent.offset >= modules[k].extent.end_offset) ++k;
    if (k >= out.size() || ++listed > kMaxOutlineSymbols) break;
    out[k]["children"].push_back(ComputationSymbol(document, c, with_instructions));
  }
  return out;
}

nlohmann::json WorkspaceSymbols(const std::map<std::string, std::unique_ptr<Document>>& documents,
                                const nlohmann::json& params) {
  const auto query_it = params.find("query");
  const std::string query =
      query_it != params.end() && query_it->is_string() ? Lowercase(query_it->get<std::string>())
                                                        : std::string();
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [uri, document] : documents) {
    if (document->needs_parse()) continue;  // the server parses before asking
    for (const api::ComputationInfo& c : document->module().computations()) {
      if (c.name == "_" || Lowercase(c.name).find(query) == std::string::npos) continue;
      out.push_back({{"name", c.name},
                     {"kind", kSymbolFunction},
                     {"location", LocationJson(*document, c.location)},
                     {"containerName", c.module}});
    }
  }
  return out;
}

}  // namespace hlolint::lsp
