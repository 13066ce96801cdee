// The dump-form reader (see dump_form_reader.h): instruction heads,
// signatures, shapes and opcodes by their text, attribute values.
#include "parse/dump_form_reader.h"

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

// The attribute names dumps print most, by first letter (a few each, most
// frequent first), with their text.
struct CommonAttrName {
  const char* text = nullptr;
  uint32_t size = 0;
  AttrName name = AttrName::kUnknown;
};
using CommonAttrNames = std::array<std::array<CommonAttrName, 3>, 26>;
const CommonAttrNames kCommonAttrNames = [] {
  CommonAttrNames table{};
  for (AttrName name :
       {AttrName::kMetadata, AttrName::kDimensions, AttrName::kToApply, AttrName::kIndex,
        AttrName::kSlice, AttrName::kKind, AttrName::kCalls, AttrName::kReplicaGroups,
        AttrName::kChannelId, AttrName::kUseGlobalDeviceIds, AttrName::kRhsContractingDims,
        AttrName::kLhsContractingDims, AttrName::kBackendConfig, AttrName::kSharding,
        AttrName::kDirection, AttrName::kCustomCallTarget, AttrName::kRhsBatchDims,
        AttrName::kLhsBatchDims, AttrName::kIotaDimension, AttrName::kFrontendAttributes,
        AttrName::kDynamicSliceSizes, AttrName::kIndexVectorDim}) {
    const std::string_view text = AttrNameText(name);
    for (CommonAttrName& slot : table[static_cast<size_t>(text[0] - 'a')]) {
      if (slot.text != nullptr) continue;
      slot = CommonAttrName{text.data(), static_cast<uint32_t>(text.size()), name};
      break;
    }
  }
  return table;
}();

// One of the common names at p (a lowercase letter), followed by '='.
const CommonAttrName* CommonAttrNameAt(const char* p, const char* text_end) {
  const size_t room = static_cast<size_t>(text_end - p);
  for (const CommonAttrName& c : kCommonAttrNames[static_cast<size_t>(*p - 'a')]) {
    if (c.text == nullptr) break;
    // The whole identifier: the name, then '=' (never an identifier byte).
    if (c.size < room && p[c.size] == '=' && BytesEqual(p, c.text, c.size)) return &c;
  }
  return nullptr;
}

}  // namespace

const char* DumpFormReader::CachedShapeAt(const char* p, ShapeId* id) {
  const char* q = ShapeTextEnd(p, std::min(p + ModuleParser::kShapeTextLimit, parser_.file_end()));
  if (q == nullptr) return nullptr;
  const uint32_t found = parser_.shape_cache_->Find(std::string_view(p, static_cast<size_t>(q - p)));
  if (found == CopyingNameTable::kNotFound) return nullptr;
  RememberShape(p, static_cast<size_t>(q - p), found);
  *id = found;
  return q;
}

static size_t RecentShapeSet(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return static_cast<size_t>((v * 0x9E3779B97F4A7C15ull) >> 57) * 2;
}

// A recent text T at p is the shape ShapeTextEnd would find there when the
// bytes after it are ones ShapeTextEnd stops at without looking further: a
// blank then a name or opcode (T holds no blank unless it is a tuple, which
// ends at its balanced ')'; a T ending in ']' is not followed by a layout),
// or `, ` / `) ` (T does not end in ',' or ')' unless a tuple, so nothing
// is trimmed back into it).
const char* DumpFormReader::RecentShapeAt(const char* p, ShapeFollower follower, ShapeId* id) const {
  const char* const end = parser_.file_.data() + parser_.file_.size();
  if (end - p < 8) return nullptr;
  const RecentShape* set = &recent_shapes_[RecentShapeSet(p)];
  for (int way = 0; way < 2; ++way) {
    const RecentShape& r = set[way];
    // *end is NUL, so with r.size < end - p both follower bytes are readable.
    if (r.size == 0 || static_cast<size_t>(end - p) <= r.size) continue;
    // Further back than the text kept resident: maybe released.
    if (r.text < p && static_cast<size_t>(p - r.text) > TextReleaser::kMargin) continue;
    const char* q = p + r.size;
    bool follows = false;
    switch (follower) {
      case ShapeFollower::kWord:
        follows = q[0] == ' ' && (q[1] == '%' || IsIdentStartByte(q[1]));
        break;
      case ShapeFollower::kListSeparator:
        follows = (q[0] == ',' || q[0] == ')') && q[1] == ' ';
        break;
    }
    if (follows && BytesEqual(p, r.text, r.size)) {
      *id = r.id;
      return q;
    }
  }
  return nullptr;
}

