#include "engine/lint.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <thread>

#include "analysis/analyses.h"
#include "analysis/backend.h"
#include "analysis/attribute_index.h"
#include "analysis/call_attributes.h"
#include "analysis/opcode_index.h"
#include "diag/fingerprint.h"
#include "engine/selection.h"
#include "engine/suppressions.h"
#include "parse/parser.h"
#include "util/strings.h"

namespace hlolint {
namespace {

const Rule* SelectedRule(const LintOptions& options, std::string_view id) {
  for (const Rule* rule : options.rules) {
    if (rule->info().id == id) return rule;
  }
  return nullptr;
}

void ReportParseFailure(const ParsedModule& parsed, const LintOptions& options,
                        std::vector<Diagnostic>* out) {
  const Rule* rule =
      SelectedRule(options, parsed.unsupported_format ? "unsupported-format" : "parse-error");
  if (rule == nullptr) return;
  RuleContext ctx(*rule, parsed.name, out);
  const uint32_t at = parsed.error->offset;
  // XLA's "unexpected attribute" message ends with the list of every
  // attribute allowed there: the list is evidence, not the headline.
  constexpr std::string_view kAllowed = ". Allowed attributes: ";
  const std::string& message = parsed.error->message;
  const size_t list = message.find(kAllowed);
  DiagnosticBuilder diagnostic = ctx.ReportAt({at, at}, message.substr(0, list));
  if (list != std::string::npos) {
    diagnostic.Note(StrCat("allowed attributes here: ", message.substr(list + kAllowed.size())));
  }
  if (!parsed.fix.empty()) diagnostic.Fix(parsed.fix);
  if (parsed.error_note) {
    const uint32_t note_at = parsed.error_note->offset;
    diagnostic.NoteAt({note_at, note_at}, parsed.error_note->message);
  }
}

// A file without any module: empty, or only comments and blank lines.
// XLA's parser rejects such a text ("expects name"), so it is no HLO to
// lint, and a CI gate must not pass on it unnoticed.
void ReportNoModule(const SourceFile& file, const LintOptions& options,
                    std::vector<Diagnostic>* out) {
  const Rule* rule = SelectedRule(options, "unsupported-format");
  if (rule == nullptr) return;
  const std::string_view text = file.text();
  const bool blank = std::all_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  });
  RuleContext ctx(*rule, /*module_name=*/"", out);
  ctx.ReportAt({0, 0}, StrCat("no HLO module in this file: it ",
                              blank ? "is empty" : "holds only comments and blank lines",
                              " (XLA's parser rejects it too: expects name)"))
      .Fix("lint the dump itself (an HloModule, ENTRY or computation), or leave this file out");
}

// Reports the ids of suppression comments that silenced nothing, and
// malformed `hlolint:` comments. An id whose rule did not run (not selected
// here) is not reported: it may well be needed when the rule runs.
void ReportUnusedSuppressions(const std::vector<Suppression>& suppressions,
                              const LintOptions& options, std::vector<Diagnostic>* out) {
  const Rule* self = SelectedRule(options, kUnusedSuppression);
  if (self == nullptr) return;
  const std::vector<const Rule*>& known =
      options.known_rules.empty() ? options.rules : options.known_rules;
  const bool every_rule_ran = options.rules.size() >= known.size();
  RuleContext ctx(*self, /*module_name=*/"", out);
  auto report = [&](SourceSpan span, std::string message, std::string fix,
                    std::optional<Replacement> edit = std::nullopt) {
    DiagnosticBuilder d = ctx.ReportAt(span, std::move(message));
    d.Fix(std::move(fix));
    if (edit) d.Replace(edit->span, std::move(edit->text));
  };
  // The fix of an unused id: remove the comment when it names only that
  // id, else the id.
  auto removal = [](const Suppression& s, const SuppressedRule& r) {
    return Replacement{s.rules.size() == 1 ? s.removal : r.removal, "", {}};
  };
  for (const Suppression& s : suppressions) {
    if (!s.error.empty()) {
      report(s.span, StrCat("malformed suppression comment: ", s.error),
             "write `// hlolint: ignore[RULE] reason` (or `ignore-file[RULE]` for the whole file)");
      continue;
    }
    for (const SuppressedRule& r : s.rules) {
      if (r.used) continue;
      if (r.id == "ALL") {
        if (every_rule_ran) {
          report(r.span,
                 StrCat("suppression `", s.whole_file ? "ignore-file" : "ignore",
                        "[ALL]` silences nothing"),
                 "remove the comment", removal(s, r));
        }
        continue;
      }
      const bool is_known = std::any_of(known.begin(), known.end(), [&](const Rule* rule) {
        return rule->info().id == r.id;
      });
      if (!is_known) {
        std::vector<std::string_view> ids = {"ALL"};
        for (const Rule* rule : known) ids.push_back(rule->info().id);
        const std::string suggestion = ClosestMatch(r.id, ids);
        if (suggestion.empty()) {
          report(r.span, StrCat("suppression names unknown rule '", r.id, "'"),
                 "see `hlolint --list-rules`");
        } else {
          report(r.span, StrCat("suppression names unknown rule '", r.id, "'"),
                 StrCat("did you mean '", suggestion, "'?"), Replacement{r.span, suggestion, {}});
        }
        continue;
      }
      if (SelectedRule(options, r.id) == nullptr) continue;
      if (s.whole_file) {
        report(r.span, StrCat("file-wide suppression of '", r.id, "' silences nothing"),
               s.rules.size() == 1 ? "remove the comment" : "remove the id from the comment",
               removal(s, r));
      } else if (s.target_line == 0) {
        report(r.span, StrCat("suppression of '", r.id, "' has no line to apply to"),
               "put the comment on the line it silences, or on the line before it");
      } else {
        report(r.span, StrCat("suppression of '", r.id, "' silences nothing"),
               s.rules.size() == 1 ? "remove the comment" : "remove the id from the comment",
               removal(s, r));
      }
    }
  }
}

