#include "dump/dump_name.h"

#include <cctype>

#include "util/strings.h"

namespace hlolint {
namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Splits "[<module>.]<step>.<rest>" at the right-most ".<4+ digits>."
// (or a leading "<4+ digits>."), which is the step counter XLA writes.
bool SplitStep(std::string_view text, std::string* module, int64_t* step, std::string* rest) {
  for (size_t end = text.size(); end-- > 0;) {
    if (text[end] != '.') continue;
    size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1]))) --begin;
    const size_t digits = end - begin;
    if (digits < 4) continue;
    if (begin != 0 && text[begin - 1] != '.') continue;
    if (end + 1 >= text.size()) continue;
    // A step too long for int64 is no step XLA wrote.
    if (!ParseIntText(text.substr(begin, digits), step)) continue;
    *module = begin == 0 ? "" : std::string(text.substr(0, begin - 1));
    *rest = std::string(text.substr(end + 1));
    return true;
  }
  return false;
}

// "[<timestamp>.]module_<4+ digits>." at the start of a name.
bool StartsLikeDumpName(std::string_view name) {
  const size_t module_pos = name.find("module_");
  if (module_pos == std::string_view::npos) return false;
  if (module_pos > 0) {
    const std::string_view prefix = name.substr(0, module_pos);
    if (prefix.back() != '.' || !AllDigits(prefix.substr(0, prefix.size() - 1))) return false;
  }
  size_t digits = module_pos + 7;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
  return digits - (module_pos + 7) >= 4 && digits < name.size() && name[digits] == '.';
}

// Where the platform starts in "<module>.<platform>" (the part of an
// after-optimizations dump name before "_after_optimizations"). GPU
// platforms name the device and may hold dots themselves: "sm_8.0_gpu"
// (CUDA compute capability), "gfx90a_gpu" (ROCm); others are one word
// ("cpu"). 0 when there is no module name.
size_t PlatformStart(std::string_view named) {
  if (EndsWith(named, "_gpu")) {
    for (std::string_view device : {"sm_", "gfx"}) {
      if (named.starts_with(device)) return 0;
      const size_t at = named.rfind(StrCat(".", device));
      if (at != std::string_view::npos) return at + 1;
    }
  }
  const size_t dot = named.rfind('.');
  return dot == std::string_view::npos ? 0 : dot + 1;
}

}  // namespace

bool IsNonHloDumpArtifact(std::string_view name) {
  if (!StartsLikeDumpName(name)) return false;
  // GPU thunk sequences, fusion and Triton logs.
  for (std::string_view report : {".thunk_sequence.txt", ".thunk_sequence_after_thunk_passes.txt",
                                  ".thunk_metadata.txt", ".priority_fusion_dump.txt", ".ttir.txt"}) {
    if (EndsWith(name, report)) return true;
  }
  // Reports on a whole-module dump: "<dump>_optimizations-buffer-assignment.txt",
  // "-buffer-assignment-values", "-live-range", "-memory-usage-report", ...
  const std::string_view last = name.substr(name.rfind('.', name.size() - 5) + 1);
  return last.find("_optimizations-") != std::string_view::npos ||
         EndsWith(name, "-buffer-assignment.txt") || EndsWith(name, "-memory-usage-report.txt");
}

std::optional<DumpFileName> ParseDumpFileName(std::string_view name) {
  if (!EndsWith(name, ".txt")) return std::nullopt;
  name.remove_suffix(4);
  DumpFileName out;
  size_t module_pos = name.find("module_");
  if (module_pos == std::string_view::npos) return std::nullopt;
  if (module_pos > 0) {
    std::string_view prefix = name.substr(0, module_pos);
    if (prefix.back() != '.' || !AllDigits(prefix.substr(0, prefix.size() - 1))) return std::nullopt;
    out.timestamp = std::string(prefix.substr(0, prefix.size() - 1));
  }
  std::string_view rest = name.substr(module_pos + 7);
  size_t id_end = 0;
  while (id_end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[id_end]))) ++id_end;
  if (id_end < 4 || id_end >= rest.size() || rest[id_end] != '.') return std::nullopt;
  out.module_id = std::string(rest.substr(0, id_end));
  rest.remove_prefix(id_end + 1);

  // Whole-module dumps.
  const size_t last_dot = rest.rfind('.');
  const std::string_view last = last_dot == std::string_view::npos ? rest : rest.substr(last_dot + 1);
  const std::string_view before_last =
      last_dot == std::string_view::npos ? std::string_view() : rest.substr(0, last_dot);
  if (last == "before_optimizations") {
    out.kind = DumpFileName::Kind::kBeforeOptimizations;
    out.module_name = std::string(before_last);
    return out;
  }
  if (last == "after_optimizations") {
    out.kind = DumpFileName::Kind::kAfterOptimizations;
    out.module_name = std::string(before_last);
    return out;
  }
  if (EndsWith(rest, "_after_optimizations")) {
    out.kind = DumpFileName::Kind::kAfterOptimizations;
    const std::string_view named = rest.substr(0, rest.size() - 20);  // <module>.<platform>
    const size_t platform = PlatformStart(named);
    out.module_name = platform == 0 ? "" : std::string(named.substr(0, platform - 1));
    out.platform = std::string(named.substr(platform));
    return out;
  }

  // Between passes: <step>.<pipeline>.after_<pass>.before_<pass>.
  const size_t before = rest.rfind(".before_");
  if (before != std::string_view::npos) {
    const size_t after = rest.rfind(".after_", before);
    if (after != std::string_view::npos) {
      std::string module, remainder;
      int64_t step;
      if (SplitStep(rest.substr(0, after), &module, &step, &remainder)) {
        out.kind = DumpFileName::Kind::kBetweenPasses;
        out.module_name = module;
        out.step = step;
        out.pipeline = remainder;
        out.after_pass = std::string(rest.substr(after + 7, before - after - 7));
        out.before_pass = std::string(rest.substr(before + 8));
        return out;
      }
    }
  }

  // Within a pass: <step>.<pass>.<step name>.
  std::string module, remainder;
  int64_t step;
  if (SplitStep(rest, &module, &step, &remainder)) {
    const size_t dot = remainder.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= remainder.size()) return std::nullopt;
    out.kind = DumpFileName::Kind::kWithinPass;
    out.module_name = module;
    out.step = step;
    out.pass = remainder.substr(0, dot);
    out.step_name = remainder.substr(dot + 1);
    return out;
  }
  return std::nullopt;
}

}  // namespace hlolint
