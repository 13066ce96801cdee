// The library API's module queries (include/hlolint/module.h) on small
// hand-written modules: what is at a line and column, where a name is
// defined, users, operands, computations; and text that does not parse.
#include <catch2/catch.hpp>

#include <string>

#include "hlolint/module.h"

namespace api = hlolint::api;

namespace {

// Line numbers matter: the tests name positions in this text.
constexpr const char* kReduce = R"(HloModule queries

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[8]{0} parameter(0)
  zero = f32[] constant(0)
  r = f32[] reduce(x, zero), dimensions={0}, to_apply=add_f32
  ROOT n = f32[] negate(r)
}
)";

api::InstructionId IdAt(const api::Module& module, uint32_t line, uint32_t column) {
  const std::optional<api::InstructionId> id = module.InstructionAt({line, column});
  REQUIRE(id);
  return *id;
}

std::string NameOf(const api::Module& module, api::InstructionId id) {
  const std::optional<api::InstructionInfo> info = module.instruction(id);
  REQUIRE(info);
  return info->name;
}

}  // namespace

TEST_CASE("api: a module's computations") {
  const api::Module module = api::Module::FromText(kReduce, "reduce.hlo");
  CHECK(module.errors().empty());
  CHECK(module.module_names() == std::vector<std::string>{"queries"});
  const std::vector<api::ComputationInfo> computations = module.computations();
  REQUIRE(computations.size() == 2);
  CHECK(computations[0].name == "add_f32");
  CHECK_FALSE(computations[0].is_entry);
  CHECK(computations[0].module == "queries");
  CHECK(computations[0].location.line == 3);
  CHECK(computations[0].location.column == 1);
  CHECK(computations[0].location.end_column == 8);
  CHECK(computations[0].extent.line == 3);
  CHECK(computations[0].extent.end_line == 7);
  CHECK(computations[0].instructions.size() == 3);
  REQUIRE(computations[0].root);
  CHECK(NameOf(module, *computations[0].root) == "s");
  CHECK(computations[1].name == "main");
  CHECK(computations[1].is_entry);
  CHECK(computations[1].location.line == 9);
  CHECK(computations[1].location.column == 7);
  CHECK(computations[1].location.path == "reduce.hlo");
  CHECK(computations[1].instructions.size() == 4);
  REQUIRE(module.computation(computations[1].id));
  CHECK(module.computation(computations[1].id)->name == "main");
}

TEST_CASE("api: the instruction at a line and column") {
  const api::Module module = api::Module::FromText(kReduce, "reduce.hlo");
  const api::InstructionId r = IdAt(module, 12, 5);
  const std::optional<api::InstructionInfo> info = module.instruction(r);
  REQUIRE(info);
  CHECK(info->name == "r");
  CHECK(info->opcode == "reduce");
  CHECK(info->shape == "f32[]");
  CHECK_FALSE(info->is_root);
  CHECK(info->location.line == 12);
  CHECK(info->location.column == 3);
  CHECK(info->location.end_column == 4);
  CHECK(module.computation(info->computation)->name == "main");

  // The whole statement, from the start of its line to its end, is the
  // instruction's: indentation, ROOT, operands, attributes.
  CHECK(IdAt(module, 12, 1) == r);
  CHECK(IdAt(module, 12, 61) == r);
  CHECK(IdAt(module, 12, 62) == r);  // just past the line's last byte
  const api::InstructionId n = IdAt(module, 13, 1);
  CHECK(NameOf(module, n) == "n");
  CHECK(module.instruction(n)->is_root);
  CHECK(module.instruction(n)->opcode == "negate");
  CHECK(NameOf(module, IdAt(module, 6, 8)) == "s");
  CHECK(module.instruction(IdAt(module, 10, 20))->shape == "f32[8]{0}");

  // Not in a statement: the module header, blank lines, a computation's
  // header and closing brace, past the text.
  CHECK_FALSE(module.InstructionAt({1, 1}));
  CHECK_FALSE(module.InstructionAt({2, 1}));
  CHECK_FALSE(module.InstructionAt({9, 3}));
  CHECK_FALSE(module.InstructionAt({14, 1}));
  CHECK_FALSE(module.InstructionAt({12, 63}));
  CHECK_FALSE(module.InstructionAt({99, 1}));
  CHECK_FALSE(module.InstructionAt({0, 0}));
}

