// Original values, result accuracy, sparsity configs and domains (ValueParser).
#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {

bool ValueParser::ParseOriginalArray() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{'")) return false;
  if (kind() == TokKind::kString) {
    Lex();
    if (kind() == TokKind::kLbrace) {
      ShapeIndex index;
      if (!ParseShapeIndex(&index)) return false;
    }
  }
  return ParseToken(TokKind::kRbrace, "Expects '} at end of OriginalArray'");
}

bool ValueParser::ParseOriginalValue() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{' to start original value")) return false;
  if (EatIfPresent(TokKind::kLsquare)) {
    if (kind() != TokKind::kIdent || tok().text != "synthetic_call") {
      return TokenError("Expects 'synthetic_call' after '[' for a synthetic_call value.");
    }
    Lex();
    return ParseToken(TokKind::kRsquare, "Expects ']' to end '[synthetic_call]'") &&
           ParseToken(TokKind::kRbrace, "Expects '}' to end original value");
  }
  int64_t depth = 0;
  bool leaf_index_valid = false;  // a ',' needs an enclosing '('
  while (kind() != TokKind::kRbrace) {
    switch (kind()) {
      case TokKind::kLparen:
        if (++depth > limits_.max_nesting_depth) {
          return TokenError("nesting too deep in original value");
        }
        leaf_index_valid = true;
        Lex();
        break;
      case TokKind::kRparen:
        if (depth == 0) return TokenError("unbalanced ')' in original value");
        --depth;
        Lex();
        break;
      case TokKind::kComma:
        if (depth == 0 || !leaf_index_valid) return TokenError("',' outside a tuple in original value");
        Lex();
        break;
      case TokKind::kLbrace:
        if (!ParseOriginalArray()) return false;
        break;
      default:
        return TokenError(
            "Expects '[synthetic]' or a tuple tree of original arrays in original_value field.");
    }
  }
  Lex();
  return true;
}

bool ValueParser::ParseOriginalValueRecoveryTable() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{'")) return false;
  constexpr std::string_view kFormat =
      "Expected format: <original_array>: <original_array>, <HloModule>";
  while (kind() != TokKind::kRbrace) {
    if (!ParseOriginalArray() || !ParseToken(TokKind::kColon, kFormat) || !ParseOriginalArray()) {
      return false;
    }
    if (kind() == TokKind::kComma) {
      Lex();
      if (kind() != TokKind::kString) return TokenError("expects string");
      const uint32_t offset = lexer_.offset();
      std::string text = tok().string_has_escapes ? UnescapeString(tok().text)
                                                  : std::string(tok().text);
      if (!ValidateEmbeddedModule(offset, text)) return false;
      Lex();
    }
  }
  Lex();
  return true;
}

bool ValueParser::ParseResultAccuracy() {
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start result precision list")) return false;
  std::string_view name;
  if (kind() != TokKind::kAttributeName) {
    return TokenError("expects string for result_accuracy spec");
  }
  ParseAttributeName(&name);
  if (name == "mode") {
    if (!ParseEnumIgnoringCase("ResultAccuracy type", {"default", "highest"})) return false;
  } else if (name == "tolerance") {
    if (!ParseToken(TokKind::kLbrace, "expected '{' to start result accuracy list")) return false;
    if (kind() != TokKind::kRbrace) {
      do {
        std::string_view field;
        if (kind() != TokKind::kAttributeName) {
          return TokenError("expects string for result_accuracy tolerance type");
        }
        ParseAttributeName(&field);
        if (field != "ulps" && field != "rtol" && field != "atol") {
          return TokenError(StrCat("invalid attribute name: ", field));
        }
        double value;
        if (!ParseDouble(&value)) return false;
      } while (EatIfPresent(TokKind::kComma));
    }
    if (!ParseToken(TokKind::kRbrace, "expects '}' at the end of result precision")) return false;
  } else {
    return TokenError(StrCat("invalid attribute name: ", name));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end result_accuracy");
}

bool ValueParser::ParseSparsityConfig() {
  // '{' (('lhs=' | 'rhs=') '{' ('sparsity=' NxM | 'dimension=' INT |
  // 'stride=' INT)* '}')* '}', whitespace separated.
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start SparsityConfig")) return false;
  while (kind() != TokKind::kRbrace) {
    const uint32_t side_offset = lexer_.offset();
    std::string_view side;
    if (!ParseAttributeName(&side)) return false;
    if (side != "lhs" && side != "rhs") {
      return Error(side_offset, StrCat("unknown attribute ", side, " in sparsity_config"));
    }
    if (!ParseToken(TokKind::kLbrace, "expected '{' to start TensorSparsityConfig")) return false;
    while (kind() != TokKind::kRbrace) {
      const uint32_t field_offset = lexer_.offset();
      std::string_view field;
      if (!ParseAttributeName(&field)) return false;
      if (field == "sparsity") {
        std::vector<int64_t>& values = ints_scratch_;
        values.clear();
        const uint32_t value_offset = lexer_.offset();
        if (!ParseDxD("sparsity", &values)) return false;
        if (values.size() != 2) return Error(value_offset, "expects 'num_non_zero:block_size'");
      } else if (field == "dimension" || field == "stride") {
        int64_t value;
        if (!ParseInt64(&value)) return false;
      } else {
        return Error(field_offset, StrCat("unknown attribute ", field, " in sparsity_config"));
      }
    }
    Lex();  // '}'
  }
  return ParseToken(TokKind::kRbrace, "expects '}' at the end of SparsityConfig");
}

bool ValueParser::ParseDomain() {
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start sub attributes")) return false;
  bool kind_seen = false, entry_seen = false, exit_seen = false;
  std::string_view kind_value;
  uint32_t kind_offset = 0;
  if (kind() != TokKind::kRbrace) {
    do {
      EatIfPresent(TokKind::kComma);
      const uint32_t attr_offset = lexer_.offset();
      std::string_view name;
      if (kind() != TokKind::kAttributeName) return Error(attr_offset, "error parsing attributes");
      ParseAttributeName(&name);
      bool* seen = name == "kind" ? &kind_seen : name == "entry" ? &entry_seen
                 : name == "exit" ? &exit_seen : nullptr;
      if (seen == nullptr) {
        return Error(attr_offset, StrCat("unexpected attribute \"", name,
                                               "\". Allowed attributes: entry, exit, kind"));
      }
      if (*seen) return Error(attr_offset, StrCat("attribute ", name, " already exists"));
      *seen = true;
      if (name == "kind") {
        kind_offset = lexer_.offset();
        if (!ParseString(&kind_value)) return false;
      } else if (!ParseSharding()) {
        return Error(attr_offset, StrCat("error parsing attribute ", name));
      }
    } while (kind() != TokKind::kRbrace);
  }
  for (auto [seen, name] : {std::pair{kind_seen, "kind"}, {entry_seen, "entry"},
                            {exit_seen, "exit"}}) {
    if (!seen) return Error(offset, StrCat("sub-attribute ", name, " is expected but not seen"));
  }
  if (!ParseToken(TokKind::kRbrace, "expects '}' to end sub attributes")) return false;
  if (kind_value != "sharding") {
    return Error(kind_offset, StrCat("unsupported domain kind: ", kind_value));
  }
  return true;
}

}  // namespace hlolint
