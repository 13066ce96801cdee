// An open document: its text as the client edited it, the parse of that
// text the queries read, and the findings of its last lint.
//
// The text lives once: in the parse (api::Module) while the document is
// unchanged, in a pending copy from the first edit until the next parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hlolint/lint.h"
#include "hlolint/module.h"

namespace hlolint::lsp {

// Text with an index of its lines, edited in place by LSP ranges.
class EditableText {
 public:
  explicit EditableText(std::string text);

  std::string_view text() const { return text_; }
  std::string TakeText() { return std::move(text_); }
  // Replaces an LSP Range (UTF-16 positions, clamped to the text) with
  // `replacement`; false when `range` is not a Range.
  bool Replace(const nlohmann::json& range, std::string_view replacement);

 private:
  std::optional<uint32_t> OffsetOf(const nlohmann::json& position) const;

  std::string text_;
  std::vector<uint32_t> line_starts_;  // offset of each line's first byte
};

class Document {
 public:
  Document(std::string uri, std::string text, std::optional<int64_t> version);

  const std::string& uri() const { return uri_; }
  // The path the document is linted under (its configuration search starts there).
  const std::string& path() const { return path_; }
  std::optional<int64_t> version() const { return version_; }
  uint64_t size() const { return text().size(); }

  // didChange: applies `contentChanges` in order (a whole text moves out of
  // them). Empty when they applied; else what was wrong, and the document
  // is as before.
  std::string ApplyChanges(nlohmann::json& changes, std::optional<int64_t> version);

  // Whether the text changed since the last Parse / Lint.
  bool needs_parse() const { return pending_.has_value() || !module_; }
  bool needs_lint() const { return lint_outdated_; }
  // Parses the current text, for queries; the findings stay as they were.
  void Parse();
  // Parses if needed, then lints.
  void Lint(const api::Linter& linter);

  // The current text.
  std::string_view text() const;
  // The last parse (Parse first when needs_parse()).
  const api::Module& module() const { return *module_; }
  // The findings of the last Lint, on the text of the last parse when no
  // edit came since.
  const api::LintResult& findings() const { return findings_; }

 private:
  std::string uri_;
  std::string path_;
  std::optional<int64_t> version_;
  std::optional<EditableText> pending_;  // edits not parsed yet
  std::optional<api::Module> module_;
  api::LintResult findings_;
  bool lint_outdated_ = true;
};

}  // namespace hlolint::lsp
