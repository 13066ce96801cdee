// The parser's name tables: NameTable over names in the text, and the
// computation-name table that copies its names and tries the names after
// the last one found before hashing.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parse/name_table.h"

namespace hlolint {
namespace {

std::vector<std::string> Names(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back("fused_computation." + std::to_string(i));
  return names;
}

TEST_CASE("NameTable finds what it holds across growth and clears", "[name-table]") {
  const std::vector<std::string> names = Names(20000);
  NameTable table;
  for (uint32_t i = 0; i < names.size(); ++i) CHECK(table.Insert(names[i], i) == i);
  CHECK(table.Insert(names[7], 99) == 7);  // already there: the first value stays
  for (uint32_t i = 0; i < names.size(); i += 97) CHECK(table.Find(names[i]) == i);
  CHECK(table.Find("fused_computation.20000") == NameTable::kNotFound);
  table.Clear();
  CHECK(table.Find(names[0]) == NameTable::kNotFound);
  CHECK(table.Insert(names[3], 5) == 5);
  CHECK(table.Find(names[3]) == 5);
}

TEST_CASE("CopyingNameTable answers the same in any lookup order", "[name-table]") {
  const std::vector<std::string> names = Names(5000);
  CopyingNameTable table;
  for (uint32_t i = 0; i < names.size(); ++i) {
    // Values unlike insertion positions, and the source text gone after insert.
    std::string text = names[i];
    CHECK(table.Insert(text, 3 * i + 1) == 3 * i + 1);
    text.assign(text.size(), 'x');
  }
  // In order (the guess right), backwards and strided (the guess wrong),
  // repeated (the last one found), and names that are not there.
  for (uint32_t i = 0; i < names.size(); ++i) CHECK(table.Find(names[i]) == 3 * i + 1);
  for (uint32_t i = names.size(); i-- > 0;) CHECK(table.Find(names[i]) == 3 * i + 1);
  for (uint32_t i = 7; i < names.size(); i += 7) {
    CHECK(table.Find(names[i]) == 3 * i + 1);
    CHECK(table.Find(names[i]) == 3 * i + 1);
    CHECK(table.Find(names[i] + "0") == (i * 10 < names.size() ? 3 * (i * 10) + 1
                                                                    : CopyingNameTable::kNotFound));
  }
  CHECK(table.Find("fused_computation") == CopyingNameTable::kNotFound);
  CHECK(table.Insert(names[42], 7) == 3 * 42 + 1);
  table.Clear();
  CHECK(table.Find(names[0]) == CopyingNameTable::kNotFound);
  CHECK(table.Insert(names[1], 2) == 2);
  CHECK(table.Find(names[1]) == 2);
  CHECK(table.Find(names[2]) == CopyingNameTable::kNotFound);
}

}  // namespace
}  // namespace hlolint
