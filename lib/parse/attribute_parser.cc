// Instruction attributes: `, name=value` pairs, each value read by its
// AttrType (XLA's ParseAttributeHelper).
#include <algorithm>
#include <vector>

#include "parse/module_parser.h"
#include "util/strings.h"

namespace hlolint {

// ---------------------------------------------------------------------------
// Attributes

bool ModuleParser::ParseAttributes(const AttrSet& set, bool allow_attributes, InstrScratch& s,
                                   uint32_t opcode_offset) {
  std::bitset<kAttrNameCount> seen;
  if (allow_attributes) {
    while (kind() == TokKind::kComma) {
      AttrName known = AttrName::kUnknown;
      if (limits_.fast_paths) {
        dump_forms_.TakePlainAttributes(set, seen, s);
        if (kind() != TokKind::kComma) break;
        known = dump_forms_.TakeCommonAttributeName();
        if (known == AttrName::kUnknown && !lexer_.LexAttributeNameAfterComma()) Lex();
      } else {
        Lex();
      }
      if (!ParseAttribute(set, seen, s, known)) return false;
    }
    // No instruction starts with `name=`: this is an attribute missing its ','.
    if (kind() == TokKind::kAttributeName) {
      return TokenError(StrCat("expects ',' before attribute ", tok().text));
    }
  }
  std::bitset<kAttrNameCount> missing = set.required & ~seen;
  if (missing.any()) {
    for (int i = 0; i < kAttrNameCount; ++i) {
      if (missing[i]) {
        return Error(opcode_offset, StrCat("attribute ", AttrNameText(static_cast<AttrName>(i)),
                                                 " is expected but not seen"));
      }
    }
  }
  return true;
}


bool ModuleParser::ParseAttribute(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                                  InstrScratch& s, AttrName known) {
  const uint32_t name_offset = lexer_.offset();
  if (kind() != TokKind::kAttributeName) return TokenError("expects attribute name");
  std::string_view text = tok().text;
  const AttrName name = known != AttrName::kUnknown ? known : AttrNameFromText(text);
  if (name != AttrName::kUnknown && seen[static_cast<size_t>(name)]) {
    return Error(name_offset, StrCat("attribute ", text, " already exists"));
  }
  const AttrType type = name == AttrName::kUnknown ? AttrType::kNotAllowed : set.type(name);
  if (type == AttrType::kNotAllowed) return UnexpectedAttribute(set, name, text, name_offset);
  seen.set(static_cast<size_t>(name));
  Attribute attribute;
  attribute.name = name;
  // The value right after '=' in a common form: read byte-wise.
  attribute.value_offset = lexer_.position();
  // One way out for every reading, so the push below stays inline.
  if (!limits_.fast_paths || type == AttrType::kMetadata || !dump_forms_.TryAttributeValue(name, type, s)) {
    Lex();
    attribute.value_offset = lexer_.offset();
    // Plain metadata (most attributes of a dump) straight away: ParseMetadata
    // would try this first too.
    const bool plain_metadata = type == AttrType::kMetadata && SkipPlainMetadata();
    if (!plain_metadata && !ParseAttributeValue(name, type, name_offset, s)) {
      if (!error_) Error(name_offset, StrCat("error parsing attribute ", text));
      return false;
    }
  }
  if (HasValueKey(name)) KeyValueText(attribute);
  NoteAttributeName(attribute, name_offset, s);
  s.attributes.push_back(attribute);
  return true;
}

bool ModuleParser::UnexpectedAttribute(const AttrSet& set, AttrName name, std::string_view text,
                                       uint32_t name_offset) {
  std::vector<std::string_view> allowed;
  for (int i = 0; i < kAttrNameCount; ++i) {
    if (set.types[i] != AttrType::kNotAllowed) allowed.push_back(AttrNameText(static_cast<AttrName>(i)));
  }
  std::sort(allowed.begin(), allowed.end());
  // An attribute another XLA's parser takes: which, and how to read it so.
  const std::string other_xla =
      name != AttrName::kUnknown && set.other_xla[static_cast<size_t>(name)]
          ? StrCat(" ", OtherXlaAttributeNote(name))
          : std::string();
  return Error(name_offset, StrCat("unexpected attribute \"", text, "\"", other_xla,
                                   ". Allowed attributes: ", StrJoin(allowed, ", ")));
}

void ModuleParser::KeyValueText(Attribute& attribute) {
  // The value's tokens, comments between them included.
  KeyValueText(attribute, lexer_.previous_end());
}

void ModuleParser::KeyValueText(Attribute& attribute, uint32_t end) {
  if (end <= attribute.value_offset) return;
  const std::string_view text = module_->text(attribute.value_offset, end - attribute.value_offset);
  if (value_key_count_ == Attribute::kMaxValueKey) return;  // unkeyed: rules read the text
  const uint32_t next = value_key_count_ + 1;
  attribute.value_key = value_keys_.Insert(text, next) & Attribute::kMaxValueKey;
  if (attribute.value_key == next) ++value_key_count_;
}

bool ModuleParser::ParseComputationRef(CompId* out) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (kind() == TokKind::kLbrace) {
    return ParseInstructionList("_", lexer_.offset(), true, lexer_.offset(), {}, out);
  }
  const uint32_t offset = lexer_.offset();
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) {
    return Error(offset, "expects computation name");
  }
  std::string_view name = tok().text;
  const CompId found = LookupComputation(name);
  if (found == CopyingNameTable::kNotFound) {
    return Error(offset, StrCat("computation does not exist: ", name));
  }
  *out = found;
  Lex();
  return true;
}

