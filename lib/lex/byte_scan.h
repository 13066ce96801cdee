// Byte-level scanning helpers of the lexer and the parser's fast paths. The text
// is NUL-terminated (SourceFile guarantees it), so scans need no bounds
// check beyond the explicit limits given.
#pragma once

#include <array>
#include <cstdint>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace hlolint {

// The lexer's byte classes, shared with the byte-level fast paths so both
// read the same bytes the same way: identifier characters [a-zA-Z0-9_.-],
// identifier starts [a-zA-Z_], and the blanks the lexer skips.
inline constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    if (alpha || digit || c == '_' || c == '.' || c == '-') table[c] |= 1;
    if (alpha || c == '_') table[c] |= 2;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') table[c] |= 4;
  }
  return table;
}();
inline bool IsIdentCharByte(char c) { return kByteClass[static_cast<unsigned char>(c)] & 1; }
inline bool IsIdentStartByte(char c) { return kByteClass[static_cast<unsigned char>(c)] & 2; }
inline bool IsBlankByte(char c) { return kByteClass[static_cast<unsigned char>(c)] & 4; }

// A number as dumps print small ones: 1 to 9 decimal digits without a
// leading zero (so it fits an int32_t and reads the same as the lexer's
// integer token). Where it ends, or null for anything else.
inline const char* ScanSmallDecimal(const char* p, int64_t* value) {
  const char* const start = p;
  int64_t v = 0;
  while (*p >= '0' && *p <= '9' && p - start < 10) v = v * 10 + (*p++ - '0');
  const auto n = p - start;
  if (n == 0 || n > 9 || (n > 1 && *start == '0')) return nullptr;
  *value = v;
  return p;
}

// The first byte at or after p that is not an identifier character
// [a-zA-Z0-9_.-]. 16 bytes at a time while the load stays before `end`
// (the NUL at `end` stops the byte loop).
inline const char* SkipIdentChars(const char* p, const char* end) {
#ifdef __SSE2__
  // Unsigned lo <= v <= hi as (v - lo) <= (hi - lo): wrap-around makes the
  // bytes below lo large.
  auto in_range = [](__m128i v, char lo, char hi) {
    const __m128i shifted = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    const __m128i width = _mm_set1_epi8(static_cast<char>(hi - lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(shifted, width), shifted);
  };
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Letters of either case ('|0x20' folds case and maps no other byte
    // into a-z); '-' '.' and the digits, less the '/' between them; '_'.
    const __m128i letter = in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z');
    const __m128i number = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                            in_range(v, '-', '9'));
    const __m128i underscore = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    const unsigned ident = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, number), underscore)));
    if (ident != 0xffff) return p + __builtin_ctz(~ident);
    p += 16;
  }
#else
  (void)end;
#endif
  while (IsIdentCharByte(*p)) ++p;
  return p;
}

// The first byte at or after p that is a space or a control character
// (or `end`). 16 bytes at a time while the load stays before `end`.
inline const char* ScanToControlOrSpace(const char* p, const char* end) {
#ifdef __SSE2__
  const __m128i space = _mm_set1_epi8(' ');
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // v <= ' ' as unsigned bytes.
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, space), v));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && static_cast<unsigned char>(*p) > ' ') ++p;
  return p;
}

// BalancedEnd one byte at a time, from `depth` brackets open: its tail,
// and what the tests hold it to.
inline const char* BalancedEndBytewise(const char* p, const char* limit, int depth = 0) {
  for (; p < limit; ++p) {
    const char c = *p;
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return p + 1;
    } else if (static_cast<unsigned char>(c) < ' ') {
      return nullptr;
    }
  }
  return limit;
}

// After the bracket that closes the one at p, counting (, [ and { as
// opening and ), ] and } as closing; `limit` when that is not before it;
// null at a control byte before it. A tuple's text is mostly element types
// and sizes between its brackets: 16 bytes at a time, stopping only at
// brackets and control bytes.
inline const char* BalancedEnd(const char* p, const char* limit) {
  int depth = 0;
#ifdef __SSE2__
  const __m128i control = _mm_set1_epi8(0x1f);
  while (limit - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto is = [&v](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
    const auto open = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(is('('), is('[')), is('{'))));
    const auto close = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(is(')'), is(']')), is('}'))));
    const auto below_space =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, control), v)));
    for (unsigned stops = open | close | below_space; stops != 0; stops &= stops - 1) {
      const unsigned bit = stops & -stops;
      if (below_space & bit) return nullptr;
      if (open & bit) {
        ++depth;
      } else if (--depth == 0) {
        return p + __builtin_ctz(bit) + 1;
      }
    }
    p += 16;
  }
#endif
  return BalancedEndBytewise(p, limit, depth);
}

// Where the shape text starting at p presumably ends, for looking shapes
// up by exact text: an array shape runs to the first space or control byte
// less the ',' and ')' that close what encloses it; a tuple to its closing
// parenthesis (spaces allowed inside). Returns null when that is at or past
// `limit` or the text does not end in a bracket. Only the hit rate depends
// on the guess: a text is cached only once it parsed as a whole shape, its
// last token, a bracket, cannot run on into what follows, and a text of
// dimensions alone is not used when a '{' (maybe a layout) comes next.
inline const char* ShapeTextEnd(const char* p, const char* limit) {
  const char* const begin = p;
  if (*p == '(') {
    p = BalancedEnd(p, limit);
    if (p == nullptr) return nullptr;
  } else {
    p = ScanToControlOrSpace(p, limit);
    while (p > begin && (p[-1] == ',' || p[-1] == ')')) --p;
  }
  if (p >= limit || p == begin) return nullptr;
  const char last = p[-1];
  if (last == ']') {
    // Dimensions without a layout: a layout may still follow after blanks
    // (`f32[2] {0}`). As in the grammar, a '{' starts one when an integer or
    // ':' comes next, and not when a computation body does (`-> f32[] {`).
    // Comments and number-like text are left to the grammar.
    auto skip_blanks = [](const char* q) {
      while (IsBlankByte(*q)) ++q;
      return q;
    };
    const char* next = skip_blanks(p);
    if (*next == '/') return nullptr;
    if (*next == '{') {
      const char c = *skip_blanks(next + 1);
      if ((c >= '0' && c <= '9') || c == '-' || c == ':' || c == '?' || c == '/') return nullptr;
    }
    return p;
  }
  return last == '}' || last == ')' ? p : nullptr;
}

// The first byte at or after p equal to a, b, c or d (a NUL always stops
// the text, so callers pass it as one of them). 16 bytes at a time while
// the load stays inside the text, then byte by byte up to the sentinel.
inline const char* FindFirstOf(const char* p, const char* end, char a, char b, char c, char d) {
#ifdef __SSE2__
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  const __m128i vc = _mm_set1_epi8(c), vd = _mm_set1_epi8(d);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, vc), _mm_cmpeq_epi8(v, vd)));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#else
  (void)end;
#endif
  while (*p != a && *p != b && *p != c && *p != d) ++p;
  return p;
}

}  // namespace hlolint
