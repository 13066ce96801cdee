// One module parsed on two threads (ParseLimits::threads) must give exactly
// the IR, offsets and first error of the one-thread parse, wherever the
// second thread's half starts. Each case states whether the halves can be
// merged (merged_fragments == 1) or whether the first thread must parse the
// second half again itself; both must agree with one thread.
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "corpus_sample.h"
#include "parse/parser.h"
#include "parse_describe.h"
#include "parse_helpers.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

// Where a dump closes one computation and starts the next: the line `}`
// before each computation but the first (a split there makes the splitter
// take the computation after it).
std::vector<uint32_t> ComputationStarts(std::string_view text) {
  std::vector<uint32_t> starts;
  for (size_t at = text.find("\n}\n"); at != std::string_view::npos;
       at = text.find("\n}\n", at + 1)) {
    size_t p = at + 3;
    while (p < text.size() && (text[p] == '\n' || text[p] == ' ')) ++p;
    if (p < text.size()) starts.push_back(static_cast<uint32_t>(at));
  }
  return starts;
}

// Two threads for a module of any size.
ParseLimits TwoThreads() {
  ParseLimits limits;
  limits.threads = 2;
  limits.parallel_min_bytes = 0;
  return limits;
}

ParseLimits SplitAt(uint32_t from) {
  ParseLimits limits = TwoThreads();
  limits.parallel_split_from = from;
  return limits;
}

uint32_t MergedFragments(const std::vector<ParsedModule>& modules) {
  uint32_t merged = 0;
  for (const ParsedModule& m : modules) merged += m.merged_fragments;
  return merged;
}

// One cut at the first instruction line at or after `from`, the rest of
// its computation parsed by the other thread.
ParseLimits ContinueAt(uint32_t from) {
  ParseLimits limits = TwoThreads();
  limits.parallel_continuation_from = from;
  return limits;
}

// The parse on two threads with `limits` (SplitAt or ContinueAt `from`)
// against the one-thread parse; returns how many fragments were merged.
uint32_t CheckTwoThreadsAgree(const SourceFile& file, uint32_t from, const ParseLimits& limits) {
  const std::string expected = DescribeParse(ParseAllModules(file));
  const std::vector<ParsedModule> split = ParseAllModules(file, limits);
  const std::string actual = DescribeParse(split);
  if (actual != expected) {
    std::istringstream a(actual), e(expected);
    std::string line_a, line_e;
    int line = 0;
    while (true) {
      const bool more_a = static_cast<bool>(std::getline(a, line_a));
      const bool more_e = static_cast<bool>(std::getline(e, line_e));
      ++line;
      if (!more_a && !more_e) break;
      if (!more_a || !more_e || line_a != line_e) break;
    }
    FAIL("file " << file.path() << " split at byte " << from << ", line " << line
                 << " of the IR description differs:\n  two threads: " << line_a
                 << "\n  one thread:  " << line_e);
  }
  return MergedFragments(split);
}

uint32_t CheckSplitAgrees(const SourceFile& file, uint32_t from) {
  return CheckTwoThreadsAgree(file, from, SplitAt(from));
}
uint32_t CheckContinuationAgrees(const SourceFile& file, uint32_t from) {
  return CheckTwoThreadsAgree(file, from, ContinueAt(from));
}

// Where each indented line (an instruction, as dumps print them) starts.
std::vector<uint32_t> InstructionLines(std::string_view text) {
  std::vector<uint32_t> lines;
  for (size_t at = text.find("\n "); at != std::string_view::npos; at = text.find("\n ", at + 1)) {
    lines.push_back(static_cast<uint32_t>(at));
  }
  return lines;
}

// The cut where `before` last occurs before `marker`: a split at the line
// `}` before a computation, or a continuation at an instruction's line.
uint32_t CheckCutBefore(std::string_view text, std::string_view marker, std::string_view before,
                        bool continuation) {
  auto file = SourceFile::FromString("cut.hlo", text);
  const size_t at = text.find(marker);
  REQUIRE(at != std::string_view::npos);
  const auto from = static_cast<uint32_t>(text.rfind(before, at));
  return continuation ? CheckContinuationAgrees(*file, from) : CheckSplitAgrees(*file, from);
}
uint32_t CheckContinuationAt(std::string_view text, std::string_view marker) {
  return CheckCutBefore(text, marker, "\n", true);
}

