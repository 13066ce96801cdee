// Dump sequences: the per-pass dumps XLA writes for one module
// (--xla_dump_to=DIR --xla_dump_hlo_pass_re=...), linted together so that
// each finding is reported once, where it first appears, with the pass that
// introduced it and the pass that fixed it (docs/dump-directories.md).
//
// Planning needs only file names, so it happens before any file is read:
// the files of each module are ordered by step and every file learns what
// its neighbours say (the next pass, whether ReshapeDecomposer has run since
// layout assignment). Tracking happens after linting, on the FileResults
// alone (fingerprints, never IR), so a directory of thousands of dumps is
// linted with no more than --jobs modules in memory, at the same speed as
// the same files one by one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dump_context.h"
#include "engine/lint.h"

namespace hlolint {

// The dump context of a file named like an XLA HLO text dump
// (module_0042.jit_f.0007.<pipeline>.after_<a>.before_<b>.txt, ...);
// nullopt for any other name. `path` may include directories.
std::optional<DumpContext> DumpContextFromFileName(std::string_view path);

// --assume-pass SPEC, for a file whose name does not say where it was
// dumped: "P" or "after_P" (taken after pass P), "before_Q" (taken right
// before pass Q) or "after_P.before_Q" (as in dump names). False with a
// message for an empty or malformed SPEC.
bool ParseAssumedPass(std::string_view spec, DumpContext* out, std::string* error);
// `own` (the file's context from its name, if any) with the passes of
// `assumed` in place of its own.
DumpContext ApplyAssumedPass(const std::optional<DumpContext>& own, const DumpContext& assumed);

// The dumps of one module in one directory (and, with timestamps, one
// compilation), in dump order: before_optimizations, then by step, then
// after_optimizations.
struct DumpGroup {
  std::string directory;
  std::string timestamp;
  std::string module_id;
  std::string module_name;
  std::vector<size_t> files;  // indices into the planned paths, in dump order
  // Two or more dumps make a sequence; one dump is linted as a plain file.
  bool is_sequence() const { return files.size() >= 2; }
};

struct DumpPlan {
  std::vector<std::optional<DumpContext>> contexts;  // per path
  std::vector<DumpGroup> groups;                     // in order of their first path
  std::vector<int32_t> group_of;                     // per path: index into groups, or -1
  bool has_sequences() const;
};

// Groups the paths (as linted, in input order) into dump groups and fills
// every dump's context, including what its sequence says. Without
// `sequences` (--no-sequence) every file keeps only what its own name says
// and there are no groups: each dump is linted as a plain file.
DumpPlan PlanDumps(const std::vector<std::string>& paths, bool sequences = true);

// The paths' indices with the files of each sequence together, in dump
// order, where the sequence's first file was; other files stay in place.
std::vector<size_t> GroupedOrder(const DumpPlan& plan);

// Per dump of a group, what tracking found (counts before de-duplication).
struct DumpFileStats {
  size_t file = 0;            // index into the paths / results
  uint32_t findings = 0;      // diagnostics in this dump
  uint32_t introduced = 0;    // findings first seen in this dump
  uint32_t fixed = 0;         // findings whose last appearance was the dump before
  std::map<std::string, uint32_t> introduced_by_rule;
  std::map<std::string, uint32_t> fixed_by_rule;
  // Unreadable, or with parse errors: that a finding is missing here
  // proves nothing, so it does not count as fixed.
  bool incomplete = false;
};

struct DumpGroupStats {
  std::vector<DumpFileStats> files;  // in dump order
  uint32_t findings = 0;             // distinct findings (one that comes back after a fix counts again)
  uint32_t fixed = 0;
};

// For each sequence of the plan (results in path order): gives every
// diagnostic its DumpHistory and each file the sequence's DumpSequenceInfo;
// keeps each distinct finding (same fingerprint; the Nth identical one in a
// file is a finding of its own) only where it first appears, unless
// `every_dump`, or where it comes back with a higher severity than it was
// reported with, or where it comes back after a dump that was read, parsed
// and did not have it (a fix undone). Returns statistics for every group,
// sequences or not.
std::vector<DumpGroupStats> TrackDumpSequences(const DumpPlan& plan,
                                               std::vector<FileResult>& results, bool every_dump);

}  // namespace hlolint