void RunRule(const Rule& rule, const Module& module, Analyses& analyses,
             const LintOptions& options, std::vector<Diagnostic>* sink) {
  static const nlohmann::json kNoOptions = nlohmann::json::object();
  const std::string id(rule.info().id);
  const nlohmann::json& rule_options =
      options.rule_options.contains(id) ? options.rule_options.at(id) : kNoOptions;
  RuleContext ctx(module, analyses, rule, rule_options, options.dump, sink);
  ctx.set_verifier_options(&options.verifier);
  rule.Check(ctx);
}

// The order in which threads take the rules of a module: the costliest
// first, so that the last to start are short and the threads finish
// together; rules of the same cost in the order given.
std::vector<size_t> CostliestFirst(const std::vector<const Rule*>& rules) {
  std::vector<size_t> order(rules.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return rules[a]->info().cost > rules[b]->info().cost;
  });
  return order;
}

bool IsVerifierRule(const Rule* rule) { return rule->info().category == RuleCategory::kVerify; }

// The other rules' analyses (in-place pairs, custom-call aliasing, the
// layout phase, reachability) serve no verifier rule. Freed before the
// verifier rules run, their memory holds what the verifier rules build
// instead of fresh pages, which cost more to map in than reused ones on a
// host that takes freed memory back (docs/performance.md). The indices both
// families read stay. Which analyses stay is only a matter of speed: a
// verifier rule asking for a released one gets it built again.
void ReleaseAnalysesVerifiersDoNotUse(Analyses& analyses) {
  analyses.ReleaseAllBut<OpcodeIndex, AttributeIndex, CallAttributes>();
}

// On one thread, in the order given. Once the last rule of the other
// categories has run, the analyses only they use are freed before the
// verifier rules left run.
void RunRulesInOrder(const Module& module, Analyses& analyses, const LintOptions& options,
                     std::vector<Diagnostic>* out) {
  const std::vector<const Rule*>& rules = options.rules;
  const auto last_other = std::find_if_not(rules.rbegin(), rules.rend(), IsVerifierRule);
  const size_t release_after =
      last_other == rules.rend() ? rules.size() : static_cast<size_t>(rules.rend() - last_other) - 1;
  for (size_t r = 0; r < rules.size(); ++r) {
    RunRule(*rules[r], module, analyses, options, out);
    if (r == release_after && r + 1 < rules.size()) ReleaseAnalysesVerifiersDoNotUse(analyses);
  }
}

}  // namespace