// Every split a dump offers; returns the merges.
uint32_t CheckEverySplit(std::string_view text) {
  auto file = SourceFile::FromString("split.hlo", text);
  uint32_t merged = 0;
  for (uint32_t start : ComputationStarts(text)) merged += CheckSplitAgrees(*file, start);
  return merged;
}

// The split right before the computation that starts with `marker`.
uint32_t CheckSplitBefore(std::string_view text, std::string_view marker) {
  return CheckCutBefore(text, marker, "\n}\n", false);
}

constexpr std::string_view kModule = R"(HloModule m, entry_computation_layout={(f32[8]{0}, s32[])->(f32[8]{0}, f32[8]{0})}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}

%fused (p0: f32[8], p1: f32[8]) -> f32[8] {
  %p0 = f32[8]{0} parameter(0)
  %p1 = f32[8]{0} parameter(1)
  %b = f32[8]{0} broadcast(f32[] constant(2)), dimensions={}
  ROOT %m = f32[8]{0} multiply(f32[8]{0} %p0, f32[8]{0} %b)
}

%cond (s: (s32[], f32[8])) -> pred[] {
  %s = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[8]{0}) %s), index=0
  ROOT %lt = pred[] compare(s32[] %i, s32[] constant(4)), direction=LT
}

%body (t: (s32[], f32[8])) -> (s32[], f32[8]) {
  %t = (s32[], f32[8]{0}) parameter(0)
  %j = s32[] get-tuple-element((s32[], f32[8]{0}) %t), index=0
  %v = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %t), index=1
  %k = s32[] add(s32[] %j, s32[] constant(1))
  %w = f32[8]{0} fusion(f32[8]{0} %v, f32[8]{0} %v), kind=kLoop, calls=%fused
  ROOT %r = (s32[], f32[8]{0}) tuple(s32[] %k, f32[8]{0} %w)
}

%fused.2 (q0: f32[8]) -> f32[8] {
  %q0 = f32[8]{0} parameter(0)
  %n = f32[8]{0} negate(f32[8]{0} %q0), metadata={op_name="jit(f)/neg" source_file="f.py" source_line=3}
  ROOT %t2 = f32[8]{0} transpose(f32[8]{0} %n), dimensions= {0}
}

ENTRY %main (a: f32[8], c: s32[]) -> (f32[8], f32[8]) {
  %a = f32[8]{0} parameter(0)
  %c = s32[] parameter(1)
  %init = (s32[], f32[8]{0}) tuple(s32[] %c, f32[8]{0} %a)
  %loop = (s32[], f32[8]{0}) while((s32[], f32[8]{0}) %init), condition=%cond, body=%body
  %out = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %loop), index=1
  %f = f32[8]{0} fusion(f32[8]{0} %out, f32[8]{0} %a), kind=kLoop, calls=%fused
  %g = f32[8]{0} fusion(f32[8]{0} %f), kind=kLoop, calls=%fused.2
  %r = f32[] reduce(f32[8]{0} %g, f32[] constant(0)), dimensions=/* axis */{0}, to_apply=%add
  %t = (f32[8]{0}, f32[8]{0}, s32[]) tuple(f32[8]{0} %f, f32[8]{0} %g, s32[] %c)
  ROOT %res = (f32[8]{0}, f32[8]{0}) tuple(f32[8]{0} %f, f32[8]{0} %g)
}
)";

