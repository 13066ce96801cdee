// User lists are counted while parsing and laid out at the end of each
// top-level computation (Module::Builder::FinishUsers); these tests recount
// them by brute force from the operand lists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "parse_helpers.h"

namespace hlolint {
namespace {

using parse_testing::CompNames;
using parse_testing::Names;
using parse_testing::Parse;
using parse_testing::Parsed;
using parse_testing::StringList;

// Distinct users of every instruction, in id order, from the operand lists.
std::vector<std::vector<InstrId>> RecountUsers(const Module& m) {
  std::vector<std::vector<InstrId>> users(m.instruction_count());
  for (InstrId user = 0; user < m.instruction_count(); ++user) {
    for (InstrId op : m.operands(user)) {
      // Users come in id order: a repeated operand repeats the last one.
      std::vector<InstrId>& list = users[op];
      if (list.empty() || list.back() != user) list.push_back(user);
    }
  }
  return users;
}

void CheckUsersMatchRecount(const Module& m) {
  const std::vector<std::vector<InstrId>> expected = RecountUsers(m);
  std::vector<InstrId> unused;  // no users, not ROOT
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    if (expected[id].empty() && !m.IsRoot(id)) unused.push_back(id);
  }
  const auto listed = m.unused_instructions();
  CHECK(std::vector<InstrId>(listed.begin(), listed.end()) == unused);
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    INFO("instruction " << std::string(m.name(id)));
    const auto users = m.users(id);
    CHECK(std::vector<InstrId>(users.begin(), users.end()) == expected[id]);
    // The user lists were sized by the counts taken while parsing: an
    // instruction's lists (users, then control predecessors) end exactly
    // where the next one's block (header words, then operands) begins.
    const auto controls = m.control_predecessors(id);
    const InstrId* block_end = users.data() + users.size();
    if (!controls.empty()) {
      CHECK(controls.data() == block_end);
      block_end += controls.size();
    }
    if (id + 1 < m.instruction_count()) {
      CHECK(block_end == m.operands(id + 1).data() - m.instr(id + 1).HeaderWords());
    }
  }
}

constexpr const char* kTwoModules = R"(HloModule first

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}