TEST_CASE("api: users, operands and the computation of an instruction") {
  const api::Module module = api::Module::FromText(kReduce, "reduce.hlo");
  const api::InstructionId x = IdAt(module, 10, 3);
  const api::InstructionId zero = IdAt(module, 11, 3);
  const api::InstructionId r = IdAt(module, 12, 3);
  const api::InstructionId n = IdAt(module, 13, 3);
  const api::InstructionId a = IdAt(module, 4, 3);
  CHECK(module.users(x) == std::vector<api::InstructionId>{r});
  CHECK(module.users(zero) == std::vector<api::InstructionId>{r});
  CHECK(module.users(r) == std::vector<api::InstructionId>{n});
  CHECK(module.users(n).empty());
  CHECK(module.operands(r) == std::vector<api::InstructionId>{x, zero});
  CHECK(module.operands(x).empty());
  REQUIRE(module.computation_of(a));
  CHECK(module.computation(*module.computation_of(a))->name == "add_f32");
  CHECK(module.computation(*module.computation_of(n))->name == "main");
}

TEST_CASE("api: the definition of a name") {
  const api::Module module = api::Module::FromText(kReduce, "reduce.hlo");
  const std::optional<api::Location> zero = module.Definition("zero");
  REQUIRE(zero);
  CHECK(zero->line == 11);
  CHECK(zero->column == 3);
  CHECK(zero->end_column == 7);
  const std::optional<api::Location> add = module.Definition("%add_f32");
  REQUIRE(add);
  CHECK(add->line == 3);
  CHECK(add->column == 1);
  CHECK_FALSE(module.Definition("nothing"));
  CHECK_FALSE(module.Definition(""));

  // Go to definition from a use: `to_apply=add_f32` and the operand `zero`.
  CHECK(module.NameAt({12, 55}) == "add_f32");
  CHECK(module.NameAt({12, 62}) == "add_f32");  // right after the name
  CHECK(module.NameAt({12, 23}) == "zero");
  CHECK(module.NameAt({12, 4}) == "r");  // right after `r`
  CHECK(module.NameAt({12, 5}).empty());  // `=` after a space
  const std::optional<api::Location> to_apply = module.DefinitionAt({12, 58});
  REQUIRE(to_apply);
  CHECK(to_apply->line == 3);
  const std::optional<api::Location> operand = module.DefinitionAt({12, 24});
  REQUIRE(operand);
  CHECK(operand->line == 11);
}

TEST_CASE("api: a name is looked up in the computation of the position first") {
  // Both computations have a parameter `p` (verify-names reports that; the
  // parser accepts it).
  const api::Module module = api::Module::FromText(R"(HloModule shadow

double {
  p = f32[] parameter(0)
  ROOT d = f32[] add(p, p)
}

ENTRY main {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=double
}
)",
                                                   "shadow.hlo");
  REQUIRE(module.errors().empty());
  CHECK(module.DefinitionAt({5, 22})->line == 4);
  CHECK(module.DefinitionAt({10, 23})->line == 9);
  CHECK(module.Definition("p", api::Position{10, 1})->line == 9);
  CHECK(module.Definition("p")->line == 4);  // no position: the first
}

TEST_CASE("api: ids number the modules of a text one after the other") {
  const api::Module module = api::Module::FromText(R"(HloModule first

ENTRY main {
  ROOT one = f32[] constant(1)
}

HloModule second

ENTRY main {
  two = f32[] constant(2)
  ROOT neg = f32[] negate(two)
}
)",
                                                   "two.hlo");
  REQUIRE(module.errors().empty());
  CHECK(module.module_names() == std::vector<std::string>{"first", "second"});
  const std::vector<api::ComputationInfo> computations = module.computations();
  REQUIRE(computations.size() == 2);
  CHECK(computations[1].module == "second");
  const api::InstructionId neg = IdAt(module, 11, 3);
  const api::InstructionId two = IdAt(module, 10, 3);
  CHECK(NameOf(module, neg) == "neg");
  CHECK(module.operands(neg) == std::vector<api::InstructionId>{two});
  CHECK(module.computation_of(neg) == computations[1].id);
  CHECK(module.Definition("two")->line == 10);
  CHECK(IdAt(module, 4, 3) != two);
}