// kModule with the first `from` replaced by `to`.
std::string Edited(std::string_view from, std::string_view to) {
  std::string text(kModule);
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

TEST_CASE("parallel parse: a module merged at every computation boundary", "[parser][parallel]") {
  // Calls, fusions (the fusion flag of a first-half computation), while
  // loops, shapes and value keys met on both sides or only in the second.
  CHECK(CheckEverySplit(kModule) == ComputationStarts(kModule).size());
}

// Every computation a chunk of its own: the threads meet wherever the timing
// takes them, and the result must not depend on where.
void CheckTinyChunksAgree(const SourceFile& file) {
  ParseLimits limits = TwoThreads();
  limits.parallel_chunk_bytes = 1;
  CHECK(DescribeParse(ParseAllModules(file, limits)) == DescribeParse(ParseAllModules(file)));
}

TEST_CASE("parallel parse: header words (long names, numbers, control) are merged",
          "[parser][parallel]") {
  // What an instruction keeps at the head of its id block (a name of 64 KB
  // or more, a 64-bit number, a control predecessor count) on both sides.
  const std::string long_name(70000, 'n');
  std::string text = "HloModule m\n\nhelper {\n  %" + long_name +
                     " = f32[] parameter(0)\n  %q = f32[] parameter(1), "
                     "control-predecessors={%" + long_name + "}\n  ROOT %h = f32[] add(%" +
                     long_name + ", %q), control-predecessors={%q}\n}\n\n";
  text += "ENTRY main {\n  %a = f32[] parameter(0)\n  %t = (f32[], f32[]) tuple(%a, %a)\n"
          "  %g = f32[] get-tuple-element(%t), index=1, control-predecessors={%a}\n"
          "  %i = s32[4] iota(), iota_dimension=0\n"
          "  ROOT %c = f32[] call(%g, %a), to_apply=helper, control-predecessors={%i, %t}\n}\n";
  CHECK(CheckEverySplit(text) == ComputationStarts(text).size());
}

TEST_CASE("parallel parse: chunks met from both ends", "[parser][parallel]") {
  auto file = SourceFile::FromString("chunks.hlo", kModule);
  for (int round = 0; round < 50; ++round) CheckTinyChunksAgree(*file);
  std::string many;
  for (int copy = 0; copy < 40; ++copy) {
    std::string text(kModule.substr(kModule.find("\n%add")));
    // Names made unique per copy; ENTRY only in the last.
    for (std::string_view name : {"%add", "%fused", "%cond", "%body", "%main"}) {
      for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        text.insert(at + name.size(), "_" + std::to_string(copy));
      }
    }
    if (copy != 39) text.replace(text.find("ENTRY "), 6, "");
    many += text;
  }
  auto big = SourceFile::FromString("many.hlo", "HloModule many\n" + many);
  for (int round = 0; round < 10; ++round) CheckTinyChunksAgree(*big);
}

TEST_CASE("parallel parse: a second half that calls many first-half computations",
          "[parser][parallel]") {
  // The entry calls each of 1,500 computations twice, more than the
  // fragment's cache of called names holds between the two calls, and a
  // reducer on every line: a name referred to under several ids resolves
  // to the one computation.
  std::string text = "HloModule m\n\n%add (x: f32[], y: f32[]) -> f32[] {\n"
                     "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
                     "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n\n";
  constexpr int kCallees = 1500;
  for (int c = 0; c < kCallees; ++c) {
    const std::string n = std::to_string(c);
    text += "%c" + n + " (p" + n + ": f32[4]) -> f32[4] {\n  ROOT %p" + n +
            " = f32[4]{0} parameter(0)\n}\n\n";
  }
  text += "ENTRY %main (a: f32[4]) -> f32[] {\n  %a = f32[4]{0} parameter(0)\n";
  for (int round = 0; round < 2; ++round) {
    for (int c = 0; c < kCallees; ++c) {
      const std::string n = std::to_string(round) + "_" + std::to_string(c);
      text += "  %y" + n + " = f32[4]{0} call(f32[4]{0} %a), to_apply=%c" + std::to_string(c) +
              "\n  %r" + n + " = f32[] reduce(f32[4]{0} %y" + n +
              ", f32[] constant(0)), dimensions={0}, to_apply=%add\n";
    }
  }
  text += "  ROOT %z = f32[] constant(1)\n}\n";
  CHECK(CheckSplitBefore(text, "ENTRY") == 1);
}

TEST_CASE("parallel parse: what the second half cannot settle alone", "[parser][parallel]") {
  // An async-start's wrapped opcode is its callee's root opcode: a callee of
  // the first half makes the first thread parse the second half itself.
  constexpr std::string_view kAsync = R"(HloModule m
%async_body (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(f32[4]{0} %p)
}

ENTRY %main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %s = ((f32[4]{0}), f32[4]{0}, u32[]) async-start(f32[4]{0} %a), calls=%async_body
  ROOT %d = f32[4]{0} async-done(((f32[4]{0}), f32[4]{0}, u32[]) %s), calls=%async_body
}
)";
  CHECK(CheckSplitBefore(kAsync, "ENTRY") == 0);
  // A call without a written shape takes its callee's root shape.
  constexpr std::string_view kInferredCall = R"(HloModule m
