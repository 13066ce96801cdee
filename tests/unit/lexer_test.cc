// The HLO lexer: XLA's token rules (xla/hlo/parser/hlo_lexer.cc).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "lex/lexer.h"

namespace hlolint {
namespace {

struct Tok {
  TokKind kind;
  std::string text;  // the token's bytes as written
  uint32_t begin;
};

// All tokens of `text` up to and including the first kEof or kError.
std::vector<Tok> LexAll(const std::string& text) {
  Lexer lexer(text.c_str(), static_cast<uint32_t>(text.size()));
  std::vector<Tok> tokens;
  while (true) {
    TokKind kind = lexer.Lex();
    tokens.push_back({kind, std::string(lexer.TokenText()), lexer.offset()});
    if (kind == TokKind::kEof || kind == TokKind::kError) break;
  }
  return tokens;
}

std::vector<TokKind> Kinds(const std::string& text) {
  std::vector<TokKind> kinds;
  for (const Tok& t : LexAll(text)) kinds.push_back(t.kind);
  return kinds;
}

// The single token of `text` (followed by end of file).
Token One(const std::string& text, std::string* storage) {
  *storage = text;
  Lexer lexer(storage->c_str(), static_cast<uint32_t>(storage->size()));
  lexer.Lex();
  Token token = lexer.tok();
  return token;
}

using K = TokKind;

TEST_CASE("lexer: punctuation and the special multi-character tokens") {
  CHECK(Kinds("= , : * ? # + ~ [ ] { } ( ) -> <= ...") ==
        std::vector<K>{K::kEqual, K::kComma, K::kColon, K::kAsterisk, K::kQuestionMark,
                       K::kOctothorp, K::kPlus, K::kTilde, K::kLsquare, K::kRsquare, K::kLbrace,
                       K::kRbrace, K::kLparen, K::kRparen, K::kArrow, K::kLeq, K::kDots,
                       K::kEof});
}

TEST_CASE("lexer: keywords are case-sensitive whole identifiers") {
  CHECK(Kinds("true false inf HloModule ENTRY ROOT FileLocations FileNames FunctionNames "
              "StackFrames maximal replicated manual last_tile_dim_replicate shard_as "
              "shard_like unknown unreduced") ==
        std::vector<K>{K::kw_true, K::kw_false, K::kw_inf, K::kw_HloModule, K::kw_ENTRY,
                       K::kw_ROOT, K::kw_FileLocations, K::kw_FileNames, K::kw_FunctionNames,
                       K::kw_StackFrames, K::kw_maximal, K::kw_replicated, K::kw_manual,
                       K::kw_last_tile_dim_replicate, K::kw_shard_as, K::kw_shard_like,
                       K::kw_unknown, K::kw_unreduced, K::kEof});
  CHECK(Kinds("True root Entry trueish") ==
        std::vector<K>{K::kIdent, K::kIdent, K::kIdent, K::kIdent, K::kEof});
}

TEST_CASE("lexer: every element type name is a primitive-type token") {
  for (std::string name : {"pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1", "u2", "u4",
                           "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16", "f8e5m2",
                           "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e3m4", "f8e5m2fnuz",
                           "f8e4m3fnuz", "f4e2m1fn", "f8e8m0fnu", "c64", "c128", "token",
                           "opaque"}) {
    std::string storage;
    Token token = One(name, &storage);
    INFO(name);
    CHECK(token.kind == K::kPrimitiveType);
    CHECK(PrimitiveTypeName(token.primitive_type) == name);
  }
  // Not type names: tuple/buffer, upper case, unknown widths.
  CHECK(Kinds("tuple buffer F32 f31 s128") ==
        std::vector<K>{K::kIdent, K::kIdent, K::kIdent, K::kIdent, K::kIdent, K::kEof});
}

TEST_CASE("lexer: names, attribute names and identifiers") {
  auto tokens = LexAll("%foo.1-bar %_x p0: f32= attr=value a..b ->");
  REQUIRE(tokens.size() == 9);
  CHECK(tokens[0].kind == K::kName);
  CHECK(tokens[0].text == "%foo.1-bar");
  CHECK(tokens[1].kind == K::kName);
  CHECK(tokens[2].kind == K::kName);  // `p0:` consumes the colon
  CHECK(tokens[2].text == "p0:");
  CHECK(tokens[3].kind == K::kAttributeName);  // `f32=` is an attribute name, not a type
  CHECK(tokens[4].kind == K::kAttributeName);
  CHECK(tokens[5].kind == K::kIdent);
  CHECK(tokens[6].kind == K::kIdent);
  CHECK(tokens[6].text == "a..b");
  CHECK(tokens[7].kind == K::kArrow);

  std::string storage;
  CHECK(One("%name", &storage).text == "name");      // text excludes '%'
  CHECK(One("name: x", &storage).text == "name");    // and ':'
  CHECK(One("attr=1", &storage).text == "attr");     // and '='
  // %-names take no ':' and are never keywords or types.
  CHECK(Kinds("%p0: %true %f32 %nan") ==
        std::vector<K>{K::kName, K::kColon, K::kName, K::kName, K::kName, K::kEof});
  // Whitespace before '=' makes it a plain identifier followed by '='.
  CHECK(Kinds("foo = 1") == std::vector<K>{K::kIdent, K::kEqual, K::kInt, K::kEof});
  // `foo->` lexes `foo-` and then fails at '>'.
  CHECK(Kinds("foo->") == std::vector<K>{K::kIdent, K::kError});
}

TEST_CASE("lexer: integers, including the uint64 range and overflow") {
  std::string storage;
  CHECK(One("0", &storage).int_value == 0);
  CHECK(One("-17", &storage).int_value == -17);
  CHECK(One("9223372036854775807", &storage).int_value == INT64_MAX);
  CHECK(One("-9223372036854775808", &storage).int_value == INT64_MIN);
  // Up to 2^64-1, bit-cast to int64 as XLA does.
  CHECK(One("18446744073709551615", &storage).int_value == -1);
  CHECK(One("9223372036854775808", &storage).int_value == INT64_MIN);
  Token big = One("18446744073709551616", &storage);
  CHECK(big.kind == K::kError);
  CHECK(big.error == LexError::kIntOverflow);
  CHECK(DescribeLexError(big, storage.c_str()) ==
        "integer literal 18446744073709551616 does not fit in 64 bits");
  CHECK(One("-9223372036854775809", &storage).kind == K::kError);
  CHECK(One("123456789012345678901234567890", &storage).kind == K::kError);
  // Trailing letters are not part of the number.
  CHECK(Kinds("12abc") == std::vector<K>{K::kInt, K::kIdent, K::kEof});
}

TEST_CASE("lexer: decimals, infinities and NaNs") {
  std::string storage;
  for (std::string text : {"1.", "-.5", "3e+2", "1E5", "2.5e-3", "0.0"}) {
    INFO(text);
    CHECK(One(text, &storage).kind == K::kDecimal);
  }
  Lexer lexer("1.5e3", 5);
  lexer.Lex();
  CHECK(lexer.DecimalValue() == 1500.0);
  CHECK(Kinds("inf -inf") == std::vector<K>{K::kw_inf, K::kNegInf, K::kEof});
  CHECK(Kinds("-infx") == std::vector<K>{K::kNegInf, K::kIdent, K::kEof});
  CHECK(Kinds("nan -nan nan(0x1) -nan(0xfffffffffffff)") ==
        std::vector<K>{K::kDecimal, K::kDecimal, K::kDecimal, K::kDecimal, K::kEof});
  // Payloads must lie in [1, 2^52).
  CHECK(One("nan(0x0)", &storage).error == LexError::kBadNanPayload);
  CHECK(One("nan(0x10000000000000)", &storage).error == LexError::kBadNanPayload);
  CHECK(One("-nan(0x)", &storage).error == LexError::kBadNanPayload);
  // An overflowing decimal lexes (its value is infinite; the parser rejects it).
  Lexer huge("1e400", 5);
  huge.Lex();
  CHECK(huge.kind() == K::kDecimal);
  CHECK(std::isinf(huge.DecimalValue()));
}

TEST_CASE("lexer: dim labels, NxM and padding patterns") {
  std::string storage;
  Token labels = One("b01f_01io->b01f", &storage);
  CHECK(labels.kind == K::kDimLabels);
  CHECK(labels.text == "b01f_01io->b01f");
  CHECK(One("01bf_01io->01bf", &storage).kind == K::kDimLabels);
  CHECK(One("?" "?_?" "?->?" "?", &storage).kind == K::kDimLabels);
  CHECK(One("f0b_i0o->0bf", &storage).kind == K::kDimLabels);
  Token dxd = One("3x3x1", &storage);
  CHECK(dxd.kind == K::kDxD);
  CHECK(dxd.text == "3x3x1");
  for (std::string pad : {"0_0", "-1_2_0x3_3", "1_1x0_-2"}) {
    INFO(pad);
    CHECK(One(pad, &storage).kind == K::kPad);
  }
  // Interior padding is never negative: `1_1_-1` is the pad `1_1`, then `_-1`.
  CHECK(Kinds("1_1_-1") == std::vector<K>{K::kPad, K::kIdent, K::kEof});
}

TEST_CASE("lexer: the integer-list skip mask only produces integers") {
  const std::string text = "1.5";
  Lexer lexer(text.c_str(), 3);
  const uint64_t mask = (uint64_t{1} << static_cast<int>(K::kDecimal)) |
                        (uint64_t{1} << static_cast<int>(K::kDxD)) |
                        (uint64_t{1} << static_cast<int>(K::kPad)) |
                        (uint64_t{1} << static_cast<int>(K::kDimLabels));
  CHECK(lexer.Lex(mask) == K::kInt);
  CHECK(lexer.tok().int_value == 1);
}

TEST_CASE("lexer: strings with either quote, escapes, across lines") {
  std::string storage;
  Token a = One("\"a\\\"b\"", &storage);
  CHECK(a.kind == K::kString);
  CHECK(a.text == "a\\\"b");  // escapes are kept raw
  CHECK(a.string_has_escapes);
  CHECK(One("'single'", &storage).text == "single");
  CHECK(One("\"two\nlines\"", &storage).kind == K::kString);
  CHECK(UnescapeString("a\\n\\t\\\\\\x41\\101\\u00e9") == "a\n\t\\AA\xc3\xa9");
  for (std::string ok : {"\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\\"\\?", "\\0", "\\377", "\\xff",
                         "\\u1234", "\\U0001F600"}) {
    INFO(ok);
    CHECK(ValidStringEscapes(ok));
  }
  for (std::string bad : {"\\q", "\\400", "\\x", "\\xfff", "\\u12", "\\U1234"}) {
    INFO(bad);
    CHECK_FALSE(ValidStringEscapes(bad));
  }
  CHECK(FindInvalidEscape("ok \\q") == 3);
}

TEST_CASE("lexer: string errors point at the offending byte") {
  std::string storage;
  Token bad = One("\"abc\\qdef\"", &storage);
  CHECK(bad.kind == K::kError);
  CHECK(bad.error == LexError::kBadEscape);
  CHECK(bad.begin == 4);  // the backslash
  CHECK(DescribeLexError(bad, storage.c_str()) == "invalid escape sequence '\\q' in string");
  Token open = One("  \"never closed", &storage);
  CHECK(open.error == LexError::kUnterminatedString);
  CHECK(open.begin == 2);
  // A backslash-newline does not continue a string.
  CHECK(One("\"a\\\nb\"", &storage).error == LexError::kUnterminatedString);
  std::string with_nul("\"ab\0c\"", 6);
  Token nul = One(with_nul, &storage);
  CHECK(nul.error == LexError::kNulByte);
  CHECK(nul.begin == 3);
}

TEST_CASE("lexer: comments vanish between any tokens") {
  CHECK(Kinds("a /* x */ b // rest\n c /*index=5*/ d") ==
        std::vector<K>{K::kIdent, K::kIdent, K::kIdent, K::kIdent, K::kEof});
  CHECK(Kinds("a//x\rb") == std::vector<K>{K::kIdent, K::kIdent, K::kEof});
  CHECK(Kinds("/* a * / b **/") == std::vector<K>{K::kEof});
  auto tokens = LexAll("x /* never closed");
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[1].kind == K::kError);
  CHECK(tokens[1].begin == 2);  // at the '/*'
  std::string storage;
  CHECK(One("/* unterminated", &storage).error == LexError::kUnterminatedComment);
  std::string nul_in_comment("/* a\0 */", 8);
  Token nul = One(nul_in_comment, &storage);
  CHECK(nul.error == LexError::kNulByte);
  CHECK(nul.begin == 4);
}

TEST_CASE("lexer: `// -----` lines separate modules") {
  CHECK(Kinds("a\n// -----\nb") ==
        std::vector<K>{K::kIdent, K::kSplitMarker, K::kIdent, K::kEof});
  CHECK(Kinds("  //   -----  \nb") == std::vector<K>{K::kSplitMarker, K::kIdent, K::kEof});
  // Not a marker: text after the dashes, or other tokens before on the line.
  CHECK(Kinds("// ----- x\nb") == std::vector<K>{K::kIdent, K::kEof});
  CHECK(Kinds("a // -----\nb") == std::vector<K>{K::kIdent, K::kIdent, K::kEof});
  CHECK(Kinds("// ----\nb") == std::vector<K>{K::kIdent, K::kEof});
}

TEST_CASE("lexer: characters that start no token") {
  std::string storage;
  for (std::string bad : {"!", "@", "$", "&", "|", "^", "`", ";", ">", "/ ", ". ", "..", "<",
                          "% x", "\x0c"}) {
    INFO(bad);
    Token token = One(bad, &storage);
    CHECK(token.kind == K::kError);
    CHECK(token.error == LexError::kUnexpectedChar);
    CHECK(token.begin == 0);
  }
  CHECK(DescribeLexError(One("!", &storage), storage.c_str()) == "unexpected character '!'");
  CHECK(DescribeLexError(One("% x", &storage), storage.c_str()) ==
        "'%' must be followed by a name");
  CHECK(DescribeLexError(One("\x0c", &storage), storage.c_str()) ==
        "unexpected control character 0x0C");
  // Invalid UTF-8 and non-ASCII text outside strings.
  CHECK(DescribeLexError(One("\xff", &storage), storage.c_str()) ==
        "unexpected non-ASCII byte 0xFF");
  CHECK(DescribeLexError(One("\xc2\xa0x", &storage), storage.c_str()) ==
        "non-breaking space (U+00A0) is not whitespace in HLO text");
  // Inside strings any byte but NUL is fine, valid UTF-8 or not.
  CHECK(One("\"\xff\xfe caf\xc3\xa9\"", &storage).kind == K::kString);
  std::string nul("a\0b", 3);
  auto tokens = LexAll(nul);
  CHECK(tokens[1].kind == K::kError);
  CHECK(tokens[1].begin == 1);
}

TEST_CASE("lexer: JSON dicts are re-lexed from a '{' on request") {
  const std::string text = R"({"a": {"b": "}"}, "c": [1]} rest)";
  Lexer lexer(text.c_str(), static_cast<uint32_t>(text.size()));
  REQUIRE(lexer.Lex() == K::kLbrace);
  REQUIRE(lexer.LexJsonDict() == K::kString);
  CHECK(lexer.tok().text == R"({"a": {"b": "}"}, "c": [1]})");
  CHECK(lexer.Lex() == K::kIdent);
  const std::string open = "{\"a\": {";
  Lexer unterminated(open.c_str(), static_cast<uint32_t>(open.size()));
  unterminated.Lex();
  CHECK(unterminated.LexJsonDict() == K::kError);
  CHECK(unterminated.tok().error == LexError::kUnterminatedJson);
}

