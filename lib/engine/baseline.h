// Baselines for generated dumps: record today's findings once
// (--write-baseline FILE) and from then on report only new ones
// (--baseline FILE). Findings are matched by fingerprint (see
// diag/fingerprint.h), never by line, so renumbered instruction names and
// shifted lines do not resurrect old findings. A fingerprint recorded N times
// silences at most N findings. See docs/baselines.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/lint.h"

namespace hlolint {

struct Baseline {
  std::map<std::string, uint32_t> counts;  // fingerprint -> occurrences recorded
};

// Reads a baseline file; false with a located message on failure.
bool LoadBaseline(const std::string& path, Baseline* out, std::string* error);
bool ParseBaseline(std::string_view text, const std::string& path, Baseline* out,
                   std::string* error);

// The baseline document (JSON text) recording every diagnostic in `files`.
// Entries are sorted by rule and fingerprint, so re-writing a baseline after
// unrelated changes gives a small diff.
std::string BaselineDocument(const std::vector<FileResult>& files);

// Removes the diagnostics the baseline accounts for (in file order, then
// diagnostic order) and returns how many were removed. `stale`, when given,
// is set to the number of baseline entries (fingerprints) that matched no
// finding at all: what was recorded there has been fixed or changed, and
// the entry would hide the same finding if it came back.
uint64_t ApplyBaseline(const Baseline& baseline, std::vector<FileResult>& files,
                       uint64_t* stale = nullptr);

}  // namespace hlolint