%callee (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(f32[4]{0} %p)
}

ENTRY %main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %c = call(f32[4]{0} %a), to_apply=%callee
}
)";
  CHECK(CheckSplitBefore(kInferredCall, "ENTRY") == 0);
}

TEST_CASE("parallel parse: errors on either side are the one-thread errors", "[parser][parallel]") {
  auto with = [](std::string_view from, std::string_view to) { return Edited(from, to); };
  // A computation defined on both sides; a call of one defined after it;
  // two ENTRY computations; a bad instruction in each half.
  for (const std::string& text :
       {with("%fused.2 (q0", "%fused (q0"), with("calls=%fused.2", "calls=%later") + "\n%later (z: f32[8]) -> f32[8] {\n  ROOT %z = f32[8]{0} parameter(0)\n}\n",
        with("%cond (s:", "ENTRY %cond (s:"), with("%n = f32[8]{0} negate", "%n = f32[8]{0} negate-ish"),
        with("%b = f32[8]{0} broadcast", "%b = f32[9]{0} broadcast")}) {
    CheckEverySplit(text);
  }
  // The same failures in the second half: nothing is merged.
  CHECK(CheckSplitBefore(with("%fused.2 (q0", "%fused (q0"), "%fused (q0: f32[8]) -> f32[8] {\n  %q0") == 0);
  CHECK(CheckSplitBefore(with("%cond (s:", "ENTRY %cond (s:"), "%body") == 0);
}

TEST_CASE("parallel parse: splits that are not between two computations", "[parser][parallel]") {
  // What looks like a computation boundary inside a comment is never reached
  // at a computation's first token: one thread parses all.
  for (std::string_view comment : {"/*\n}\n%fake (x: f32[]) -> f32[] {\n*/\n",
                                   "/* two\n}\n\n  ENTRY %e {\n*/ "}) {
    std::string text(kModule);
    text.insert(text.find("%cond ("), comment);
    auto file = SourceFile::FromString("comment.hlo", text);
    CHECK(CheckSplitAgrees(*file, static_cast<uint32_t>(text.find("/*"))) == 0);
  }
  // Past the last computation there is nothing to split.
  auto file = SourceFile::FromString("split.hlo", kModule);
  CHECK(CheckSplitAgrees(*file, static_cast<uint32_t>(kModule.find("ROOT %res"))) == 0);
  // A second module after the first: the first module ends before the split
  // it was given, which is the second module's; each is parsed whole.
  const std::string two = std::string(kModule) + "\n// -----\n\n" + std::string(kModule);
  auto file2 = SourceFile::FromString("two.hlo", two);
  CheckSplitAgrees(*file2, static_cast<uint32_t>(two.find("// -----")));
  CHECK(CheckSplitAgrees(*file2, static_cast<uint32_t>(two.rfind("%body ("))) == 1);
}

TEST_CASE("parallel parse: a computation continued at every instruction", "[parser][parallel]") {
  // Every cut inside a computation parses as on one thread; where the first
  // thread reaches it between two instructions of a top-level computation,
  // the other thread's instructions are merged.
  auto file = SourceFile::FromString("continue.hlo", kModule);
  uint32_t merged = 0;
  for (uint32_t line : InstructionLines(kModule)) merged += CheckContinuationAgrees(*file, line);
  // All 29 but the 9 parameters (a cut before one gives the chunk up; six
  // are also their computation's first instruction, which follows a '{').
  CHECK(merged == 20);
  // Names from before the cut (a while loop's operand and result,
  // parameters, computations called): resolved by the merge.
  CHECK(CheckContinuationAt(kModule, "%loop = ") == 1);
  CHECK(CheckContinuationAt(kModule, "%out = ") == 1);
  CHECK(CheckContinuationAt(kModule, "%f = f32[8]{0} fusion") == 1);
  // Nested instructions after the cut (`constant(1)`).
  CHECK(CheckContinuationAt(kModule, "%k = s32[] add") == 1);
  // The ROOT after the cut, and before it.
  CHECK(CheckContinuationAt(kModule, "ROOT %res") == 1);
  CHECK(CheckContinuationAt(kModule, "%y = f32[] parameter(1)") == 0);  // a parameter: one thread
  // A computation's first instruction follows its '{', never another
  // instruction: the first thread parses on.
  CHECK(CheckContinuationAt(kModule, "%a = f32[8]{0} parameter(0)") == 0);
}