void DumpFormReader::RememberShape(const char* p, size_t size, ShapeId id) {
  if (parser_.file_end() - p < 8) return;
  RecentShape* set = &recent_shapes_[RecentShapeSet(p)];
  set[1] = set[0];
  set[0] = RecentShape{p, static_cast<uint32_t>(size), id};
}

// For a byte-wise reader that met a shape the shape cache does not hold:
// the grammar reads it at `p`, as the token-level parser would at that
// point, and the cache keeps its text. Returns where it ends, or null (an
// error the token-level parser will meet and report again is dropped).
// Moves the lexer (and says so in *lexer_moved).
const char* DumpFormReader::ShapeThroughGrammar(const char* p, ShapeId* id, bool* lexer_moved) {
  if (parser_.error_) return nullptr;
  *lexer_moved = true;
  parser_.lexer_.Reset(static_cast<uint32_t>(p - parser_.file_.data()));
  parser_.Lex();
  if (!parser_.ParseShape(id)) {
    parser_.error_.reset();
    return nullptr;
  }
  return parser_.file_.data() + parser_.lexer_.previous_end();
}

// Computation headers repeat shapes the module already knows. Read like
// TryHead: `name: shape` pairs separated by `, `, then ` -> shape {`,
// shapes by exact text from the shape cache (ShapeTextEnd decides where a
// shape ends exactly as ParseShape does); anything else is left to the
// token grammar.
bool DumpFormReader::TrySignature(uint32_t pos, std::vector<ShapeId>* params, ShapeId* result,
                                    uint32_t* result_offset) {
  if (!parser_.limits_.fast_paths || parser_.shape_cache_ == nullptr ||
      parser_.depth_ + 1 > parser_.limits_.max_nesting_depth) {
    return false;
  }
  const char* const base = parser_.file_.data();
  const char* const end = base + parser_.file_.size();
  const char* p = base + pos;
  if (*p != '(') return false;
  ++p;
  const size_t first = params->size();
  bool closed = *p == ')';
  bool lexer_moved = false;
  while (!closed) {
    // A plain name right before ':' is a kName token whatever its spelling.
    if (!IsIdentStartByte(*p)) break;
    p = SkipIdentChars(p, end);
    if (p[0] != ':' || p[1] != ' ') break;
    ShapeId param;
    const char* shape_begin = p + 2;
    p = KnownShapeAt(shape_begin, ShapeFollower::kListSeparator, &param);
    // A shape the module has not used yet (an entry's parameters often
    // print without the layouts their instructions have).
    if (p == nullptr) p = ShapeThroughGrammar(shape_begin, &param, &lexer_moved);
    if (p == nullptr) break;
    params->push_back(param);
    if (*p == ')') {
      closed = true;
    } else if (p[0] == ',' && p[1] == ' ') {
      p += 2;
    } else {
      break;
    }
  }
  if (closed && end - p > 5 && std::memcmp(p, ") -> ", 5) == 0) {
    p += 5;
    ShapeId result_shape;
    const char* shape_end = CachedShapeAt(p, &result_shape);
    if (shape_end == nullptr) shape_end = ShapeThroughGrammar(p, &result_shape, &lexer_moved);
    if (shape_end != nullptr && shape_end[0] == ' ' && shape_end[1] == '{') {
      *result = result_shape;
      *result_offset = static_cast<uint32_t>(p - base);
      parser_.lexer_.Reset(static_cast<uint32_t>(shape_end - base));
      parser_.Lex();
      return true;
    }
  }
  params->resize(first);
  if (lexer_moved) {
    parser_.lexer_.Reset(pos);
    parser_.Lex();
  }
  return false;
}

