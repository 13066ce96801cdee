#include "analysis/attribute_text.h"

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
