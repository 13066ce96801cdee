#include "memory_command.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/memory_estimate.h"
#include "exit_status.h"
#include "inputs.h"
#include "output.h"
#include "parse/parser.h"
#include "report/memory_report.h"
#include "source/source_file.h"
#include "util/strings.h"

namespace hlolint {
namespace {

void PrintMemoryError(const std::string& message) {
  std::cerr << "hlolint: error: " << message << "\n";
}

XlaProfile ProfileFor(const api_internal::RuleSettings& settings) {
  XlaProfile profile = settings.xla_version.value_or(XlaProfile::Latest());
  if (settings.backend && !settings.backend->detect) {
    profile = profile.WithBackend(settings.backend->backend);
  }
  return profile;
}

// Estimates every module of `file`, appending one report per module.
void EstimateFile(const SourceFile& file, const std::string& display, const XlaProfile& profile,
                  int threads, std::vector<MemoryModuleReport>* out) {
  ParseLimits limits;
  limits.threads = threads;
  limits.xla = profile;
  ParseModules(
      file,
      [&](ParsedModule&& parsed) {
        MemoryModuleReport report;
        report.file = display;
        report.module = parsed.module ? std::string(parsed.module->name()) : parsed.name;
        if (parsed.error || parsed.module == nullptr) {
          MemoryReportError error;
          if (parsed.error) {
            const LineCol at = file.Locate(parsed.error->offset);
            error = {parsed.error->message, at.line, at.column};
          } else {
            error.message = "not HLO text";
          }
          if (parsed.unsupported_format && !parsed.fix.empty()) {
            error.message += " (" + parsed.fix + ")";
          }
          report.error = std::move(error);
        } else {
          Analyses analyses(*parsed.module, profile);
          report.estimate = EstimateMemory(*parsed.module, analyses);
        }
        out->push_back(std::move(report));
      },
      limits);
}

bool ReadAllStdin(std::string* text, std::string* error) {
  char buffer[1 << 16];
  while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
    text->append(buffer, static_cast<size_t>(std::cin.gcount()));
    if (text->size() > kMaxStreamBytes) {
      *error = "standard input is too large (save it to a file)";
      return false;
    }
  }
  return true;
}

}  // namespace

int RunMemoryReport(const CliOptions& options, const api_internal::RuleSettings& settings) {
  const std::string format = options.format.value_or("full");
  const bool json = format == "json";
  if (!json && format != "full" && format != "concise") {
    PrintMemoryError(StrCat("--memory-report prints text (--format full) or JSON (--format json), "
                            "not --format ", format));
    return kExitError;
  }
  if (!options.report_files.empty()) {
    PrintMemoryError("--memory-report writes one report; use --format and -o, not "
                     "--output-format FORMAT:FILE");
    return kExitError;
  }
  if (options.paths.empty()) {
    PrintMemoryError("no input: pass HLO files, directories, or - for standard input");
    return kExitError;
  }
  std::vector<InputError> input_errors;
  const ExpandedInputs expanded = ExpandInputs(options.paths, &input_errors);
  bool had_error = !input_errors.empty();
  for (const InputError& error : input_errors) PrintMemoryError(error.ToString());
  if (expanded.files.empty() && !had_error && !options.allow_empty) {
    PrintMemoryError(NoHloFilesMessage(options.paths));
    return kExitError;
  }

  const XlaProfile profile = ProfileFor(settings);
  const unsigned cores = std::thread::hardware_concurrency();
  const int threads = options.jobs > 0 ? options.jobs : static_cast<int>(cores == 0 ? 1 : cores);
  // Standard input first (one thread reads it), then the files, several at
  // a time: each thread takes the next file, its reports kept in the
  // file's place so the report is in input order whatever --jobs is.
  const std::vector<Input>& files = expanded.files;
  std::vector<std::unique_ptr<SourceFile>> stdin_files(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].is_stdin) continue;
    std::string text, error;
    if (!ReadAllStdin(&text, &error)) {
      PrintMemoryError(error);
      return kExitError;
    }
    stdin_files[i] = SourceFile::FromString(
        options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename, text);
  }
  std::vector<std::vector<MemoryModuleReport>> per_file(files.size());
  std::vector<std::string> open_errors(files.size());
  const size_t workers = std::max<size_t>(1, std::min<size_t>(threads, files.size()));
  const int parse_threads = std::max(1, threads / static_cast<int>(workers));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      std::unique_ptr<SourceFile> file = std::move(stdin_files[i]);
      if (file == nullptr) {
        auto opened = SourceFile::Open(files[i].path, files[i].path);
        if (!opened.ok()) {
          open_errors[i] = std::string(opened.status().message());
          continue;
        }
        file = std::move(*opened);
      }
      EstimateFile(*file, file->path(), profile, parse_threads, &per_file[i]);
    }
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<MemoryModuleReport> reports;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!open_errors[i].empty()) {
      PrintMemoryError(StrCat(files[i].path, ": ", open_errors[i]));
      MemoryModuleReport unreadable;
      unreadable.file = files[i].path;
      unreadable.error = MemoryReportError{open_errors[i], 0, 0};
      reports.push_back(std::move(unreadable));
      had_error = true;
    }
    for (MemoryModuleReport& report : per_file[i]) reports.push_back(std::move(report));
  }
  for (const InputError& error : input_errors) {
    MemoryModuleReport unreadable;
    unreadable.file = error.path;
    unreadable.error = MemoryReportError{error.message, 0, 0};
    reports.push_back(std::move(unreadable));
  }

  bool unparsed = false;
  for (const MemoryModuleReport& report : reports) {
    if (report.error && report.error->line != 0) unparsed = true;
  }
  const std::string text =
      json ? RenderMemoryJson(reports, HLOLINT_VERSION) : RenderMemoryText(reports);
  if (!options.output.empty()) {
    std::string error;
    if (!WriteFileAtomically(options.output, text, &error)) {
      PrintMemoryError(error);
      had_error = true;
    }
  } else if (!options.silent && !WriteStdout(text)) {
    had_error = true;
  }
  if (!options.memory_plot.empty()) {
    std::string error;
    if (!WriteFileAtomically(options.memory_plot, RenderMemorySvg(reports), &error)) {
      PrintMemoryError(error);
      had_error = true;
    }
  }
  if (had_error) return kExitError;
  if (unparsed && !options.exit_zero) return kExitFindings;
  return kExitClean;
}

}  // namespace hlolint
