#include "parse/attributes.h"

#include "parse/byte_values.h"
#include "parse/value_parser.h"

namespace hlolint {
namespace {

// A parser positioned on the first token of an attribute's value.
class AttrReader : public ValueParser {
 public:
  AttrReader(const Module& m, const Attribute& attribute, ShapeTable* shapes)
      : ValueParser(m.source(), attribute.value_offset, shapes) {
    // The parser validated the text for the XLA it was read for; whichever
    // that was, its form reads back.
    any_xla_syntax_ = true;
    Lex();
  }
};

const Attribute* Find(const Module& m, InstrId id, AttrName name) {
  return m.FindAttribute(id, name);
}

// A byte that ends a `true`, `false` or integer token as dumps print them.
// Before any other byte the value goes through the grammar.
bool EndsPlainValue(char c) {
  return c == ',' || c == '}' || c == ')' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// `true`/`false` read from the bytes, as ParseBool would read them; false
// when the value has another form (the grammar then decides).
bool PlainBool(std::string_view text, uint32_t offset, bool* value) {
  const std::string_view rest = text.substr(offset);
  for (const bool candidate : {true, false}) {
    const std::string_view word = candidate ? "true" : "false";
    if (rest.size() > word.size() && rest.substr(0, word.size()) == word &&
        EndsPlainValue(rest[word.size()])) {
      *value = candidate;
      return true;
    }
  }
  return false;
}

// An integer of at most 18 digits without a leading zero, optionally
// negative, read from the bytes as ParseInt64 would read it.
bool PlainInt(std::string_view text, uint32_t offset, int64_t* value) {
  size_t i = offset;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const size_t digits_begin = i;
  int64_t magnitude = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - digits_begin < 18) {
    magnitude = magnitude * 10 + (text[i++] - '0');
  }
  const size_t digits = i - digits_begin;
  if (digits == 0 || i >= text.size() || !EndsPlainValue(text[i])) return false;
  if (text[digits_begin] == '0' && digits > 1) return false;
  *value = negative ? -magnitude : magnitude;
  return true;
}

}  // namespace

std::optional<int64_t> IntAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  int64_t value;
  if (PlainInt(m.source().text(), a->value_offset, &value)) return value;
  AttrReader r(m, *a, nullptr);
  if (!r.ParseInt64(&value)) return std::nullopt;
  return value;
}

std::optional<bool> BoolAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  bool value;
  if (PlainBool(m.source().text(), a->value_offset, &value)) return value;
  AttrReader r(m, *a, nullptr);
  if (!r.ParseBool(&value)) return std::nullopt;
  return value;
}

std::optional<std::string_view> RawStringAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  std::string_view raw;
  if (r.kind() == TokKind::kString) {
    if (!r.ParseString(&raw)) return std::nullopt;
    return raw;
  }
  if (r.kind() == TokKind::kLbrace && r.ParseJsonDict(&raw)) return raw;
  return std::nullopt;
}

std::optional<std::string> StringAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  if (r.kind() != TokKind::kString) return std::nullopt;
  const bool escapes = r.tok().string_has_escapes;
  std::string_view raw = r.tok().text;
  return escapes ? UnescapeString(raw) : std::string(raw);
}

std::optional<std::string_view> IdentAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  if (r.kind() != TokKind::kIdent) return std::nullopt;
  return r.tok().text;
}

std::optional<std::vector<int64_t>> IntListAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  std::vector<int64_t> values;
  if (!r.ParseInt64List(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &values)) {
    return std::nullopt;
  }
  return values;
}

bool IntListAttrInto(const Module& m, InstrId id, AttrName name, std::vector<int64_t>* out) {
  out->clear();
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return false;
  AttrReader r(m, *a, nullptr);
  if (r.ParseInt64List(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, out)) return true;
  out->clear();
  return false;
}

std::optional<std::vector<std::vector<int64_t>>> IntListListAttr(const Module& m, InstrId id,
                                                                 AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  std::vector<std::vector<int64_t>> values;
  if (!r.ParseInt64ListList(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &values)) {
    return std::nullopt;
  }
  return values;
}