const char* DumpFormReader::ScanOperandName(const char* p, std::string_view* name) const {
  if (*p == '%') {
    const char* begin = ++p;
    if (!IsIdentStartByte(*p)) return nullptr;
    p = SkipIdentChars(p, parser_.file_end());
    *name = std::string_view(begin, static_cast<size_t>(p - begin));
    return p;
  }
  if (!IsIdentStartByte(*p)) return nullptr;
  // A plain identifier may be a keyword or a type to the lexer. Before ','
  // or ')' (the operand lists dumps print) it is neither a kName nor an
  // attribute name, so the lexer's ClassifyWord decides.
  const char* q = SkipIdentChars(p + 1, parser_.file_end());
  if (*q == ',' || *q == ')') {
    const std::string_view word(p, static_cast<size_t>(q - p));
    PrimitiveType type;
    const char* dim_labels_end;
    if (ClassifyWord(word, &type, &dim_labels_end) != TokKind::kIdent) return nullptr;
    *name = word;
    return q;
  }
  Lexer lexer(parser_.file_.data(), parser_.file_.size(), static_cast<uint32_t>(p - parser_.file_.data()));
  if (lexer.Lex() != TokKind::kIdent) return nullptr;
  *name = lexer.TokenText();
  return p + name->size();
}

size_t DumpFormReader::RecentReplicaGroupsAt(const char* p) const {
  const size_t left = static_cast<size_t>(parser_.file_end() - p);
  for (const std::string& text : recent_replica_groups_) {
    if (!text.empty() && left >= text.size() && std::memcmp(p, text.data(), text.size()) == 0) {
      return text.size();
    }
  }
  return 0;
}

Opcode DumpFormReader::CachedOpcodeAt(const char* p, size_t size) {
  if (parser_.file_end() - p < 8 || size == 0) {
    return OpcodeFromName(std::string_view(p, size)).value_or(Opcode::kInvalid);
  }
  uint64_t word;
  std::memcpy(&word, p, 8);
  if (size < 8) word &= (uint64_t{1} << (8 * size)) - 1;
  RecentOpcode& r = recent_opcodes_[((word ^ size) * 0x9E3779B97F4A7C15ull) >> 58];
  if (r.size == size && BytesEqual(r.name, p, size)) return r.opcode;
  const std::optional<Opcode> opcode = OpcodeFromName(std::string_view(p, size));
  if (!opcode) return Opcode::kInvalid;
  r = RecentOpcode{OpcodeName(*opcode).data(), size, *opcode};
  return *opcode;
}

