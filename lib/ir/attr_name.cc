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
  static constexpr KeywordTable<AttrName, KeywordSlotsFor(kAttrNameCount)> kIndex(kNames,
                                                                                  kAttrNameCount);
  return kIndex.Find(text, AttrName::kUnknown);
}

}  // namespace hlolint
