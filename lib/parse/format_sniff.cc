#include "parse/format_sniff.h"

#include <array>

namespace hlolint {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsWordChar(char c) { return IsWordStart(c) || (c >= '0' && c <= '9'); }
// What an HLO name may hold after its first character.
bool IsNameChar(char c) { return IsWordChar(c) || c == '.' || c == '-'; }

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

// The first line of `head` that is not blank or a comment (`// ...`,
// `/* ... */`, and `# ...` as protobuf text and scripts write them), trimmed
// of blanks; empty when there is none. `cut` says whether the line runs to
// the end of `head` without a newline.
struct FirstLine {
  std::string_view text;
  uint32_t offset = 0;
  bool cut = false;
  bool found = false;
  bool open_comment = false;  // `head` ends inside a /* comment
};

FirstLine FindFirstLine(std::string_view head) {
  FirstLine out;
  size_t pos = 0;
  while (pos < head.size()) {
    const char c = head[pos];
    if (c == '\n' || IsBlank(c)) {
      ++pos;
    } else if (StartsWith(head.substr(pos), "/*")) {
      const size_t close = head.find("*/", pos + 2);
      if (close == std::string_view::npos) {
        out.open_comment = true;
        return out;
      }
      pos = close + 2;
    } else if (StartsWith(head.substr(pos), "//") ||
               (c == '#' && !(pos + 1 < head.size() && IsWordStart(head[pos + 1])))) {
      const size_t newline = head.find('\n', pos);
      if (newline == std::string_view::npos) return out;
      pos = newline + 1;
    } else {
      const size_t newline = head.find('\n', pos);
      out.cut = newline == std::string_view::npos;
      out.text = TrimBlanks(head.substr(pos, out.cut ? std::string_view::npos : newline - pos));
      out.offset = static_cast<uint32_t>(pos);
      out.found = true;
      return out;
    }
  }
  return out;
}

// `word` at the start of `line`, followed by a blank, one of `then`, or the
// end of the line.
bool StartsWithWord(std::string_view line, std::string_view word, std::string_view then = "") {
  if (!StartsWith(line, word)) return false;
  if (line.size() == word.size()) return true;
  const char next = line[word.size()];
  return IsBlank(next) || then.find(next) != std::string_view::npos;
}

// `HloModule name`, `ENTRY ...`, or a computation as XLA prints one:
// `%name (p: f32[]) -> f32[] {`, `name {`.
bool IsHloStart(const FirstLine& line) {
  const std::string_view s = line.text;
  if (StartsWithWord(s, "HloModule") || StartsWithWord(s, "ENTRY", "%{")) return true;
  size_t i = s.empty() || s[0] != '%' ? 0 : 1;
  if (i >= s.size() || !(IsWordStart(s[i]) || (s[i] >= '0' && s[i] <= '9' && i == 1))) return false;
  while (i < s.size() && IsNameChar(s[i])) ++i;
  while (i < s.size() && IsBlank(s[i])) ++i;
  if (i == s.size()) return false;
  if (s[i] == '{') return true;
  // A signature: the header ends in `{` (unless cut off in the sniffed bytes).
  return s[i] == '(' && (line.cut || (s.find("->") != std::string_view::npos && s.back() == '{'));
}

bool IsMlirStart(std::string_view s) {
  if (StartsWith(s, "module") && s.size() > 6 && (s[6] == '{' || IsBlank(s[6]))) {
    const std::string_view rest = TrimBlanks(s.substr(6));
    return StartsWith(rest, "@") || StartsWith(rest, "attributes") || StartsWith(rest, "{");
  }
  if (StartsWith(s, "func.func") || StartsWith(s, "\"builtin.module\"") ||
      StartsWith(s, "builtin.module")) {
    return true;
  }
  // An attribute or type alias: `#loc1 = loc(...)`, `!t = tensor<...>`.
  if ((s[0] == '#' || s[0] == '!') && s.size() > 1 && IsWordStart(s[1])) {
    size_t i = 2;
    while (i < s.size() && IsNameChar(s[i])) ++i;
    return TrimBlanks(s.substr(i)).substr(0, 1) == "=";
  }
  return false;
}

bool HasMlirOps(std::string_view head) {
  for (std::string_view op : {"stablehlo.", "mhlo.", "func.func", "tensor<", "func.return"}) {
    if (head.find(op) != std::string_view::npos) return true;
  }
  return false;
}

bool IsProtoTextStart(std::string_view line, std::string_view head) {
  if (StartsWith(line, "hlo_module") && TrimBlanks(line.substr(10)).substr(0, 1) == "{") {
    return true;
  }
  // An HloModuleProto itself: its fields at the top level.
  return (StartsWith(line, "name:") || StartsWith(line, "entry_computation_name:")) &&
         (head.find("\ncomputations {") != std::string_view::npos ||
          head.find("\nentry_computation_name:") != std::string_view::npos);
}

bool IsProtoJson(std::string_view head) {
  for (std::string_view key : {"\"computations\"", "\"entryComputationName\"",
                               "\"entry_computation_name\"", "\"hloModule\"", "\"hlo_module\""}) {
    if (head.find(key) != std::string_view::npos) return true;
  }
  return false;
}

// A byte that text does not hold: NUL and the control characters other
// than tab, newline, vertical tab, form feed, carriage return and escape.
bool IsBinaryByte(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' &&
          c != 0x1b) ||
         c == 0x7f;
}