// Dumps spell almost every instruction as `shape opcode(shape %a, shape %b)`
// with single spaces, shapes the module has already used and operands
// defined earlier. That head is read here straight from the bytes: shapes
// by exact text from the shape cache, names from the scope's table. At the
// first byte that does not fit, it gives up having changed nothing, and the
// token-level parser reads the whole instruction (and reports any error),
// so what is accepted, and the IR built, are the same either way.
bool DumpFormReader::TryHead(uint32_t pos, InstrScratch& s, Head* head) {
  // ParseOperands and ParseShape each nest one level deeper.
  if (parser_.shape_cache_ == nullptr || parser_.depth_ + 2 > parser_.limits_.max_nesting_depth) return false;
  const char* const base = parser_.file_.data();
  // A shape the module has used before, by its exact text, then one space.
  auto cached_shape = [&](const char* p, ShapeId* id) -> const char* {
    const char* q = KnownShapeAt(p, ShapeFollower::kWord, id);
    return q != nullptr && *q == ' ' ? q + 1 : nullptr;
  };
  const char* p = base + pos;
  if (!IsIdentStartByte(*p) && *p != '(') return false;
  p = cached_shape(p, &head->shape);
  if (p == nullptr) return false;
  const char* opcode_begin = p;
  if (!IsIdentStartByte(*p)) return false;
  p = SkipIdentChars(p, parser_.file_end());
  if (*p != '(') return false;
  const Opcode found = CachedOpcodeAt(opcode_begin, static_cast<size_t>(p - opcode_begin));
  if (found == Opcode::kInvalid) return false;  // async sugar, unknown opcodes: the slow path
  const std::optional<Opcode> opcode = found;
  head->opcode = *opcode;
  head->opcode_offset = static_cast<uint32_t>(opcode_begin - base);
  head->opcode_end = static_cast<uint32_t>(p - base);
  head->operands_offset = head->opcode_end;
  if (*opcode == Opcode::kParameter || *opcode == Opcode::kConstant) {
    head->operands_read = false;
    head->resume = head->opcode_end;
    if (*opcode == Opcode::kParameter) {
      // `(N)`: one integer token.
      int64_t number;
      const char* q = ScanSmallDecimal(p + 1, &number);
      if (q != nullptr && *q == ')') {
        head->parameter_number = number;
        head->resume = static_cast<uint32_t>(q + 1 - base);
      }
    }
    return true;
  }
  ++p;  // '('
  bool closed = *p == ')';
  if (!closed) {
    for (;;) {
      const char* operand = p;
      ShapeId declared = kNoShape;
      // A shape starts with a type name followed by '['; anything else
      // starting with a letter is a name.
      const char* word = SkipIdentChars(p, parser_.file_end());
      if (*word == '[' || *p == '(') {
        p = cached_shape(p, &declared);
        if (p == nullptr) break;
      }
      std::string_view name;
      p = ScanOperandName(p, &name);
      if (p == nullptr || (*p != ',' && *p != ')')) break;
      InstrId id = parser_.FindOperandName(name);
      if (id == kNoId && parser_.names_.in_continuation()) {
        id = parser_.OperandStub(name, static_cast<uint32_t>(name.data() - parser_.file_.data()), declared);
      }
      if (id == kNoId) break;
      if (declared != kNoShape && declared != parser_.builder_->instructions()[id].shape) break;
      s.operand_offsets.push_back(static_cast<uint32_t>(operand - base));
      s.operands.push_back(id);
      if (*p == ')') {
        closed = true;
        break;
      }
      if (p[1] != ' ') break;
      p += 2;
    }
    if (!closed) {
      s.operands.clear();
      s.operand_offsets.clear();
      return false;
    }
  }
  head->operands_read = true;
  head->resume = static_cast<uint32_t>(p + 1 - base);
  return true;
}



AttrName DumpFormReader::TakeCommonAttributeName() {
  if (parser_.kind() != TokKind::kComma) return AttrName::kUnknown;
  const uint32_t begin = parser_.lexer_.position() + 1;
  const char* p = parser_.file_.data() + begin;
  if (p[-1] != ' ' || *p < 'a' || *p > 'z') return AttrName::kUnknown;
  const CommonAttrName* c = CommonAttrNameAt(p, parser_.file_end());
  if (c == nullptr) return AttrName::kUnknown;
  parser_.lexer_.TakeAttributeName(begin, c->size);
  return c->name;
}

