#include "engine/dump_sequence.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "analysis/layout_phase.h"
#include "dump/dump_name.h"
#include "dump/pass_names.h"
#include "util/hash.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string_view Basename(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view Directory(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

DumpKind KindOf(DumpFileName::Kind kind) {
  switch (kind) {
    case DumpFileName::Kind::kBeforeOptimizations: return DumpKind::kBeforeOptimizations;
    case DumpFileName::Kind::kAfterOptimizations: return DumpKind::kAfterOptimizations;
    case DumpFileName::Kind::kBetweenPasses: return DumpKind::kBetweenPasses;
    case DumpFileName::Kind::kWithinPass: return DumpKind::kWithinPass;
  }
  return DumpKind::kBetweenPasses;
}

// What a name alone says about ReshapeDecomposer: a dump right after layout
// assignment precedes it, a dump right after it follows it.
DecomposerState DecomposerStateFromName(const DumpContext& c) {
  if (c.kind != DumpKind::kBetweenPasses && c.kind != DumpKind::kAssumed) {
    return DecomposerState::kUnknown;
  }
  if (IsLayoutAssignmentPass(c.after_pass)) return DecomposerState::kNotSinceLayoutAssignment;
  if (IsReshapeDecomposerPass(c.after_pass)) return DecomposerState::kRanSinceLayoutAssignment;
  return DecomposerState::kUnknown;
}

// Dump order within a group: before_optimizations, the stepped dumps by
// step, after_optimizations; the name breaks ties (two compilations of one
// module id in one directory, without timestamps).
std::tuple<int, int64_t, std::string_view> OrderKey(const DumpContext& c, std::string_view path) {
  int rank = 1;
  if (c.kind == DumpKind::kBeforeOptimizations) rank = 0;
  if (c.kind == DumpKind::kAfterOptimizations) rank = 2;
  return {rank, c.step.value_or(0), Basename(path)};
}

// Fills next_pass and the ReshapeDecomposer state of a group's dumps from
// their neighbours, walking them in dump order.
void ReadSequence(const DumpGroup& group, std::vector<std::optional<DumpContext>>& contexts) {
  DecomposerState state = DecomposerState::kUnknown;
  auto ran = [&](std::string_view pass) {
    if (IsLayoutAssignmentPass(pass)) state = DecomposerState::kNotSinceLayoutAssignment;
    if (IsReshapeDecomposerPass(pass)) state = DecomposerState::kRanSinceLayoutAssignment;
  };
  bool assigned = false;
  const DumpContext* previous = nullptr;
  for (size_t pos = 0; pos < group.files.size(); ++pos) {
    DumpContext& c = *contexts[group.files[pos]];
    // Layouts stay assigned once a dump's pass names say they are.
    assigned = assigned || LayoutPhase::PassNamesImplyAssignedLayouts(c.pipeline, c.LastPass(),
                                                                      c.before_pass);
    c.after_layout_assignment = assigned;
    c.in_sequence = true;
    // The pass the previous dump was taken before has run since, unless
    // this dump was taken inside it.
    if (previous != nullptr && previous->kind == DumpKind::kBetweenPasses &&
        !IsPipelineBoundary(previous->before_pass) &&
        !(c.kind == DumpKind::kWithinPass && c.during_pass == previous->before_pass)) {
      ran(previous->before_pass);
    }
    if (c.kind == DumpKind::kBetweenPasses) ran(c.after_pass);
    if (state == DecomposerState::kNotSinceLayoutAssignment) assigned = true;
    c.after_layout_assignment = assigned;
    if (state != DecomposerState::kUnknown && c.kind != DumpKind::kAfterOptimizations &&
        c.kind != DumpKind::kBeforeOptimizations) {
      c.reshape_decomposer = state;
    }
    if (pos + 1 < group.files.size()) {
      const DumpContext& next = *contexts[group.files[pos + 1]];
      // Only a dump that directly follows (no missing step) tells what ran next.
      // A pipeline's first dump is this module unchanged: what runs next is
      // that pipeline's first pass.
      if (c.step && next.step && *next.step == *c.step + 1) {
        if (next.kind == DumpKind::kBetweenPasses) {
          c.next_pass = next.after_pass == "pipeline-start" ? next.before_pass : next.after_pass;
        }
        if (next.kind == DumpKind::kWithinPass) c.next_pass = next.during_pass;
      }
    }
    previous = &c;
  }
  // A later dump after layout assignment tells that the ones before it
  // were taken before it.
  bool later_assigned = false;
  for (size_t pos = group.files.size(); pos-- > 0;) {
    DumpContext& c = *contexts[group.files[pos]];
    if (!c.after_layout_assignment && later_assigned && c.kind != DumpKind::kAfterOptimizations) {
      c.before_layout_assignment = true;
    }
    later_assigned = later_assigned || c.after_layout_assignment;
  }
  // Only the after-optimizations dump names the platform (the backend);
  // it is every dump's of the module.
  std::string platform;
  for (size_t file : group.files) {
    if (!contexts[file]->platform.empty()) platform = contexts[file]->platform;
  }
  for (size_t file : group.files) contexts[file]->sequence_platform = platform;
}

