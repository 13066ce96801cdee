// The reader of the forms dumps print, a shortcut beside the module
// parser's grammar: an instruction head `shape opcode(shape %a, ...)`, a
// computation signature, common attribute values, small scalar constants,
// read straight from the bytes with caches of what the module has used.
//
// Each reading accepts only text the lexer would cut into exactly the
// tokens the grammar expects, and gives the grammar's result; at the first
// byte that does not fit it gives up having changed nothing, and the
// grammar reads the text (and reports any error). So what is accepted, and
// the IR built, are the same either way; tests/unit/parser_fast_path_test.cc
// parses with and without it (ParseLimits::fast_paths) and compares.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "parse/attribute_sets.h"
#include "parse/instruction_scratch.h"

namespace hlolint {

class ModuleParser;

class DumpFormReader {
 public:
  // Reads with `parser`'s lexer, tables and scratch.
  explicit DumpFormReader(ModuleParser& parser) : parser_(parser) {}
  void BeginModule() { recent_shapes_.fill(RecentShape{}); }

  // What TryHead read of `shape opcode(operands)`.
  struct Head {
    ShapeId shape = kNoShape;
    Opcode opcode = Opcode::kInvalid;
    uint32_t opcode_offset = 0;
    uint32_t opcode_end = 0;
    uint32_t operands_offset = 0;  // the '('
    uint32_t resume = 0;           // where the token-level parser continues
    bool operands_read = false;    // else it resumes at the '('
    int64_t parameter_number = -1;  // `parameter(N)` read up to the ')'
  };
  // The head of the instruction whose shape starts at `pos`, operands
  // defined earlier into `s`; the lexer is left alone.
  bool TryHead(uint32_t pos, InstrScratch& s, Head* head);
  // The signature `(a: shape, b: shape) -> shape` after the '(' at `pos`;
  // the lexer then stands on the '{'.
  bool TrySignature(uint32_t pos, std::vector<ShapeId>* params, ShapeId* result,
                    uint32_t* result_offset);
  // At the '(' of a scalar constant: `(N)` with up to four digits, for the
  // integer and float types they always fit, up to and including the ')'.
  bool TrySmallScalarConstant(ShapeId shape_id);

  // After a ',' token: ` name=` with one of the names dumps print most,
  // made the current token; kUnknown, having changed nothing, otherwise.
  AttrName TakeCommonAttributeName();
  // After a ',' token: the attributes that follow as dumps print them
  // (` name=value` with a common name, allowed and not yet seen, and a value
  // AttributeValueEnd or plain metadata), taken one after another without
  // lexing between them. Stops before the first that does not fit; the
  // lexer then stands where the grammar would have left it after the last
  // one taken (unchanged when none was).
  void TakePlainAttributes(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                           InstrScratch& scratch);
  // The value after `name=` when it takes a form dumps print (a `%name`
  // computation, a fusion kind, a small integer or list of them, a string
  // without escapes, ...); the lexer then stands after it.
  bool TryAttributeValue(AttrName name, AttrType type, InstrScratch& scratch);

  // The collectives of a dump repeat a few replica group texts, and its
  // instructions a few shardings: valid ones the grammar read are
  // remembered (their text [begin, end)), and taken again unread.
  void RememberReplicaGroups(uint32_t begin, uint32_t end);
  void RememberSharding(uint32_t begin, uint32_t end, int depth);
  // At a replica groups value equal to a remembered one: the lexer moves
  // past it.
  bool SkipRecentReplicaGroups(uint32_t begin);

 private:
  // The same reading as TryAttributeValue of the value at `p`, leaving the
  // lexer alone: where the value ends, or null having changed nothing.
  const char* AttributeValueEnd(AttrName name, AttrType type, const char* p,
                                InstrScratch& scratch);
  // AttributeValueEnd's larger cases.
  [[gnu::always_inline]] inline const char* FusionKindEnd(const char* p,
                                                         InstrScratch& scratch) const;
  [[gnu::always_inline]] inline const char* StringOrJsonEnd(const char* p) const;
  [[gnu::always_inline]] inline const char* RecentShardingEnd(const char* p) const;
  // The size of the recent replica_groups text that `p` starts with, or 0.
  size_t RecentReplicaGroupsAt(const char* p) const;

  // --- shapes by their text ---
  // What follows a shape: a blank then a name or an opcode, or `, ` / `) `.
  enum class ShapeFollower { kWord, kListSeparator };
  // A recent shape, else a cached one: where the shape at p ends, or null.
  const char* KnownShapeAt(const char* p, ShapeFollower follower, ShapeId* id) {
    const char* end = RecentShapeAt(p, follower, id);
    return end != nullptr ? end : CachedShapeAt(p, id);
  }
  const char* RecentShapeAt(const char* p, ShapeFollower follower, ShapeId* id) const;
  void RememberShape(const char* p, size_t size, ShapeId id);
  // The shape cached under the text at p (ShapeTextEnd), or null.
  const char* CachedShapeAt(const char* p, ShapeId* id);
  // A shape the cache lacks, read by the grammar at `p` (see the .cc).
  const char* ShapeThroughGrammar(const char* p, ShapeId* id, bool* lexer_moved);

  // The name at `p` (`%name` or a plain identifier) as an operand reference,
  // exactly as the lexer would read it; null when it is not one.
  const char* ScanOperandName(const char* p, std::string_view* name) const;
  // OpcodeFromName of the `size` bytes at p (at least 8 bytes before the
  // end of the text), through a small cache of the opcodes seen, keyed by
  // their first bytes and checked against the opcode's own name.
  Opcode CachedOpcodeAt(const char* p, size_t size);

  ModuleParser& parser_;

  // Shape texts found in the shape cache lately, by their first 8 bytes
  // (two ways per set): a repeated shape is then taken by one comparison,
  // without finding its end and hashing it. An entry further behind than
  // the text the parser keeps resident (TextReleaser::kMargin) is not used:
  // reading released text maps it back in.
  struct RecentShape {
    const char* text = nullptr;
    uint32_t size = 0;
    ShapeId id = kNoShape;
  };
  std::array<RecentShape, 256> recent_shapes_{};
  struct RecentOpcode {
    const char* name = nullptr;  // OpcodeName's text: static, never released
    size_t size = 0;
    Opcode opcode = Opcode::kInvalid;
  };
  std::array<RecentOpcode, 64> recent_opcodes_{};
  // The last few valid replica_groups texts, copied: the text behind the
  // reader may have left memory. Each ends in a bracket, so what follows
  // one cannot change how it reads.
  static constexpr size_t kRecentReplicaGroups = 4;
  static constexpr size_t kRememberedReplicaGroupsLimit = 1024;
  std::array<std::string, kRecentReplicaGroups> recent_replica_groups_;
  size_t next_replica_groups_slot_ = 0;
  // The last valid sharding's text (ending in its '}', so what follows
  // cannot change how it lexes), and the nesting depth it was read at.
  static constexpr uint32_t kRememberedShardingLimit = 4096;
  std::string last_sharding_;
  int last_sharding_depth_ = 0;
  std::vector<int64_t> shape_index_scratch_;
};

}  // namespace hlolint
