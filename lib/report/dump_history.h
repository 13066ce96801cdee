// How reporters show what dump names and dump sequences add to a finding
// (docs/dump-directories.md): the dump a file is, and, in sequence mode,
// where the finding was first seen and where it was fixed.
#pragma once

#include <string>
#include <vector>

#include "engine/lint.h"
#include "nlohmann/json.hpp"

namespace hlolint {

// "first seen after pass 'P' (pipeline 'Q', step N)" and "fixed after pass
// ..." (or "not fixed: ..."): the lines the text formats print for a
// finding of a dump sequence; empty without a history.
std::vector<std::string> DumpHistoryLines(const FileResult& file, const Diagnostic& d);

// The heading of a dump sequence in the full format:
// "module 0001 jit_f in DIR: 6 dumps (steps 0-5); 1 finding, 1 fixed".
std::string SequenceHeadline(const DumpSequenceInfo& sequence);

// {"module_id", "module_name", "kind", "step", "pipeline", "after_pass",
// "before_pass", ...}: the "dump" object of the json format.
nlohmann::ordered_json DumpContextToJson(const DumpContext& dump);
// {"file", "step", "pipeline", "after_pass", "before_pass", "description"
// [, "missing_steps": [from, to]]}: first_seen, last_seen and fixed_after.
nlohmann::ordered_json DumpPointToJson(const DumpPoint& point);
// Adds "dump", "first_seen", "last_seen" and "fixed_after" to `j` (a
// diagnostic object or SARIF result properties) when they apply.
void AddDumpFields(const FileResult& file, const Diagnostic& d, nlohmann::ordered_json& j);

}  // namespace hlolint
