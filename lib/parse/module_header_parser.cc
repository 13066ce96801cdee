// The module level of XLA's HloParserImpl: the HloModule header attributes,
// the stack frame tables, debug attributes, and the checks XLA makes once a
// module is built (aliasing, entry layouts, async computations).
#include <algorithm>
#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "lex/byte_scan.h"
#include "parse/module_parser.h"
#include "util/strings.h"

namespace hlolint {

bool ModuleParser::ParseHeaderAttributes() {
  ModuleHeader& header = builder_->header();
  static constexpr std::string_view kAllowed[] = {
      "alias_passthrough_params",
      "allow_spmd_sharding_propagation_to_output",
      "allow_spmd_sharding_propagation_to_parameters",
      "backend_config",
      "buffer_donor",
      "debug_attributes",
      "entry_computation_layout",
      "frontend_attributes",
      "input_output_alias",
      "is_scheduled",
      "num_partitions",
      "origin_recovery_table",
      "replica_count",
  };
  std::vector<std::string_view> seen;
  while (EatIfPresent(TokKind::kComma)) {
    const uint32_t offset = lexer_.offset();
    if (kind() != TokKind::kAttributeName) return TokenError("expects attribute name");
    std::string_view name = tok().text;
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      return Error(offset, StrCat("attribute ", name, " already exists"));
    }
    if (std::find(std::begin(kAllowed), std::end(kAllowed), name) == std::end(kAllowed)) {
      return Error(offset, StrCat("unexpected attribute \"", name, "\". Allowed attributes: ",
                                        StrJoin(kAllowed, ", ")));
    }
    seen.push_back(name);
    Lex();
    bool ok = true;
    if (name == "is_scheduled") {
      header.is_scheduled_offset = offset;
      ok = ParseBool(&header.is_scheduled);
    } else if (name == "replica_count") {
      header.replica_count_offset = offset;
      ok = ParseInt64(&header.replica_count);
    } else if (name == "num_partitions") {
      header.num_partitions_offset = offset;
      ok = ParseInt64(&header.num_partitions);
    } else if (name == "input_output_alias") {
      header.input_output_alias_offset = offset;
      ok = ParseInputOutputAlias(&header.input_output_alias);
    } else if (name == "buffer_donor") {
      header.buffer_donor_offset = offset;
      ok = ParseBufferDonors(&header.buffer_donors);
    } else if (name == "alias_passthrough_params") {
      ok = ParseBool(&header.alias_passthrough_params);
    } else if (name == "entry_computation_layout") {
      header.entry_layout_offset = offset;
      header.has_entry_layout = true;
      ok = ParseComputationLayout(&header.entry_param_layouts, &header.entry_result_layout);
    } else if (name == "frontend_attributes") {
      header.frontend_attributes_offset = offset;
      ok = ParseFrontendAttributes();
    } else if (name == "allow_spmd_sharding_propagation_to_parameters" ||
               name == "allow_spmd_sharding_propagation_to_output") {
      ok = ParseBooleanListOrSingleBoolean();
    } else if (name == "origin_recovery_table") {
      ok = ParseOriginalValueRecoveryTable();
    } else if (name == "debug_attributes") {
      ok = ParseDebugAttributes();
    } else if (name == "backend_config") {
      std::string_view raw;
      if (kind() == TokKind::kString) {
        ok = ParseString(&raw);
      } else if (kind() == TokKind::kLbrace) {
        ok = ParseJsonDict(&raw);
      } else {
        ok = TokenError("expects a string or a JSON object");
      }
    }
    if (!ok) return Error(offset, StrCat("error parsing attribute ", name));
  }
  return true;
}

bool ModuleParser::ParseIntSubAttributes(std::initializer_list<std::string_view> names) {
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start sub attributes")) return false;
  // A bit per name of `names` (a handful): stack frame tables hold an entry
  // per frame, so nothing is allocated per entry.
  uint32_t seen = 0;
  if (kind() != TokKind::kRbrace) {
    do {
      EatIfPresent(TokKind::kComma);
      const uint32_t attr_offset = lexer_.offset();
      if (kind() != TokKind::kAttributeName) return Error(attr_offset, "expects attribute name");
      std::string_view name = tok().text;
      const size_t which =
          static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
      if (which == names.size()) {
        return Error(attr_offset, StrCat("unexpected attribute \"", name,
                                               "\". Allowed attributes: ",
                                               StrJoin(names, ", ")));
      }
      if (seen & (1u << which)) {
        return Error(attr_offset, StrCat("attribute ", name, " already exists"));
      }
      seen |= 1u << which;
      Lex();
      const uint32_t value_offset = lexer_.offset();
      int64_t value;
      if (!ParseInt64(&value)) return false;
      if (value != static_cast<int32_t>(value)) {
        return Error(value_offset, "value out of range for int32_t");
      }
    } while (kind() != TokKind::kRbrace);
  }
  size_t which = 0;
  for (std::string_view name : names) {
    if (!(seen & (1u << which++))) {
      return Error(offset, StrCat("sub-attribute ", name, " is expected but not seen"));
    }
  }
  return ParseToken(TokKind::kRbrace, "expects '}' to end sub attributes");
}

