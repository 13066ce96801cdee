#include "lsp_command.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "hlolint/lint.h"
#include "lsp/server.h"

namespace hlolint {
namespace {

CLI::Option* AddList(CLI::App& app, const std::string& name, std::vector<std::string>* into,
                     const std::string& help) {
  return app.add_option(name, *into, help)
      ->type_size(1)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',')
      ->type_name("LIST");
}

}  // namespace

int RunLanguageServer(int argc, char** argv) {
  CLI::App app{"hlolint lsp: the language server (LSP 3.17) on stdin and stdout; logs to "
               "stderr. The editor's settings (docs/editors.md) apply over these options.",
               "hlolint lsp"};
  lsp::ServerSettings settings;
  api::LintOptions& lint = settings.lint;
  lint.config = api::ConfigSource::kDiscover;  // the .hlolint.json above each file, as the CLI
  std::vector<std::string> select;
  CLI::Option* select_option = AddList(app, "--select", &select, "Rules to run (default ALL)");
  AddList(app, "--extend-select", &lint.extend_select, "Rules to run in addition");
  AddList(app, "--ignore", &lint.ignore, "Rules not to run");
  std::vector<std::string> overrides;
  AddList(app, "--severity-override", &overrides, "RULE=error|warning|note")
      ->type_name("RULE=LEVEL");
  std::string xla_version, backend, config;
  CLI::Option* xla_option = app.add_option("--xla-version", xla_version, "The XLA to judge for");
  CLI::Option* backend_option = app.add_option("--backend", backend, "auto|cpu|gpu|tpu");
  CLI::Option* config_option = app.add_option("--config", config, "Use this configuration file");
  bool no_config = false;
  app.add_flag("--no-config", no_config, "Ignore every .hlolint.json");
  app.add_option("--debounce-ms", settings.debounce_ms,
                 "Quiet time after an edit before linting again (default 250)");
  app.add_option("--rule-docs-url", settings.rule_docs_url,
                 "Link each finding to URL, with {rule} for the rule id");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "hlolint lsp: error: " << e.what()
              << "\nRun 'hlolint lsp --help' for usage.\n";
    return 2;
  }
  if (select_option->count() > 0) lint.select = select;
  if (xla_option->count() > 0) lint.xla_version = xla_version;
  if (backend_option->count() > 0) lint.backend = backend;
  if (config_option->count() > 0) {
    lint.config = api::ConfigSource::kFile;
    lint.config_file = config;
  }
  if (no_config) lint.config = api::ConfigSource::kNone;
  for (const std::string& item : overrides) {
    const size_t equals = item.find('=');
    const std::optional<api::Severity> level =
        equals == std::string::npos ? std::nullopt : api::SeverityFromName(item.substr(equals + 1));
    if (!level) {
      std::cerr << "hlolint lsp: error: --severity-override: expected RULE=error|warning|note, got '"
                << item << "'\n";
      return 2;
    }
    lint.severity_overrides.emplace_back(item.substr(0, equals), *level);
  }
  // The protocol's bytes are counted exactly; nothing may be buffered
  // behind C stdio's back.
  std::ios::sync_with_stdio(false);
  // An editor that goes away closes the pipe: the server sees a failed write
  // and exits instead of being killed by SIGPIPE mid-message.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::ServerOptions options;
  options.settings = std::move(settings);
  lsp::Server server(std::cin, std::cout, std::cerr, std::move(options));
  const int status = server.Run();
  std::cout.flush();
  // After `exit` the client may keep our stdin open: the reading thread
  // would wait on it forever. Leave without waiting for it.
  std::_Exit(status);
}

}  // namespace hlolint
