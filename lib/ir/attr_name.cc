#include "ir/attr_name.h"

#include "absl/container/flat_hash_map.h"
#include "util/hash.h"

namespace hlolint {
namespace {

constexpr std::string_view kNames[] = {
#define HLOLINT_TEXT(e, text) text,
    HLOLINT_ATTR_NAMES(HLOLINT_TEXT)
#undef HLOLINT_TEXT
    "<unknown>",
};

}  // namespace

std::string_view AttrNameText(AttrName name) { return kNames[static_cast<int>(name)]; }

AttrName AttrNameFromText(std::string_view text) {
  static const auto* index = [] {
    auto* map = new absl::flat_hash_map<std::string_view, AttrName, StringViewHash>();
    for (int i = 0; i < kAttrNameCount; ++i) map->emplace(kNames[i], static_cast<AttrName>(i));
    return map;
  }();
  auto it = index->find(text);
  return it == index->end() ? AttrName::kUnknown : it->second;
}

}  // namespace hlolint