TEST_CASE("api: ids that name nothing") {
  const api::Module module = api::Module::FromText(kReduce, "reduce.hlo");
  CHECK_FALSE(module.instruction(1000));
  CHECK_FALSE(module.computation(1000));
  CHECK(module.users(1000).empty());
  CHECK(module.operands(1000).empty());
  CHECK_FALSE(module.computation_of(1000));
}

TEST_CASE("api: text that does not parse gives errors, never a crash") {
  SECTION("empty") {
    const api::Module module = api::Module::FromText("", "empty.hlo");
    REQUIRE(module.errors().size() == 1);
    CHECK(module.errors()[0].message == "no HLO module in the text");
    CHECK(module.computations().empty());
    CHECK_FALSE(module.InstructionAt({1, 1}));
    CHECK(module.NameAt({1, 1}).empty());
  }
  SECTION("binary bytes") {
    const std::string bytes("GIF89a\0\x01\xff\xfe\0\0garbage\x80\x81", 20);
    const api::Module module = api::Module::FromText(bytes, "image.gif");
    REQUIRE(module.errors().size() == 1);
    REQUIRE(module.errors()[0].location);
    CHECK(module.errors()[0].location->line == 1);
    CHECK(module.computations().empty());
    CHECK_FALSE(module.Definition("garbage"));
  }
  SECTION("a truncated module") {
    const api::Module module = api::Module::FromText(
        "HloModule t\n\nENTRY main {\n  p0 = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p",
        "truncated.hlo");
    REQUIRE(module.errors().size() == 1);
    CHECK(module.errors()[0].message == "instruction does not exist: p");
    REQUIRE(module.errors()[0].location);
    CHECK(module.errors()[0].location->line == 5);
    CHECK(module.errors()[0].location->column == 29);
    CHECK(module.computations().empty());
    CHECK_FALSE(module.InstructionAt({4, 3}));
  }
  SECTION("every prefix of a module") {
    const std::string text = kReduce;
    for (size_t size = 0; size < text.size(); size += 5) {
      const api::Module module = api::Module::FromText(text.substr(0, size), "prefix.hlo");
      for (uint32_t line = 1; line <= 14; ++line) {
        if (std::optional<api::InstructionId> id = module.InstructionAt({line, 3})) {
          CHECK(module.instruction(*id));
        }
        (void)module.DefinitionAt({line, 3});
      }
    }
  }
  SECTION("a file that cannot be read") {
    const api::Module module = api::Module::FromFile("/nonexistent/dir/x.hlo");
    REQUIRE(module.errors().size() == 1);
    CHECK(module.errors()[0].message.find("/nonexistent/dir/x.hlo") != std::string::npos);
    CHECK(module.computations().empty());
  }
}

TEST_CASE("api: an unnamed computation written inside an attribute") {
  const api::Module module = api::Module::FromText(R"(HloModule inline

ENTRY main {
  x = f32[8]{0} parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[] reduce(x, zero), dimensions={0}, to_apply={
    a = f32[] parameter(0)
    b = f32[] parameter(1)
    ROOT s = f32[] add(a, b)
  }, metadata={op_name="sum"}
}
)",
                                                   "inline.hlo");
  REQUIRE(module.errors().empty());
  const std::vector<api::ComputationInfo> computations = module.computations();
  REQUIRE(computations.size() == 2);
  const api::ComputationInfo& unnamed =
      computations[0].name == "_" ? computations[0] : computations[1];
  CHECK(unnamed.name == "_");
  CHECK(unnamed.location.line == 6);
  CHECK(unnamed.location.column == 60);
  CHECK(NameOf(module, IdAt(module, 8, 5)) == "b");
  CHECK(NameOf(module, IdAt(module, 9, 1)) == "s");
  CHECK(module.computation(*module.computation_of(IdAt(module, 9, 1)))->name == "_");
  // The statement around it: its opening line, its closing brace, what follows.
  const api::InstructionId r = IdAt(module, 6, 5);
  CHECK(NameOf(module, r) == "r");
  CHECK(IdAt(module, 6, 60) == r);
  CHECK(IdAt(module, 10, 3) == r);
  CHECK(IdAt(module, 10, 8) == r);
  CHECK(module.DefinitionAt({9, 24})->line == 7);  // `a` in add(a, b)
  CHECK(module.DefinitionAt({6, 25})->line == 4);  // `x` in reduce(x, zero)
  CHECK(module.DefinitionAt({6, 28})->line == 5);  // `zero`
}
