#include "report/memory_report.h"

#include <algorithm>
#include <array>

#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "report/json_diagnostic.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string MemorySpaceName(int64_t memory_space) {
  if (memory_space == kHostOffloadMemorySpace) return fmt::format("S({}) (host)", memory_space);
  return fmt::format("S({})", memory_space);
}

std::string SourceSuffix(const MemoryBufferInfo& buffer) {
  if (buffer.source_file.empty()) return "";
  if (buffer.source_line == 0) return "  " + buffer.source_file;
  return fmt::format("  {}:{}", buffer.source_file, buffer.source_line);
}

void AppendFigures(std::string& out, const MemorySpaceFigures& f, uint64_t thread_local_bytes) {
  out += fmt::format("  total        {} ({} bytes) = parameters {} + outputs {} + constants {} "
                     "+ thread-local {} + temporaries at their peak {}\n",
                     HumanBytes(f.total_bytes), f.total_bytes, HumanBytes(f.parameters_bytes),
                     HumanBytes(f.outputs_bytes), HumanBytes(f.constants_bytes),
                     HumanBytes(thread_local_bytes), HumanBytes(f.temporaries_peak_bytes));
}

void AppendModuleText(std::string& out, const MemoryModuleReport& report) {
  const MemoryEstimate& e = report.estimate;
  out += fmt::format("{}: module {}\n", report.file, report.module);
  AppendFigures(out, e.device, e.thread_local_bytes);
  out += fmt::format("  peak         {} live at %{} (line {})\n", HumanBytes(e.device.peak_bytes),
                     e.peak_instruction, e.peak_line);
  out += fmt::format("  timeline     {} ({} instructions in {} order)\n", Sparkline(e.timeline, 64),
                     e.entry_instructions, e.scheduled ? "schedule" : "text");
  if (e.aliased_output_bytes > 0) {
    out += fmt::format("  aliased      {} of outputs live in parameters' buffers "
                       "(input_output_alias)\n",
                       HumanBytes(e.aliased_output_bytes));
  }
  if (!e.top.empty()) {
    out += "  largest buffers live at the peak:\n";
    for (const MemoryBufferInfo& b : e.top) {
      out += fmt::format("    {:>10}  {:<9}  %{}{} {} (line {}){}\n", HumanBytes(b.bytes), b.kind,
                         b.instruction, b.index.empty() ? "" : " " + b.index, b.shape, b.line,
                         SourceSuffix(b));
    }
  }
  if (!e.computations.empty()) {
    out += "  computations, temporaries at their peak:\n";
    const size_t shown = std::min<size_t>(e.computations.size(), 10);
    for (size_t i = 0; i < shown; ++i) {
      const ComputationPeakInfo& c = e.computations[i];
      out += fmt::format("    {:>10}  {}", HumanBytes(c.temporaries_peak_bytes), c.computation);
      if (!c.instruction.empty()) out += fmt::format(" at %{} (line {})", c.instruction, c.line);
      out += "\n";
    }
    if (e.computations.size() > shown) {
      out += fmt::format("    ... and {} more\n", e.computations.size() - shown);
    }
  }
  for (const MemorySpaceFigures& space : e.other_spaces) {
    out += fmt::format("  memory space {}: total {} = parameters {} + outputs {} + constants {} "
                       "+ temporaries at their peak {}; peak {}\n",
                       MemorySpaceName(space.memory_space), HumanBytes(space.total_bytes),
                       HumanBytes(space.parameters_bytes), HumanBytes(space.outputs_bytes),
                       HumanBytes(space.constants_bytes), HumanBytes(space.temporaries_peak_bytes),
                       HumanBytes(space.peak_bytes));
  }
  if (e.unsized_buffers > 0) {
    out += fmt::format("  {} buffer{} of unknown size counted as 0 bytes\n", e.unsized_buffers,
                       e.unsized_buffers == 1 ? "" : "s");
  }
}