helper {
  hp = (f32[4], f32[4]) parameter(0)
  ROOT hs = f32[4] add(hp#0, hp#1)
}

ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  t = (f32[4], f32[4]) tuple(x, x)
  twice = f32[4] add(x, x)
  nested = f32[4] add(x, multiply(y, add(x, x)))
  gte_pair = f32[4] multiply(t#0, t#0)
  gte_other = f32[4] add(t#1, t#0)
  c = f32[4] call(t), to_apply=helper
  zero = f32[] constant(0)
  r = f32[] reduce(nested, zero), dimensions={0}, to_apply=add_f32
  after = f32[4] negate(x), control-predecessors={twice, c}
  many = (f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4], f32[4]) tuple(x, y, x, twice, y, x, nested, twice, gte_pair, x, y, x)
  ROOT out = (f32[4], f32[], f32[4], f32[4]) tuple(many#0, r, after, gte_other)
}

HloModule second

ENTRY e2 {
  p = f32[2] parameter(0)
  q = f32[2] add(p, p)
  ROOT s = f32[2] subtract(q, p), control-predecessors={p}
}
)";

TEST_CASE("users: every user list equals a brute-force recount") {
  Parsed parsed = Parse(kTwoModules);
  REQUIRE(parsed.modules.size() == 2);
  CheckUsersMatchRecount(parsed.m(0));
  CheckUsersMatchRecount(parsed.m(1));
}

TEST_CASE("users: repeated operands, nested and compact operands count once per user") {
  Parsed parsed = Parse(kTwoModules);
  const Module& m = parsed.m(0);
  const InstrId x = parsed.Id("x");
  // Text order of x's users; the anonymous add(x, x) nested in `nested`
  // comes before it.
  const auto x_users = m.users(x);
  REQUIRE(x_users.size() == 6);
  CHECK(Names(m, x_users.subspan(0, 2)) == StringList{"t", "twice"});
  CHECK(m.opcode(x_users[2]) == Opcode::kAdd);
  CHECK((m.instr(x_users[2]).flags & Instruction::kAnonymous) != 0);
  CHECK(Names(m, x_users.subspan(3)) == StringList{"nested", "after", "many"});
  CHECK(Names(m, m.users(parsed.Id("twice"))) == StringList{"many"});
  // t#0 twice in one instruction makes one compact get-tuple-element, used
  // once by gte_pair; t's users are the compact GTEs and the call.
  const auto t_users = m.users(parsed.Id("t"));
  REQUIRE(t_users.size() == 3);
  for (InstrId gte : t_users.first(2)) {
    CHECK(m.opcode(gte) == Opcode::kGetTupleElement);
  }
  CHECK(Names(m, t_users.subspan(2)) == StringList{"c"});
}

TEST_CASE("users: the other lists of an instruction survive the layout") {
  Parsed parsed = Parse(kTwoModules);
  const Module& m = parsed.m(0);
  const InstrId after = parsed.Id("after");
  CHECK(Names(m, m.operands(after)) == StringList{"x"});
  CHECK(Names(m, m.control_predecessors(after)) == StringList{"twice", "c"});
  CHECK(CompNames(m, m.called(parsed.Id("c"))) == StringList{"helper"});
  CHECK(CompNames(m, m.called(parsed.Id("r"))) == StringList{"add_f32"});
  // Control predecessors are not users.
  CHECK(Names(m, m.users(parsed.Id("c"))) == StringList{});
  const Module& second = parsed.m(1);
  const InstrId p = parsed.Id("p", 1);
  CHECK(Names(second, second.users(p)) == StringList{"q", "s"});
  CHECK(Names(second, second.control_predecessors(parsed.Id("s", 1))) == StringList{"p"});
}

TEST_CASE("users: header words hold long names, 64-bit numbers and control counts") {
  // An instruction keeps what few have at the head of its id block; the
  // layout must keep them next to the lists that FinishUsers moves. (The
  // out-of-range index is verify-shape's to report, not the parser's.)
  const std::string long_name(70000, 'n');
  const std::string text =
      "HloModule m\n\nENTRY e {\n  %" + long_name + " = f32[] parameter(0)\n"
      "  %t = (f32[], f32[]) tuple(%" + long_name + ", %" + long_name + ")\n"
      "  %g = f32[] get-tuple-element(%t), index=4294967298, control-predecessors={%" + long_name + "}\n"
      "  ROOT %r = f32[] negate(%g), control-predecessors={%t, %" + long_name + "}\n}\n";
  Parsed parsed = Parse(text);
  const Module& m = parsed.m(0);
  const InstrId p = parsed.Id(long_name);
  CHECK(m.name(p) == long_name);
  CHECK(m.instr(p).name_size == Instruction::kLongName);
  CHECK(m.number(p) == 0);
  CHECK(m.number(parsed.Id("g")) == 4294967298);
  CHECK(m.number(parsed.Id("t")) == 0);
  CHECK(Names(m, m.control_predecessors(parsed.Id("g"))) == StringList{long_name});
  CHECK(Names(m, m.control_predecessors(parsed.Id("r"))) == StringList{"t", long_name});
  CHECK(Names(m, m.users(p)) == StringList{"t"});
  CHECK(Names(m, m.operands(parsed.Id("t"))) == StringList{long_name, long_name});
  CheckUsersMatchRecount(m);
}

TEST_CASE("users: lists past an instruction's 16-bit counts") {
  Parsed parsed = Parse(parse_testing::LongListsModule());
  const Module& m = parsed.m(0);
  const InstrId p = parsed.Id("p"), t = parsed.Id("t"), cc = parsed.Id("cc"), g = parsed.Id("g");
  CHECK(m.instr(p).user_count == Instruction::kLongUsers);
  CHECK(m.users(p).size() == 66000);
  CHECK(m.users(p).front() == parsed.Id("use0"));
  CHECK(m.users(p).back() == parsed.Id("use65999"));
  CHECK(m.instr(t).operand_count == Instruction::kLongOperands);
  CHECK(m.operands(t).size() == 66000);
  CHECK(m.operands(t).back() == parsed.Id("use65999"));
  // The called word, the long operand count and the control count, in
  // that order at the head of the block.
  CHECK(m.operands(cc).size() == 66000);
  CHECK(CompNames(m, m.called(cc)) == StringList{"helper"});
  CHECK(Names(m, m.control_predecessors(cc)) == StringList{"t"});
  CHECK(Names(m, m.users(cc)) == StringList{"r"});  // g only follows it
  // A number and a control count.
  CHECK(m.number(g) == 65999);
  CHECK(Names(m, m.control_predecessors(g)) == StringList{"cc"});
  CHECK(Names(m, m.users(t)) == StringList{"g"});
  for (InstrId u : {parsed.Id("use0"), parsed.Id("use65999")}) {
    CHECK(Names(m, m.users(u)) == StringList{"t", "cc"});
  }
  CheckUsersMatchRecount(m);
}

TEST_CASE("users: laid out computation by computation, long lists in several") {
  // Each top-level computation's lists are laid out when it closes: two of
  // them with an instruction past the 16-bit user count (the long counts
  // of both must be found, in id order), and an inline computation in the
  // middle of the second one, which closes with it.
  auto computation = [](const std::string& name, int uses, bool entry) {
    std::string text = std::string(entry ? "ENTRY " : "") + name + " {\n  " + name +
                       "_p = f32[] parameter(0)\n";
    for (int i = 0; i < uses; ++i) {
      text += "  " + name + "_u" + std::to_string(i) + " = f32[] negate(" + name + "_p)\n";
    }
    if (entry) {
      text += "  " + name + "_r = f32[] reduce(" + name + "_u0, " + name + "_p), dimensions={}, "
              "to_apply={\n    a = f32[] parameter(0)\n    b = f32[] parameter(1)\n"
              "    ROOT s = f32[] add(a, b)\n  }\n";
    }
    text += "  ROOT " + name + "_t = (f32[], f32[]) tuple(" + name + "_p, " + name + "_u" +
            std::to_string(uses - 1) + ")\n}\n\n";
    return text;
  };
  const std::string text = "HloModule m\n\n" + computation("one", 33000, false) +
                           computation("two", 10, false) + computation("three", 40000, true);
  Parsed parsed = Parse(text);
  const Module& m = parsed.m(0);
  CHECK(m.users(parsed.Id("one_p")).size() == 33001);
  CHECK(m.users(parsed.Id("two_p")).size() == 11);
  CHECK(m.users(parsed.Id("three_p")).size() == 40002);  // the reduce uses it too
  CHECK(Names(m, m.users(parsed.Id("three_u0"))) == StringList{"three_r"});
  const InstrId sum = parsed.Id("s");
  CHECK(Names(m, m.users(parsed.Id("a"))) == StringList{"s"});
  CHECK(m.users(sum).empty());
  // Unused: every negate but the last of each computation (and three_u0,
  // which the reduce uses), and the reduce; no ROOT.
  CHECK(m.unused_instructions().size() == 32999 + 9 + 39998 + 1);
  CheckUsersMatchRecount(m);
}

}  // namespace
}  // namespace hlolint
