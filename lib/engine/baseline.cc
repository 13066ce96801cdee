#include "engine/baseline.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "diag/fingerprint.h"
#include "engine/located_json.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr int kBaselineVersion = 1;

struct Entry {
  const Diagnostic* first = nullptr;
  const std::string* file = nullptr;
  uint32_t count = 0;
};

}  // namespace

bool ParseBaseline(std::string_view text, const std::string& path, Baseline* out,
                   std::string* error) {
  LocatedJson json;
  JsonSyntaxError syntax;
  auto fail = [&](const std::string& pointer, std::string_view message) {
    const JsonPosition p = json.Value(pointer);
    *error = StrCat(path, ":", p.line, ":", p.column, ": error: ", message);
    return false;
  };
  if (!ParseLocatedJson(text, &json, &syntax)) {
    *error = StrCat(path, ":", syntax.position.line, ":", syntax.position.column,
                    ": error: invalid JSON: ", syntax.message);
    return false;
  }
  const nlohmann::json& doc = json.value;
  if (!doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array()) {
    return fail("", "not an hlolint baseline (expected an object with \"findings\": [...])");
  }
  if (!doc.contains("version") || doc["version"] != kBaselineVersion) {
    return fail(doc.contains("version") ? "/version" : "",
                StrCat("unsupported baseline version (this hlolint writes version ",
                       kBaselineVersion, ")"));
  }
  if (doc.contains("fingerprint") && doc["fingerprint"] != std::string(kFingerprintVersion)) {
    return fail("/fingerprint", StrCat("baseline fingerprints are not ", kFingerprintVersion,
                                       "; write the baseline again with --write-baseline"));
  }
  *out = Baseline();
  const nlohmann::json& findings = doc["findings"];
  for (size_t i = 0; i < findings.size(); ++i) {
    const std::string pointer = StrCat("/findings/", i);
    const nlohmann::json& f = findings[i];
    if (!f.is_object() || !f.contains("fingerprint") || !f["fingerprint"].is_string()) {
      return fail(pointer, "each finding needs a \"fingerprint\" string");
    }
    uint32_t count = 1;
    if (f.contains("count")) {
      if (!f["count"].is_number_unsigned() || f["count"].get<uint64_t>() == 0 ||
          f["count"].get<uint64_t>() > UINT32_MAX) {
        return fail(StrCat(pointer, "/count"), "\"count\" must be a positive integer");
      }
      count = f["count"].get<uint32_t>();
    }
    out->counts[f["fingerprint"].get<std::string>()] += count;
  }
  return true;
}

bool LoadBaseline(const std::string& path, Baseline* out, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = StrCat(path, ": error: is a directory, not a baseline file");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = StrCat(path, ": error: cannot read the baseline file");
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseBaseline(text.str(), path, out, error);
}

std::string BaselineDocument(const std::vector<FileResult>& files) {
  std::map<std::pair<std::string, std::string>, Entry> entries;  // (rule, fingerprint)
  for (const FileResult& file : files) {
    for (const Diagnostic& d : file.diagnostics) {
      Entry& entry = entries[{d.rule, d.fingerprint}];
      if (entry.count++ == 0) {
        entry.first = &d;
        entry.file = &file.path;
      }
    }
  }
  nlohmann::ordered_json doc;
  doc["version"] = kBaselineVersion;
  doc["tool"] = "hlolint";
  doc["fingerprint"] = std::string(kFingerprintVersion);
  doc["findings"] = nlohmann::ordered_json::array();
  for (const auto& [key, entry] : entries) {
    const Diagnostic& d = *entry.first;
    nlohmann::ordered_json f;
    f["fingerprint"] = d.fingerprint;
    f["rule"] = d.rule;
    f["count"] = entry.count;
    // For people reading the file; matching uses the fingerprint only.
    f["file"] = *entry.file;
    if (!d.module.empty()) f["module"] = d.module;
    if (!d.computation.empty()) f["computation"] = d.computation;
    if (!d.instruction.empty()) f["instruction"] = d.instruction;
    f["message"] = d.message;
    doc["findings"].push_back(std::move(f));
  }
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

uint64_t ApplyBaseline(const Baseline& baseline, std::vector<FileResult>& files,
                       uint64_t* stale) {
  std::map<std::string, uint32_t> remaining = baseline.counts;
  uint64_t removed = 0;
  for (FileResult& file : files) {
    auto end = std::remove_if(file.diagnostics.begin(), file.diagnostics.end(),
                              [&](const Diagnostic& d) {
                                auto it = remaining.find(d.fingerprint);
                                if (it == remaining.end() || it->second == 0) return false;
                                --it->second;
                                ++removed;
                                return true;
                              });
    file.diagnostics.erase(end, file.diagnostics.end());
  }
  if (stale != nullptr) {
    *stale = 0;
    for (const auto& [fingerprint, count] : baseline.counts) {
      if (count > 0 && remaining[fingerprint] == count) ++*stale;
    }
  }
  return removed;
}

}  // namespace hlolint