TEST_CASE("parallel parse: what a continuation cannot settle alone", "[parser][parallel]") {
  auto with = [](std::string_view from, std::string_view to) { return Edited(from, to); };
  // An operand without a declared shape, named before the cut.
  CHECK(CheckContinuationAt(with("tuple(f32[8]{0} %f, f32[8]{0} %g, s32[] %c)",
                                 "tuple(f32[8]{0} %f, f32[8]{0} %g, %c)"),
                            "%t = ") == 0);
  // A declared shape that is not the operand's: the one-thread error.
  CHECK(CheckContinuationAt(with("tuple(f32[8]{0} %f, f32[8]{0} %g, s32[] %c)",
                                 "tuple(f32[8]{0} %f, f32[8]{0} %g, s64[] %c)"),
                            "%t = ") == 0);
  // A name defined on both sides of the cut, a name defined nowhere, and
  // two ROOTs: the one-thread errors.
  CHECK(CheckContinuationAt(with("%t = (f32[8]{0}", "%f = (f32[8]{0}"), "%f = (f32[8]") == 0);
  // ... found after names the merge has entered already (%g, %r), which it
  // takes out again (ScopeNameTable::UndoInsert, tested on its own) before
  // the first thread parses the chunk itself.
  CHECK(CheckContinuationAt(with("%t = (f32[8]{0}", "%f = (f32[8]{0}"), "%g = f32[8]{0} fusion") == 0);
  CHECK(CheckContinuationAt(with("s32[] %c)\n  ROOT", "s32[] %nowhere)\n  ROOT"), "%t = ") == 0);
  CHECK(CheckContinuationAt(with("  %g = f32[8]{0} fusion", "  ROOT %g = f32[8]{0} fusion"),
                            "%t = ") == 0);
  // A name used after the cut and defined later after it.
  CHECK(CheckContinuationAt(with("tuple(f32[8]{0} %f, f32[8]{0} %g, s32[] %c)",
                                 "tuple(f32[8]{0} %f, f32[8]{0} %res, s32[] %c)"),
                            "%t = ") == 0);
  // A compact get-tuple-element of a tuple from before the cut, which the
  // first thread may have made already.
  const std::string compact = with("%out = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %loop), index=1",
                                   "%out = f32[8]{0} copy(f32[8]{0} %loop#1)");
  CHECK(CheckContinuationAt(compact, "%out = ") == 0);
  // An async chain begun before the cut.
  const std::string async = R"(HloModule a

ENTRY %e (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %start = ((f32[4]{0}), f32[4]{0}, u32[]) negate-start(f32[4]{0} %p)
  %done = f32[4]{0} negate-done(((f32[4]{0}), f32[4]{0}, u32[]) %start)
  ROOT %n = f32[4]{0} negate(f32[4]{0} %done)
}
)";
  CHECK(CheckContinuationAt(async, "%done = ") == 0);
  CHECK(CheckContinuationAt(async, "ROOT %n") == 1);
}

TEST_CASE("parallel parse: lists past an instruction's 16-bit counts are merged",
          "[parser][parallel]") {
  // A parameter's 66,000 users on both sides of a cut (a stub's users added
  // to the parameter's), or all in the second chunk; instructions of 66,000
  // operands after it.
  const std::string text = parse_testing::LongListsModule();
  CHECK(CheckContinuationAt(text, "%use40000 = ") == 1);
  CHECK(CheckContinuationAt(text, "%t = ") == 1);
  CHECK(CheckSplitBefore(text, "ENTRY main") == 1);
}

