// What the verify-sharding rule reads from a sharding's text: the rank its
// tiling implies, and a form without whitespace to compare for identity.
#include "rules/checks/sharding_text.h"

namespace hlolint {

std::optional<int64_t> ShardingTiledDataRank(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\n");
  if (start == std::string_view::npos || text[start] != '{') return std::nullopt;
  // Tuple shardings nest braces right away: `{{...}, {...}}`.
  size_t next = text.find_first_not_of(" \t\n", start + 1);
  if (next == std::string_view::npos || text[next] == '{') return std::nullopt;
  if (text.find("maximal") != std::string_view::npos ||
      text.find("manual") != std::string_view::npos ||
      (text.find("replicated") != std::string_view::npos &&
       text.find("devices=") == std::string_view::npos)) {
    return std::nullopt;
  }
  size_t devices = text.find("devices=[");
  if (devices == std::string_view::npos) return std::nullopt;
  size_t close = text.find(']', devices);
  if (close == std::string_view::npos) return std::nullopt;
  int64_t rank = 1;
  for (size_t i = devices + 9; i < close; ++i) rank += text[i] == ',';
  if (text.find("last_tile_dim_replicate") != std::string_view::npos) --rank;
  size_t last = text.find("last_tile_dims={");
  if (last != std::string_view::npos) {
    size_t end = text.find('}', last);
    if (end == std::string_view::npos) return std::nullopt;
    int64_t entries = 0;
    bool any = false;
    for (size_t i = last + 16; i < end; ++i) {
      if (text[i] == ',') ++entries;
      if (text[i] != ' ') any = true;
    }
    rank -= any ? entries + 1 : 0;
  }
  return rank;
}

std::string NormalizedSharding(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

}  // namespace hlolint