bool IsIncomplete(const FileResult& result) {
  return result.io_error || result.unparsed_modules > 0;
}

// The Nth diagnostic with one fingerprint in a file is a finding of its own.
std::string FindingKey(const Diagnostic& d,
                       absl::flat_hash_map<std::string_view, uint32_t, StringViewHash>& seen_in_file) {
  const uint32_t n = seen_in_file[d.fingerprint]++;
  return n == 0 ? d.fingerprint : StrCat(d.fingerprint, "#", n);
}

// One run of a finding: the dumps from where it appears to where it was
// last seen before a dump without it. A finding that is fixed and comes
// back later has a second run, reported again where it comes back.
struct FindingTrack {
  std::optional<uint32_t> previous_run;  // the finding's run before this one
  size_t first_pos = 0;
  size_t last_pos = 0;
  uint32_t dumps = 0;
  Severity first_severity = Severity::kError;
  std::string rule;
  std::optional<Severity> reported;  // highest severity reported so far
  std::shared_ptr<DumpHistory> history;
};

class SequenceTracker {
 public:
  SequenceTracker(const DumpPlan& plan, const DumpGroup& group, std::vector<FileResult>& results)
      : plan_(plan), group_(group), results_(results) {}

  DumpGroupStats Track(bool every_dump) {
    DumpGroupStats stats;
    const size_t n = group_.files.size();
    stats.files.resize(n);
    // complete_before[p]: dumps before position p that were read and parsed
    // (only those can show that a finding is gone).
    std::vector<uint32_t> complete_before(n + 1, 0);
    std::vector<std::vector<uint32_t>> run_of;  // per dump, per diagnostic: its run
    run_of.resize(n);
    for (size_t pos = 0; pos < n; ++pos) {
      FileResult& result = results_[group_.files[pos]];
      DumpFileStats& file = stats.files[pos];
      file.file = group_.files[pos];
      file.findings = static_cast<uint32_t>(result.diagnostics.size());
      file.incomplete = IsIncomplete(result);
      complete_before[pos + 1] = complete_before[pos] + (file.incomplete ? 0 : 1);
      run_of[pos].reserve(result.diagnostics.size());
      Seen seen;
      for (const Diagnostic& d : result.diagnostics) {
        auto [it, inserted] =
            index_.try_emplace(FindingKey(d, seen), static_cast<uint32_t>(tracks_.size()));
        const bool gone_in_between =
            !inserted && complete_before[pos] > complete_before[tracks_[it->second].last_pos + 1];
        if (inserted || gone_in_between) {
          std::optional<uint32_t> previous;
          if (!inserted) previous = it->second;
          it->second = static_cast<uint32_t>(tracks_.size());
          FindingTrack& added = tracks_.emplace_back();
          added.previous_run = previous;
          added.first_pos = pos;
          added.first_severity = d.severity;
          added.rule = d.rule;
        }
        FindingTrack& t = tracks_[it->second];
        t.last_pos = pos;
        ++t.dumps;
        run_of[pos].push_back(it->second);
      }
    }
    stats.findings = static_cast<uint32_t>(tracks_.size());
    // next_complete[p]: the first dump at or after position p that was read
    // and parsed (n if none), where a finding missing from it was fixed.
    std::vector<size_t> next_complete(n + 1, n);
    for (size_t pos = n; pos-- > 0;) {
      next_complete[pos] = stats.files[pos].incomplete ? next_complete[pos + 1] : pos;
    }
    for (FindingTrack& track : tracks_) {
      FindingTrack* t = &track;
      auto history = std::make_shared<DumpHistory>();
      history->first_seen = Point(t->first_pos);
      history->in_first_dump = t->first_pos == 0;
      history->last_seen = Point(t->last_pos);
      history->in_last_dump = t->last_pos + 1 == n;
      history->dumps = t->dumps;
      history->sequence_dumps = static_cast<uint32_t>(n);
      history->first_severity = t->first_severity;
      if (t->previous_run) {
        // Runs are in order of first appearance: the earlier ones have
        // their histories already.
        const DumpHistory& earlier = *tracks_[*t->previous_run].history;
        history->earliest_seen = earlier.earliest_seen ? earlier.earliest_seen : earlier.first_seen;
        history->earlier_fixed_after = earlier.fixed_after;
      }
      ++stats.files[t->first_pos].introduced;
      ++stats.files[t->first_pos].introduced_by_rule[t->rule];
      if (const size_t pos = next_complete[t->last_pos + 1]; pos < n) {
        history->fixed_after = Point(pos);
        ++stats.files[pos].fixed;
        ++stats.files[pos].fixed_by_rule[t->rule];
        ++stats.fixed;
      }
      t->history = std::move(history);
    }
    // Attach histories; keep first appearances (and escalations).
    for (size_t pos = 0; pos < n; ++pos) {
      std::vector<Diagnostic>& diagnostics = results_[group_.files[pos]].diagnostics;
      std::vector<bool> keep(diagnostics.size());
      for (size_t i = 0; i < diagnostics.size(); ++i) {
        Diagnostic& d = diagnostics[i];
        FindingTrack& t = tracks_[run_of[pos][i]];
        d.history = t.history;
        const bool escalates = t.reported && d.severity > *t.reported;
        keep[i] = every_dump || pos == t.first_pos || escalates;
        if (keep[i] && (!t.reported || d.severity > *t.reported)) t.reported = d.severity;
      }
      size_t out = 0;
      for (size_t i = 0; i < diagnostics.size(); ++i) {
        if (!keep[i]) continue;
        if (out != i) diagnostics[out] = std::move(diagnostics[i]);
        ++out;
      }
      results_[group_.files[pos]].repeats_not_reported +=
          static_cast<uint32_t>(diagnostics.size() - out);
      diagnostics.resize(out);
    }
    auto info = std::make_shared<DumpSequenceInfo>();
    info->directory = group_.directory;
    info->timestamp = group_.timestamp;
    info->module_id = group_.module_id;
    info->module_name = group_.module_name;
    info->dumps = static_cast<uint32_t>(n);
    info->findings = stats.findings;
    info->fixed = stats.fixed;
    std::optional<int64_t> previous;
    for (size_t file : group_.files) {
      const std::optional<int64_t>& step = plan_.contexts[file]->step;
      if (!step) continue;
      if (!info->first_step) info->first_step = step;
      info->last_step = step;
      if (previous && *step > *previous + 1) info->missing_steps += *step - *previous - 1;
      previous = step;
    }
    for (size_t file : group_.files) results_[file].sequence = info;
    return stats;
  }

