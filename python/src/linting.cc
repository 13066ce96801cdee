// Linting from Python. The GIL is released while the library lints; the
// text of a str or bytes is linted where Python holds it (the caller's
// reference keeps it alive and neither type can change), so the binding
// copies nothing.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <optional>

#include "bindings.h"
#include "hlolint/hlolint.h"

namespace nb = nanobind;
namespace api = hlolint::api;

namespace hlolint_python {
namespace {

api::Severity ParseSeverity(const std::string& name) {
  if (std::optional<api::Severity> severity = api::SeverityFromName(name)) return *severity;
  throw nb::value_error(("unknown severity '" + name + "' (error, warning or note)").c_str());
}

api::ConfigSource ParseConfigSource(const std::string& name) {
  if (name == "none") return api::ConfigSource::kNone;
  if (name == "file") return api::ConfigSource::kFile;
  if (name == "discover") return api::ConfigSource::kDiscover;
  throw nb::value_error(("unknown configuration source '" + name + "'").c_str());
}

void InitLinter(api::Linter* self, std::optional<std::vector<std::string>> select,
                std::vector<std::string> extend_select, std::vector<std::string> ignore,
                std::vector<std::pair<std::string, std::string>> severity_overrides,
                const std::string& config, std::string config_file,
                std::optional<std::string> xla_version, std::optional<std::string> backend,
                std::optional<std::string> assume_pass) {
  api::LintOptions options;
  options.select = std::move(select);
  options.extend_select = std::move(extend_select);
  options.ignore = std::move(ignore);
  for (auto& [rule, severity] : severity_overrides) {
    options.severity_overrides.emplace_back(std::move(rule), ParseSeverity(severity));
  }
  options.config = ParseConfigSource(config);
  options.config_file = std::move(config_file);
  options.xla_version = std::move(xla_version);
  options.backend = std::move(backend);
  options.assume_pass = std::move(assume_pass);
  new (self) api::Linter(std::move(options));
}

// The UTF-8 bytes of a str or bytes object, valid while `text` lives. A str
// that is not valid Unicode (lone surrogates) is encoded into `holder`
// with the surrogates passed through, so any str lints.
std::string_view TextBytes(nb::handle text, nb::object* holder) {
  Py_ssize_t size = 0;
  if (PyUnicode_Check(text.ptr())) {
    const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (data != nullptr) return {data, static_cast<size_t>(size)};
    PyErr_Clear();
    *holder = nb::steal(PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
    if (!holder->is_valid()) throw nb::python_error();
    text = *holder;
  }
  if (PyBytes_Check(text.ptr())) {
    char* data = nullptr;
    if (PyBytes_AsStringAndSize(text.ptr(), &data, &size) != 0) throw nb::python_error();
    return {data, static_cast<size_t>(size)};
  }
  throw nb::type_error("text must be str or bytes");
}

api::LintResult LintText(const api::Linter& linter, nb::handle text,
                         const std::string& display_path) {
  nb::object holder;
  const std::string_view bytes = TextBytes(text, &holder);
  nb::gil_scoped_release unlocked;
  return linter.LintText(bytes, display_path);
}

// Lints the files on `jobs` threads (0: one per core), results in the
// order of `paths`, as the CLI's workers do.
std::vector<api::LintResult> LintFiles(const api::Linter& linter,
                                       const std::vector<std::string>& paths, int jobs) {
  std::vector<api::LintResult> results(paths.size());
  nb::gil_scoped_release unlocked;
  if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const size_t threads = std::min(paths.size(), static_cast<size_t>(jobs));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) results[i] = linter.LintFile(paths[i]);
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return results;
}

std::pair<std::vector<std::string>, std::vector<std::string>> ExpandPaths(
    const std::vector<std::string>& paths) {
  std::vector<api::PathError> errors;
  std::vector<std::string> files = api::ExpandPaths(paths, &errors);
  std::vector<std::string> messages;
  for (const api::PathError& error : errors) messages.push_back(error.ToString());
  return {std::move(files), std::move(messages)};
}

std::vector<std::string> OptionErrors(const api::Linter& linter) {
  std::vector<std::string> messages;
  for (const api::LintError& error : linter.option_errors()) {
    messages.push_back(error.location ? error.location->path + ":" +
                                            std::to_string(error.location->line) + ":" +
                                            std::to_string(error.location->column) + ": " +
                                            error.message
                                      : error.message);
  }
  return messages;
}

}  // namespace

void BindLinting(nb::module_& m) {
  nb::class_<api::Linter>(m, "Linter", "Lints with one set of options, validated once.")
      .def("__init__", &InitLinter, nb::kw_only(), nb::arg("select") = nb::none(),
           nb::arg("extend_select") = std::vector<std::string>(),
           nb::arg("ignore") = std::vector<std::string>(),
           nb::arg("severity_overrides") = std::vector<std::pair<std::string, std::string>>(),
           nb::arg("config") = "none", nb::arg("config_file") = "",
           nb::arg("xla_version") = nb::none(), nb::arg("backend") = nb::none(),
           nb::arg("assume_pass") = nb::none())
      .def("option_errors", &OptionErrors,
           "What is wrong with the options (unknown rules, a bad configuration file).")
      .def("lint_text", &LintText, nb::arg("text"), nb::arg("display_path"),
           "Lints a str or bytes (without copying it), the GIL released.")
      .def("lint_files", &LintFiles, nb::arg("paths"), nb::arg("jobs") = 0,
           "Reads and lints files on `jobs` threads (0: one per core), the GIL released.");
  m.def("expand_paths", &ExpandPaths, nb::arg("paths"),
        "The files the CLI would lint for these paths, and the problems (missing paths).");
  m.def("rules", &api::Rules, "Every rule, in the order `hlolint --list-rules` lists them.");
  m.def("find_rule", &api::FindRule, nb::arg("id"), "The rule with this id, or None.");
}

}  // namespace hlolint_python
