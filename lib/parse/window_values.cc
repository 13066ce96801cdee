// Windows, convolution dimension labels, slices and padding configs (ValueParser).
#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool SplitToInt64s(std::string_view text, char delim, std::vector<int64_t>* out) {
  return ForEachPiece(text, delim, [out](std::string_view part) {
    int64_t value;
    if (!ParseIntText(part, &value)) return false;
    out->push_back(value);
    return true;
  });
}
}  // namespace

bool ValueParser::ParseDxD(std::string_view name, std::vector<int64_t>* out) {
  const uint32_t offset = lexer_.offset();
  if (!out->empty()) {
    // Point at the repeated `name=` just before the value.
    return Error(lexer_.previous_end() - static_cast<uint32_t>(name.size()) - 1,
                 StrCat("sub-attribute '", name, "=' already exists"));
  }
  if (kind() == TokKind::kInt) {
    out->push_back(tok().int_value);
    Lex();
    return true;
  }
  if (kind() == TokKind::kDxD) {
    if (!SplitToInt64s(tok().text, 'x', out)) {
      return Error(offset, StrCat("expects sub-attribute '", name, "=ixj...'"));
    }
    Lex();
    return true;
  }
  return TokenError("expects token type kInt or kDxD");
}

bool ValueParser::ParseWindow(Window* window) {
  window->clear();
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start window attribute")) return false;
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, rhs_reversal;
  std::vector<std::vector<int64_t>> pad;
  // Where each sub-attribute was written, to point at a mismatching one.
  uint32_t stride_at = offset, lhs_dilate_at = offset, rhs_dilate_at = offset;
  uint32_t rhs_reversal_at = offset, pad_at = offset;
  while (kind() != TokKind::kRbrace) {
    const uint32_t attr_offset = lexer_.offset();
    std::string_view field;
    if (kind() != TokKind::kAttributeName) {
      if (kind() == TokKind::kEof || kind() == TokKind::kError) {
        return TokenError("expected '}' to end window attribute");
      }
      return Error(attr_offset, "expects sub-attributes in window");
    }
    ParseAttributeName(&field);
    bool ok;
    if (field == "size") {
      ok = ParseDxD("size", &size);
    } else if (field == "stride") {
      stride_at = attr_offset;
      ok = ParseDxD("stride", &stride);
    } else if (field == "lhs_dilate") {
      lhs_dilate_at = attr_offset;
      ok = ParseDxD("lhs_dilate", &lhs_dilate);
    } else if (field == "rhs_dilate") {
      rhs_dilate_at = attr_offset;
      ok = ParseDxD("rhs_dilate", &rhs_dilate);
    } else if (field == "rhs_reversal") {
      rhs_reversal_at = attr_offset;
      ok = ParseDxD("rhs_reversal", &rhs_reversal);
    } else if (field == "pad") {
      pad_at = attr_offset;
      const uint32_t pad_offset = lexer_.offset();
      if (!pad.empty()) return Error(attr_offset, "sub-attribute 'pad=' already exists");
      if (kind() != TokKind::kPad) return TokenError("expects window pad pattern, e.g., '0_0x3_3'");
      const bool pad_ok = ForEachPiece(tok().text, 'x', [&pad](std::string_view dim) {
        std::vector<int64_t> low_high;
        if (!SplitToInt64s(dim, '_', &low_high) || low_high.size() != 2) return false;
        pad.push_back(std::move(low_high));
        return true;
      });
      if (!pad_ok) {
        return Error(pad_offset, "expects padding_low and padding_high separated by '_'");
      }
      Lex();
      ok = true;
    } else {
      return Error(attr_offset, StrCat("unexpected attribute name: ", field));
    }
    if (!ok) return false;
  }
  auto check = [&](const auto& v, std::string_view name, uint32_t at) {
    if (!v.empty() && v.size() != size.size()) {
      return Error(at, StrCat("expects '", name, "=' has the same size as 'size=' (", v.size(),
                              " vs ", size.size(), ")"));
    }
    return true;
  };
  // rhs_reversal's size is checked from openxla/xla@7205f71e15de (2026-07-27,
  // "Return parse errors instead of OOB on malformed sharding/window/conv
  // attributes"); before, XLA ignored extra entries and read past the end of
  // a short list (undefined; taken here as "not reversed").
  const bool reversal_checked =
      !any_xla_syntax_ && limits_.xla.Has(XlaChange::kMalformedAttributeErrors);
  if (!check(stride, "stride", stride_at) || !check(lhs_dilate, "lhs_dilate", lhs_dilate_at) ||
      !check(rhs_dilate, "rhs_dilate", rhs_dilate_at) || !check(pad, "pad", pad_at) ||
      (reversal_checked && !check(rhs_reversal, "rhs_reversal", rhs_reversal_at))) {
    return false;
  }
  for (size_t i = 0; i < size.size(); ++i) {
    WindowDimension dim;
    dim.size = size[i];
    if (!pad.empty()) {
      dim.padding_low = pad[i][0];
      dim.padding_high = pad[i][1];
    }
    if (!stride.empty()) dim.stride = stride[i];
    if (!lhs_dilate.empty()) dim.base_dilation = lhs_dilate[i];
    if (!rhs_dilate.empty()) dim.window_dilation = rhs_dilate[i];
    if (i < rhs_reversal.size()) dim.window_reversal = rhs_reversal[i] == 1;
    window->push_back(dim);
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end window attribute");
}

bool ValueParser::ParseConvolutionDimensionNumbers(ConvolutionDimensionNumbers* dnums) {
  if (kind() != TokKind::kDimLabels) {
    return TokenError("expects dim labels pattern, e.g., 'bf0_0io->0bf'");
  }
  std::string_view text = tok().text;
  size_t underscore = text.find('_');
  size_t arrow = text.find("->");
  std::string_view lhs = text.substr(0, underscore);
  std::string_view rhs = text.substr(underscore + 1, arrow - underscore - 1);
  std::string_view out = text.substr(arrow + 2);

  auto is_unique = [](std::string_view s) {
    bool seen[256] = {};
    for (char c : s) {
      if (c == '?') continue;
      if (seen[static_cast<unsigned char>(c)]) return false;
      seen[static_cast<unsigned char>(c)] = true;
    }
    return true;
  };
  // Fills one side; `a` and `b` are the two named dimensions of that side.
  // Spatial digits must be below the side's count of spatial dimensions
  // (XLA's check since openxla/xla@7205f71e15de, 2026-07-27; before, XLA
  // bounded them by the label's length and wrote such a digit past the end
  // of the spatial dimensions, which hlolint does not mirror for any version).
  auto parse_side = [&](std::string_view side, std::string_view which, char a, char b,
                        int64_t* a_dim, int64_t* b_dim, std::vector<int64_t>* spatial) {
    if (!is_unique(side)) {
      return TokenError(StrCat("expects unique ", which, " dimension numbers, but sees ", side));
    }
    spatial->clear();
    for (char c : side) {
      if (c != a && c != b && c != '?') spatial->push_back(-1);
    }
    const size_t spatial_count = spatial->size();
    for (size_t i = 0; i < side.size(); ++i) {
      char c = side[i];
      if (c == '?') continue;
      if (c == a) {
        *a_dim = static_cast<int64_t>(i);
      } else if (c == b) {
        *b_dim = static_cast<int64_t>(i);
      } else if (c >= '0' && static_cast<size_t>(c - '0') < spatial_count) {
        (*spatial)[static_cast<size_t>(c - '0')] = static_cast<int64_t>(i);
      } else {
        return TokenError(StrCat("expects [0-", static_cast<int64_t>(spatial_count) - 1, a, b,
                                 "?] in ", which, " dimension numbers"));
      }
    }
    return true;
  };
  if (!parse_side(lhs, "lhs", 'b', 'f', &dnums->input_batch, &dnums->input_feature,
                  &dnums->input_spatial) ||
      !parse_side(rhs, "rhs", 'i', 'o', &dnums->kernel_input_feature,
                  &dnums->kernel_output_feature, &dnums->kernel_spatial) ||
      !parse_side(out, "output", 'b', 'f', &dnums->output_batch, &dnums->output_feature,
                  &dnums->output_spatial)) {
    return false;
  }
  if (dnums->input_spatial.size() != dnums->output_spatial.size() ||
      dnums->input_spatial.size() != dnums->kernel_spatial.size()) {
    return TokenError(StrCat(
        "input, kernel, and output must have same number of spatial dimensions, but got ",
        dnums->input_spatial.size(), ", ", dnums->kernel_spatial.size(), ", ",
        dnums->output_spatial.size(), ", respectively."));
  }
  Lex();
  return true;
}

bool ValueParser::ParseSliceRanges(SliceRanges* out) {
  out->Clear();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start ranges")) return false;
  if (kind() == TokKind::kRbrace) return ParseToken(TokKind::kRbrace, "expects '}' to end ranges");
  std::vector<int64_t>& range = ints_scratch_;
  do {
    const uint32_t offset = lexer_.offset();
    if (!ParseInt64List(TokKind::kLsquare, TokKind::kRsquare, TokKind::kColon, &range)) {
      return false;
    }
    if (range.size() != 2 && range.size() != 3) {
      return Error(offset, StrCat("expects [start:limit:step] or [start:limit], but sees ",
                                        range.size(), " elements."));
    }
    out->starts.push_back(range[0]);
    out->limits.push_back(range[1]);
    out->strides.push_back(range.size() == 3 ? range[2] : 1);
  } while (EatIfPresent(TokKind::kComma));
  return ParseToken(TokKind::kRbrace, "expects '}' to end ranges");
}

bool ValueParser::ParsePaddingConfig(PaddingConfig* out) {
  out->clear();
  if (kind() != TokKind::kPad) return TokenError("expects padding config, e.g., '0_0_0x3_3_1'");
  const uint32_t offset = lexer_.offset();
  std::vector<int64_t>& values = ints_scratch_;
  const bool ok = ForEachPiece(tok().text, 'x', [&values, out](std::string_view dim) {
    values.clear();
    if (!SplitToInt64s(dim, '_', &values) || (values.size() != 2 && values.size() != 3)) {
      return false;
    }
    out->push_back({values[0], values[1], values.size() == 3 ? values[2] : 0});
    return true;
  });
  if (!ok) {
    return Error(offset, "expects padding config pattern like 'low_high_interior' or 'low_high'");
  }
  Lex();
  return true;
}

}  // namespace hlolint
