// Attribute values in the forms dumps print, read straight from the bytes
// (the text is NUL-terminated, lex/byte_scan.h). Each reader accepts only
// text the lexer would cut into the tokens the grammar expects, with the
// grammar's result; on anything else it returns null, and the caller lets
// the grammar read the value (and report errors). Shared by the parser's
// fast paths and the rules' attribute readers.
#pragma once

#include <cstdint>

#include "lex/byte_scan.h"
#include "parse/values.h"

namespace hlolint {

inline bool IsDigitByte(char c) { return c >= '0' && c <= '9'; }

// A non-negative integer of at most 18 digits at p, as the lexer's fast
// path reads it: the byte after it must not continue any number pattern,
// which holds when it is no identifier character and no '?'. Returns its
// end, or null.
inline const char* ScanSmallInt(const char* p, int64_t* value) {
  const char* const digits = p;
  int64_t v = 0;
  while (IsDigitByte(*p) && p - digits < 18) v = v * 10 + (*p++ - '0');
  if (p == digits || IsIdentCharByte(*p) || *p == '?') return nullptr;
  *value = v;
  return p;
}

// `{[a:b], [a:b:c], ...}` (blanks only after the commas) or `{}`: what
// ParseSliceRanges accepts without a failing check. Returns the end, or
// null. With `out`, also the ranges (a missing step is 1), as
// ParseSliceRanges gives them; `out` may hold part of them on null.
inline const char* ScanSliceRanges(const char* p, SliceRanges* out) {
  if (out != nullptr) out->Clear();
  if (*p != '{') return nullptr;
  ++p;
  if (*p == '}') return p + 1;
  for (;;) {
    if (*p != '[') return nullptr;
    ++p;
    int64_t range[3] = {0, 0, 1};
    int count = 0;
    for (;;) {
      int64_t v;
      p = ScanSmallInt(p, &v);
      if (p == nullptr || count == 3) return nullptr;
      range[count++] = v;
      if (*p == ']') break;
      if (*p != ':') return nullptr;
      ++p;
    }
    if (count != 2 && count != 3) return nullptr;
    if (out != nullptr) {
      out->starts.push_back(range[0]);
      out->limits.push_back(range[1]);
      out->strides.push_back(range[2]);
    }
    ++p;  // ']'
    if (*p == '}') return p + 1;
    if (*p != ',') return nullptr;
    ++p;
    while (*p == ' ') ++p;
  }
}

}  // namespace hlolint
