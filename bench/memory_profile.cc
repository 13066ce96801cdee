// Where the memory of a lint goes: resident set (heap and mapped text apart)
// and peak after each stage (open, parse, each rule), each stage's CPU time
// per MB, and the IR's arrays with their sizes. Used for
// docs/performance.md; never run as a test.
//
//   memory_profile FILE
//   DROP=1      drop the mapped text before each rule (which rules read it)
//   ANALYSES=1  build InPlacePairs, RootReachability, SideEffects apart first
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/resource.h>

#include <cstdio>
#include <ctime>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "analysis/analyses.h"
#include "memory/allocator.h"
#include "analysis/in_place.h"
#include "analysis/reachability.h"
#include "analysis/side_effects.h"
#include "engine/lint.h"
#include "engine/rule.h"
#include "fmt/format.h"
#include "parse/parser.h"
#include "rules/registry.h"

using namespace hlolint;

namespace {

struct Rss {
  double anon = 0, file = 0, peak = 0;  // MB
};

Rss ReadRss() {
  Rss r;
  std::ifstream in("/proc/self/status");
  std::string line;
  auto value = [&](const char* key) {
    return std::stod(line.substr(std::strlen(key))) / 1024.0;
  };
  while (std::getline(in, line)) {
    if (line.rfind("RssAnon:", 0) == 0) r.anon = value("RssAnon:");
    if (line.rfind("RssFile:", 0) == 0) r.file = value("RssFile:");
    if (line.rfind("VmHWM:", 0) == 0) r.peak = value("VmHWM:");
  }
  return r;
}

// Resets VmHWM so the next reading is the peak of the next stage only.
void ResetPeak() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
}

double HeapMB() { return static_cast<double>(mallinfo2().uordblks + mallinfo2().hblkhd) / 1e6; }

double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// CPU time of the stage that just ended (this thread), for the per-MB cost
// of each rule.
double stage_start = 0;

void Print(const std::string& stage, double input_mb) {
  const double cpu = CpuSeconds() - stage_start;
  const Rss r = ReadRss();
  fmt::print("{:<34} anon {:8.1f}  file {:8.1f}  heap {:8.1f}  stage peak {:8.1f} MB ({:.2f}x)"
             "  cpu {:7.1f} ms ({:.3f} ms/MB)\n",
             stage, r.anon, r.file, HeapMB(), r.peak, r.peak / input_mb, cpu * 1e3,
             cpu * 1e3 / input_mb);
  ResetPeak();
  stage_start = CpuSeconds();
}

}  // namespace

// With DROP set: drops the mapped text's pages before each rule, to see
// how much of the text each rule reads back.
void DropText(const SourceFile& f) {
  if (getenv("DROP") == nullptr) return;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(f.data()) / page * page;
  madvise(reinterpret_cast<void*>(begin), f.size(), MADV_DONTNEED);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: memory_profile FILE\n";
    return 2;
  }
  // hlolint's own memory policy (lib/memory/allocator.h).
  hlolint::ReturnBigFreedBlocks();
  const std::vector<const Rule*> rules = AllRules();
  ResetPeak();
  Print("start", 1);
  auto file = SourceFile::Open(argv[1], argv[1]);
  if (!file.ok()) {
    std::cerr << file.status().message() << "\n";
    return 2;
  }
  const SourceFile& source = **file;
  const double input_mb = source.size() / (1024.0 * 1024.0);
  fmt::print("input {:.1f} MB\n", input_mb);
  Print("open", input_mb);
  std::vector<Diagnostic> diagnostics;
  static const nlohmann::json kNoOptions = nlohmann::json::object();
  ParseModules(source, [&](ParsedModule&& parsed) {
    Print("parse", input_mb);
    if (!parsed.module) return;
    const Module& m = *parsed.module;
    fmt::print("  {} instructions, {} computations, {} shapes; sizeof(Instruction) {}, "
               "IR MemoryBytes {:.1f} MB = {:.1f} B/instruction, {:.2f} x text\n",
               m.instruction_count(), m.computation_count(), m.shapes().size(),
               sizeof(Instruction), m.MemoryBytes() / 1e6,
               static_cast<double>(m.MemoryBytes()) / m.instruction_count(),
               m.MemoryBytes() / (m.end_offset() - m.begin_offset() + 0.0));
    size_t operands = 0, users = 0, controls = 0, attrs = 0, called = 0, order = 0, params = 0;
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      operands += m.operands(id).size();
      users += m.users(id).size();
      controls += m.control_predecessors(id).size();
      attrs += m.attributes(id).size();
      called += m.called(id).size();
    }
    for (CompId c = 0; c < m.computation_count(); ++c) {
      if (!m.computation(c).consecutive_order) order += m.instructions(c).size();
      params += m.computation(c).parameters().size() + m.computation(c).signature_params().size();
    }
    const double n = static_cast<double>(m.instruction_count());
    auto line = [&](const char* what, size_t count, size_t bytes_each) {
      fmt::print("    {:<22} {:>10} x {:>3} B = {:8.1f} MB  {:6.1f} B/instruction\n", what, count,
                 bytes_each, count * bytes_each / 1e6, count * bytes_each / n);
    };
    line("instructions", m.instruction_count(), sizeof(Instruction));
    line("operand ids", operands, sizeof(InstrId));
    line("user ids", users, sizeof(InstrId));
    line("control ids", controls, sizeof(InstrId));
    line("order ids (lists)", order, sizeof(InstrId));
    line("attributes", attrs, sizeof(Attribute));
    line("called ids", called, sizeof(CompId));
    line("computations", m.computation_count(), sizeof(Computation));
    line("computation params", params, sizeof(uint32_t));
    fmt::print("    text bytes per instruction {:.1f}\n", (m.end_offset() - m.begin_offset()) / n);
    Analyses analyses(m);
    if (getenv("ANALYSES") != nullptr) {  // the big analyses apart, before their rules
      DropText(source);
      stage_start = CpuSeconds();
      analyses.Get<InPlacePairs>();
      Print("  analysis InPlacePairs", input_mb);
      DropText(source);
      analyses.Get<RootReachability>();
      Print("  analysis RootReachability", input_mb);
      DropText(source);
      analyses.Get<SideEffects>();
      Print("  analysis SideEffects", input_mb);
    }
    for (const Rule* rule : rules) {
      DropText(source);
      ResetPeak();
      stage_start = CpuSeconds();
      RuleContext ctx(m, analyses, *rule, kNoOptions, nullptr, &diagnostics);
      rule->Check(ctx);
      Print(fmt::format("  rule {}", rule->info().id), input_mb);
    }
  });
  Print("after modules freed", input_mb);
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print("process peak RSS {:.1f} MB ({:.2f}x input), {} diagnostics\n",
             usage.ru_maxrss / 1024.0, usage.ru_maxrss / 1024.0 / input_mb, diagnostics.size());
  return 0;
}
