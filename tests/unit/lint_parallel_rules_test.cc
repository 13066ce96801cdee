// The rules of one module may run on several threads
// (LintOptions::module_threads). These tests require the same findings, in
// the same order, as on one thread, for every HLO file we have; exceptions
// of rules on worker threads reaching the caller; suppression comments of a
// large mapped file still honoured; and Analyses built once when several
// threads ask at the same time.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "analysis/analyses.h"
#include "corpus_sample.h"
#include "engine/lint.h"
#include "parse/parser.h"
#include "rules/registry.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

namespace fs = std::filesystem;

// Everything a reporter could show of a diagnostic, one line.
std::string Describe(const Diagnostic& d) {
  std::ostringstream out;
  out << d.rule << " " << SeverityName(d.severity) << " [" << d.span.begin << "," << d.span.end
      << ") " << d.resolved.line << ":" << d.resolved.column << "-" << d.resolved.end_line << ":"
      << d.resolved.end_column << " module=" << d.module << " comp=" << d.computation
      << " instr=" << d.instruction << " opcode=" << d.opcode << " shape=" << d.shape
      << " op_name=" << d.op_name << " fix=" << d.fix << " fp=" << d.fingerprint
      << " line=" << d.source_line << " msg=" << d.message;
  if (d.source) out << " source=" << d.source->file << ":" << d.source->line;
  for (const DiagnosticNote& note : d.notes) {
    out << " | note";
    if (note.span) out << " [" << note.span->begin << "," << note.span->end << ")";
    out << " " << note.resolved.line << ":" << note.resolved.column << " " << note.message;
  }
  return out.str();
}

std::vector<std::string> DescribeAll(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> lines;
  for (const Diagnostic& d : diagnostics) lines.push_back(Describe(d));
  return lines;
}

LintOptions AllRulesOptions(int module_threads) {
  LintOptions options;
  options.rules = AllRules();
  options.known_rules = AllRules();
  options.module_threads = module_threads;
  if (module_threads > 1) options.parallel_rules_min_bytes = 0;  // even tiny modules
  return options;
}

// The first difference, or "" when both lists are the same.
std::string FirstDifference(const std::vector<std::string>& expected,
                            const std::vector<std::string>& actual) {
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    const std::string e = i < expected.size() ? expected[i] : "(none)";
    const std::string a = i < actual.size() ? actual[i] : "(none)";
    if (e != a) {
      return "diagnostic " + std::to_string(i) + " of " + std::to_string(expected.size()) +
             " (one thread) vs " + std::to_string(actual.size()) + " (4 threads):\n  one thread: " +
             e + "\n  4 threads:  " + a;
    }
  }
  return "";
}

// Lints `file` on one thread and on four, and requires the same result:
// both the raw findings of each module in rule order (RunRules) and the
// file's final, resolved, suppressed, fingerprinted and sorted list.
// Returns the number of diagnostics compared.
size_t CheckSameOnFourThreads(SourceFile& file) {
  const LintOptions one = AllRulesOptions(1);
  const LintOptions four = AllRulesOptions(4);
  size_t compared = 0;
  ParseModules(file, [&](ParsedModule&& parsed) {
    if (parsed.module == nullptr) return;
    std::vector<Diagnostic> sequential, parallel;
    RunRules(*parsed.module, one, &sequential);
    RunRules(*parsed.module, four, &parallel);
    for (Diagnostic& d : sequential) Resolve(file, d);
    for (Diagnostic& d : parallel) Resolve(file, d);
    const std::string difference = FirstDifference(DescribeAll(sequential), DescribeAll(parallel));
    if (!difference.empty()) FAIL(file.path() << ", module " << parsed.name << ": " << difference);
    compared += sequential.size();
  });
  const FileResult sequential = LintSource(file, one);
  const FileResult parallel = LintSource(file, four);
  const std::string difference =
      FirstDifference(DescribeAll(sequential.diagnostics), DescribeAll(parallel.diagnostics));
  if (!difference.empty()) FAIL(file.path() << ": " << difference);
  CHECK(sequential.suppressed == parallel.suppressed);
  return compared + sequential.diagnostics.size();
}

