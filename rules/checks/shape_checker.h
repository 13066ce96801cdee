// Per-instruction checks of XLA's ShapeVerifier (the Handle* visitors and
// CheckShape) plus the InstructionVerifier checks on element-wise ops,
// transpose and get-tuple-element. Used by the verify-shape rule.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_attributes.h"
#include "analysis/computation_signature.h"
#include "analysis/shape_inference.h"
#include "ir/module.h"
#include "rules/checks/verify_finding.h"

namespace hlolint {

class ShapeChecker {
 public:
  ShapeChecker(const Module& module, const CallAttributes& call_attributes);

  // Runs the checks that apply to `id`; false with `*finding` filled on the
  // first failure. Instructions whose shapes (or operands' shapes) are
  // unknown or unbounded (`?`) are skipped.
  bool Check(InstrId id, VerifyFinding* finding);
  // False for the opcodes only the origin check applies to.
  static bool HasShapeCheck(Opcode op);
  // False when no instruction of the module has an `origin=` attribute:
  // VerifyOriginalValue is skipped without searching every instruction's
  // attributes.
  void set_module_has_original_values(bool has) { original_values_ = has; }

 private:
  // The memo lookups (most instructions end there) are inlined into Check:
  // a call per instruction cost more than the lookup.
  [[gnu::always_inline]] bool CheckElementwise(InstrId id, VerifyFinding* f);
  bool CheckElementwiseShapes(InstrId id, VerifyFinding* f);
  bool CheckCompareType(InstrId id, VerifyFinding* f);
  [[gnu::always_inline]] bool CheckShapeOps(InstrId id, VerifyFinding* f);
  bool CheckShapeOpsUncached(InstrId id, VerifyFinding* f);
  bool CheckComputeOps(InstrId id, VerifyFinding* f);
  bool CheckMisc(InstrId id, VerifyFinding* f);

  // CheckShape: compares the written shape with `inferred` (≅ when strict,
  // else ignoring floating-point precision, i.e. mixed precision allowed).
  bool Compare(InstrId id, const Shape& inferred, bool strict, std::string_view check,
               VerifyFinding* f);
  bool Fail(std::string_view check, std::string message, VerifyFinding* f,
            AttrName attribute = AttrName::kUnknown);
  // Fails with the inference error kept in error_.
  bool InferenceFailed(std::string_view check, VerifyFinding* f,
                       AttrName attribute = AttrName::kUnknown);
  const Shape& operand(size_t i) const { return *operands_[i]; }
  // Reads an integer-list attribute into `*out` (empty when absent).
  const std::vector<int64_t>& Ints(InstrId id, AttrName name, std::vector<int64_t>* out) const;

  // Combinations (small integer arrays) found consistent, in a
  // direct-mapped cache: a hit skips the checks, a miss runs them, and an
  // evicted key only costs a check again. Cheaper per lookup than a hash
  // set, and dumps repeat a few hundred combinations.
  template <typename T, size_t N>
  class ConsistentCache {
   public:
    using Key = std::array<T, N>;
    // `slots`: a power of two.
    explicit ConsistentCache(size_t slots) : mask_(slots - 1) {}
    bool Contains(const Key& key) const {
      return !slots_.empty() && Same(slots_[Slot(key)], key, std::make_index_sequence<N>());
    }
    void Insert(const Key& key) {
      if (slots_.empty()) slots_.assign(mask_ + 1, Key{kEmpty});  // no real key starts so
      slots_[Slot(key)] = key;
    }

   private:
    static constexpr T kEmpty = ~T{0};
    // Each element times its own odd constant, summed (independent
    // multiplies, unrolled), then mixed once: the slot takes high bits.
    static constexpr uint64_t kOdd[5] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full,
                                         0x165667B19E3779F9ull, 0xD6E8FEB86659FD93ull,
                                         0xFF51AFD7ED558CCDull};
    static_assert(N <= 5);
    template <size_t... I>
    static uint64_t Combine(const Key& key, std::index_sequence<I...>) {
      return ((static_cast<uint64_t>(key[I]) * kOdd[I]) + ...);
    }
    // Element by element, unrolled (std::array's == calls memcmp).
    template <size_t... I>
    static bool Same(const Key& a, const Key& b, std::index_sequence<I...>) {
      return ((a[I] == b[I]) && ...);
    }
    size_t Slot(const Key& key) const {
      const uint64_t h = Combine(key, std::make_index_sequence<N>());
      return static_cast<size_t>(((h ^ (h >> 31)) * 0x94D049BB133111EBull) >> 32) & mask_;
    }
    size_t mask_;
    std::vector<Key> slots_;
  };

  const Module& m_;
  // Signature of a called computation (ReadSignature), into one of two
  // parameter lists (select-and-scatter reads two signatures at once).
  bool Signature(CompId computation, ProgramShapeView* out, int list = 0) {
    return ReadSignature(m_, computation, &signature_params_[list], out);
  }
  std::array<std::vector<const Shape*>, 2> signature_params_;
  const CallAttributes& call_attributes_;  // custom-call targets, without the text
  bool original_values_ = true;
  Shape inferred_;
  ShapeArena arena_;
  UnboundedShapeCache unbounded_;
  ShapeTable attribute_shapes_;
  std::string error_;
  // What Check does per opcode (a table: it is asked for every instruction).
  enum class Dispatch : uint8_t { kNone, kElementwise, kShapeOps };
  std::array<Dispatch, kOpcodeCount + 1> dispatch_;
  // The operands' shapes of the instruction being checked, in
  // operand_storage_ (grown, never shrunk: no per-instruction growth).
  std::span<const Shape* const> operands_;
  std::vector<const Shape*> operand_storage_;
  // Elementwise (opcode, operand shapes, result shape) combinations already
  // found consistent: the shape checks of an elementwise op depend on
  // nothing else, and dumps repeat a few hundred combinations many times.
  ConsistentCache<uint32_t, 5> elementwise_ok_;
  // The same for the shape ops (see CheckShapeOps).
  ConsistentCache<uint64_t, 4> shape_ops_ok_;
  // Scratch for attributes, reused across instructions.
  std::vector<int64_t> ints_;
  DotDimensionNumbers dot_;
  GatherDimensionNumbers gather_;
  ScatterDimensionNumbers scatter_;
};

}  // namespace hlolint