void DumpFormReader::TakePlainAttributes(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                                       InstrScratch& s) {
  if (parser_.kind() != TokKind::kComma) return;
  const char* const base = parser_.file_.data();
  const char* p = base + parser_.lexer_.position();  // after the ','
  const char* taken_end = nullptr;
  // ` name=` exactly as TakeCommonAttributeName takes it; anything else,
  // and every error, is left to ParseAttribute.
  while (p[0] == ' ' && p[1] >= 'a' && p[1] <= 'z') {
    const char* const name_begin = p + 1;
    const CommonAttrName* c = CommonAttrNameAt(name_begin, parser_.file_end());
    if (c == nullptr) break;
    const AttrName name = c->name;
    const AttrType type = set.type(name);
    if (type == AttrType::kNotAllowed || seen[static_cast<size_t>(name)]) break;
    const char* const value = name_begin + c->size + 1;
    // Metadata as SkipPlainMetadata reads it after the '{' token.
    const char* const end = type == AttrType::kMetadata
                                ? (*value == '{' ? parser_.PlainMetadataEnd(value + 1) : nullptr)
                                : AttributeValueEnd(name, type, value, s);
    if (end == nullptr) break;
    seen.set(static_cast<size_t>(name));
    // Written in place: a local copied in would be stored in bytes and
    // loaded whole, a store-forwarding stall.
    Attribute& attribute = s.attributes.emplace_back();
    attribute.name = name;
    // Right after the name and its '=' (its name_offset is implied).
    attribute.value_offset = static_cast<uint32_t>(value - base);
    if (HasValueKey(name)) parser_.KeyValueText(attribute, static_cast<uint32_t>(end - base));
    taken_end = end;
    if (*end != ',') break;
    p = end + 1;
  }
  if (taken_end == nullptr) return;
  // The token after the last value (a ',' before one not taken), as the
  // grammar's Lex after that value makes it.
  parser_.lexer_.Reset(static_cast<uint32_t>(taken_end - base));
  parser_.Lex();
}


bool DumpFormReader::TryAttributeValue(AttrName name, AttrType type, InstrScratch& s) {
  const char* const base = parser_.file_.data();
  const char* const end = AttributeValueEnd(name, type, base + parser_.lexer_.position(), s);
  if (end == nullptr) return false;
  parser_.lexer_.Reset(static_cast<uint32_t>(end - base));
  parser_.Lex();
  return true;
}