TEST_CASE("parallel parse: one large computation is cut between instructions", "[parser][parallel]") {
  // No computation boundary near any cut: the splitter cuts between the
  // entry's instructions, and the other thread parses chunks from the end.
  std::string text = "HloModule big\n\nENTRY %e (p: f32[16]) -> f32[16] {\n"
                     "  %v0 = f32[16]{0} parameter(0)\n";
  for (int i = 1; i < 4000; ++i) {
    text += "  %v" + std::to_string(i) + " = f32[16]{0} add(f32[16]{0} %v" + std::to_string(i - 1) +
            ", f32[16]{0} %v0), metadata={op_name=\"jit(f)/add\" source_line=" +
            std::to_string(i) + "}\n";
  }
  text += "  ROOT %out = f32[16]{0} negate(f32[16]{0} %v3999)\n}\n";
  auto file = SourceFile::FromString("big.hlo", text);
  ParseLimits limits = TwoThreads();
  limits.parallel_chunk_bytes = 16 << 10;
  const std::string expected = DescribeParse(ParseAllModules(*file));
  for (int run = 0; run < 3; ++run) {
    const std::vector<ParsedModule> split = ParseAllModules(*file, limits);
    CHECK(DescribeParse(split) == expected);
  }
}

// A file held in memory that watches for the `hlolint:` directive marker.
std::unique_ptr<SourceFile> WatchedFile(std::string name, const std::string& text) {
  auto file = SourceFile::FromString(std::move(name), text);
  file->SetDirectiveMarker("hlolint:");
  return file;
}

TEST_CASE("parallel parse: directive markers after a continuation cut are found",
          "[parser][parallel]") {
  const std::string text =
      std::string(kModule).insert(kModule.find("  %g = "), "  // hlolint: ignore[verify-shape] x\n");
  auto one = WatchedFile("one.hlo", text);
  auto two = WatchedFile("two.hlo", text);
  ParseAllModules(*one);
  const size_t cut = text.rfind('\n', text.find("  %f = f32[8]{0} fusion") + 2);
  CHECK(MergedFragments(ParseAllModules(*two, ContinueAt(static_cast<uint32_t>(cut)))) == 1);
  CHECK(two->DirectiveMarkers() == one->DirectiveMarkers());
  CHECK(one->DirectiveMarkers().size() == 1);
}

TEST_CASE("parallel parse: directive markers of both halves are found", "[parser][parallel]") {
  const std::string text =
      std::string(kModule).insert(kModule.find("%fused.2 ("), "// hlolint: ignore[verify-shape] x\n") +
      "// hlolint: ignore[ALL] y\n";
  auto one = WatchedFile("one.hlo", text);
  auto two = WatchedFile("two.hlo", text);
  ParseAllModules(*one);
  CHECK(MergedFragments(ParseAllModules(*two, SplitAt(static_cast<uint32_t>(text.find("%cond"))))) ==
        1);
  CHECK(two->DirectiveMarkers() == one->DirectiveMarkers());
  CHECK(one->DirectiveMarkers().size() == 2);
}

void CheckFiles(const std::vector<std::filesystem::path>& paths, size_t* files, size_t* merged) {
  for (const std::filesystem::path& path : paths) {
    const std::string ext = path.extension().string();
    if (ext != ".hlo" && ext != ".txt") continue;
    auto file = SourceFile::Open(path.string(), path.string());
    if (!file.ok()) continue;
    // The middle of the file, as the splitter itself would start searching;
    // and there, the continuation of the computation it falls in.
    *merged += CheckSplitAgrees(**file, (*file)->size() / 2);
    *merged += CheckContinuationAgrees(**file, (*file)->size() / 2);
    ++*files;
  }
}

TEST_CASE("parallel parse: our test inputs parse the same on two threads", "[parser][parallel]") {
  size_t files = 0, merged = 0;
  CheckFiles(FilesUnder(std::filesystem::path(HLOLINT_SOURCE_DIR) / "tests"), &files, &merged);
  CheckFiles(FilesUnder(std::filesystem::path(HLOLINT_SOURCE_DIR) / "examples"), &files, &merged);
  CHECK(files > 100);
  CHECK(merged > 5);
}

TEST_CASE("parallel parse: the corpus parses the same on two threads", "[parser][parallel][corpus]") {
  const std::filesystem::path corpus(HLOLINT_CORPUS_DIR);
  if (!std::filesystem::is_directory(corpus)) {
    WARN("corpus not found at " << corpus.string() << ": skipped");
    return;
  }
  size_t files = 0, merged = 0;
  CheckFiles(CorpusSample(corpus), &files, &merged);
  CHECK(files > 2500 / kCorpusStride);
  CHECK(merged > 300 / kCorpusStride);
}

}  // namespace
}  // namespace hlolint
