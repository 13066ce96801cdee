// Grammar of HLO values: shapes, layouts, literals and every attribute value
// kind of XLA's HloParserImpl (ParseAttributeHelper and its helpers).
//
// Used twice: by the module parser to validate attribute values while
// building the IR, and by parse/attributes.h to type a stored attribute on
// demand. Functions return false after recording the first error; callers
// stop at the first error, like XLA's parser.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "lex/lexer.h"
#include "parse/name_table.h"
#include "parse/values.h"
#include "xla/profile.h"

namespace hlolint {

struct ParseError {
  uint32_t offset = 0;
  std::string message;
};

struct ParseLimits {
  int max_nesting_depth = 500;          // tuples, operands, literals, shardings
  // Dimensions of one array shape. XLA sets none, but checks that are
  // quadratic in the rank are harmless only while it is small; real shapes
  // have a handful.
  uint32_t max_rank = 1024;
  uint32_t max_instruction_bytes = 64u << 20;  // one instruction's text
  uint32_t max_modules_per_file = 1u << 20;
  // Shortcuts that read common text byte-wise (shapes by exact text, the
  // instruction head). Off only in the test that checks both ways agree.
  bool fast_paths = true;
  // Threads one module's parse may use: with 2 or more, a module of at
  // least parallel_min_bytes is cut into chunks of about
  // parallel_chunk_bytes, which another thread parses from the end while
  // this one parses from the start (the result is the same IR; see
  // parallel_parse.cc). Tests force chunks with smaller values.
  int threads = 1;
  uint32_t parallel_min_bytes = 16u << 20;
  uint32_t parallel_chunk_bytes = 8u << 20;
  // Tests: one cut only, the first computation boundary after this offset
  // (0: chunks of parallel_chunk_bytes).
  uint32_t parallel_split_from = 0;
  // Tests: one cut only, at the first indented line (an instruction) at or
  // after this offset, the second chunk a continuation of its computation.
  uint32_t parallel_continuation_from = 0;
  // The XLA whose syntax to accept: a few attributes were accepted by XLA's
  // parser for some weeks only (xla/profile.h).
  XlaProfile xla = XlaProfile::Latest();
};

class ValueParser {
 public:
  ValueParser(const SourceFile& file, uint32_t start, ShapeTable* shapes,
              const ParseLimits& limits = {});
  virtual ~ValueParser() = default;

  const std::optional<ParseError>& error() const { return error_; }
  Lexer& lexer() { return lexer_; }
  TokKind kind() const { return lexer_.kind(); }
  const Token& tok() const { return lexer_.tok(); }

  // --- tokens ---
  TokKind Lex(uint64_t skip_mask = 0) { return lexer_.Lex(skip_mask); }
  bool Error(uint32_t offset, std::string message);
  // Drops the error reported so far, for one found later that comes first
  // in the text (a name clash of a queued insert, ModuleParser).
  void ForgetError() { error_.reset(); }
  bool TokenError(std::string message);
  bool ParseToken(TokKind kind, std::string_view message, uint64_t skip_mask = 0);
  bool EatIfPresent(TokKind want) {
    if (kind() != want) return false;
    Lex();
    return true;
  }
  bool ParseInt64(int64_t* out);
  bool ParseDouble(double* out);
  bool ParseBool(bool* out);
  bool ParseString(std::string_view* raw);  // escapes are not processed
  bool ParseJsonDict(std::string_view* raw);
  bool ParseName(std::string_view* out);
  bool ParseAttributeName(std::string_view* out);

  // --- lists ---
  bool ParseInt64List(TokKind start, TokKind end, TokKind delim, std::vector<int64_t>* out);
  bool ParseInt64ListList(TokKind start, TokKind end, TokKind delim,
                          std::vector<std::vector<int64_t>>* out);
  bool ParseShapeIndex(ShapeIndex* out);

  // --- shapes ---
  bool CanBeShape();
  bool ParseShape(ShapeId* out);
  bool ParseShapeList(std::vector<ShapeId>* out);
  bool ParseLayout(Layout* out);
  const Shape& shape(ShapeId id) const { return shapes_->Get(id); }

