#include "ir/attr_name.h"

#include "util/keyword_table.h"

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
  static const KeywordTable<AttrName> index(kNames, kAttrNameCount);
  return index.Find(text, AttrName::kUnknown);
}

}  // namespace hlolint
