// The line-independent identity of a diagnostic, used by baselines and SARIF
// partialFingerprints. It hashes what stays the same when XLA re-dumps a
// module: the rule, module, computation and instruction names with their
// numeric suffixes stripped (add.6 -> add, fusion.123 -> fusion), the
// opcode, the shape and the metadata op_name. Never line numbers. See
// docs/baselines.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"

namespace hlolint {

// Drops the numeric components XLA appends to names: "add.6" -> "add",
// "param_0.7" -> "param_0", "fusion.12.clone.3" -> "fusion.clone", "%p.1" -> "p".
std::string NormalizeHloName(std::string_view name);

// Replaces every run of decimal digits with '#', for free text that quotes
// renumbered names (messages of diagnostics without an instruction).
std::string NormalizeDigits(std::string_view text);

// 16 lowercase hex digits; stable across runs, platforms and versions of
// hlolint that keep the same fingerprint version (kFingerprintVersion).
std::string ComputeFingerprint(const Diagnostic& diagnostic);

// Sets Diagnostic::fingerprint on every diagnostic. The one place that does.
void AssignFingerprints(std::vector<Diagnostic>& diagnostics);

inline constexpr std::string_view kFingerprintVersion = "hlolint/v1";

}  // namespace hlolint