  // --- attribute values ---
  bool ParseWindow(Window* out);
  bool ParseConvolutionDimensionNumbers(ConvolutionDimensionNumbers* out);
  bool ParseSliceRanges(SliceRanges* out);
  bool ParsePaddingConfig(PaddingConfig* out);
  bool ParsePrecisionList();
  bool ParseSharding(Sharding* out = nullptr);  // out may be null
  // `expand`: also list the device ids of iota groups (up to 2^20 of them).
  bool ParseReplicaGroups(ReplicaGroups* out, bool expand = true);
  bool ParseFrontendAttributes();
  bool ParseStatistics();
  // Returns the number of booleans in *count.
  bool ParseParameterReplication(int64_t* count);
  bool ParseBooleanListOrSingleBoolean();
  bool ParseMetadata(OpMetadata* out);  // out may be null
  // Returns the number of metadata entries in *count (may be null).
  bool ParseSingleOrListMetadata(int* count = nullptr);
  bool ParseOutputOperandAliasing(std::vector<OutputOperandAlias>* out);
  bool ParseInputOutputAlias(std::vector<InputOutputAlias>* out);
  bool ParseBufferDonors(std::vector<BufferDonor>* out);
  bool ParseComputationLayout(std::vector<ShapeId>* params, ShapeId* result);
  bool ParseOriginalValue();
  bool ParseOriginalValueRecoveryTable();
  bool ParseResultAccuracy();
  bool ParseDomain();
  bool ParseSparsityConfig();
  // An identifier from a closed set; `what` names it in errors.
  bool ParseEnum(std::string_view what, std::initializer_list<std::string_view> values,
                 std::string_view* out = nullptr);
  // Like ParseEnum, but compares ignoring ASCII case (XLA lowercases these).
  bool ParseEnumIgnoringCase(std::string_view what, std::initializer_list<std::string_view> values);
  bool ParseFusionKind(FusionKind* out);
  // `{ "name" {shape_index}? }` or `{}` (original values, debug attributes).
  bool ParseOriginalArray();
  bool ParseCustomCallApiVersion(std::string_view* out);

  // --- literals ---
  bool ParseLiteral(const Shape& shape);
  // `shape literal` or a parenthesized tuple of them (custom-call literal=).
  bool ParseLiteralWithShape();

 protected:
  // Parses an HLO module held in a string (origin_recovery_table); the
  // module parser overrides this.
  virtual bool ValidateEmbeddedModule(uint32_t string_offset, std::string_view text);

  struct DepthGuard {
    // Inline: the parser enters a level several times per instruction.
    explicit DepthGuard(ValueParser* p) : parser(p) {
      ok = ++parser->depth_ <= parser->limits_.max_nesting_depth;
      if (!ok) [[unlikely]] parser->NestingTooDeep();
    }
    ~DepthGuard() { --parser->depth_; }
    bool ok;
    ValueParser* parser;
  };

  // DepthGuard's error, out of line.
  void NestingTooDeep();

  // --- syntax only some XLA accepted (ParseLimits::xla, xla/profile.h) ---
  // Set by readers of text the parser has validated (parse/attributes.h):
  // they take whatever form any XLA accepted.
  bool any_xla_syntax_ = false;
  // "(...)" for an error about `name`, an attribute the parser of another
  // XLA than the one read for accepts (AttrSet::other_xla): which XLA
  // accepted it, and the --xla-version that reads it.
  std::string OtherXlaAttributeNote(AttrName name) const;

