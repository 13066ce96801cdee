// The options of XLA's HloVerifier (HloVerifierOpts) that hlolint mirrors:
// checks XLA runs only when a pipeline asks for them, and checks a pipeline
// turns off. Set in .hlolint.json as "verify-options", named as in
// HloVerifierOpts (docs/configuration.md).
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace hlolint {

struct VerifierOptions {
  // HloVerifierOpts::layout_sensitive: every module is verified as after
  // layout assignment (rules/checks/layout_sensitive.h), and a
  // non-associative scan is rejected.
  bool layout_sensitive = false;
  // allow_mixed_precision: operands of one op may mix floating-point types.
  // On by default, unlike HloVerifierOpts: the pipelines that write dumps
  // verify with it (docs/rules/verify-shape.md).
  bool allow_mixed_precision = true;
  // allow_unbounded_dynamism: `?` dimensions are allowed. On by default,
  // unlike HloVerifierOpts: the StableHLO export path that writes them
  // verifies with it.
  bool allow_unbounded_dynamism = true;
  bool verify_broadcast_dimensions_order = false;
  bool verify_instruction_name_unchanged = false;
  bool verify_no_host_memory_space = false;
  bool verify_unique_channel_ids = false;
  bool operator==(const VerifierOptions&) const = default;
};

struct VerifierOptionInfo {
  std::string_view name;  // HloVerifierOpts' field name
  bool VerifierOptions::*field;
  std::string_view description;  // one sentence
};

// Every option, in the order docs and --show-settings list them.
std::span<const VerifierOptionInfo> VerifierOptionInfos();
// The option of that name, or null.
const VerifierOptionInfo* FindVerifierOption(std::string_view name);

}  // namespace hlolint