// Whether `head` holds binary bytes or is not UTF-8 (a sequence cut off at
// the end of a partial head is not held against it).
bool LooksBinary(std::string_view head, bool whole) {
  size_t i = 0;
  while (i < head.size()) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c < 0x80) {
      if (IsBinaryByte(c)) return true;
      ++i;
      continue;
    }
    size_t length = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
    if (c >= 0xf5) length = 0;
    if (length == 0) return true;
    if (i + length > head.size()) return whole;
    const auto second = static_cast<unsigned char>(head[i + 1]);
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((c == 0xe0 && second < 0xa0) || (c == 0xed && second > 0x9f) ||
        (c == 0xf0 && second < 0x90) || (c == 0xf4 && second > 0x8f)) {
      return true;
    }
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(head[i + k]) & 0xc0) != 0x80) return true;
    }
    i += length;
  }
  return false;
}

// A protobuf varint at `p`; false when it runs past `end` or past 5 bytes.
bool ReadVarint(const unsigned char*& p, const unsigned char* end, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 35 && p < end; shift += 7) {
    const unsigned char byte = *p++;
    *value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// A serialized HloModuleProto starts with its name (field 1) or entry
// computation name (field 2), a short printable string, and goes on with
// another field; an HloProto or HloSnapshot wraps one in field 1.
bool LooksLikeHloProto(std::string_view head) {
  auto* p = reinterpret_cast<const unsigned char*>(head.data());
  const auto* end = p + head.size();
  for (int wraps = 0; wraps <= 2 && p < end; ++wraps) {
    if (*p != 0x0a && *p != 0x12) return false;
    const unsigned char tag = *p++;
    uint64_t length;
    if (!ReadVarint(p, end, &length) || length == 0) return false;
    // A short printable name, then the next field's tag (field 2 to 15,
    // varint or length-delimited).
    const bool printable_name = length <= 256 && length < static_cast<uint64_t>(end - p) &&
                                [&] {
                                  for (uint64_t k = 0; k < length; ++k) {
                                    if (p[k] < 0x21 || p[k] > 0x7e) return false;
                                  }
                                  return true;
                                }();
    if (printable_name) {
      const unsigned char next = p[length];
      const unsigned field = next >> 3, wire = next & 7;
      if (field >= 2 && field <= 15 && (wire == 0 || wire == 2)) return true;
    }
    if (tag != 0x0a) return false;  // only field 1 wraps a module
  }
  return false;
}

// The primitive types of XLA shapes, as a shape prints them before `[`.
bool IsTypeName(std::string_view word) {
  static constexpr std::array<std::string_view, 20> kTypes = {
      "pred", "s2",  "s4",  "s8",  "s16", "s32", "s64", "u2",   "u4",   "u8",
      "u16",  "u32", "u64", "f16", "f32", "f64", "bf16", "c64", "c128", "token"};
  for (std::string_view type : kTypes) {
    if (word == type) return true;
  }
  return StartsWith(word, "f8e") || StartsWith(word, "f4e") || StartsWith(word, "f6e");
}

// HLO words or shapes anywhere in `head`: text meant as HLO but broken
// (a stray first line, a bare instruction), which the parser explains.
bool HasHloEvidence(std::string_view head) {
  for (std::string_view word : {"HloModule ", "ENTRY ", "ENTRY %"}) {
    if (head.find(word) != std::string_view::npos) return true;
  }
  for (size_t at = head.find('['); at != std::string_view::npos; at = head.find('[', at + 1)) {
    size_t begin = at;
    while (begin > 0 && IsWordChar(head[begin - 1])) --begin;
    if (begin < at && IsTypeName(head.substr(begin, at - begin))) return true;
  }
  return false;
}

}  // namespace