bool ModuleParser::ParseComputationList(std::vector<CompId>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      CompId c;
      if (!ParseComputationRef(&c)) return false;
      out->push_back(c);
    } while (EatIfPresent(TokKind::kComma));
  }
  // Instruction::called_count is 16-bit; the few single computation
  // attributes (to_apply=, calls=, ...) added to a list stay below it.
  constexpr size_t kMaxList = Instruction::kMaxCalled - 64;
  if (out->size() > kMaxList) {
    return Error(lexer_.offset(), StrCat("a list of more than ", kMaxList,
                                         " computations, more than hlolint can hold"));
  }
  return ParseToken(TokKind::kRbrace, "expects a list to end with '}'");
}

bool ModuleParser::ParseAttributeValue(AttrName name, AttrType type, uint32_t name_offset,
                                       InstrScratch& s) {
  switch (type) {
    case AttrType::kNotAllowed:
      return false;
    case AttrType::kBool:
    case AttrType::kInt64:
    case AttrType::kInt32:
    case AttrType::kFloat:
    case AttrType::kString:
    case AttrType::kStringOrJson:
    case AttrType::kLiteral:
    case AttrType::kIntList:
    case AttrType::kIntListList:
      return ParseScalarOrListValue(name, type, name_offset, s);
    case AttrType::kComputation:
    case AttrType::kComputationList:
    case AttrType::kInstructionList:
      return ParseReferenceValue(name, type, s);
    case AttrType::kFftType:
    case AttrType::kPaddingType:
    case AttrType::kComparisonDirection:
    case AttrType::kComparisonType:
    case AttrType::kFusionKind:
    case AttrType::kDistribution:
    case AttrType::kTranspose:
    case AttrType::kRandomAlgorithm:
    case AttrType::kPrecisionAlgorithm:
    case AttrType::kCustomCallSchedule:
    case AttrType::kMode:
    case AttrType::kConvKind:
    case AttrType::kApiVersion:
    case AttrType::kPrecisionList:
      return ParseEnumValue(name, type, s);
    default:
      return ParseStructuredValue(type, name_offset, s);
  }
}

