// Values in the forms dumps print, read byte-wise: attribute values (see
// TryFastAttributeValue in module_parser.h) and small scalar constants.
// Each reader accepts only text the lexer would cut into exactly the tokens
// the grammar expects, and gives the grammar's result; on anything else it
// returns false having changed nothing, and the grammar reads the value
// (and reports errors).
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/byte_values.h"
#include "parse/module_parser.h"

namespace hlolint {
namespace {

// `{a,b,...}` or `{}` of such integers, no blanks: each integer is followed
// by ',' or '}', which the lexer reads as punctuation after it. Returns
// the end, or null; `out` may hold a partial list then.
const char* ScanIntList(const char* p, std::vector<int64_t>* out) {
  out->clear();
  if (*p != '{') return nullptr;
  ++p;
  if (*p == '}') return p + 1;
  for (;;) {
    int64_t v;
    p = ScanSmallInt(p, &v);
    if (p == nullptr) return nullptr;
    out->push_back(v);
    if (*p == '}') return p + 1;
    if (*p != ',') return nullptr;
    ++p;
  }
}

// A word the lexer reads as kIdent: identifier characters not followed by
// ':' or '=' (a name or an attribute name then). Callers compare it with
// words that are no type, keyword or dim labels. Returns its end, or null.
const char* ScanWord(const char* p, std::string_view* word) {
  if (!IsIdentStartByte(*p)) return nullptr;
  const char* q = p + 1;
  while (IsIdentCharByte(*q)) ++q;
  if (*q == ':' || *q == '=') return nullptr;
  *word = std::string_view(p, static_cast<size_t>(q - p));
  return q;
}

// `"text"` without escapes: a kString token. Returns its end, or null.
const char* ScanPlainString(const char* p, const char* end, std::string_view* raw) {
  if (*p != '"') return nullptr;
  const char* q = FindFirstOf(p + 1, end, '"', '\\', '\0', '\0');
  if (*q != '"') return nullptr;
  *raw = std::string_view(p + 1, static_cast<size_t>(q - p - 1));
  return q + 1;
}

// `{i,j}` of small integers as a shape index, or `{}`.
const char* ScanShapeIndex(const char* p, std::vector<int64_t>* scratch) {
  return ScanIntList(p, scratch);
}

// `{{i}: (n, {j}), ...}` (one blank after ':' and ',' as dumps print it) or
// `{}`: what ParseOutputOperandAliasing accepts. Returns the end, or null.
const char* ScanOutputOperandAliasing(const char* p, std::vector<int64_t>* scratch) {
  if (*p != '{') return nullptr;
  ++p;
  if (*p == '}') return p + 1;
  for (;;) {
    int64_t operand;
    p = ScanShapeIndex(p, scratch);
    if (p == nullptr || p[0] != ':' || p[1] != ' ' || p[2] != '(') return nullptr;
    p = ScanSmallInt(p + 3, &operand);
    if (p == nullptr || p[0] != ',' || p[1] != ' ') return nullptr;
    p = ScanShapeIndex(p + 2, scratch);
    if (p == nullptr || *p != ')') return nullptr;
    ++p;
    if (*p == '}') return p + 1;
    if (p[0] != ',' || p[1] != ' ') return nullptr;
    p += 2;
  }
}

}  // namespace

void ModuleParser::NoteBool(AttrName name, bool value, InstrScratch& s) {
  if (name == AttrName::kCustomCallHasSideEffect) s.side_effect = value;
  if (name == AttrName::kUseGlobalDeviceIds) s.use_global_device_ids = value;
}

void ModuleParser::NoteInt64(AttrName name, int64_t value, InstrScratch& s) {
  if (name == AttrName::kIndex || name == AttrName::kIotaDimension) s.int_value = value;
  if (name == AttrName::kChannelId) {
    s.has_channel_id = true;
    s.channel_id = value;
  }
  if (name == AttrName::kNumCarries) s.num_carries = value;
}

void ModuleParser::NoteString(AttrName name, std::string_view raw, InstrScratch& s) {
  if (name == AttrName::kAsyncExecutionThread) {
    s.has_async_thread = true;
    s.async_thread = raw;
  }
}

void ModuleParser::NoteIntList(AttrName name, uint32_t offset, InstrScratch& s) {
  if (name == AttrName::kDimensions) {
    s.dimensions_size = static_cast<int64_t>(s.ints.size());
    s.dimensions_offset = offset;
    s.dimensions.assign(s.ints.begin(), s.ints.end());
  }
}

void ModuleParser::NoteComputation(AttrName name, CompId c, InstrScratch& s) {
  switch (name) {
    case AttrName::kCondition: s.slot_condition = c; break;
    case AttrName::kBody: s.slot_body = c; break;
    case AttrName::kTrueComputation: s.slot_true = c; break;
    case AttrName::kFalseComputation: s.slot_false = c; break;
    case AttrName::kSelect: s.slot_select = c; break;
    case AttrName::kScatter: s.slot_scatter = c; break;
    case AttrName::kToApply:
      s.has_to_apply = true;
      // First in the list; usually the only one.
      if (s.called.empty()) {
        s.called.push_back(c);
      } else {
        s.called.insert(s.called.begin(), c);
      }
      break;
    default:
      s.called.push_back(c);
      break;
  }
}

bool ModuleParser::TryFastAttributeValue(AttrName name, AttrType type, InstrScratch& s) {
  const char* const base = file_.data();
  const char* const end = FastAttributeValueEnd(name, type, base + lexer_.position(), s);
  if (end == nullptr) return false;
  lexer_.Reset(static_cast<uint32_t>(end - base));
  Lex();
  return true;
}

const char* ModuleParser::FastAttributeValueEnd(AttrName name, AttrType type, const char* p,
                                                InstrScratch& s) {
  const char* const base = file_.data();
  const char* end = nullptr;
  switch (type) {
    case AttrType::kComputation: {
      // `%name` is a kName token whatever follows; ParseComputationRef
      // nests one level.
      if (p[0] != '%' || !IsIdentStartByte(p[1]) || depth_ + 1 > limits_.max_nesting_depth) {
        return nullptr;
      }
      end = SkipIdentChars(p + 2, file_end());
      const CompId found =
          LookupComputation(std::string_view(p + 1, static_cast<size_t>(end - p - 1)));
      if (found == CopyingNameTable::kNotFound) return nullptr;
      NoteComputation(name, found, s);
      break;
    }
    case AttrType::kFusionKind: {
      std::string_view word;
      end = ScanWord(p, &word);
      if (end == nullptr) return nullptr;
      if (word == "kLoop") {
        s.fusion_kind = FusionKind::kLoop;
      } else if (word == "kInput") {
        s.fusion_kind = FusionKind::kInput;
      } else if (word == "kOutput") {
        s.fusion_kind = FusionKind::kOutput;
      } else if (word == "kCustom") {
        s.fusion_kind = FusionKind::kCustom;
      } else {
        return nullptr;
      }
      break;
    }
    case AttrType::kComparisonDirection: {
      // ParseEnum's words; none is a type, keyword or dim labels.
      std::string_view word;
      end = ScanWord(p, &word);
      if (end == nullptr || word.size() != 2) return nullptr;
      if (word != "EQ" && word != "NE" && word != "GE" && word != "GT" && word != "LE" &&
          word != "LT") {
        return nullptr;
      }
      break;
    }
    case AttrType::kBool: {
      std::string_view word;
      end = ScanWord(p, &word);
      if (end == nullptr || (word != "true" && word != "false")) return nullptr;
      NoteBool(name, word == "true", s);
      break;
    }
    case AttrType::kInt64: {
      int64_t value;
      end = ScanSmallInt(p, &value);
      if (end == nullptr) return nullptr;
      NoteInt64(name, value, s);
      break;
    }
    case AttrType::kIntList: {
      end = ScanIntList(p, &s.ints);
      if (end == nullptr) return nullptr;  // s.ints is scratch the grammar clears
      NoteIntList(name, static_cast<uint32_t>(p - base), s);
      break;
    }
    case AttrType::kString: {
      std::string_view raw;
      end = ScanPlainString(p, file_end(), &raw);
      if (end == nullptr) return nullptr;
      NoteString(name, raw, s);
      break;
    }
    case AttrType::kStringOrJson: {
      // A string or a JSON dict right after '=': one token each, cut by a
      // lexer of our own exactly as the grammar's lexer cuts it.
      if (*p != '"' && *p != '{') return nullptr;
      Lexer lexer(base, static_cast<uint32_t>(file_.size()), static_cast<uint32_t>(p - base));
      const TokKind first = lexer.Lex();
      if (first == TokKind::kLbrace ? lexer.LexJsonDict() != TokKind::kString
                                    : first != TokKind::kString) {
        return nullptr;
      }
      end = base + lexer.position();
      break;
    }
    case AttrType::kReplicaGroups: {
      // A recent valid text again, as ParseAttributeValue takes it.
      const size_t size = RecentReplicaGroupsAt(p);
      if (size == 0) return nullptr;
      end = p + size;
      break;
    }
    case AttrType::kSharding: {
      // The last valid sharding again, at no greater nesting depth.
      const std::string& last = last_sharding_;
      if (last.empty() || depth_ > last_sharding_depth_ ||
          static_cast<size_t>(file_end() - p) < last.size() ||
          std::memcmp(p, last.data(), last.size()) != 0) {
        return nullptr;
      }
      end = p + last.size();
      break;
    }
    case AttrType::kSliceRanges:
      end = ScanSliceRanges(p, nullptr);
      if (end == nullptr) return nullptr;
      break;
    case AttrType::kInstructionAliasing:
      end = ScanOutputOperandAliasing(p, &shape_index_scratch_);
      if (end == nullptr) return nullptr;
      break;
    default:
      return nullptr;
  }
  return end;
}

bool ModuleParser::TrySmallScalarConstant(ShapeId shape_id) {
  if (kind() != TokKind::kLparen) return false;
  const Shape& constant_shape = shape(shape_id);
  if (!constant_shape.IsArray() || !constant_shape.dimensions.empty()) return false;
  // Types every integer below 10^4 fits (f16 holds up to 65504): the
  // literal's range and index checks pass.
  switch (constant_shape.element_type) {
    case PrimitiveType::kS16: case PrimitiveType::kS32: case PrimitiveType::kS64:
    case PrimitiveType::kU16: case PrimitiveType::kU32: case PrimitiveType::kU64:
    case PrimitiveType::kF16: case PrimitiveType::kBF16: case PrimitiveType::kF32:
    case PrimitiveType::kF64:
      break;
    default:
      return false;
  }
  const char* const base = file_.data();
  const char* const digits = base + lexer_.position();
  const char* p = digits;
  while (IsDigitByte(*p) && p - digits < 4) ++p;
  // ')' right after the digits: the lexer reads them as one kInt.
  if (p == digits || *p != ')') return false;
  if (!LayoutValidationError(constant_shape).empty()) return false;
  lexer_.Reset(static_cast<uint32_t>(p + 1 - base));
  Lex();
  return true;
}

}  // namespace hlolint
