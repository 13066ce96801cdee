// Aliasing, buffer donors and the computation layout of the module header (ValueParser).
#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {

bool ValueParser::ParseOutputOperandAliasing(std::vector<OutputOperandAlias>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of instruction aliasing description")) {
    return false;
  }
  constexpr std::string_view kFormat =
      "Expected format: <output_shape_index>: (<operand_index>, <operand_shape_index>)";
  while (kind() != TokKind::kRbrace) {
    OutputOperandAlias alias;
    alias.offset = lexer_.offset();
    if (!ParseShapeIndex(&alias.output_index) || !ParseToken(TokKind::kColon, kFormat) ||
        !ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&alias.operand) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&alias.operand_index) ||
        !ParseToken(TokKind::kRparen, kFormat)) {
      return false;
    }
    out->push_back(std::move(alias));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of instruction aliasing description");
}

// `{ {0}: (0, {}, may-alias), {1}: (1, {1,0}), ... }`: an entry per
// aliased output, as many as a model has parameters. Decimal numbers of up
// to 9 digits, without leading zeros, the separators XLA prints; anything
// else is left to the token-level reading (which reports what is wrong),
// so both accept the same text.
bool ValueParser::TakePlainInputOutputAlias(std::vector<InputOutputAlias>* out) {
  const char* const base = file_.data();
  const char* p = base + lexer_.offset();
  auto index = [&](const char* q, ShapeIndex* into) -> const char* {
    if (*q++ != '{') return nullptr;
    if (*q == '}') return q + 1;
    while (true) {
      int64_t v;
      q = ScanSmallDecimal(q, &v);
      if (q == nullptr) return nullptr;
      into->push_back(v);
      if (*q == '}') return q + 1;
      if (*q++ != ',') return nullptr;
    }
  };
  if (p[0] != '{' || p[1] != ' ') return false;
  p += 2;
  while (true) {
    InputOutputAlias& alias = out->emplace_back();
    alias.offset = static_cast<uint32_t>(p - base);
    p = index(p, &alias.output_index);
    if (p == nullptr || std::memcmp(p, ": (", 3) != 0) break;
    p = ScanSmallDecimal(p + 3, &alias.parameter);
    if (p == nullptr || p[0] != ',' || p[1] != ' ') break;
    p = index(p + 2, &alias.parameter_index);
    if (p == nullptr) break;
    if (std::memcmp(p, ", may-alias)", 12) == 0) {
      p += 12;
    } else if (std::memcmp(p, ", must-alias)", 13) == 0) {
      alias.must_alias = true;
      p += 13;
    } else if (*p == ')') {
      ++p;
    } else {
      break;
    }
    if (p[0] == ',' && p[1] == ' ') {
      p += 2;
    } else if (p[0] == ' ' && p[1] == '}') {
      lexer_.Reset(static_cast<uint32_t>(p + 2 - base));
      Lex();
      return true;
    } else {
      break;
    }
  }
  out->clear();
  return false;
}

bool ValueParser::ParseInputOutputAlias(std::vector<InputOutputAlias>* out) {
  out->clear();
  if (limits_.fast_paths && TakePlainInputOutputAlias(out)) return true;
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of aliasing description")) {
    return false;
  }
  constexpr std::string_view kFormat =
      "Expected format: <output_shape_index>: (<input_param>, <input_param_shape_index>) OR "
      "<output_shape_index>: <input_param>";
  while (kind() != TokKind::kRbrace) {
    InputOutputAlias alias;
    alias.offset = lexer_.offset();
    if (!ParseShapeIndex(&alias.output_index) || !ParseToken(TokKind::kColon, kFormat) ||
        !ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&alias.parameter) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&alias.parameter_index)) {
      return false;
    }
    if (EatIfPresent(TokKind::kComma)) {
      const uint32_t kind_offset = lexer_.offset();
      std::string_view kind_name;
      if (!ParseName(&kind_name)) return false;
      if (kind_name == "must-alias") {
        alias.must_alias = true;
      } else if (kind_name != "may-alias") {
        return Error(kind_offset, StrCat("Unexpected aliasing kind ", kind_name,
                                         "; expected SYSTEM or USER (must-alias or may-alias)"));
      }
    }
    if (!ParseToken(TokKind::kRparen, kFormat)) return false;
    out->push_back(std::move(alias));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of aliasing description");
}

bool ValueParser::ParseBufferDonors(std::vector<BufferDonor>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of buffer donor description")) {
    return false;
  }
  constexpr std::string_view kFormat = "Expected format: (<input_param>, <input_param_shape_index>)";
  while (kind() != TokKind::kRbrace) {
    BufferDonor donor;
    donor.offset = lexer_.offset();
    if (!ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&donor.parameter) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&donor.parameter_index) ||
        !ParseToken(TokKind::kRparen, kFormat)) {
      return false;
    }
    out->push_back(std::move(donor));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of buffer donor description");
}

bool ValueParser::ParseComputationLayout(std::vector<ShapeId>* params, ShapeId* result) {
  params->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of aliasing description") ||
      !ParseToken(TokKind::kLparen, "Expects ( before parameter shape list")) {
    return false;
  }
  while (kind() != TokKind::kRparen) {
    ShapeId param;
    if (!ParseShape(&param)) return false;
    params->push_back(param);
    if (kind() == TokKind::kRparen) break;
    if (!ParseToken(TokKind::kComma, "Expects , between parameter shapes")) return false;
  }
  return ParseToken(TokKind::kRparen, "Expects ) at end of parameter shape list") &&
         ParseToken(TokKind::kArrow, "Expects -> before result shape") && ParseShape(result) &&
         ParseToken(TokKind::kRbrace, "Expects '}' at the end of computation layouts");
}

}  // namespace hlolint
