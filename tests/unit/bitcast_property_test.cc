// Property test: ReshapeIsBitcast agrees with a brute-force definition of a
// bitcast (every element keeps its physical offset) on random shape pairs,
// and AlignLayouts only ever proposes layouts that make a reshape a bitcast.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "analysis/bitcast.h"
#include "bitcast_test_util.h"

using namespace hlolint;
using hlolint::testing::ArrayShape;
using hlolint::testing::EveryElementKeepsItsOffset;

namespace {

// Splits the factors in `atoms` over `rank` dimensions at random; dimensions
// that get no factor have size 1. The product is the product of the atoms.
std::vector<int64_t> RandomDims(const std::vector<int64_t>& atoms, int rank, std::mt19937& rng) {
  std::vector<int64_t> dims(rank, 1);
  if (rank == 0) return dims;
  std::uniform_int_distribution<int> pick(0, rank - 1);
  for (int64_t atom : atoms) dims[pick(rng)] *= atom;
  return dims;
}

std::optional<std::vector<int64_t>> RandomLayout(int rank, std::mt19937& rng) {
  // One shape in eight has no written layout (the default descending one).
  if (std::uniform_int_distribution<int>(0, 7)(rng) == 0) return std::nullopt;
  std::vector<int64_t> m2m(rank);
  for (int i = 0; i < rank; ++i) m2m[i] = i;
  // Half the layouts are descending or near it, so that bitcasts are common.
  const int style = std::uniform_int_distribution<int>(0, 3)(rng);
  if (style == 0) {
    std::reverse(m2m.begin(), m2m.end());
  } else if (style == 1 && rank >= 2) {
    std::reverse(m2m.begin(), m2m.end());
    const int i = std::uniform_int_distribution<int>(0, rank - 2)(rng);
    std::swap(m2m[i], m2m[i + 1]);
  } else {
    std::shuffle(m2m.begin(), m2m.end(), rng);
  }
  return m2m;
}

struct Pair {
  Shape a, b;
};

Pair RandomPair(std::mt19937& rng) {
  // Atoms: small primes, so that dims split and merge in many ways; the
  // element count stays at most 2*2*3*3*5 = 180.
  static const std::vector<int64_t> kPrimes = {2, 2, 3, 3, 5};
  std::vector<int64_t> atoms;
  for (int64_t p : kPrimes) {
    if (std::uniform_int_distribution<int>(0, 1)(rng)) atoms.push_back(p);
  }
  const int rank_a = std::uniform_int_distribution<int>(0, 5)(rng);
  const int rank_b = std::uniform_int_distribution<int>(0, 5)(rng);
  std::vector<int64_t> dims_a = RandomDims(atoms, rank_a, rng);
  std::vector<int64_t> dims_b = RandomDims(atoms, rank_b, rng);
  // One pair in ten has zero elements (a size-0 dimension on both sides).
  const int special = std::uniform_int_distribution<int>(0, 19)(rng);
  if (special < 2 && rank_a > 0 && rank_b > 0) {
    dims_a[std::uniform_int_distribution<int>(0, rank_a - 1)(rng)] = 0;
    dims_b[std::uniform_int_distribution<int>(0, rank_b - 1)(rng)] = 0;
  } else if (special == 2 && rank_b > 0) {
    // Element counts differ: never a bitcast.
    dims_b[std::uniform_int_distribution<int>(0, rank_b - 1)(rng)] *= 7;
  }
  return {ArrayShape(dims_a, RandomLayout(rank_a, rng)),
          ArrayShape(dims_b, RandomLayout(rank_b, rng))};
}

}  // namespace

TEST_CASE("ReshapeIsBitcast agrees with brute force on random shapes", "[bitcast][property]") {
  std::mt19937 rng(20240611);  // deterministic
  constexpr int kPairs = 20000;
  int bitcasts = 0, non_bitcasts = 0, zero_sized = 0, with_ones = 0, aligned = 0;
  for (int n = 0; n < kPairs; ++n) {
    const Pair p = RandomPair(rng);
    INFO("pair " << n << ": " << ShapeToString(p.a) << " -> " << ShapeToString(p.b));
    const bool brute = EveryElementKeepsItsOffset(p.a, p.b);
    const ReshapeBitcastCheck check = CheckReshapeIsBitcast(p.a, p.b);
    REQUIRE(check.is_bitcast() == brute);
    REQUIRE(ReshapeIsBitcast(p.b, p.a) == brute);  // symmetric
    (brute ? bitcasts : non_bitcasts)++;
    if (*ElementCount(p.a) == 0) zero_sized++;
    auto has_one = [](const Shape& s) {
      return std::find(s.dimensions.begin(), s.dimensions.end(), 1) != s.dimensions.end();
    };
    if (has_one(p.a) || has_one(p.b)) with_ones++;

    // The evidence of a failure names two elements at different offsets.
    if (check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves) {
      const Shape& unit_shape = check.unit_of_output ? p.b : p.a;
      const Shape& other_shape = check.unit_of_output ? p.a : p.b;
      REQUIRE(PhysicalOffset(unit_shape, check.unit_index) == check.unit_physical);
      REQUIRE(PhysicalOffset(other_shape, check.other_index) == check.other_physical);
      REQUIRE(LogicalOffset(unit_shape.dimensions, check.unit_index) == check.logical_offset);
      REQUIRE(LogicalOffset(other_shape.dimensions, check.other_index) == check.logical_offset);
      REQUIRE(check.unit_physical != check.other_physical);
    }

    // AlignLayouts' answer, when it has one, is a bitcast of the input.
    if (std::optional<Shape> out = AlignLayouts(p.a, p.b)) {
      aligned++;
      REQUIRE(out->dimensions == p.b.dimensions);
      std::vector<int64_t> sorted = out->layout.minor_to_major;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < sorted.size(); ++i) REQUIRE(sorted[i] == static_cast<int64_t>(i));
      REQUIRE(EveryElementKeepsItsOffset(p.a, *out));
    }
    // ReshapeDecomposer's rewrite always consists of bitcast reshapes.
    const ReshapeDecomposition d = DecomposeReshape(p.a, p.b);
    if (*ElementCount(p.a) == *ElementCount(p.b)) {
      const Shape& before = d.operand_copy ? *d.operand_copy : p.a;
      const Shape& after = d.bitcast_result ? *d.bitcast_result : p.b;
      REQUIRE(EveryElementKeepsItsOffset(before, after));
      REQUIRE((d.kind == ReshapeDecomposition::Kind::kAlreadyBitcast) == brute);
    }
  }
  // The generator covers what it should.
  CHECK(bitcasts > 2000);
  CHECK(non_bitcasts > 2000);
  CHECK(zero_sized > 500);
  CHECK(with_ones > 5000);
  CHECK(aligned > 2000);
}