bool ModuleParser::ParseScalarOrListValue(AttrName name, AttrType type, uint32_t name_offset,
                                          InstrScratch& s) {
  switch (type) {
    case AttrType::kBool: {
      bool value;
      if (!ParseBool(&value)) return false;
      s.NoteBool(name, value);
      return true;
    }
    case AttrType::kInt64: {
      int64_t value;
      if (!ParseInt64(&value)) return false;
      s.NoteInt64(name, value);
      return true;
    }
    case AttrType::kInt32: {
      const uint32_t offset = lexer_.offset();
      int64_t value;
      if (!ParseInt64(&value)) return false;
      if (value != static_cast<int32_t>(value)) return Error(offset, "value out of range for int32_t");
      return true;
    }
    case AttrType::kFloat: {
      const uint32_t offset = lexer_.offset();
      double value;
      if (!ParseDouble(&value)) return false;
      if (value > 3.4028234663852886e38 || value < -3.4028234663852886e38) {
        return Error(offset, "value out of range for float");
      }
      return true;
    }
    case AttrType::kString: {
      std::string_view raw;
      if (!ParseString(&raw)) return false;
      s.NoteString(name, raw);
      return true;
    }
    case AttrType::kStringOrJson: {
      std::string_view raw;
      if (kind() == TokKind::kString) return ParseString(&raw);
      if (kind() == TokKind::kLbrace) return ParseJsonDict(&raw);
      return TokenError("expects a string or a JSON object");
    }
    case AttrType::kLiteral:
      return ParseLiteralWithShape();
    case AttrType::kIntList: {
      const uint32_t offset = lexer_.offset();
      if (!ParseInt64List(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &s.ints)) return false;
      s.NoteIntList(name, offset);
      return true;
    }
    case AttrType::kIntListList: {
      if (!ParseInt64ListList(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &s.int_lists)) {
        return false;
      }
      if (name == AttrName::kSourceTargetPairs) {
        for (size_t i = 0; i < s.int_lists.size(); ++i) {
          if (s.int_lists[i].size() != 2) {
            return Error(name_offset, "expects 'source_target_pairs=' to be a list of pairs");
          }
        }
      }
      if (name == AttrName::kSliceSizes) s.has_slice_sizes = true;
      return true;
    }
    default:
      break;
  }
  return false;
}

bool ModuleParser::ParseReferenceValue(AttrName name, AttrType type, InstrScratch& s) {
  switch (type) {
    case AttrType::kComputation: {
      CompId c;
      if (!ParseComputationRef(&c)) return false;
      s.NoteComputation(name, c);
      return true;
    }
    case AttrType::kComputationList: {
      std::vector<CompId> list;
      if (!ParseComputationList(&list)) return false;
      if (name == AttrName::kBranchComputations) {
        s.has_branches = true;
        s.branches = std::move(list);
      } else {
        s.has_called_computations = true;
        for (CompId c : list) s.called.push_back(c);
      }
      return true;
    }
    case AttrType::kInstructionList:
      return ParseInstructionNameList(s);
    default:
      break;
  }
  return false;
}

