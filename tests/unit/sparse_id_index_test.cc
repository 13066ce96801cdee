// SparseIdIndex: the position of each id added, kNone for every other id,
// across word boundaries and gaps of empty words.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "util/sparse_id_index.h"

namespace hlolint {
namespace {

TEST_CASE("SparseIdIndex gives each added id its position and no other id one") {
  const std::vector<uint32_t> added = {0, 1, 63, 64, 65, 127, 128, 700, 701, 4095, 4096, 9999};
  SparseIdIndex index(10000);
  for (uint32_t id : added) index.Add(id);
  CHECK(index.size() == added.size());
  std::map<uint32_t, uint32_t> position;
  for (uint32_t i = 0; i < added.size(); ++i) position[added[i]] = i;
  for (uint32_t id = 0; id < 10000; ++id) {
    INFO("id " << id);
    const auto found = position.find(id);
    CHECK(index.Find(id) == (found == position.end() ? SparseIdIndex::kNone : found->second));
  }
  CHECK(index.Find(10000) == SparseIdIndex::kNone);  // past the range
  CHECK(index.Find(0xfffffffeu) == SparseIdIndex::kNone);
}

TEST_CASE("SparseIdIndex: empty, and a first id far into the range") {
  SparseIdIndex empty(100);
  for (uint32_t id = 0; id < 100; ++id) CHECK(empty.Find(id) == SparseIdIndex::kNone);
  SparseIdIndex none;
  CHECK(none.Find(0) == SparseIdIndex::kNone);

  SparseIdIndex late(5000);
  late.Add(4000);
  late.Add(4001);
  CHECK(late.Find(4000) == 0);
  CHECK(late.Find(4001) == 1);
  CHECK(late.Find(3999) == SparseIdIndex::kNone);
}

}  // namespace
}  // namespace hlolint