  const SourceFile& file_;
  // One past the text: the NUL sentinel SourceFile guarantees.
  const char* file_end() const { return file_.data() + file_.size(); }
  Lexer lexer_;
  ShapeTable* shapes_;
  ParseLimits limits_;
  std::optional<ParseError> error_;
  // XLA records some errors and goes on: ParseLayout ignores what its
  // sub-parsers (tiles, memory space, ...) return, and ParseOperands drops
  // an operand that reads neither as a name nor as a nested instruction.
  // The first such error of the current instruction; reported if the
  // instruction then fails, as XLA lists it first.
  std::optional<ParseError> recorded_error_;
  // Moves error_ (or, without one, a generic error at this token) into
  // recorded_error_ unless one is there already, and clears it.
  void RecordAndGoOn();
  // The checks XLA's MakeValidatedTupleShape makes on each element.
  bool ValidateElementShape(const Shape& element, uint32_t offset);
  int depth_ = 0;
  bool depth_exceeded_ = false;  // a DepthGuard failed: the error is final
  // Maps the exact text of array shapes to their ids (module parser only).
  CopyingNameTable* shape_cache_ = nullptr;
  // Shapes are looked up by text up to kShapeTextLimit bytes: tuples of
  // while loops run to kilobytes and would otherwise be parsed at every
  // use. Shapes inside a shape being parsed only up to
  // kNestedShapeTextLimit, so each nesting level scans little of the text.
  static constexpr size_t kShapeTextLimit = 64 << 10;
  static constexpr size_t kNestedShapeTextLimit = 512;
  bool inside_shape_ = false;

  // Validates `{key="text" key=123 ...}` byte-wise when it takes the plain
  // form dumps print; false, having consumed nothing, otherwise.
  bool SkipPlainMetadata();
  // Whether `text` holds the file's directive marker: a text remembered to
  // be taken again unread (shapes, shardings, replica groups) must not,
  // since the lexer notes the markers of the comments it skips (the same
  // text elsewhere holds the same). With no marker, no text holds one.
  bool HoldsMarker(std::string_view text) const {
    const std::string_view marker = file_.DirectiveMarker();
    return !marker.empty() && text.find(marker) != std::string_view::npos;
  }
  // The same byte-wise reading from `p`, right after the '{': where the
  // metadata ends (after the '}'), or null.
  const char* PlainMetadataEnd(const char* p) const;

 private:
  // The metadata PlainMetadataEnd read last, from after its '{' to after its
  // '}': consecutive instructions of one source op print the same, and the
  // same bytes read the same.
  mutable const char* last_metadata_ = nullptr;
  mutable size_t last_metadata_size_ = 0;

