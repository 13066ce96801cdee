#include "engine/selection.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr std::string_view kAll = "ALL";

bool Matches(std::string_view specifier, const Rule& rule) {
  return specifier == kAll || specifier == rule.info().id || specifier == CategoryName(rule.info().category);
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

bool IsKnownSpecifier(std::string_view specifier, const std::vector<const Rule*>& all) {
  if (specifier == kAll) return true;
  return std::any_of(all.begin(), all.end(),
                     [&](const Rule* rule) { return Matches(specifier, *rule); });
}

std::string ClosestMatch(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string best;
  size_t best_distance = 0;
  for (std::string_view candidate : candidates) {
    const size_t distance = EditDistance(word, candidate);
    if (best.empty() || distance < best_distance) {
      best = std::string(candidate);
      best_distance = distance;
    }
  }
  // A third of the word may be wrong: catches typos, not unrelated names.
  if (best.empty() || best_distance > std::max<size_t>(2, word.size() / 3)) return "";
  return best;
}

std::string UnknownSpecifierMessage(std::string_view specifier,
                                    const std::vector<const Rule*>& all) {
  std::vector<std::string_view> candidates = {kAll};
  for (const Rule* rule : all) {
    candidates.push_back(rule->info().id);
    candidates.push_back(CategoryName(rule->info().category));
  }
  std::string message = StrCat("unknown rule or category '", specifier, "'");
  const std::string suggestion = ClosestMatch(specifier, candidates);
  if (!suggestion.empty()) message += StrCat(" (did you mean '", suggestion, "'?)");
  return message;
}

absl::StatusOr<std::vector<const Rule*>> MatchSpecifiers(const std::vector<std::string>& specifiers,
                                                         const std::vector<const Rule*>& all) {
  std::vector<const Rule*> matched;
  for (const std::string& specifier : specifiers) {
    if (!IsKnownSpecifier(specifier, all)) {
      return absl::InvalidArgumentError(UnknownSpecifierMessage(specifier, all));
    }
  }
  for (const Rule* rule : all) {
    for (const std::string& specifier : specifiers) {
      if (Matches(specifier, *rule)) {
        matched.push_back(rule);
        break;
      }
    }
  }
  return matched;
}

absl::StatusOr<std::vector<const Rule*>> ResolveSelection(
    const std::vector<const Rule*>& all, const std::vector<SelectionLayer>& layers) {
  absl::flat_hash_set<const Rule*> selected(all.begin(), all.end());
  for (const SelectionLayer& layer : layers) {
    if (layer.select) {
      absl::StatusOr<std::vector<const Rule*>> chosen = MatchSpecifiers(*layer.select, all);
      if (!chosen.ok()) return chosen.status();
      selected = absl::flat_hash_set<const Rule*>(chosen->begin(), chosen->end());
    }
    absl::StatusOr<std::vector<const Rule*>> extra = MatchSpecifiers(layer.extend_select, all);
    if (!extra.ok()) return extra.status();
    selected.insert(extra->begin(), extra->end());
    absl::StatusOr<std::vector<const Rule*>> ignored = MatchSpecifiers(layer.ignore, all);
    if (!ignored.ok()) return ignored.status();
    for (const Rule* rule : *ignored) selected.erase(rule);
  }
  std::vector<const Rule*> ordered;
  for (const Rule* rule : all) {
    if (selected.contains(rule)) ordered.push_back(rule);
  }
  return ordered;
}

}  // namespace hlolint