// An entry `N {a=1 b=2 ...}` exactly as XLA prints it: each of `names`
// once, single spaces, small decimal values. Returns the end of its '}',
// or nullptr for anything else (the token-level parse then reads it, and
// reports what is wrong), so both accept the same entries.
static const char* PlainIntSubAttributesEnd(const char* p,
                                            std::initializer_list<std::string_view> names) {
  // Values in range for int32_t, as ParseIntSubAttributes requires.
  int64_t value;
  p = ScanSmallDecimal(p, &value);
  if (p == nullptr || p[0] != ' ' || p[1] != '{') return nullptr;
  p += 2;
  uint32_t seen = 0;
  const size_t count = names.size();
  size_t next = 0;  // XLA prints the keys in `names` order: tried first
  while (true) {
    size_t which = count;
    for (size_t k = 0; k < count; ++k) {
      const size_t i = next + k < count ? next + k : next + k - count;
      const std::string_view name = names.begin()[i];
      if (p[0] == name[0] && std::memcmp(p, name.data(), name.size()) == 0 &&
          p[name.size()] == '=') {
        which = i;
        break;
      }
    }
    if (which == count || (seen & (1u << which))) return nullptr;
    next = which + 1 == count ? 0 : which + 1;
    seen |= 1u << which;
    p = ScanSmallDecimal(p + names.begin()[which].size() + 1, &value);
    if (p == nullptr) return nullptr;
    if (*p == '}') break;
    if (*p != ' ') return nullptr;
    ++p;
  }
  return seen == (1u << count) - 1 ? p + 1 : nullptr;
}

bool ModuleParser::ParseStackFrameIndex() {
  if (!EatIfPresent(TokKind::kw_FileNames)) return true;
  // `INT STRING` entries; XLA ignores a failing ParseString here, so an
  // entry without its string is accepted.
  while (EatIfPresent(TokKind::kInt)) EatIfPresent(TokKind::kString);
  if (!ParseToken(TokKind::kw_FunctionNames, "expects 'FunctionNames'")) return false;
  while (EatIfPresent(TokKind::kInt)) EatIfPresent(TokKind::kString);
  // A table holds an entry per source location and per frame: read
  // byte-wise where plain, as the instructions are.
  auto entries = [this](std::initializer_list<std::string_view> names) {
    while (kind() == TokKind::kInt) {
      const char* const end =
          limits_.fast_paths ? PlainIntSubAttributesEnd(file_.data() + lexer_.offset(), names)
                             : nullptr;
      if (end != nullptr) {
        lexer_.Reset(static_cast<uint32_t>(end - file_.data()));
        Lex();
        continue;
      }
      Lex();
      if (!ParseIntSubAttributes(names)) return false;
    }
    return true;
  };
  if (!ParseToken(TokKind::kw_FileLocations, "expects 'FileLocations'")) return false;
  if (!entries({"file_name_id", "function_name_id", "line", "end_line", "column", "end_column"})) {
    return false;
  }
  if (!ParseToken(TokKind::kw_StackFrames, "expects 'StackFrames'")) return false;
  return entries({"file_location_id", "parent_frame_id"});
}

bool ModuleParser::ParseDebugAttributes() {
  // '{' [ ORIGARRAY ':' ( DA | '(' [DA (',' DA)*] ')' ) (',' ...)* ] '}'
  // One entry holds at least one key (XLA's ParseDebugAttributes).
  auto parse_one = [this]() {
    if (!ParseToken(TokKind::kLbrace, "Expects '{' to start debug attributes")) return false;
    {
      do {
        if (kind() != TokKind::kAttributeName) {
          return TokenError("Expects attribute name in debug attributes");
        }
        std::string_view key = tok().text;
        const uint32_t key_offset = lexer_.offset();
        Lex();
        if (key == "log_mode") {
          if (kind() != TokKind::kIdent && kind() != TokKind::kName) return TokenError("expects name");
          if (tok().text != "default" && tok().text != "fusion_debugger") {
            return TokenError(StrCat("Invalid debug_log_mode value: ", tok().text));
          }
          Lex();
        } else if (key == "callback_id" || key == "op_id") {
          int64_t value;
          if (!ParseInt64(&value)) return false;
        } else if (key == "partitioned") {
          bool value;
          if (!ParseBool(&value)) return false;
        } else {
          return Error(key_offset, StrCat("Unknown debug attribute: ", key));
        }
      } while (EatIfPresent(TokKind::kComma));
    }
    return ParseToken(TokKind::kRbrace, "Expects '}' to end debug attributes");
  };
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start debug_attributes")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      if (!ParseOriginalArray() || !ParseToken(TokKind::kColon, "expects ':'")) return false;
      if (EatIfPresent(TokKind::kLparen)) {
        if (kind() != TokKind::kRparen) {
          do {
            if (!parse_one()) return false;
          } while (EatIfPresent(TokKind::kComma));
        }
        if (!ParseToken(TokKind::kRparen, "expects ')'")) return false;
      } else if (!parse_one()) {
        return false;
      }
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expects '}' to end debug_attributes");
}