SniffResult SniffTextFormat(std::string_view head, bool whole) {
  const FirstLine line = FindFirstLine(head);
  if (!line.found) {
    if (!LooksBinary(head, whole)) {
      return {whole ? TextFormat::kNoModule : TextFormat::kUndecided, 0};
    }
  } else if (IsProtoTextStart(line.text, head)) {  // before `hlo_module {` reads as a computation
    return {TextFormat::kProtoText, line.offset};
  } else if (IsHloStart(line) && !IsMlirStart(line.text)) {
    return {TextFormat::kHloText, line.offset};
  }
  if (LooksBinary(head, whole)) {
    return {LooksLikeHloProto(head) ? TextFormat::kProtoBinary : TextFormat::kBinary, 0};
  }
  const std::string_view s = line.text;
  if (s[0] == '{' || s[0] == '[') {
    return {IsProtoJson(head) ? TextFormat::kProtoJson : TextFormat::kJson, line.offset};
  }
  if (IsMlirStart(s) || HasMlirOps(head)) return {TextFormat::kMlirText, line.offset};
  if (HasHloEvidence(head)) return {TextFormat::kHloLike, line.offset};
  return {TextFormat::kPlainText, line.offset};
}

bool IsUnsupportedFormat(TextFormat format) {
  switch (format) {
    case TextFormat::kHloText:
    case TextFormat::kNoModule:
    case TextFormat::kUndecided:
    case TextFormat::kHloLike:
      return false;
    default:
      return true;
  }
}

FormatAdvice AdviceFor(TextFormat format) {
  static constexpr std::string_view kRedump =
      "dump HLO text instead: XLA_FLAGS=--xla_dump_to=DIR writes it (text is the default format; "
      "with --xla_dump_hlo_as_proto, add --xla_dump_hlo_as_text)";
  switch (format) {
    case TextFormat::kMlirText:
      return {"this is MLIR (StableHLO) text, not HLO text",
              "print HLO text: in JAX, jax.jit(f).lower(x).as_text(dialect=\"hlo\"), or "
              "jax.jit(f).lower(x).compile().as_text() for the module XLA compiled; "
              ".as_text() alone prints StableHLO"};
    case TextFormat::kProtoText:
      return {"this is an HloModuleProto in protobuf text format, not HLO text",
              std::string(kRedump)};
    case TextFormat::kProtoBinary:
      return {"this is a binary HLO protobuf (HloModuleProto or HloProto), not HLO text",
              std::string(kRedump)};
    case TextFormat::kProtoJson:
      return {"this is an HLO protobuf as JSON (HloModuleProto or HloProto), not HLO text",
              std::string(kRedump)};
    case TextFormat::kJson:
      return {"this is JSON, not HLO text",
              "lint an HLO text dump (it starts with `HloModule`), e.g. from "
              "XLA_FLAGS=--xla_dump_to=DIR"};
    case TextFormat::kBinary:
      return {"this is a binary file (NUL or control bytes, or not UTF-8), not HLO text",
              "lint an HLO text dump (it starts with `HloModule`), e.g. from "
              "XLA_FLAGS=--xla_dump_to=DIR"};
    case TextFormat::kPlainText:
      return {"this is plain text, not HLO: it does not start with `HloModule`, `ENTRY` or a "
              "computation",
              "lint an HLO text dump (e.g. from XLA_FLAGS=--xla_dump_to=DIR, or "
              "jax.jit(f).lower(x).as_text(dialect=\"hlo\")), or leave this file out"};
    default:
      return {};
  }
}

}  // namespace hlolint
