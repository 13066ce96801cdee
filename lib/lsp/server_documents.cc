// The server's documents: open, edit, save and close them; lint them when
// due and publish what was found; the settings they are linted with.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lsp/diagnostics.h"
#include "lsp/jsonrpc.h"
#include "lsp/positions.h"
#include "lsp/server.h"

namespace hlolint::lsp {
namespace {

constexpr int kMessageError = 1;

// params.textDocument.uri, or empty when missing.
std::string DocumentUri(const nlohmann::json& params) {
  const auto document = params.find("textDocument");
  if (document == params.end() || !document->is_object()) return {};
  const auto uri = document->find("uri");
  return uri != document->end() && uri->is_string() ? uri->get<std::string>() : std::string();
}

std::optional<int64_t> DocumentVersion(const nlohmann::json& params) {
  const nlohmann::json& document = params["textDocument"];
  const auto version = document.find("version");
  if (version == document.end() || !version->is_number_integer()) return std::nullopt;
  return version->get<int64_t>();
}

bool IsConfigurationFile(const std::string& uri) {
  return uri.ends_with("/.hlolint.json") || uri == ".hlolint.json";
}

std::string FileName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Document* Server::FindDocument(const nlohmann::json& params) {
  const auto found = documents_.find(DocumentUri(params));
  return found == documents_.end() ? nullptr : found->second.get();
}

void Server::DidOpen(nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  nlohmann::json* text = nullptr;
  if (!uri.empty()) {
    nlohmann::json& document = params["textDocument"];
    const auto found = document.find("text");
    if (found != document.end()) text = &*found;
  }
  if (text == nullptr || !text->is_string()) {
    log_ << "hlolint lsp: didOpen without a textDocument uri and text\n";
    return;
  }
  documents_[uri] = std::make_unique<Document>(
      uri, std::move(text->get_ref<std::string&>()), DocumentVersion(params));
  ScheduleLint(uri, Clock::duration::zero());
}

void Server::DidChange(nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  Document* document = FindDocument(params);
  if (document == nullptr) {
    log_ << "hlolint lsp: didChange for a document that is not open: " << uri << "\n";
    return;
  }
  const auto changes = params.find("contentChanges");
  nlohmann::json none;
  const std::string error = document->ApplyChanges(changes == params.end() ? none : *changes,
                                                   DocumentVersion(params));
  if (!error.empty()) {
    log_ << "hlolint lsp: didChange ignored, " << error << ": " << uri << "\n";
    return;
  }
  if (document->needs_lint()) {
    ScheduleLint(uri, std::chrono::milliseconds(settings_.debounce_ms));
  }
}

void Server::DidClose(const nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  if (documents_.erase(uri) == 0) return;
  lint_due_.erase(uri);
  // Clear the editor's list: the findings of a closed file would go stale.
  Send(Notification("textDocument/publishDiagnostics",
                    {{"uri", uri}, {"diagnostics", nlohmann::json::array()}}));
}

void Server::DidSave(const nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  if (IsConfigurationFile(uri)) {
    ApplySettings(workspace_settings_);  // every document may be linted differently now
    return;
  }
  if (documents_.contains(uri)) ScheduleLint(uri, Clock::duration::zero());
}

void Server::DidChangeConfiguration(const nlohmann::json& params) {
  const auto settings = params.find("settings");
  ApplySettings(settings == params.end() ? nlohmann::json() : *settings);
}

void Server::ApplySettings(const nlohmann::json& workspace_settings) {
  std::vector<std::string> errors;
  ServerSettings settings = lsp::ApplySettings(command_line_settings_, initialization_options_,
                                               &errors);
  settings = lsp::ApplySettings(settings, workspace_settings, &errors);
  api::Linter linter(settings.lint);
  for (const api::LintError& error : linter.option_errors()) errors.push_back(error.message);
  for (const std::string& error : errors) {
    log_ << "hlolint lsp: " << error << "\n";
    ShowMessage(kMessageError, error);
  }
  // A linter that refuses its options would lint nothing: keep the last
  // one that worked. (A configuration file's own errors are published on
  // the file by each lint.)
  if (linter.option_errors().empty()) {
    settings_ = std::move(settings);
    linter_ = std::move(linter);
    workspace_settings_ = workspace_settings;
  }
  ScheduleLintOfAll();
}

void Server::ScheduleLint(const std::string& uri, Clock::duration delay) {
  lint_due_[uri] = Clock::now() + delay;
}

void Server::ScheduleLintOfAll() {
  for (const auto& [uri, document] : documents_) ScheduleLint(uri, Clock::duration::zero());
}

std::optional<Server::Clock::time_point> Server::NextLintDue() const {
  std::optional<Clock::time_point> next;
  for (const auto& [uri, due] : lint_due_) {
    if (!next || due < *next) next = due;
  }
  return next;
}

void Server::LintDue(Clock::time_point now) {
  std::vector<std::string> due;
  for (const auto& [uri, at] : lint_due_) {
    if (at <= now) due.push_back(uri);
  }
  for (const std::string& uri : due) {
    lint_due_.erase(uri);
    const auto document = documents_.find(uri);
    if (document != documents_.end()) LintAndPublish(*document->second);
  }
}

void Server::LintAndPublish(Document& document) {
  lint_due_.erase(document.uri());
  const std::optional<std::string> token =
      document.size() >= settings_.progress_min_bytes ? TakeProgressToken() : std::nullopt;
  if (token) {
    Send(Notification("$/progress", {{"token", *token},
                                     {"value",
                                      {{"kind", "begin"},
                                       {"title", "hlolint"},
                                       {"message", "linting " + FileName(document.path())}}}}));
  }
  document.Lint(linter_);
  const api::LintResult& findings = document.findings();
  if (token) {
    const std::string message = std::to_string(findings.diagnostics.size()) + " findings in " +
                                FileName(document.path());
    Send(Notification("$/progress",
                      {{"token", *token}, {"value", {{"kind", "end"}, {"message", message}}}}));
  }
  Send(Notification("textDocument/publishDiagnostics",
                    PublishDiagnosticsParams(document.uri(), document.version(),
                                             document.module().text(), findings,
                                             settings_.rule_docs_url)));
  PublishConfigurationErrors(document);
  if (token) RequestProgressToken();  // for the next long lint
}

// Errors in a configuration file are shown on that file (the editor lists
// them under it) and logged; they are cleared when a later lint of the
// same document no longer meets them.
void Server::PublishConfigurationErrors(Document& document) {
  std::map<std::string, nlohmann::json> by_file;
  for (const api::LintError& error : document.findings().errors) {
    log_ << "hlolint lsp: " << document.uri() << ": " << error.message << "\n";
    if (!error.location || error.location->path.empty()) continue;
    nlohmann::json& list = by_file[error.location->path];
    if (list.is_null()) list = nlohmann::json::array();
    list.push_back({{"range", RangeIn({}, *error.location)},
                    {"severity", 1},
                    {"source", "hlolint"},
                    {"message", error.message}});
  }
  std::set<std::string>& published = configuration_errors_[document.uri()];
  for (const std::string& path : published) {
    if (!by_file.contains(path)) {
      Send(Notification("textDocument/publishDiagnostics",
                        {{"uri", UriFromPath(path)}, {"diagnostics", nlohmann::json::array()}}));
    }
  }
  published.clear();
  for (auto& [path, diagnostics] : by_file) {
    Send(Notification("textDocument/publishDiagnostics",
                      {{"uri", UriFromPath(path)}, {"diagnostics", std::move(diagnostics)}}));
    published.insert(path);
  }
}

// A token must be created by the client before it is used; one is asked
// for ahead of the lint that will use it, so no lint waits for the client.
void Server::RequestProgressToken() {
  if (!client_shows_progress_ || progress_token_ || !token_requests_.empty()) return;
  const uint64_t n = next_request_id_++;
  const std::string id = "hlolint/" + std::to_string(n);
  const std::string token = "hlolint/lint/" + std::to_string(n);
  token_requests_[id] = token;
  Send({{"jsonrpc", "2.0"},
        {"id", id},
        {"method", "window/workDoneProgress/create"},
        {"params", {{"token", token}}}});
}

std::optional<std::string> Server::TakeProgressToken() {
  std::optional<std::string> token = std::move(progress_token_);
  progress_token_.reset();
  return token;
}

}  // namespace hlolint::lsp