nlohmann::ordered_json FiguresJson(const MemorySpaceFigures& f) {
  nlohmann::ordered_json j;
  j["total_bytes"] = f.total_bytes;
  j["peak_bytes"] = f.peak_bytes;
  j["parameters_bytes"] = f.parameters_bytes;
  j["outputs_bytes"] = f.outputs_bytes;
  j["constants_bytes"] = f.constants_bytes;
  j["temporaries_peak_bytes"] = f.temporaries_peak_bytes;
  return j;
}

nlohmann::ordered_json ModuleJson(const MemoryModuleReport& report) {
  const MemoryEstimate& e = report.estimate;
  nlohmann::ordered_json j;
  j["file"] = report.file;
  j["module"] = report.module;
  j.update(FiguresJson(e.device));
  j["thread_local_bytes"] = e.thread_local_bytes;
  j["aliased_output_bytes"] = e.aliased_output_bytes;
  j["scheduled"] = e.scheduled;
  j["entry_instructions"] = e.entry_instructions;
  j["unsized_buffers"] = e.unsized_buffers;
  j["peak_at"] = {{"instruction", e.peak_instruction},
                  {"line", e.peak_line},
                  {"position", e.peak_position}};
  j["top"] = nlohmann::ordered_json::array();
  for (const MemoryBufferInfo& b : e.top) {
    nlohmann::ordered_json t;
    t["instruction"] = b.instruction;
    t["computation"] = b.computation;
    t["index"] = b.index;
    t["shape"] = b.shape;
    t["kind"] = b.kind;
    t["bytes"] = b.bytes;
    t["line"] = b.line;
    t["source_file"] = b.source_file;
    t["source_line"] = b.source_line;
    j["top"].push_back(std::move(t));
  }
  j["computations"] = nlohmann::ordered_json::array();
  for (const ComputationPeakInfo& c : e.computations) {
    j["computations"].push_back({{"computation", c.computation},
                                 {"temporaries_peak_bytes", c.temporaries_peak_bytes},
                                 {"instruction", c.instruction},
                                 {"line", c.line}});
  }
  j["timeline"] = nlohmann::ordered_json::array();
  for (const TimelinePoint& p : e.timeline) {
    j["timeline"].push_back({{"position", p.position},
                             {"instruction", p.instruction},
                             {"line", p.line},
                             {"live_bytes", p.live_bytes}});
  }
  j["memory_spaces"] = nlohmann::ordered_json::array();
  for (const MemorySpaceFigures& space : e.other_spaces) {
    nlohmann::ordered_json s;
    s["memory_space"] = space.memory_space;
    s["host"] = space.memory_space == kHostOffloadMemorySpace;
    s.update(FiguresJson(space));
    j["memory_spaces"].push_back(std::move(s));
  }
  return j;
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string HumanBytes(uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  static constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string Sparkline(const std::vector<TimelinePoint>& timeline, size_t width) {
  static constexpr std::array<const char*, 8> kBlocks = {"▁", "▂", "▃", "▄",
                                                         "▅", "▆", "▇", "█"};
  const size_t n = timeline.size();
  if (n == 0 || width == 0) return "";
  const size_t columns = std::min(n, width);
  std::vector<uint64_t> heights(columns, 0);
  for (size_t c = 0; c < columns; ++c) {
    const size_t begin = c * n / columns;
    const size_t end = std::max(begin + 1, (c + 1) * n / columns);
    for (size_t i = begin; i < end; ++i) heights[c] = std::max(heights[c], timeline[i].live_bytes);
  }
  const uint64_t most = *std::max_element(heights.begin(), heights.end());
  std::string out;
  for (uint64_t h : heights) {
    const size_t level =
        most == 0 ? 0 : static_cast<size_t>((static_cast<long double>(h) * 7 + most / 2) / most);
    out += kBlocks[std::min<size_t>(level, 7)];
  }
  return out;
}

std::string RenderMemoryText(const std::vector<MemoryModuleReport>& modules) {
  std::string out;
  size_t estimated = 0;
  for (const MemoryModuleReport& report : modules) {
    if (report.error) {
      const MemoryReportError& error = *report.error;
      if (error.line == 0) {
        out += fmt::format("{}: {}\n", report.file, error.message);
      } else {
        out += fmt::format("{}:{}:{}: module {} not estimated: {}\n", report.file, error.line,
                           error.column, report.module.empty() ? "?" : report.module,
                           error.message);
      }
      continue;
    }
    if (estimated > 0) out += "\n";
    ++estimated;
    AppendModuleText(out, report);
  }
  const size_t failed = modules.size() - estimated;
  out += fmt::format("{}{} module{} estimated", out.empty() ? "" : "\n", estimated,
                     estimated == 1 ? "" : "s");
  if (failed > 0) out += fmt::format(", {} not (see above)", failed);
  out += "\n";
  return out;
}

std::string RenderMemoryJson(const std::vector<MemoryModuleReport>& modules,
                             const std::string& tool_version) {
  nlohmann::ordered_json doc;
  doc["version"] = 1;
  doc["tool"] = {{"name", "hlolint"}, {"version", tool_version}};
  doc["modules"] = nlohmann::ordered_json::array();
  doc["errors"] = nlohmann::ordered_json::array();
  for (const MemoryModuleReport& report : modules) {
    if (!report.error) {
      doc["modules"].push_back(ModuleJson(report));
      continue;
    }
    doc["errors"].push_back({{"file", report.file},
                             {"module", report.module},
                             {"line", report.error->line},
                             {"column", report.error->column},
                             {"message", report.error->message}});
  }
  return DumpJson(doc, 2) + "\n";
}

std::string RenderMemorySvg(const std::vector<MemoryModuleReport>& modules) {
  constexpr int kWidth = 800, kPlotHeight = 160, kTop = 30, kBlock = 220, kLeft = 10;
  std::vector<const MemoryModuleReport*> plotted;
  for (const MemoryModuleReport& report : modules) {
    if (!report.error) plotted.push_back(&report);
  }
  const int height = std::max<int>(kBlock, static_cast<int>(plotted.size()) * kBlock);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n",
      kWidth + 2 * kLeft, height, kWidth + 2 * kLeft, height);
  out += "<title>hlolint memory report: live bytes along each entry's schedule</title>\n";
  for (size_t i = 0; i < plotted.size(); ++i) {
    const MemoryModuleReport& report = *plotted[i];
    const MemoryEstimate& e = report.estimate;
    const int y0 = static_cast<int>(i) * kBlock;
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}: module {}: peak {} at %{}, total {}</text>\n",
                       kLeft, y0 + 18, EscapeXml(report.file), EscapeXml(report.module),
                       HumanBytes(e.device.peak_bytes), EscapeXml(e.peak_instruction),
                       HumanBytes(e.device.total_bytes));
    const int base = y0 + kTop + kPlotHeight;
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n", kLeft,
                       base, kLeft + kWidth, base);
    if (e.timeline.empty()) continue;
    uint64_t most = 0;
    for (const TimelinePoint& p : e.timeline) most = std::max(most, p.live_bytes);
    const size_t n = e.timeline.size();
    std::string points = fmt::format("{},{} ", kLeft, base);
    for (size_t k = 0; k < n; ++k) {
      const double x0 = kLeft + static_cast<double>(kWidth) * k / n;
      const double x1 = kLeft + static_cast<double>(kWidth) * (k + 1) / n;
      const double y = most == 0 ? base
                                 : base - static_cast<double>(kPlotHeight) *
                                              static_cast<double>(e.timeline[k].live_bytes) /
                                              static_cast<double>(most);
      points += fmt::format("{:.1f},{:.1f} {:.1f},{:.1f} ", x0, y, x1, y);
    }
    points += fmt::format("{},{}", kLeft + kWidth, base);
    out += fmt::format("<polygon points=\"{}\" fill=\"#4e79a7\" fill-opacity=\"0.6\" "
                       "stroke=\"#4e79a7\"/>\n",
                       points);
    out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#444\">{}</text>\n", kLeft + 4,
                       y0 + kTop + 12, HumanBytes(most));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace hlolint
