// The library API's questions about names (include/hlolint/module.h): what
// a name refers to, where it is used, who calls a computation; and what an
// instruction's description says of its statement, sharding and origin.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hlolint/module.h"

namespace api = hlolint::api;

namespace {

// Line numbers matter: the tests name positions in this text. `max` is
// both a computation and, in `main`, an instruction.
constexpr const char* kNames = R"(HloModule names

max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

ENTRY main {
  x = f32[8]{0} parameter(0), sharding={devices=[2]0,1}, metadata={op_name="jit(f)/x" source_file="f.py" source_line=7}
  zero = f32[] constant(0)
  max = f32[] reduce(x, zero), dimensions={0}, to_apply=%max
  /* x */ n = f32[] negate(max), control-predecessors={zero}, metadata={op_name="x"}  // x
  ROOT t = (f32[], f32[]) tuple(n, max)
}
)";

struct Span {
  uint32_t line, column, end_column;
  bool operator==(const Span&) const = default;
};

}  // namespace

namespace Catch {
template <>
struct StringMaker<Span> {
  static std::string convert(const Span& s) {
    return std::to_string(s.line) + ":" + std::to_string(s.column) + "-" +
           std::to_string(s.end_column);
  }
};
}  // namespace Catch

namespace {

std::vector<Span> Spans(const std::vector<api::Location>& locations) {
  std::vector<Span> out;
  for (const api::Location& l : locations) {
    CHECK(l.end_line == l.line);
    out.push_back({l.line, l.column, l.end_column});
  }
  return out;
}

api::Symbol SymbolAt(const api::Module& module, uint32_t line, uint32_t column) {
  const std::optional<api::Symbol> symbol = module.SymbolAt({line, column});
  REQUIRE(symbol);
  return *symbol;
}

}  // namespace

TEST_CASE("api: a name in a computation attribute is the computation, elsewhere the instruction") {
  const api::Module module = api::Module::FromText(kNames, "names.hlo");
  REQUIRE(module.errors().empty());
  const api::Symbol in_to_apply = SymbolAt(module, 12, 58);  // to_apply=%max
  CHECK(in_to_apply.kind == api::Symbol::Kind::kComputation);
  CHECK(module.computation(in_to_apply.id)->name == "max");
  const api::Symbol operand = SymbolAt(module, 13, 28);  // negate(max)
  CHECK(operand.kind == api::Symbol::Kind::kInstruction);
  CHECK(module.instruction(operand.id)->name == "max");
  CHECK(module.Resolve("%max") == operand);
  CHECK(module.SymbolAt({12, 3}) == operand);  // at its definition
  CHECK_FALSE(module.SymbolAt({12, 16}));      // `reduce`: names nothing
}

TEST_CASE("api: the uses of an instruction, strings and comments aside") {
  const api::Module module = api::Module::FromText(kNames, "names.hlo");
  // x: an operand of reduce; the `x` in strings and comments are not uses.
  CHECK(Spans(module.References(SymbolAt(module, 10, 3))) == std::vector<Span>{{12, 22, 23}});
  // zero: an operand and a control predecessor.
  CHECK(Spans(module.References(SymbolAt(module, 11, 3))) ==
        std::vector<Span>{{12, 25, 29}, {13, 56, 60}});
  // The instruction max: operand of negate and tuple, not the to_apply.
  CHECK(Spans(module.References(SymbolAt(module, 12, 3))) ==
        std::vector<Span>{{13, 28, 31}, {14, 36, 39}});
  const std::optional<api::Location> definition = module.DefinitionOf(SymbolAt(module, 14, 38));
  REQUIRE(definition);
  CHECK(Spans({*definition}) == std::vector<Span>{{12, 3, 6}});
}

TEST_CASE("api: the callers of a computation and the uses of its name") {
  const api::Module module = api::Module::FromText(kNames, "names.hlo");
  const api::Symbol max = SymbolAt(module, 3, 1);
  REQUIRE(max.kind == api::Symbol::Kind::kComputation);
  CHECK(Spans(module.References(max)) == std::vector<Span>{{12, 58, 61}});
  const std::vector<api::InstructionId> callers = module.callers(max.id);
  REQUIRE(callers.size() == 1);
  CHECK(module.instruction(callers[0])->name == "max");
  CHECK(module.called_computations(callers[0]) == std::vector<api::ComputationId>{max.id});
}

