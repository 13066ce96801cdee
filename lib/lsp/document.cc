#include "lsp/document.h"

#include <algorithm>

#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

std::vector<uint32_t> LineStarts(std::string_view text, uint32_t base) {
  std::vector<uint32_t> starts;
  for (size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1)) {
    starts.push_back(base + static_cast<uint32_t>(at) + 1);
  }
  return starts;
}

}  // namespace

EditableText::EditableText(std::string text) : text_(std::move(text)) {
  line_starts_.push_back(0);
  const std::vector<uint32_t> rest = LineStarts(text_, 0);
  line_starts_.insert(line_starts_.end(), rest.begin(), rest.end());
}

std::optional<uint32_t> EditableText::OffsetOf(const nlohmann::json& position) const {
  const std::optional<uint32_t> line = LspLine(position);
  if (!line) return std::nullopt;
  // A line past the end is the end of the text (LSP clamps positions).
  if (*line >= line_starts_.size()) return static_cast<uint32_t>(text_.size());
  const uint32_t begin = line_starts_[*line];
  uint32_t end = *line + 1 < line_starts_.size() ? line_starts_[*line + 1] - 1
                                                 : static_cast<uint32_t>(text_.size());
  if (end > begin && text_[end - 1] == '\r') --end;
  const std::optional<api::Position> at =
      ToApiPosition(position, std::string_view(text_).substr(begin, end - begin));
  if (!at) return std::nullopt;
  return begin + at->column - 1;
}

bool EditableText::Replace(const nlohmann::json& range, std::string_view replacement) {
  if (!range.is_object() || !range.contains("start") || !range.contains("end")) return false;
  std::optional<uint32_t> begin = OffsetOf(range["start"]);
  std::optional<uint32_t> end = OffsetOf(range["end"]);
  if (!begin || !end) return false;
  if (*end < *begin) std::swap(begin, end);
  // Lines after the edit move by the change in length; the edit's own
  // lines are indexed again.
  const auto first_after = std::upper_bound(line_starts_.begin(), line_starts_.end(), *end);
  const auto first_inside = std::upper_bound(line_starts_.begin(), line_starts_.end(), *begin);
  const int64_t delta = static_cast<int64_t>(replacement.size()) - (*end - *begin);
  std::vector<uint32_t> inserted = LineStarts(replacement, *begin);
  const size_t after_index = static_cast<size_t>(first_after - line_starts_.begin());
  for (size_t i = after_index; i < line_starts_.size(); ++i) {
    line_starts_[i] = static_cast<uint32_t>(line_starts_[i] + delta);
  }
  const auto erase_from = line_starts_.begin() + (first_inside - line_starts_.begin());
  const auto erase_to = line_starts_.begin() + static_cast<std::ptrdiff_t>(after_index);
  const auto at = line_starts_.erase(erase_from, erase_to);
  line_starts_.insert(at, inserted.begin(), inserted.end());
  text_.replace(*begin, *end - *begin, replacement);
  return true;
}

Document::Document(std::string uri, std::string text, std::optional<int64_t> version)
    : uri_(std::move(uri)), path_(PathFromUri(uri_)), version_(version) {
  pending_.emplace(std::move(text));
}

std::string_view Document::text() const {
  if (pending_) return pending_->text();
  return module_ ? module_->text() : std::string_view();
}

std::string Document::ApplyChanges(nlohmann::json& changes, std::optional<int64_t> version) {
  if (!changes.is_array()) return "contentChanges is not an array";
  for (const nlohmann::json& change : changes) {
    if (!change.is_object() || !change.contains("text") || !change["text"].is_string()) {
      return "a content change without a text";
    }
  }
  // Every change is checked before the first is applied: a bad one leaves
  // the document as it was.
  for (const nlohmann::json& change : changes) {
    if (!change.contains("range")) continue;
    const nlohmann::json& range = change["range"];
    if (!range.is_object() || !IsLspPosition(range.value("start", nlohmann::json())) ||
        !IsLspPosition(range.value("end", nlohmann::json()))) {
      return "a content change with a range that is not an LSP Range";
    }
  }
  for (nlohmann::json& change : changes) {
    std::string& replacement = change["text"].get_ref<std::string&>();
    if (!change.contains("range")) {
      pending_.emplace(std::move(replacement));
      continue;
    }
    if (!pending_) pending_.emplace(std::string(text()));
    pending_->Replace(change["range"], replacement);
  }
  if (!changes.empty()) lint_outdated_ = true;
  version_ = version;
  return {};
}

void Document::Parse() {
  if (!needs_parse()) return;
  std::string text = pending_ ? pending_->TakeText() : std::string();
  pending_.reset();
  // The old parse goes first: only one copy of the text is held besides `text`.
  module_.reset();
  module_.emplace(api::Module::FromText(text, path_));
}

void Document::Lint(const api::Linter& linter) {
  Parse();
  findings_ = linter.LintText(module_->text(), path_);
  lint_outdated_ = false;
}

}  // namespace hlolint::lsp