size_t CheckEveryHloFileUnder(const fs::path& root, size_t* files) {
  size_t diagnostics = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".hlo" && ext != ".txt") continue;
    auto file = SourceFile::Open(entry.path().string(), entry.path().string());
    if (!file.ok()) continue;
    diagnostics += CheckSameOnFourThreads(**file);
    ++*files;
  }
  return diagnostics;
}

TEST_CASE("parallel rules: our tests and examples give the same findings on 4 threads",
          "[lint][parallel]") {
  size_t files = 0;
  size_t diagnostics = CheckEveryHloFileUnder(fs::path(HLOLINT_SOURCE_DIR) / "tests", &files);
  diagnostics += CheckEveryHloFileUnder(fs::path(HLOLINT_SOURCE_DIR) / "examples", &files);
  CHECK(files > 100);
  CHECK(diagnostics > 500);  // the comparison saw findings, not empty lists
}

TEST_CASE("parallel rules: the corpus gives the same findings on 4 threads",
          "[lint][parallel][corpus]") {
  const fs::path corpus(HLOLINT_CORPUS_DIR);
  if (!fs::is_directory(corpus)) {
    WARN("corpus not found at " << corpus.string() << ": skipped");
    return;
  }
  size_t files = 0;
  size_t diagnostics = 0;
  for (const fs::path& path : CorpusSample(corpus)) {
    auto file = SourceFile::Open(path.string(), path.string());
    if (!file.ok()) continue;
    diagnostics += CheckSameOnFourThreads(**file);
    ++files;
  }
  CHECK(files > 2500 / kCorpusStride);
  CHECK(diagnostics > 1000 / kCorpusStride);
}