// What LexJsonDict must give, read one byte at a time: kind, error, the
// token's begin and end, and where the lexer stands afterwards.
struct JsonScan {
  TokKind kind;
  LexError error = LexError::kNone;
  size_t begin, end = 0, position;
};
JsonScan ScanJsonOneByteAtATime(const std::string& text) {
  // text[0] is the '{'; the lexer stands after it.
  JsonScan r{TokKind::kError, LexError::kNone, 0, 0, 1};
  const size_t size = text.size();
  size_t p = 1;
  int depth = 1;
  bool in_string = false;
  while (depth > 0) {
    if (p >= size) {
      r.error = LexError::kUnterminatedJson;
      return r;
    }
    const char c = text[p];
    if (c == '\0') {
      r.error = LexError::kNulByte;
      r.begin = p;
      if (!in_string) r.position = p;
      return r;
    }
    if (in_string) {
      if (c == '\\') {
        if (p + 1 >= size || text[p + 1] == '\n' || text[p + 1] == '\0') {
          r.error = LexError::kUnterminatedJson;
          return r;
        }
        p += 2;
        continue;
      }
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    }
    ++p;
  }
  r.kind = TokKind::kString;
  r.end = r.position = p;
  return r;
}

TEST_CASE("lexer: JSON dicts read 16 bytes at a time as one byte at a time") {
  // Random texts over the bytes that matter, valid JSON or not, of lengths
  // around the 16-byte blocks, and stops at every position in a block.
  std::mt19937 random(12345);
  const std::string alphabet("{}\"\\\n a:,[]\0", 12);
  int checked = 0;
  for (int n = 0; n < 30000; ++n) {
    std::string text = "{";
    const size_t length = random() % 70;
    // Mostly ordinary bytes, so long runs cross whole blocks.
    for (size_t i = 0; i < length; ++i) {
      text += random() % 3 == 0 ? alphabet[random() % alphabet.size()] : 'x';
    }
    if (random() % 2 == 0) text += std::string(random() % 4, '}');
    text += " rest";
    const JsonScan want = ScanJsonOneByteAtATime(text);
    Lexer lexer(text.c_str(), static_cast<uint32_t>(text.size()));
    REQUIRE(lexer.Lex() == TokKind::kLbrace);
    const TokKind kind = lexer.LexJsonDict();
    INFO("text: " << text);
    REQUIRE(kind == want.kind);
    REQUIRE(lexer.tok().error == want.error);
    REQUIRE(lexer.position() == want.position);
    if (kind == TokKind::kString) {
      REQUIRE(lexer.tok().begin == 0);
      REQUIRE(lexer.tok().end == want.end);
      REQUIRE(lexer.tok().text == std::string_view(text).substr(0, want.end));
    } else {
      REQUIRE(lexer.tok().begin == want.begin);
    }
    ++checked;
  }
  CHECK(checked == 30000);
}