 private:
  using Seen = absl::flat_hash_map<std::string_view, uint32_t, StringViewHash>;

  DumpPoint Point(size_t pos) const {
    const DumpContext& c = *plan_.contexts[group_.files[pos]];
    DumpPoint p;
    p.file = results_[group_.files[pos]].path;
    p.step = c.step;
    p.pipeline = c.pipeline;
    p.after_pass = std::string(c.LastPass());
    p.before_pass = c.before_pass;
    p.description = c.Describe();
    if (pos > 0 && c.step) {
      const std::optional<int64_t>& previous = plan_.contexts[group_.files[pos - 1]]->step;
      if (previous && *c.step > *previous + 1) {
        p.missing_from = *previous + 1;
        p.missing_to = *c.step - 1;
      }
    }
    return p;
  }

  const DumpPlan& plan_;
  const DumpGroup& group_;
  std::vector<FileResult>& results_;
  // Distinct findings in order of first appearance, and their keys.
  std::vector<FindingTrack> tracks_;
  absl::flat_hash_map<std::string, uint32_t, StringViewHash, std::equal_to<>> index_;
};

}  // namespace

std::optional<DumpContext> DumpContextFromFileName(std::string_view path) {
  std::optional<DumpFileName> name = ParseDumpFileName(Basename(path));
  if (!name) return std::nullopt;
  DumpContext c;
  c.kind = KindOf(name->kind);
  c.timestamp = name->timestamp;
  c.module_id = name->module_id;
  c.module_name = name->module_name;
  c.step = name->step;
  c.pipeline = name->pipeline;
  c.after_pass = name->after_pass;
  c.before_pass = name->before_pass;
  c.during_pass = name->pass;
  c.step_name = name->step_name;
  c.platform = name->platform;
  c.reshape_decomposer = DecomposerStateFromName(c);
  return c;
}