TEST_CASE("api: control predecessors and successors") {
  const api::Module module = api::Module::FromText(kNames, "names.hlo");
  const api::InstructionId zero = SymbolAt(module, 11, 3).id;
  const api::InstructionId n = SymbolAt(module, 13, 11).id;
  CHECK(module.control_predecessors(n) == std::vector<api::InstructionId>{zero});
  CHECK(module.control_successors(zero) == std::vector<api::InstructionId>{n});
  CHECK(module.control_successors(n).empty());
}

TEST_CASE("api: an instruction's statement, sharding and origin") {
  const api::Module module = api::Module::FromText(kNames, "names.hlo");
  const std::optional<api::InstructionInfo> x = module.instruction(SymbolAt(module, 10, 3).id);
  REQUIRE(x);
  CHECK(x->sharding == "{devices=[2]0,1}");
  REQUIRE(x->origin);
  CHECK(x->origin->op_name == "jit(f)/x");
  CHECK(x->origin->source_file == "f.py");
  CHECK(x->origin->source_line == 7);
  // The statement runs from its line's start to the next statement's.
  CHECK(x->extent.line == 10);
  CHECK(x->extent.column == 1);
  CHECK(x->extent.end_line == 11);
  CHECK(x->extent.end_column == 1);
  const std::optional<api::InstructionInfo> t = module.instruction(SymbolAt(module, 14, 8).id);
  REQUIRE(t);
  CHECK(t->sharding.empty());
  CHECK_FALSE(t->origin);
  CHECK(t->extent.end_line == 15);  // the closing brace ends the last statement
  CHECK(t->extent.end_column == 1);
  CHECK(module.Line(15) == "}");
  CHECK(module.Line(99).empty());
}

TEST_CASE("api: the instruction at a position in a computation of many statements") {
  std::string text = "HloModule many\n\nENTRY main {\n  p0 = f32[] parameter(0)\n";
  for (int i = 1; i < 2000; ++i) {
    text += "  p" + std::to_string(i) + " = f32[] negate(p" + std::to_string(i - 1) + ")\n";
  }
  text += "  ROOT r = f32[] negate(p1999)\n}\n";
  const api::Module module = api::Module::FromText(text, "many.hlo");
  REQUIRE(module.errors().empty());
  for (uint32_t line : {4u, 5u, 1000u, 2003u}) {
    const std::optional<api::InstructionId> at = module.InstructionAt({line, 1});
    REQUIRE(at);
    CHECK(module.instruction(*at)->location.line == line);
  }
  CHECK(module.instruction(*module.InstructionAt({2004, 1}))->name == "r");
  CHECK_FALSE(module.InstructionAt({2005, 1}));  // the closing brace
  CHECK(Spans(module.References(SymbolAt(module, 1000, 3))) ==
        std::vector<Span>{{1001, 23, 27}});
}

TEST_CASE("api: while and conditional name their computations") {
  constexpr const char* kControl = R"(HloModule control

cond {
  c = s32[] parameter(0)
  ROOT lt = pred[] compare(c, c), direction=LT
}

body {
  b = s32[] parameter(0)
  ROOT next = s32[] add(b, b)
}

ENTRY main {
  i = s32[] parameter(0)
  w = s32[] while(i), condition=%cond, body=%body
  ROOT r = s32[] conditional(i, w, w), branch_computations={%body, %body}
}
)";
  const api::Module module = api::Module::FromText(kControl, "control.hlo");
  REQUIRE(module.errors().empty());
  auto computation_at = [&](uint32_t line, uint32_t column) {
    const api::Symbol symbol = SymbolAt(module, line, column);
    REQUIRE(symbol.kind == api::Symbol::Kind::kComputation);
    return module.computation(symbol.id)->name;
  };
  CHECK(computation_at(15, 34) == "cond");  // condition=%cond
  CHECK(computation_at(15, 46) == "body");  // body=%body
  CHECK(computation_at(16, 62) == "body");  // branch_computations={%body, ...}
  CHECK(computation_at(16, 69) == "body");  // ..., %body}
  CHECK(Spans(module.References(SymbolAt(module, 3, 1))) == std::vector<Span>{{15, 34, 38}});
  CHECK(Spans(module.References(SymbolAt(module, 8, 1))) ==
        std::vector<Span>{{15, 46, 50}, {16, 62, 66}, {16, 69, 73}});
  CHECK(module.callers(SymbolAt(module, 8, 1).id).size() == 2);
}
