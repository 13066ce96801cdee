// What is generated from the command line's own definition (the CLI11 app
// of cli_options.cc), so that it cannot drift from --help: the man page,
// the bash, zsh and fish completions, and the options list that
// docs/cli.md is checked against. `hlolint --generate=KIND` prints one;
// the build installs them (CMakeLists.txt).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace hlolint {

// "man", "bash", "zsh", "fish" or "options" (one option a line: names,
// value name, the values it completes, help; tab-separated).
// nullopt for another kind.
std::optional<std::string> Generate(const CLI::App& app, std::string_view kind);

inline constexpr std::string_view kGeneratedKinds = "man, bash, zsh, fish or options";

}  // namespace hlolint