bool ModuleParser::ParseEnumValue(AttrName name, AttrType type, InstrScratch& s) {
  switch (type) {
    case AttrType::kFftType:
      return ParseEnum("fft type", {"FFT", "IFFT", "RFFT", "IRFFT"});
    case AttrType::kPaddingType:
      return ParseEnum("padding type", {"PADDING_INVALID", "PADDING_VALID", "PADDING_SAME"});
    case AttrType::kComparisonDirection:
      return ParseEnum("comparison direction", {"EQ", "NE", "GE", "GT", "LE", "LT"});
    case AttrType::kComparisonType:
      if (name == AttrName::kOrder) {
        return ParseEnum("comparison order", {"TOTALORDER", "PARTIALORDER"});
      }
      return ParseEnum("comparison type", {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"});
    case AttrType::kFusionKind:
      return ParseFusionKind(&s.fusion_kind);
    case AttrType::kDistribution:
      return ParseEnumIgnoringCase("random distribution", {"rng_invalid", "rng_uniform", "rng_normal"});
    case AttrType::kTranspose:
      return ParseEnum("transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"});
    case AttrType::kRandomAlgorithm:
      return ParseEnumIgnoringCase("random algorithm", {"rng_default", "rng_three_fry", "rng_philox"});
    case AttrType::kPrecisionAlgorithm:
      return ParseEnumIgnoringCase(
          "algorithm",
          {"unset", "dot_any_f8_any_f8_f32", "dot_any_f8_any_f8_f32_fast_accum", "dot_f16_f16_f16",
           "dot_f16_f16_f32", "dot_bf16_bf16_bf16", "dot_bf16_bf16_f32", "dot_bf16_bf16_f32_x3",
           "dot_bf16_bf16_f32_x6", "dot_bf16_bf16_f32_x9", "dot_tf32_tf32_f32",
           "dot_tf32_tf32_f32_x3", "dot_f32_f32_f32", "dot_f64_f64_f64", "alg_unset"});
    case AttrType::kCustomCallSchedule:
      return ParseEnumIgnoringCase("custom-call schedule",
                                   {"schedule_none", "schedule_latest", "schedule_earliest"});
    case AttrType::kMode:
      if (name == AttrName::kMode && s.shuffle_mode) return ParseEnum("shuffle mode", {"rotate"});
      s.has_mode = true;
      return ParseEnum("collective op group mode",
                       {"cross_replica", "cross_partition", "cross_replica_and_partition",
                        "flattened_id"});
    case AttrType::kConvKind:
      return ParseEnum("convolution kind", {"fprop", "wgrad", "dgrad", "unset"});
    case AttrType::kApiVersion: {
      std::string_view version;
      return ParseCustomCallApiVersion(&version);
    }
    case AttrType::kPrecisionList:
      return ParsePrecisionList();
    default:
      break;
  }
  return false;
}

bool ModuleParser::ParseStructuredValue(AttrType type, uint32_t name_offset, InstrScratch& s) {
  switch (type) {
    case AttrType::kWindow:
      return ParseWindow(&window_scratch_);
    case AttrType::kConvDims:
      return ParseConvolutionDimensionNumbers(&conv_scratch_);
    case AttrType::kSharding:
      return ParseShardingValue();
    case AttrType::kFrontendAttributes:
      return ParseFrontendAttributes();
    case AttrType::kStatistics:
      return ParseStatistics();
    case AttrType::kBoolListOrBool:
      return ParseBooleanListOrSingleBoolean();
    case AttrType::kParameterReplication:
      s.parameter_replication_offset = name_offset;
      return ParseParameterReplication(&s.parameter_replication_count);
    case AttrType::kSliceRanges:
      return ParseSliceRanges(&slice_scratch_);
    case AttrType::kPaddingConfig:
      return ParsePaddingConfig(&padding_scratch_);
    case AttrType::kMetadata:
      return ParseMetadata(nullptr);
    case AttrType::kDomain:
      return ParseDomain();
    case AttrType::kShape: {
      ShapeId id;
      return ParseShape(&id);
    }
    case AttrType::kShapeList:
      s.has_layout_constraints = true;
      s.layout_constraints_offset = name_offset;
      return ParseShapeList(&s.layout_constraints);
    case AttrType::kInstructionAliasing:
      return ParseOutputOperandAliasing(&aliasing_scratch_);
    case AttrType::kReplicaGroups:
      return ParseReplicaGroupsValue();
    case AttrType::kResultAccuracy:
      return ParseResultAccuracy();
    case AttrType::kOriginalValue:
      return ParseOriginalValue();
    case AttrType::kSparsityConfig:
      return ParseSparsityConfig();
    default:
      break;
  }
  return false;
}

bool ModuleParser::ParseShardingValue() {
  const uint32_t start = lexer_.offset();
  if (!ParseSharding()) return false;
  if (limits_.fast_paths) dump_forms_.RememberSharding(start, lexer_.previous_end(), depth_);
  return true;
}

bool ModuleParser::ParseReplicaGroupsValue() {
  const uint32_t start = lexer_.offset();
  if (dump_forms_.SkipRecentReplicaGroups(start)) return true;
  // Only validated here: the groups are not expanded (rules read them
  // from the IR's text when they need them).
  if (!ParseReplicaGroups(&replica_scratch_, /*expand=*/false)) return false;
  if (limits_.fast_paths) dump_forms_.RememberReplicaGroups(start, lexer_.previous_end());
  return true;
}

bool ModuleParser::ParseInstructionNameList(InstrScratch& s) {
  if (!ParseToken(TokKind::kLbrace, "expects '{' at the beginning of instruction name list")) {
    return false;
  }
  const uint32_t offset = lexer_.offset();
  do {
    if (kind() != TokKind::kIdent && kind() != TokKind::kName) {
      return Error(offset, "expects a instruction name");
    }
    std::string_view pred = tok().text;
    const uint32_t pred_offset = lexer_.offset();
    InstrId id = FindName(pred);
    if (id == kNoId) return Error(pred_offset, StrCat("instruction '", pred, "' is not defined"));
    Lex();
    s.controls.push_back(id);
  } while (EatIfPresent(TokKind::kComma));
  return ParseToken(TokKind::kRbrace, "expects '}' at the end of instruction name list");
}

}  // namespace hlolint
