// Attribute values parsed once per distinct text. Dumps repeat a few texts
// (aliasing configs, replica groups) on many instructions, and such a
// value depends on its text alone.
#pragma once

#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "analysis/attribute_text.h"
#include "ir/module.h"
#include "util/hash.h"

namespace hlolint {

template <typename Value>
class ParsedByText {
 public:
  // The value of `id`'s attribute `name`: `parse()` the first time its text
  // is seen, the remembered value after that. The reference stays valid
  // while this lives. Offsets a value records locate the first instruction
  // with that text only.
  // A value the parser keyed (HasValueKey) is found by its key, without
  // reading its text again (a large file's text is released by then).
  template <typename Parse>
  const Value& Get(const Module& m, InstrId id, AttrName name, Parse&& parse) {
    const Attribute* attribute = m.FindAttribute(id, name);
    const uint32_t key = attribute != nullptr ? attribute->value_key : 0;
    if (key == 0) return ByText(m, id, name, std::forward<Parse>(parse));
    auto [it, inserted] = by_key_.try_emplace(key, nullptr);
    if (inserted) it->second = &ByText(m, id, name, std::forward<Parse>(parse));
    return *it->second;
  }

 private:
  template <typename Parse>
  const Value& ByText(const Module& m, InstrId id, AttrName name, Parse&& parse) {
    auto [it, inserted] = by_text_.try_emplace(AttributeText(m, id, name));
    if (inserted) it->second = std::forward<Parse>(parse)();
    return it->second;
  }

  absl::node_hash_map<std::string_view, Value, StringViewHash> by_text_;  // stable values
  absl::flat_hash_map<uint32_t, const Value*> by_key_;
};

}  // namespace hlolint