bool ParseAssumedPass(std::string_view spec, DumpContext* out, std::string* error) {
  DumpContext c;
  c.kind = DumpKind::kAssumed;
  std::string_view rest = spec;
  const size_t before = rest.rfind("before_");
  if (before != std::string_view::npos && (before == 0 || rest.substr(before - 1, 1) == ".")) {
    c.before_pass = std::string(rest.substr(before + 7));
    rest = before == 0 ? std::string_view() : rest.substr(0, before - 1);
    if (c.before_pass.empty()) {
      *error = StrCat("--assume-pass '", spec, "': no pass name after 'before_'");
      return false;
    }
  }
  if (rest.substr(0, 6) == "after_") rest.remove_prefix(6);
  c.after_pass = std::string(rest);
  if (c.after_pass.empty() && c.before_pass.empty()) {
    *error = StrCat("--assume-pass '", spec,
                    "': expected PASS, after_PASS, before_PASS or after_PASS.before_PASS");
    return false;
  }
  c.reshape_decomposer = DecomposerStateFromName(c);
  *out = std::move(c);
  return true;
}

DumpContext ApplyAssumedPass(const std::optional<DumpContext>& own, const DumpContext& assumed) {
  if (!own) return assumed;
  DumpContext c = *own;
  c.kind = DumpKind::kAssumed;
  c.pipeline.clear();
  c.after_pass = assumed.after_pass;
  c.before_pass = assumed.before_pass;
  c.during_pass.clear();
  c.step_name.clear();
  c.reshape_decomposer = assumed.reshape_decomposer;
  return c;
}

bool DumpPlan::has_sequences() const {
  return std::any_of(groups.begin(), groups.end(),
                     [](const DumpGroup& g) { return g.is_sequence(); });
}