// Throws when it runs on a worker thread. On the calling thread it waits
// (up to a minute) until a worker has run one of these, so that a worker
// surely takes one: threads take rules in whatever order they start.
class ThrowOnWorkerRule : public Rule {
 public:
  ThrowOnWorkerRule(std::thread::id caller, std::atomic<int>* on_workers)
      : caller_(caller), on_workers_(on_workers) {}
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"throw-on-worker", RuleCategory::kMeta, Severity::kError, "test rule"};
    return kInfo;
  }
  void Check(RuleContext&) const override {
    if (std::this_thread::get_id() != caller_) {
      ++*on_workers_;
      throw std::runtime_error("thrown on a worker thread");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (on_workers_->load() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

 private:
  std::thread::id caller_;
  std::atomic<int>* on_workers_;
};

TEST_CASE("parallel rules: an exception of a rule on a worker thread reaches the caller",
          "[lint][parallel]") {
  auto file = SourceFile::FromString(
      "t.hlo", "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] negate(p)\n}\n");
  std::atomic<int> on_workers{0};
  std::vector<std::unique_ptr<ThrowOnWorkerRule>> throwing;
  LintOptions options = AllRulesOptions(4);
  for (int i = 0; i < 8; ++i) {
    throwing.push_back(std::make_unique<ThrowOnWorkerRule>(std::this_thread::get_id(), &on_workers));
    options.rules.push_back(throwing.back().get());
  }
  CHECK_THROWS_WITH(LintSource(*file, options), "thrown on a worker thread");
  CHECK(on_workers.load() >= 1);

  // On one thread nothing is thrown (every rule runs on the caller), and
  // the same options lint again: nothing was left half-done.
  options.module_threads = 1;
  on_workers = 1;  // the caller's rules need not wait
  CHECK_NOTHROW(LintSource(*file, options));
}

// A module of `bytes` of text or more: a negate per line, and the lines
// `specials` at the offsets given (as fractions of the size).
std::string LargeModule(size_t bytes, const std::vector<std::pair<double, std::string>>& specials) {
  std::string text = "HloModule large\nENTRY e {\n  a = f32[4] parameter(0)\n";
  size_t next_special = 0;
  for (size_t k = 0; text.size() < bytes; ++k) {
    if (next_special < specials.size() &&
        text.size() >= static_cast<size_t>(specials[next_special].first * bytes)) {
      text += specials[next_special++].second;
    }
    text += "  v" + std::to_string(k) + " = f32[4] negate(a)\n";
  }
  text += "  ROOT r = f32[4] negate(a)\n}\n";
  return text;
}

TEST_CASE("parallel rules: suppression comments deep in a large mapped file are honoured",
          "[lint][parallel][release]") {
  // verify-shape reports each `f32[5] negate(f32[4])`; two of them are
  // silenced, one before and one after the 8 MB at which text is released,
  // and a third is not.
  const std::string text = LargeModule(
      SourceFile::kReleaseMinBytes + (3u << 20),
      {{0.40, "  // hlolint: ignore[verify-shape] deliberately wrong\n  bad.1 = f32[5] negate(a)\n"},
       {0.85, "  bad.2 = f32[5] negate(a)  // hlolint: ignore[verify-shape] also on purpose\n"},
       {0.95, "  bad.3 = f32[5] negate(a)\n"}});
  REQUIRE(text.size() > SourceFile::kReleaseMinBytes);
  const fs::path path = fs::temp_directory_path() /
                        ("hlolint_parallel_suppression_" + std::to_string(::getpid()) + ".hlo");
  { std::ofstream(path, std::ios::binary) << text; }
  auto file = SourceFile::Open(path.string(), path.string());  // no buffer: mapped
  fs::remove(path);  // the mapping stays valid
  REQUIRE(file.ok());

  LintOptions options = AllRulesOptions(4);
  const FileResult result = LintSource(**file, options);
  CHECK(result.suppressed == 2);
  std::vector<std::string> found;
  for (const Diagnostic& d : result.diagnostics) found.push_back(d.rule + " " + d.instruction);
  CHECK(found == std::vector<std::string>{"verify-shape bad.3"});

  // The same on one thread.
  const FileResult sequential = LintSource(**file, AllRulesOptions(1));
  CHECK(DescribeAll(sequential.diagnostics) == DescribeAll(result.diagnostics));
  CHECK(sequential.suppressed == 2);
}

TEST_CASE("parallel rules: the threshold keeps small modules on the calling thread",
          "[lint][parallel]") {
  auto file = SourceFile::FromString(
      "t.hlo", "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] negate(p)\n}\n");
  // The rule throws off the caller's thread: with the default threshold it
  // is never there.
  std::atomic<int> on_workers{1};
  ThrowOnWorkerRule rule(std::this_thread::get_id(), &on_workers);
  LintOptions options = AllRulesOptions(1);
  options.module_threads = 4;
  options.rules.push_back(&rule);
  REQUIRE(options.parallel_rules_min_bytes == LintOptions::kParallelRulesMinBytes);
  CHECK_NOTHROW(LintSource(*file, options));
}

// ------------------------------------------------------------------ Analyses

std::atomic<int> slow_built{0};

struct SlowAnalysis {
  SlowAnalysis(const Module&, Analyses&) {
    ++slow_built;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // callers arrive meanwhile
  }
  int value = 7;
};

struct UsesSlowAnalysis {
  UsesSlowAnalysis(const Module&, Analyses& analyses) : slow(&analyses.Get<SlowAnalysis>()) {}
  const SlowAnalysis* slow;
};

std::atomic<int> failing_attempts{0};

struct FailsOnce {
  FailsOnce(const Module&, Analyses&) {
    if (failing_attempts++ == 0) throw std::runtime_error("analysis failed");
  }
};

struct AsksForItself {
  AsksForItself(const Module&, Analyses& analyses) { analyses.Get<AsksForItself>(); }
};

std::vector<std::string> released;  // analyses destroyed, in order
int times_built = 0;

struct KeptAnalysis {
  KeptAnalysis(const Module&, Analyses&) {}
};

struct ReleasedFirst {
  ReleasedFirst(const Module&, Analyses& analyses) : kept(&analyses.Get<KeptAnalysis>()) {
    ++times_built;
  }
  ~ReleasedFirst() { released.push_back("first"); }
  const KeptAnalysis* kept;
};

struct ReleasedSecond {
  ReleasedSecond(const Module&, Analyses& analyses) : first(&analyses.Get<ReleasedFirst>()) {}
  ~ReleasedSecond() { released.push_back("second"); }
  const ReleasedFirst* first;
};

std::unique_ptr<Module> SmallModule(const SourceFile& file) {
  std::vector<ParsedModule> parsed = ParseAllModules(file);
  REQUIRE(parsed.size() == 1);
  REQUIRE(parsed[0].module != nullptr);
  return std::move(parsed[0].module);
}

TEST_CASE("Analyses: threads asking at once get one analysis, built once", "[analyses][parallel]") {
  auto file = SourceFile::FromString("t.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n");
  std::unique_ptr<Module> module = SmallModule(*file);
  Analyses analyses(*module);
  slow_built = 0;
  std::vector<const SlowAnalysis*> seen(8);
  std::vector<const SlowAnalysis*> seen_through(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      if (t % 2 == 0) {
        seen[t] = &analyses.Get<SlowAnalysis>();
      } else {
        seen[t] = analyses.Get<UsesSlowAnalysis>().slow;  // built inside another's constructor
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(slow_built == 1);
  for (const SlowAnalysis* s : seen) CHECK(s == seen[0]);
  CHECK(seen[0]->value == 7);
}

TEST_CASE("Analyses: a constructor's exception reaches the caller, the next call builds again",
          "[analyses]") {
  auto file = SourceFile::FromString("t.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n");
  std::unique_ptr<Module> module = SmallModule(*file);
  Analyses analyses(*module);
  failing_attempts = 0;
  CHECK_THROWS_WITH(analyses.Get<FailsOnce>(), "analysis failed");
  CHECK_NOTHROW(analyses.Get<FailsOnce>());
  CHECK(failing_attempts == 2);
  CHECK_NOTHROW(analyses.Get<FailsOnce>());
  CHECK(failing_attempts == 2);
  // An analysis asking for itself fails instead of waiting for itself forever.
  CHECK_THROWS_AS(analyses.Get<AsksForItself>(), std::logic_error);
}

// A rule of the given category that asks for CountedAnalysis.
struct CountedAnalysis {
  CountedAnalysis(const Module&, Analyses&) { ++times_built; }
};

class AsksForCountedRule : public Rule {
 public:
  AsksForCountedRule(std::string_view id, RuleCategory category)
      : info_{id, category, Severity::kWarning, "test rule"} {}
  const RuleInfo& info() const override { return info_; }
  void Check(RuleContext& ctx) const override { ctx.analyses().Get<CountedAnalysis>(); }

 private:
  RuleInfo info_;
};

TEST_CASE("RunRules on one thread frees the other rules' analyses before the verifier rules",
          "[lint][analyses]") {
  auto file = SourceFile::FromString("t.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n");
  std::unique_ptr<Module> module = SmallModule(*file);
  const AsksForCountedRule seed_a("seed-a", RuleCategory::kAliasing),
      seed_b("seed-b", RuleCategory::kScheduling);
  const AsksForCountedRule verify_a("verify-a", RuleCategory::kVerify),
      verify_b("verify-b", RuleCategory::kVerify);
  LintOptions options;
  options.module_threads = 1;
  std::vector<Diagnostic> found;

  // Built once for the other rules, once more for the verifier rules after them.
  times_built = 0;
  options.rules = {&seed_a, &seed_b, &verify_a, &verify_b};
  RunRules(*module, options, &found);
  CHECK(times_built == 2);

  // Within one family, and with the verifier rules first, it is built once.
  times_built = 0;
  options.rules = {&verify_a, &verify_b, &seed_a, &seed_b};
  RunRules(*module, options, &found);
  CHECK(times_built == 1);
}

TEST_CASE("Analyses: ReleaseAllBut destroys the others, last built first, and builds them again when asked",
          "[analyses]") {
  auto file = SourceFile::FromString("t.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n");
  std::unique_ptr<Module> module = SmallModule(*file);
  Analyses analyses(*module);
  released.clear();
  times_built = 0;
  const ReleasedFirst* first = analyses.Get<ReleasedSecond>().first;
  const KeptAnalysis* kept = &analyses.Get<KeptAnalysis>();
  CHECK(first->kept == kept);
  CHECK(times_built == 1);

  analyses.ReleaseAllBut<KeptAnalysis>();
  CHECK(released == std::vector<std::string>{"second", "first"});
  CHECK(&analyses.Get<KeptAnalysis>() == kept);  // the same object, not built again
  analyses.Get<ReleasedFirst>();
  CHECK(times_built == 2);
  CHECK(released.size() == 2);
  // Still destroyed, last built first, with the Analyses: the rebuilt one.
  released.clear();
  analyses.ReleaseAllBut<>();
  CHECK(released == std::vector<std::string>{"first"});
}

}  // namespace
}  // namespace hlolint