const char* DumpFormReader::AttributeValueEnd(AttrName name, AttrType type, const char* p,
                                                InstrScratch& s) {
  const char* const base = parser_.file_.data();
  const char* end = nullptr;
  switch (type) {
    case AttrType::kComputation: {
      // `%name` is a kName token whatever follows; ParseComputationRef
      // nests one level.
      if (p[0] != '%' || !IsIdentStartByte(p[1]) || parser_.depth_ + 1 > parser_.limits_.max_nesting_depth) {
        return nullptr;
      }
      end = SkipIdentChars(p + 2, parser_.file_end());
      const CompId found =
          parser_.LookupComputation(std::string_view(p + 1, static_cast<size_t>(end - p - 1)));
      if (found == CopyingNameTable::kNotFound) return nullptr;
      s.NoteComputation(name, found);
      break;
    }
    case AttrType::kFusionKind:
      end = FusionKindEnd(p, s);
      if (end == nullptr) return nullptr;
      break;
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
      s.NoteBool(name, word == "true");
      break;
    }
    case AttrType::kInt64: {
      int64_t value;
      end = ScanSmallInt(p, &value);
      if (end == nullptr) return nullptr;
      s.NoteInt64(name, value);
      break;
    }
    case AttrType::kIntList: {
      end = ScanIntList(p, &s.ints);
      if (end == nullptr) return nullptr;  // s.ints is scratch the grammar clears
      s.NoteIntList(name, static_cast<uint32_t>(p - base));
      break;
    }
    case AttrType::kString: {
      std::string_view raw;
      end = ScanPlainString(p, parser_.file_end(), &raw);
      if (end == nullptr) return nullptr;
      s.NoteString(name, raw);
      break;
    }
    case AttrType::kStringOrJson:
      end = StringOrJsonEnd(p);
      if (end == nullptr) return nullptr;
      break;
    case AttrType::kReplicaGroups: {
      // A recent valid text again, as ParseAttributeValue takes it.
      const size_t size = RecentReplicaGroupsAt(p);
      if (size == 0) return nullptr;
      end = p + size;
      break;
    }
    case AttrType::kSharding:
      end = RecentShardingEnd(p);
      if (end == nullptr) return nullptr;
      break;
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

const char* DumpFormReader::FusionKindEnd(const char* p, InstrScratch& s) const {
  std::string_view word;
  const char* end = ScanWord(p, &word);
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
  return end;
}

// A string or a JSON dict right after '=': one token each, cut by a lexer
// of our own exactly as the grammar's lexer cuts it.
const char* DumpFormReader::StringOrJsonEnd(const char* p) const {
  if (*p != '"' && *p != '{') return nullptr;
  const char* const base = parser_.file_.data();
  Lexer lexer(base, static_cast<uint32_t>(parser_.file_.size()), static_cast<uint32_t>(p - base));
  const TokKind first = lexer.Lex();
  if (first == TokKind::kLbrace ? lexer.LexJsonDict() != TokKind::kString
                                : first != TokKind::kString) {
    return nullptr;
  }
  return base + lexer.position();
}

// The last valid sharding again, at no greater nesting depth.
const char* DumpFormReader::RecentShardingEnd(const char* p) const {
  const std::string& last = last_sharding_;
  if (last.empty() || parser_.depth_ > last_sharding_depth_ ||
      static_cast<size_t>(parser_.file_end() - p) < last.size() ||
      std::memcmp(p, last.data(), last.size()) != 0) {
    return nullptr;
  }
  return p + last.size();
}

bool DumpFormReader::TrySmallScalarConstant(ShapeId shape_id) {
  if (parser_.kind() != TokKind::kLparen) return false;
  const Shape& constant_shape = parser_.shape(shape_id);
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
  const char* const base = parser_.file_.data();
  const char* const digits = base + parser_.lexer_.position();
  const char* p = digits;
  while (IsDigitByte(*p) && p - digits < 4) ++p;
  // ')' right after the digits: the lexer reads them as one kInt.
  if (p == digits || *p != ')') return false;
  if (!LayoutValidationError(constant_shape).empty()) return false;
  parser_.lexer_.Reset(static_cast<uint32_t>(p + 1 - base));
  parser_.Lex();
  return true;
}

bool DumpFormReader::SkipRecentReplicaGroups(uint32_t begin) {
  const size_t size = RecentReplicaGroupsAt(parser_.file_.data() + begin);
  if (size == 0) return false;
  parser_.lexer_.Reset(begin + static_cast<uint32_t>(size));
  parser_.Lex();
  return true;
}

void DumpFormReader::RememberReplicaGroups(uint32_t begin, uint32_t end) {
  const char close = end > begin ? parser_.file_.data()[end - 1] : '\0';
  const std::string_view text = parser_.file_.text().substr(begin, end - begin);
  // A text taken again unread must hold no directive marker: the lexer
  // notes those of the comments it skips.
  if ((close == ']' || close == '}' || close == ')') && end - begin <= kRememberedReplicaGroupsLimit &&
      !parser_.HoldsMarker(text)) {
    recent_replica_groups_[next_replica_groups_slot_].assign(text);
    next_replica_groups_slot_ = (next_replica_groups_slot_ + 1) % kRecentReplicaGroups;
  }
}

void DumpFormReader::RememberSharding(uint32_t begin, uint32_t end, int depth) {
  const std::string_view text = parser_.file_.text().substr(begin, end - begin);
  if (end > begin && end - begin <= kRememberedShardingLimit && parser_.file_.data()[end - 1] == '}' &&
      !parser_.HoldsMarker(text)) {
    last_sharding_.assign(text);
    last_sharding_depth_ = depth;
  }
}

}  // namespace hlolint