  bool ParseShapeImpl(ShapeId* out);
  // input_output_alias as XLA prints it, read byte-wise (see .cc); false,
  // having consumed nothing, at anything else.
  bool TakePlainInputOutputAlias(std::vector<InputOutputAlias>* out);
  bool ParseDimensionSizes(Shape* shape);
  bool ParseTiles(Layout* layout);
  bool ParseLayoutIntAttribute(int64_t* out, std::string_view what);
  // What follows the ':' of a layout.
  void ParseLayoutAttributes(Layout* layout);
  bool ParseDimLevelTypes(Layout* layout);
  void ParseUnsignedLayoutType(PrimitiveType* out, std::string_view what);
  bool ParseSplitConfigs(Layout* layout);
  bool ParsePhysicalShape(Layout* layout);
  bool AtIdentifier(std::string_view text) const {
    return kind() == TokKind::kIdent && tok().text == text;
  }
  bool ParseSingleSharding(bool lbrace_pre_lexed, Sharding* out);
  bool ParseLastTileDims(Sharding* out);
  bool CheckShardingDevices(Sharding::Kind kind, uint32_t offset, uint32_t devices_offset,
                            bool both_subgroup_forms, uint32_t last_tile_dims_offset);
  bool CheckTileAssignment(uint32_t offset, uint32_t devices_offset, bool both_subgroup_forms,
                           uint32_t last_tile_dims_offset);
  // A device mesh `mesh['a'=2,'b'=4]` (optionally `, device_ids=(...)`) or
  // `maximal_mesh[device_id=N]`.
  struct MeshAxes {
    std::vector<std::string_view> names;  // raw string token texts, or identifiers
    std::vector<int64_t> sizes;
    bool maximal = false;
    // Axis names are quoted strings (`'a'=2`, `{'a'}`), else identifiers
    // (`a=2`, `{a}`), as XLA's named-sharding parser took them from
    // XlaChange::kUnquotedMeshAxesAccepted until kMeshAxesQuoted.
    bool quoted = true;
    // Of a named sharding (replica groups were only ever quoted): errors
    // about the quotes say which XLA read the other form.
    bool named_sharding = false;
    std::string ToString() const;
  };
  // How the XLA read for writes the axis names of a named sharding; kNone:
  // it has no named shardings.
  enum class MeshAxisNames : uint8_t { kNone, kUnquoted, kQuoted };
  MeshAxisNames NamedShardingAxisNames() const;
  // On the `mesh` or `maximal_mesh` token. `names`: as NamedShardingAxisNames,
  // for a named sharding, kQuoted for replica groups.
  bool ParseMesh(MeshAxes* mesh, MeshAxisNames names, bool named_sharding);
  // An axis name, declared (`'a'=`, `a=`) or referred to (`'a'`, `a`).
  bool ParseMeshAxisName(const MeshAxes& mesh, bool declaration, std::string_view* name);
  // "(...)" for the axis names of a named sharding's mesh written in the
  // form (`quoted` or not) the XLA read for rejects.
  std::string MeshAxisNamesNote(bool quoted) const;
  // "(...)" for a named sharding read for an XLA without them (the `mesh`
  // token is the current one).
  std::string NoNamedShardingNote() const;
  // A mesh axis `'name'` or `'index'`, optionally a sub-axis `:(pre)size`
  // (unquoted: `name`, optionally `name:(pre)size`); *size is the number of
  // devices along it.
  bool ParseAxisRef(const MeshAxes& mesh, int64_t* size);
  bool ParseAxisRefList(const MeshAxes& mesh, int64_t* product);
  bool ParseNamedSharding(Sharding* out);
  bool ParseTileAssignment(std::vector<int64_t>* dims, std::vector<int64_t>* devices,
                           bool allow_devices, std::vector<int64_t>* iota_reshape,
                           std::vector<int64_t>* iota_perm);
  bool ParseIotaTileAssignmentArray(std::vector<int64_t>* reshape, std::vector<int64_t>* perm);
  bool ParseMeshReplicaGroups(ReplicaGroups* out);
  bool ParseLiteralImpl(const Shape& shape);
  bool ParseLiteralWithShapeImpl();
  bool ParseDenseLiteral(const Shape& shape);
  bool ParseTupleLiteral(const Shape& shape);
  // One value at linear `index` of a literal with `element_count` elements.
  bool ParseScalarValue(const Shape& shape, uint32_t offset, int64_t index,
                        int64_t element_count);
  bool ParseComplex(const Shape& shape, uint32_t offset, int64_t index, int64_t element_count);
  bool CheckLiteralIndex(const Shape& shape, uint32_t offset, std::string_view value,
                         int64_t index, int64_t element_count);
  bool CheckNanPayload(const Shape& shape, uint32_t offset, uint64_t payload, int64_t index);
  // Errors XLA records inside a literal without failing (see
  // literal_parser.cc); the first one is reported if the literal fails.
  void NotePendingLiteralError(uint32_t offset, std::string message);
  bool ReportLiteralFailure();
  bool ParseDxD(std::string_view name, std::vector<int64_t>* out);
  // Scratch storage reused across calls so validation allocates nothing in
  // steady state. Indexed by nesting depth where parsing recurses; one heap
  // object per level keeps references stable while deeper levels are added,
  // and empty vectors cost nothing to construct (rules build a parser per
  // attribute they read; a std::deque allocated on construction).
  std::vector<std::unique_ptr<Shape>> shape_scratch_;
  std::vector<std::unique_ptr<std::vector<ShapeId>>> id_scratch_;
  std::vector<int64_t> ints_scratch_;
  std::vector<std::vector<int64_t>> int_lists_scratch_;
  std::vector<int64_t> sharding_devices_, sharding_tile_dims_, sharding_iota_reshape_,
      sharding_iota_perm_;
  std::optional<ParseError> literal_pending_;
};

}  // namespace hlolint