TEST_CASE("lexer: a line's head (newline, blanks, %name) lexes as its blanks and name would") {
  // LexToken takes `\n  %` and `\n  ROOT ` in one step. With '\r' for '\n' (a blank too, at
  // the same offsets) the general loop runs: the tokens must be the same.
  const std::vector<std::string> texts = {
      "x\n  %a", "x\n  %abc.1-x_y = f32[] add()\n  %b", "\n  %a\n  %b\n}", "x\n  %", "x\n  %1",
      "x\n  %%a", "x\n  %a=", "x\n  %a:", "x\n  % a", "x\n  %\n  %a", "x\n   %a", "x\n %a",
      "x\n  %a\n  ROOT %b", ")\n  %a", "}\n  %a\n}\n", "x\n  %-a", "x\n  %_a", "x\n  %.a",
      "x\n  ROOT b", "x\n  ROOT", "x\n  ROOT\n", "x\n  ROOTx", "x\n  ROOT:", "x\n  ROOT=",
      "x\n  ROOT.", "x\n  ROO", "x\n  ROOT  %a", "x\n   ROOT %a", "x\n  ROOt %a", "x\n  RO"};
  for (const std::string& text : texts) {
    std::string general = text;
    for (char& c : general) {
      if (c == '\n') c = '\r';
    }
    const std::vector<Tok> expected = LexAll(general);
    const std::vector<Tok> actual = LexAll(text);
    INFO("text: " << text);
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
      CHECK(actual[i].kind == expected[i].kind);
      CHECK(actual[i].begin == expected[i].begin);
      std::string expected_text = expected[i].text;
      for (char& c : expected_text) {
        if (c == '\r') c = '\n';
      }
      CHECK(actual[i].text == expected_text);
    }
  }
  // The name token itself: its text is the name without '%'.
  Lexer lexer("x\n  %abc\n", 9);
  lexer.Lex();
  CHECK(lexer.Lex() == K::kName);
  CHECK(lexer.tok().text == "abc");
  CHECK(lexer.offset() == 4);
  CHECK(lexer.position() == 8);
  CHECK(lexer.previous_end() == 1);
  Lexer root("x\n  ROOT %a", 11);
  root.Lex();
  CHECK(root.Lex() == K::kw_ROOT);
  CHECK(root.tok().text == "ROOT");
  CHECK(root.offset() == 4);
  CHECK(root.position() == 8);
  CHECK(root.Lex() == K::kName);
  CHECK(root.offset() == 9);
}

TEST_CASE("lexer: look-ahead does not consume") {
  const std::string text = "a b";
  Lexer lexer(text.c_str(), 3);
  lexer.Lex();
  CHECK(lexer.LookAhead() == K::kIdent);
  CHECK(lexer.tok().text == "a");
  CHECK(lexer.Lex() == K::kIdent);
  CHECK(lexer.tok().text == "b");
  CHECK(lexer.previous_end() == 1);
}

TEST_CASE("lexer: arbitrary bytes never crash or hang") {
  // Every single byte and every byte pair lexes to the end or to an error.
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 7) {
      std::string text{static_cast<char>(a), static_cast<char>(b), 'x'};
      auto tokens = LexAll(text);
      CHECK(tokens.size() <= 4);
    }
  }
}

}  // namespace
}  // namespace hlolint