std::optional<Window> WindowAttr(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kWindow);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  Window window;
  if (!r.ParseWindow(&window)) return std::nullopt;
  return window;
}

std::optional<ConvolutionDimensionNumbers> DimLabelsAttr(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kDimLabels);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  ConvolutionDimensionNumbers dnums;
  if (!r.ParseConvolutionDimensionNumbers(&dnums)) return std::nullopt;
  return dnums;
}

std::optional<SliceRanges> SliceAttr(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kSlice);
  if (a == nullptr) return std::nullopt;
  SliceRanges ranges;
  // Dumps print `{[0:8], [2:4:2]}`: read from the bytes, the grammar else.
  if (ScanSliceRanges(m.source().text().data() + a->value_offset, &ranges) != nullptr) {
    return ranges;
  }
  AttrReader r(m, *a, nullptr);
  if (!r.ParseSliceRanges(&ranges)) return std::nullopt;
  return ranges;
}

std::optional<PaddingConfig> PaddingAttr(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kPadding);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  PaddingConfig padding;
  if (!r.ParsePaddingConfig(&padding)) return std::nullopt;
  return padding;
}

std::optional<ReplicaGroups> ReplicaGroupsAttr(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kReplicaGroups);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  ReplicaGroups groups;
  if (!r.ParseReplicaGroups(&groups)) return std::nullopt;
  return groups;
}

std::optional<Sharding> ShardingAttr(const Module& m, InstrId id, AttrName name) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  Sharding sharding;
  if (!r.ParseSharding(&sharding)) return std::nullopt;
  return sharding;
}

std::optional<std::vector<ShapeId>> ShapeListAttr(const Module& m, InstrId id, AttrName name,
                                                  ShapeTable& table) {
  const Attribute* a = Find(m, id, name);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, &table);
  std::vector<ShapeId> shapes;
  if (r.kind() == TokKind::kLbrace) {
    if (!r.ParseShapeList(&shapes)) return std::nullopt;
  } else {
    ShapeId one;
    if (!r.ParseShape(&one)) return std::nullopt;
    shapes.push_back(one);
  }
  return shapes;
}

std::vector<OutputOperandAlias> OutputToOperandAliasing(const Module& m, InstrId id) {
  std::vector<OutputOperandAlias> aliases;
  const Attribute* a = Find(m, id, AttrName::kOutputToOperandAliasing);
  if (a == nullptr) return aliases;
  AttrReader r(m, *a, nullptr);
  if (!r.ParseOutputOperandAliasing(&aliases)) aliases.clear();
  return aliases;
}

std::string CustomCallTarget(const Module& m, InstrId id) {
  return StringAttr(m, id, AttrName::kCustomCallTarget).value_or("");
}

std::optional<OpMetadata> Metadata(const Module& m, InstrId id) {
  const Attribute* a = Find(m, id, AttrName::kMetadata);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  OpMetadata metadata;
  if (!r.ParseMetadata(&metadata)) return std::nullopt;
  return metadata;
}

std::optional<std::string> FrontendAttribute(const Module& m, InstrId id, std::string_view key) {
  const Attribute* a = Find(m, id, AttrName::kFrontendAttributes);
  if (a == nullptr) return std::nullopt;
  AttrReader r(m, *a, nullptr);
  if (!r.EatIfPresent(TokKind::kLbrace)) return std::nullopt;
  while (r.kind() == TokKind::kAttributeName) {
    const std::string_view name = r.tok().text;
    r.Lex();
    std::string_view value;
    bool escapes = false;
    if (r.kind() == TokKind::kString) {
      escapes = r.tok().string_has_escapes;
      value = r.tok().text;
      r.Lex();
    } else if (r.kind() == TokKind::kLbrace) {
      if (!r.ParseJsonDict(&value)) return std::nullopt;
    } else {
      return std::nullopt;
    }
    if (name == key) return escapes ? UnescapeString(value) : std::string(value);
    if (!r.EatIfPresent(TokKind::kComma)) break;
  }
  return std::nullopt;
}

}  // namespace hlolint
