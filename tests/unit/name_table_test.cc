// The parser's name tables: ScopeNameTable over instruction ids, and the
// computation-name table that copies its names and tries the names after
// the last one found before hashing.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parse/name_table.h"
#include "parse/scope_name_table.h"

namespace hlolint {
namespace {

std::vector<std::string> Names(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back("fused_computation." + std::to_string(i));
  return names;
}

TEST_CASE("CopyingNameTable forgets a generation's names at Clear, across growth",
          "[name-table]") {
  CopyingNameTable table;
  // Generations of different sizes (the third grows the index several
  // times); each finds its own names and none of the one before.
  const std::vector<int> sizes = {300, 5, 20000, 1, 0, 700, 64, 3000};
  std::vector<std::string> previous;
  for (size_t g = 0; g < sizes.size(); ++g) {
    std::vector<std::string> names;
    for (int i = 0; i < sizes[g]; ++i) {
      // Every third name also existed in the generation before.
      names.push_back(i % 3 == 0 ? "fused_computation." + std::to_string(i)
                                 : "g" + std::to_string(g) + ".n" + std::to_string(i));
    }
    for (uint32_t i = 0; i < names.size(); ++i) CHECK(table.Insert(names[i], 2 * i + 1) == 2 * i + 1);
    CHECK(table.size() == names.size());
    for (uint32_t i = 0; i < names.size(); i += 7) CHECK(table.Find(names[i]) == 2 * i + 1);
    if (!names.empty()) CHECK(table.Insert(names[0], 99) == 1);  // the first value stays
    for (size_t i = 1; i < previous.size(); i += 3) {
      CHECK(table.Find(previous[i]) == CopyingNameTable::kNotFound);
    }
    previous = names;
    table.Clear();
    CHECK(table.size() == 0);
    if (!names.empty()) CHECK(table.Find(names[0]) == CopyingNameTable::kNotFound);
  }
  table.Release();
  CHECK(table.Find("g0.n1") == CopyingNameTable::kNotFound);
  CHECK(table.Insert("g0.n1", 4) == 4);
  CHECK(table.Find("g0.n1") == 4);
}

// Scope tables hold ids; a name is told by `has_name(id)`, here against the
// name at that position of a list that plays the instructions.
struct ScopeTableOverNames {
  explicit ScopeTableOverNames(int count) : names(Names(count)) {}
  static uint32_t Hash(std::string_view name) { return NameHashOf(name); }
  auto Named(std::string_view name) const {
    return [this, name](uint32_t id) { return std::string_view(names[id]) == name; };
  }
  // `id` under the name at `name_index` (by default its own).
  uint32_t Insert(uint32_t id, size_t name_index) {
    return table.InsertHashedIf(Hash(names[name_index]), id, Named(names[name_index]));
  }
  uint32_t Insert(uint32_t id) { return Insert(id, id); }
  uint32_t Find(size_t name_index) const {
    return table.FindHashedIf(Hash(names[name_index]), Named(names[name_index]));
  }
  std::vector<std::string> names;
  ScopeNameTable table;
};

TEST_CASE("ScopeNameTable finds what it holds across growth, scopes and modules", "[name-table]") {
  ScopeTableOverNames t(30001);
  ScopeNameTable& table = t.table;
  constexpr uint32_t kNotFound = ScopeNameTable::kNotFound;

  // One scope of ids 100..20099, through several growths.
  table.Begin(100);
  for (uint32_t id = 100; id < 20100; ++id) CHECK(t.Insert(id) == id);
  for (uint32_t id = 100; id < 20100; id += 89) CHECK(t.Find(id) == id);
  CHECK(t.Find(99) == kNotFound);
  // A second instruction of the same name: the first one's id comes back.
  CHECK(t.Insert(30000, 150) == 150);

  // The next scope (higher ids): the earlier entries are gone at once, and
  // their names can be defined again.
  table.Begin(20100);
  CHECK(t.Find(100) == kNotFound);
  CHECK(t.Find(20099) == kNotFound);
  for (uint32_t id = 20100; id < 20200; ++id) CHECK(t.Insert(id) == id);
  CHECK(t.Find(20150) == 20150);

  // A new module: ids start again from 0 and nothing of the old one stays
  // (its ids are higher than the new scope's first).
  table.Begin(0);
  CHECK(t.Find(20150) == kNotFound);
  for (uint32_t id = 0; id < 50; ++id) CHECK(t.Insert(id) == id);
  CHECK(t.Find(49) == 49);
  CHECK(t.Find(20150) == kNotFound);

  table.Release();
  table.Begin(0);
  CHECK(t.Find(3) == kNotFound);
  CHECK(t.Insert(3) == 3);
  CHECK(t.Find(3) == 3);
}

// Reserve sizes the table for a scope expected to be large: what follows
// behaves as without it, and what came before is gone.
TEST_CASE("ScopeNameTable reserved for a large scope", "[name-table]") {
  ScopeTableOverNames t(5000);
  t.table.Begin(0);
  for (uint32_t id = 0; id < 10; ++id) CHECK(t.Insert(id) == id);
  t.table.Reserve(4000, 1u << 20);
  CHECK(t.table.SlotBytes() >= 4000 * 8 * 4 / 3);
  t.table.Begin(10);
  CHECK(t.Find(3) == ScopeNameTable::kNotFound);
  for (uint32_t id = 10; id < 5000; ++id) CHECK(t.Insert(id) == id);  // past the reserve too
  for (uint32_t id = 10; id < 5000; id += 7) CHECK(t.Find(id) == id);
  CHECK(t.Find(9) == ScopeNameTable::kNotFound);
  t.table.Reserve(100, 1u << 20);  // smaller than the table: nothing changes
  CHECK(t.Find(4999) == 4999);
  // At most max_bytes: a scope expected to hold a million names gets 64 KB
  // (8,192 slots) at first, and grows past them as before.
  ScopeTableOverNames big(9000);
  big.table.Reserve(1000000, 64u << 10);
  CHECK(big.table.SlotBytes() == (64u << 10));
  big.table.Begin(0);
  for (uint32_t id = 0; id < 9000; ++id) CHECK(big.Insert(id) == id);
  for (uint32_t id = 0; id < 9000; id += 11) CHECK(big.Find(id) == id);
}

// A table too large for the cache queues its inserts: queued names are
// found at once, and a name defined twice is reported when its insert is
// made (pushed out of the queue, or flushed), with the earlier id.
TEST_CASE("ScopeNameTable queues the inserts of a large table", "[name-table]") {
  const std::vector<std::string> names = Names(2000);
  std::vector<uint32_t> name_of(2000);  // instruction id -> index in names
  for (uint32_t id = 0; id < name_of.size(); ++id) name_of[id] = id;
  auto same_name = [&](uint32_t a, uint32_t b) { return name_of[a] == name_of[b]; };
  auto find = [&](uint32_t name_index, const ScopeNameTable& table) {
    const std::string_view name = names[name_index];
    return table.FindHashedIf(NameHashOf(name), [&](uint32_t id) { return names[name_of[id]] == name; });
  };
  auto insert = [&](uint32_t id, ScopeNameTable& table) {
    return table.InsertOrQueue(NameHashOf(names[name_of[id]]), id, same_name);
  };

  ScopeNameTable table;
  table.Reserve(60000, 1u << 20);  // 131,072 slots: queues
  table.Begin(0);
  for (uint32_t id = 0; id < 1000; ++id) CHECK_FALSE(insert(id, table));
  for (uint32_t id = 0; id < 1000; ++id) CHECK(find(id, table) == id);  // the last 16 queued
  CHECK(find(1500, table) == ScopeNameTable::kNotFound);

  name_of[1000] = 10;  // defined again
  CHECK_FALSE(insert(1000, table));  // queued
  for (uint32_t id = 1001; id < 1016; ++id) CHECK_FALSE(insert(id, table));
  const ScopeNameTable::Clash pushed_out = insert(1016, table);
  CHECK(pushed_out.id == 1000);
  CHECK(pushed_out.existing == 10);

  name_of[1020] = 1017;  // both still queued
  for (uint32_t id = 1017; id <= 1021; ++id) CHECK_FALSE(insert(id, table));
  const ScopeNameTable::Clash flushed = table.FlushQueue(same_name);
  CHECK(flushed.id == 1020);
  CHECK(flushed.existing == 1017);
  CHECK_FALSE(table.FlushQueue(same_name));  // nothing left

  // A small table inserts at once.
  ScopeNameTable small;
  small.Begin(0);
  for (uint32_t id = 1100; id < 1110; ++id) CHECK_FALSE(insert(id, small));
  name_of[1110] = 1100;
  const ScopeNameTable::Clash at_once = insert(1110, small);
  CHECK(at_once.id == 1110);
  CHECK(at_once.existing == 1100);
}

// The two-thread parse inserts the other half's names and, on finding one
// defined on both sides, undoes them: the table must be as before.
TEST_CASE("ScopeNameTable undoes the inserts made after MakeRoomFor", "[name-table]") {
  constexpr uint32_t kNotFound = ScopeNameTable::kNotFound;
  ScopeTableOverNames t(4000);
  t.table.Begin(0);
  for (uint32_t id = 0; id < 1000; ++id) CHECK(t.Insert(id) == id);
  t.table.MakeRoomFor(3000);
  const size_t bytes = t.table.SlotBytes();
  for (uint32_t id = 1000; id < 4000; ++id) CHECK(t.Insert(id) == id);
  CHECK(t.table.SlotBytes() == bytes);  // no growth: the undo's premise
  for (uint32_t id = 4000; id-- > 1000;) t.table.UndoInsert(ScopeTableOverNames::Hash(t.names[id]), id);
  for (uint32_t id = 0; id < 1000; ++id) CHECK(t.Find(id) == id);
  for (uint32_t id = 1000; id < 4000; ++id) CHECK(t.Find(id) == kNotFound);
  for (uint32_t id = 1000; id < 4000; id += 3) CHECK(t.Insert(id) == id);
  CHECK(t.Find(3997) == 3997);

  // Names of one hash share a probe run: undoing the run's tail leaves its
  // head where lookups find it, and the recent-name cache forgets the tail.
  ScopeTableOverNames same(40);
  auto insert = [&](uint32_t id) { return same.table.InsertHashedIf(7, id, same.Named(same.names[id])); };
  auto find = [&](uint32_t id) { return same.table.FindHashedIf(7, same.Named(same.names[id])); };
  same.table.Begin(0);
  for (uint32_t id = 0; id < 20; ++id) CHECK(insert(id) == id);
  same.table.MakeRoomFor(20);
  for (uint32_t id = 20; id < 40; ++id) CHECK(insert(id) == id);
  CHECK(find(39) == 39);
  for (uint32_t id = 40; id-- > 20;) same.table.UndoInsert(7, id);
  for (uint32_t id = 0; id < 20; ++id) CHECK(find(id) == id);
  for (uint32_t id = 20; id < 40; ++id) CHECK(find(id) == kNotFound);
  CHECK(insert(39) == 39);
  CHECK(find(39) == 39);
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

TEST_CASE("ExternalNames keeps every name referred to, in order", "[name-table]") {
  const std::vector<std::string> names = Names(3000);
  ExternalNames externals;
  for (uint32_t i = 0; i < names.size(); ++i) {
    std::string text = names[i];
    CHECK(externals.Refer(text) == i);
    CHECK(externals.Refer(text) == i);  // called again at once: the same entry
    text.assign(text.size(), 'x');      // the source text gone after the call
  }
  REQUIRE(externals.size() == names.size());
  for (uint32_t i = 0; i < names.size(); ++i) CHECK(externals.name(i) == names[i]);
  // A name referred to again later: its entry, or a new entry of its own
  // when the cache has lost it; either way the entry names it.
  const uint32_t again = externals.Refer(names[5]);
  CHECK(externals.name(again) == names[5]);
  CHECK((again == 5 || again == names.size()));
  CHECK(externals.Refer(names[5]) == again);
}

TEST_CASE("NameFilter never says no to a name it holds", "[name-table]") {
  const std::vector<std::string> names = Names(16000);
  NameFilter filter;
  CHECK_FALSE(filter.MayHold(NameHashOf(names[0])));
  for (size_t i = 0; i < names.size(); i += 2) filter.Add(NameHashOf(names[i]));
  size_t maybe_absent = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const bool maybe = filter.MayHold(NameHashOf(names[i]));
    if (i % 2 == 0) CHECK(maybe);
    if (i % 2 == 1 && maybe) ++maybe_absent;
  }
  // 8,000 names in 131,072 bits: about 6% of the others answer "maybe".
  CHECK(maybe_absent < names.size() / 2 / 8);
}

}  // namespace
}  // namespace hlolint