DumpPlan PlanDumps(const std::vector<std::string>& paths, bool sequences) {
  DumpPlan plan;
  plan.contexts.reserve(paths.size());
  plan.group_of.assign(paths.size(), -1);
  for (const std::string& path : paths) plan.contexts.push_back(DumpContextFromFileName(path));
  if (!sequences) return plan;

  // Buckets by directory, timestamp and module id, in order of first file.
  using Key = std::tuple<std::string_view, std::string_view, std::string_view>;
  std::map<Key, size_t> bucket_of;
  std::vector<std::vector<size_t>> buckets;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!plan.contexts[i]) continue;
    const DumpContext& c = *plan.contexts[i];
    const Key key{Directory(paths[i]), c.timestamp, c.module_id};
    auto [it, inserted] = bucket_of.try_emplace(key, buckets.size());
    if (inserted) buckets.emplace_back();
    buckets[it->second].push_back(i);
  }
  for (const std::vector<size_t>& bucket : buckets) {
    // XLA drops the module name from names over 255 characters, so a
    // nameless dump belongs with the named ones; two different names under
    // one id (two processes dumping into one directory) are two modules.
    // One pass over the bucket, however many names it holds.
    std::vector<std::string_view> names;  // in order of first appearance
    std::vector<std::vector<size_t>> files_named;  // per name
    std::vector<size_t> nameless;
    absl::flat_hash_map<std::string_view, size_t, StringViewHash> name_index;
    for (size_t i : bucket) {
      const std::string& name = plan.contexts[i]->module_name;
      if (name.empty()) {
        nameless.push_back(i);
        continue;
      }
      auto [it, inserted] = name_index.try_emplace(name, names.size());
      if (inserted) {
        names.push_back(name);
        files_named.emplace_back();
      }
      files_named[it->second].push_back(i);
    }
    if (names.size() <= 1) {  // one module: its nameless dumps with it
      names.resize(1);
      files_named.assign(1, bucket);
    } else {
      names.push_back("");  // the nameless ones, apart
      files_named.push_back(std::move(nameless));
    }
    for (size_t n = 0; n < names.size(); ++n) {
      const std::string_view name = names[n];
      DumpGroup group;
      group.files = std::move(files_named[n]);
      if (group.files.empty()) continue;
      const DumpContext& first = *plan.contexts[group.files.front()];
      group.directory = std::string(Directory(paths[group.files.front()]));
      group.timestamp = first.timestamp;
      group.module_id = first.module_id;
      group.module_name = std::string(name);
      std::stable_sort(group.files.begin(), group.files.end(), [&](size_t a, size_t b) {
        return OrderKey(*plan.contexts[a], paths[a]) < OrderKey(*plan.contexts[b], paths[b]);
      });
      if (group.is_sequence()) ReadSequence(group, plan.contexts);
      const int32_t index = static_cast<int32_t>(plan.groups.size());
      for (size_t i : group.files) plan.group_of[i] = index;
      plan.groups.push_back(std::move(group));
    }
  }
  // Groups in order of their first path.
  std::vector<size_t> order(plan.groups.size());
  std::vector<size_t> first_path(plan.groups.size());
  for (size_t g = 0; g < order.size(); ++g) {
    order[g] = g;
    first_path[g] = *std::min_element(plan.groups[g].files.begin(), plan.groups[g].files.end());
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return first_path[a] < first_path[b]; });
  std::vector<DumpGroup> sorted;
  sorted.reserve(order.size());
  std::vector<int32_t> renumber(order.size());
  for (size_t g : order) {
    renumber[g] = static_cast<int32_t>(sorted.size());
    sorted.push_back(std::move(plan.groups[g]));
  }
  plan.groups = std::move(sorted);
  for (int32_t& g : plan.group_of) {
    if (g >= 0) g = renumber[g];
  }
  return plan;
}

std::vector<size_t> GroupedOrder(const DumpPlan& plan) {
  std::vector<size_t> order;
  order.reserve(plan.contexts.size());
  std::vector<bool> emitted(plan.groups.size());
  for (size_t i = 0; i < plan.contexts.size(); ++i) {
    const int32_t g = plan.group_of[i];
    if (g < 0 || !plan.groups[g].is_sequence()) {
      order.push_back(i);
      continue;
    }
    if (emitted[g]) continue;
    emitted[g] = true;
    for (size_t file : plan.groups[g].files) order.push_back(file);
  }
  return order;
}

std::vector<DumpGroupStats> TrackDumpSequences(const DumpPlan& plan,
                                               std::vector<FileResult>& results, bool every_dump) {
  std::vector<DumpGroupStats> stats;
  stats.reserve(plan.groups.size());
  for (const DumpGroup& group : plan.groups) {
    if (group.is_sequence()) {
      stats.push_back(SequenceTracker(plan, group, results).Track(every_dump));
      continue;
    }
    DumpGroupStats single;
    for (size_t file : group.files) {
      DumpFileStats s;
      s.file = file;
      s.findings = static_cast<uint32_t>(results[file].diagnostics.size());
      s.introduced = s.findings;
      for (const Diagnostic& d : results[file].diagnostics) ++s.introduced_by_rule[d.rule];
      s.incomplete = IsIncomplete(results[file]);
      single.findings += s.findings;
      single.files.push_back(std::move(s));
    }
    stats.push_back(std::move(single));
  }
  return stats;
}

}  // namespace hlolint
