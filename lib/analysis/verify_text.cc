#include "analysis/verify_text.h"

#include <cstring>

#include "lex/byte_scan.h"
#include "lex/lexer.h"

namespace hlolint {

uint32_t LastAttributeValueEnd(const Module& m, uint32_t value_offset) {
  const SourceFile& source = m.source();
  // A braced value on one line, without strings or comments (shardings as
  // dumps print them): its tokens end at the bracket that closes the first,
  // where the lexer below stops too (a value that parsed is followed by a
  // separator or the next instruction).
  const char* const text = source.data();
  const char* const text_end = text + source.size();
  if (value_offset < source.size() && text[value_offset] == '{') {
    const char* close = BalancedEnd(text + value_offset, text_end);
    if (close != nullptr && close != text_end) {
      const size_t size = static_cast<size_t>(close - (text + value_offset));
      if (std::memchr(text + value_offset, '"', size) == nullptr &&
          std::memchr(text + value_offset, '/', size) == nullptr) {
        return static_cast<uint32_t>(close - text);
      }
    }
  }
  Lexer lexer(source.data(), static_cast<uint32_t>(source.size()), value_offset);
  lexer.Lex();
  int64_t depth = 0;  // a JSON-like value may nest deeper than 2^31 in a 4 GB file
  uint32_t outer_brace = 0;  // where the outermost '{' group began
  for (bool first = true;; first = false) {
    TokKind kind = lexer.kind();
    if (kind == TokKind::kError && depth > 0 && outer_brace != 0) {
      // Not HLO tokens inside braces: a JSON-like backend_config, which the
      // parser took as one brace-balanced dict (quoted strings skipped).
      lexer.Reset(outer_brace);
      lexer.Lex();
      kind = lexer.LexJsonDict();
      depth = 0;
      outer_brace = 0;
      if (kind == TokKind::kError) break;
    }
    if (kind == TokKind::kEof || kind == TokKind::kError) break;
    if (depth == 0 && !first) {
      // What follows the value at the outer level: the next attribute, the
      // end of the operands' or the computation's brackets, or the next
      // instruction, which starts with ROOT, a %name, or name '=' (written
      // `name=` it lexes as an attribute name).
      if (kind == TokKind::kComma || kind == TokKind::kRbrace || kind == TokKind::kRparen ||
          kind == TokKind::kRsquare || kind == TokKind::kw_ROOT || kind == TokKind::kName ||
          kind == TokKind::kAttributeName) {
        break;
      }
      if (kind == TokKind::kIdent && lexer.LookAhead() == TokKind::kEqual) break;
    }
    if (kind == TokKind::kLbrace || kind == TokKind::kLparen || kind == TokKind::kLsquare) {
      if (depth == 0 && kind == TokKind::kLbrace) outer_brace = lexer.offset();
      ++depth;
    } else if (kind == TokKind::kRbrace || kind == TokKind::kRparen ||
               kind == TokKind::kRsquare) {
      --depth;
    }
    lexer.Lex();
  }
  return lexer.previous_end();
}

std::string_view AttributeText(const Module& m, InstrId id, AttrName name) {
  const Attribute* attribute = m.FindAttribute(id, name);
  if (attribute == nullptr) return {};
  uint32_t end = UINT32_MAX;
  for (const Attribute& other : m.attributes(id)) {
    const uint32_t other_name = m.attribute_name_offset(other);
    if (other_name > attribute->value_offset && other_name < end) end = other_name;
  }
  if (end == UINT32_MAX) end = LastAttributeValueEnd(m, attribute->value_offset);
  if (end < attribute->value_offset) return {};
  std::string_view text = m.text(attribute->value_offset, end - attribute->value_offset);
  while (!text.empty() && (text.back() == ',' || text.back() == ' ' || text.back() == '\n' ||
                           text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace hlolint

namespace hlolint {
namespace {

// Skips a "..." string starting at text[i] == '"'; returns the index after it.
size_t SkipString(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

void SkipSpace(std::string_view text, size_t& i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' ||
                             text[i] == '\r')) {
    ++i;
  }
}

// Matches one node at text[i]; `ok` becomes false on a structural mismatch.
// Returns false when the text is not understood.
bool MatchNode(std::string_view text, size_t& i, const Shape& shape, bool& ok, int depth) {
  if (depth > 64) return false;
  SkipSpace(text, i);
  if (i >= text.size()) return false;
  if (text[i] == '(') {
    ++i;
    size_t children = 0;
    SkipSpace(text, i);
    if (i < text.size() && text[i] == ')') {
      ++i;
    } else {
      while (true) {
        const Shape* element = shape.IsTuple() && children < shape.tuple_shapes.size()
                                   ? shape.tuple_shapes[children]
                                   : nullptr;
        static const Shape kLeaf = [] {
          Shape s;
          s.element_type = PrimitiveType::kF32;
          return s;
        }();
        if (!MatchNode(text, i, element ? *element : kLeaf, ok, depth + 1)) return false;
        ++children;
        SkipSpace(text, i);
        if (i < text.size() && text[i] == ',') {
          ++i;
          continue;
        }
        if (i < text.size() && text[i] == ')') {
          ++i;
          break;
        }
        return false;
      }
    }
    if (!shape.IsTuple() || children != shape.tuple_shapes.size()) ok = false;
    return true;
  }
  if (text[i] == '{') {
    // A leaf: {} or {"name" {index}}.
    int nesting = 0;
    for (; i < text.size(); ++i) {
      if (text[i] == '"') {
        i = SkipString(text, i) - 1;
      } else if (text[i] == '{') {
        ++nesting;
      } else if (text[i] == '}') {
        if (--nesting == 0) {
          ++i;
          break;
        }
      }
    }
    if (shape.IsTuple()) ok = false;
    return true;
  }
  return false;
}

}  // namespace

bool OriginalValueMatchesShape(std::string_view text, const Shape& shape) {
  size_t i = 0;
  SkipSpace(text, i);
  if (i >= text.size() || text[i] != '{') return true;
  ++i;
  bool ok = true;
  if (!MatchNode(text, i, shape, ok, 0)) return true;
  return ok;
}

std::optional<int64_t> ShardingTiledDataRank(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\n");
  if (start == std::string_view::npos || text[start] != '{') return std::nullopt;
  // Tuple shardings nest braces right away: `{{...}, {...}}`.
  size_t next = text.find_first_not_of(" \t\n", start + 1);
  if (next == std::string_view::npos || text[next] == '{') return std::nullopt;
  if (text.find("maximal") != std::string_view::npos ||
      text.find("manual") != std::string_view::npos ||
      (text.find("replicated") != std::string_view::npos &&
       text.find("devices=") == std::string_view::npos)) {
    return std::nullopt;
  }
  size_t devices = text.find("devices=[");
  if (devices == std::string_view::npos) return std::nullopt;
  size_t close = text.find(']', devices);
  if (close == std::string_view::npos) return std::nullopt;
  int64_t rank = 1;
  for (size_t i = devices + 9; i < close; ++i) rank += text[i] == ',';
  if (text.find("last_tile_dim_replicate") != std::string_view::npos) --rank;
  size_t last = text.find("last_tile_dims={");
  if (last != std::string_view::npos) {
    size_t end = text.find('}', last);
    if (end == std::string_view::npos) return std::nullopt;
    int64_t entries = 0;
    bool any = false;
    for (size_t i = last + 16; i < end; ++i) {
      if (text[i] == ',') ++entries;
      if (text[i] != ' ') any = true;
    }
    rank -= any ? entries + 1 : 0;
  }
  return rank;
}

std::string NormalizedSharding(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

}  // namespace hlolint