// In parallel: threads take the rules costliest first from a shared index,
// each rule writing into a list of its own; analyses are shared (Analyses
// is safe for concurrent use). The lists are appended in rule order.
void RunRules(const Module& module, const LintOptions& options, std::vector<Diagnostic>* out) {
  Analyses analyses(module, options.xla);
  if (options.detect_backend && !options.rules.empty()) {
    const std::string_view platform = options.dump ? options.dump->Platform() : "";
    analyses.set_xla(options.xla.WithBackend(
        DetectBackend(module, platform, analyses.Get<OpcodeIndex>())));
  }
  const std::vector<const Rule*>& rules = options.rules;
  const size_t threads = std::min<size_t>(std::max(options.module_threads, 1), rules.size());
  const uint32_t text_bytes = module.end_offset() - module.begin_offset();
  if (threads < 2 || text_bytes < options.parallel_rules_min_bytes) {
    RunRulesInOrder(module, analyses, options, out);
    return;
  }

  const std::vector<size_t> order = CostliestFirst(rules);
  std::vector<std::vector<Diagnostic>> found(rules.size());
  std::vector<std::exception_ptr> failures(rules.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t k = next.fetch_add(1); k < order.size(); k = next.fetch_add(1)) {
      if (failed.load(std::memory_order_relaxed)) return;  // the caller gets an exception anyway
      const size_t r = order[k];
      try {
        RunRule(*rules[r], module, analyses, options, &found[r]);
      } catch (...) {
        // Escaping a thread's function would end the process.
        failures[r] = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(work);
    } catch (...) {
      // No thread to be had (std::system_error, std::bad_alloc): fewer do
      // the work. Letting it escape would destroy running threads.
      break;
    }
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);  // the first failed rule's, in rule order
  }
  size_t total = 0;
  for (const std::vector<Diagnostic>& list : found) total += list.size();
  out->reserve(out->size() + total);
  for (std::vector<Diagnostic>& list : found) {
    std::move(list.begin(), list.end(), std::back_inserter(*out));
  }
}

FileResult LintSource(SourceFile& file, const LintOptions& options) {
  // Before the parse, so the markers are found while the text is read.
  WatchForSuppressions(file);
  FileResult result;
  result.path = file.path();
  result.bytes = file.size();
  if (options.dump != nullptr) result.dump = *options.dump;
  std::vector<Diagnostic>& diagnostics = result.diagnostics;
  ParseLimits limits = options.limits;
  limits.threads = std::max(1, options.module_threads);
  limits.xla = options.xla;
  ParseModules(
      file,
      [&](ParsedModule&& parsed) {
        ++result.modules;
        result.computations += parsed.computation_count;
        result.instructions += parsed.instruction_count;
        if (parsed.error) {
          ++result.unparsed_modules;
          ReportParseFailure(parsed, options, &diagnostics);
          return;
        }
        RunRules(*parsed.module, options, &diagnostics);
      },
      limits);
  if (result.modules == 0) {
    ++result.unparsed_modules;  // no module is no HLO text either
    ReportNoModule(file, options, &diagnostics);
  }
  for (Diagnostic& d : diagnostics) Resolve(file, d);

  std::vector<Suppression> suppressions = FindSuppressions(file);
  if (!suppressions.empty()) {
    result.suppressed = ApplySuppressions(suppressions, diagnostics);
    const size_t first_new = diagnostics.size();
    ReportUnusedSuppressions(suppressions, options, &diagnostics);
    for (size_t i = first_new; i < diagnostics.size(); ++i) Resolve(file, diagnostics[i]);
  }
  for (Diagnostic& d : diagnostics) {
    auto it = options.severity_overrides.find(d.rule);
    if (it != options.severity_overrides.end()) d.severity = it->second;
  }
  AssignFingerprints(diagnostics);
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.span.begin != b.span.begin) return a.span.begin < b.span.begin;
                     return a.rule < b.rule;
                   });
  return result;
}

FileResult LintFile(const std::string& path, const std::string& display_path,
                    const LintOptions& options, ReadBuffer* buffer) {
  auto file = SourceFile::Open(path, display_path, buffer);
  if (!file.ok()) {
    FileResult result;
    result.path = display_path;
    result.io_error = true;
    result.io_error_message = std::string(file.status().message());
    if (options.dump != nullptr) result.dump = *options.dump;
    return result;
  }
  FileResult result = LintSource(**file, options);
  if ((*file)->ChangedWhileRead()) {
    // Its findings are those of a file that no longer exists.
    result.diagnostics.clear();
    result.suppressed = 0;
    result.io_error = true;
    result.io_error_message =
        "'" + path + "' was truncated while hlolint read it; lint it again once it is written";
  }
  return result;
}

}  // namespace hlolint