bool ModuleParser::FinishModule(ParsedModule* out) {
  (void)out;
  const ModuleHeader& header = builder_->header();
  const Computation& entry = builder_->computations()[builder_->entry()];
  // XLA checks aliases against the module's result shape: the declared
  // entry_computation_layout when present, else the entry root.
  const Shape& result = header.has_entry_layout ? shape(header.entry_result_layout)
                                                : module_->shape(entry.root);
  // input_output_alias: XLA keeps the first entry per output index and then
  // validates each with HloInputOutputAliasConfig::SetUpAlias.
  // A set, not a scan: modules that donate every parameter carry
  // thousands of aliases.
  absl::flat_hash_set<ShapeIndex> outputs;
  for (const InputOutputAlias& alias : header.input_output_alias) {
    if (!outputs.insert(alias.output_index).second) continue;
    if (result.element_type != PrimitiveType::kInvalid &&
        Subshape(result, alias.output_index) == nullptr) {
      return Error(alias.offset, StrCat("Trying to set up alias at ",
                                              ShapeIndexToString(alias.output_index),
                                              " which is an invalid index for shape ",
                                              ShapeToString(result, false)));
    }
    if (alias.parameter < 0) {
      return Error(alias.offset, StrCat("aliased parameter number ", alias.parameter,
                                              " must be >= 0"));
    }
  }
  for (const BufferDonor& donor : header.buffer_donors) {
    if (donor.parameter < 0) {
      return Error(donor.offset, StrCat("buffer donor parameter number ", donor.parameter,
                                              " must be >= 0"));
    }
  }
  // Without entry_computation_layout XLA copies the entry's layouts with
  // ShapeLayout::CopyLayoutFromShape, which checks only that the shapes are
  // compatible: an invalid layout on an entry parameter or root (a
  // minor_to_major value out of bounds or repeated, a tile with a 0
  // dimension) parses, in jaxlib 0.10.2's XLA (2026-06-14) and at HEAD
  // (2026-08-07) alike, as it does on any other top-level array shape.
  // Each async computation has exactly one async-start caller. Found in
  // the dense opcode array (a byte per instruction, filled by FinishUsers
  // with the last instructions' user lists), not by streaming every
  // instruction's record.
  builder_->FinishUsers();
  absl::flat_hash_map<CompId, InstrId> async_callers;
  const auto& instrs = builder_->instructions();
  const std::span<const Opcode> opcodes = module_->opcodes();
  static_assert(sizeof(Opcode) == 1);
  const auto* const first = reinterpret_cast<const unsigned char*>(opcodes.data());
  const unsigned char* const last = first + opcodes.size();
  for (const unsigned char* at = first; at < last; ++at) {
    at = static_cast<const unsigned char*>(std::memchr(
        at, static_cast<int>(Opcode::kAsyncStart), static_cast<size_t>(last - at)));
    if (at == nullptr) break;
    const auto id = static_cast<InstrId>(at - first);
    const Instruction& in = instrs[id];
    if (in.flags & Instruction::kAsyncSugar) continue;
    for (CompId c : module_->called(id)) {
      auto [it, inserted] = async_callers.try_emplace(c, id);
      if (!inserted) {
        error_note_ = ParseError{instrs[it->second].name_offset, "the first async-start calling it"};
        return Error(in.name_offset, StrCat("Computation ", module_->computation_name(c),
                                                  " is called by more than one async op."));
      }
    }
  }
  return true;
}

bool ModuleParser::ValidateEmbeddedModule(uint32_t string_offset, std::string_view text) {
  std::unique_ptr<SourceFile> embedded = SourceFile::FromString(file_.path(), text);
  ParseLimits limits = limits_;
  limits.threads = 1;
  limits.max_nesting_depth = std::max(1, limits_.max_nesting_depth - depth_ - 1);
  std::optional<ParseError> inner;
  ParseModules(*embedded, [&](ParsedModule&& m) {
    if (!inner && m.error) inner = m.error;
  }, limits);
  if (inner) {
    LineCol at = embedded->Locate(inner->offset);
    return Error(string_offset, StrCat("the HLO module in origin_recovery_table does not parse: ",
                                             inner->message, " (at line ", at.line, ", column ",
                                             at.column, " of the embedded text)"));
  }
  return true;
}

}  // namespace hlolint
