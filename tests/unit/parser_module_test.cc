// Module level: the HloModule header and its attributes, stack frame
// tables, header-less texts, several modules per file, computations.
#include <catch2/catch.hpp>

#include "parse_helpers.h"
#include "util/hash.h"

namespace hlolint::parse_testing {
namespace {

TEST_CASE("module: header name and every header attribute") {
  Parsed p = Parse(R"(HloModule full_header, is_scheduled=true, replica_count=4, num_partitions=2,
  entry_computation_layout={(f32[2]{0}, (s32[], pred[3]{0}))->(f32[2]{0}, f32[2]{0})},
  input_output_alias={ {0}: (0, {}, must-alias), {1}: (1, {1}, may-alias), {1}: (0, {}) },
  buffer_donor={ (1, {0}), (0, {}) }, alias_passthrough_params=true,
  frontend_attributes={key="value", nested={a={b=""}}},
  allow_spmd_sharding_propagation_to_parameters={true,false},
  allow_spmd_sharding_propagation_to_output=true,
  debug_attributes={ {"x"}: {log_mode=default, callback_id=1}, {"y" {0}}: ({partitioned=true}, {op_id=3, log_mode=fusion_debugger}) }

ENTRY main {
  a = f32[2]{0} parameter(0)
  b = (s32[], pred[3]{0}) parameter(1)
  ROOT t = (f32[2]{0}, f32[2]{0}) tuple(a, a)
}
)");
  const Module& m = p.m();
  const ModuleHeader& h = m.header();
  CHECK(h.present);
  CHECK(m.name() == "full_header");
  CHECK(m.text(h.name_offset, h.name_size) == "full_header");
  CHECK(p.At(h.offset) == "1:1");
  CHECK(h.is_scheduled);
  CHECK(m.is_scheduled());
  CHECK(p.At(h.is_scheduled_offset) == "1:24");
  CHECK(h.replica_count == 4);
  CHECK(h.num_partitions == 2);
  CHECK(h.alias_passthrough_params);
  REQUIRE(h.has_entry_layout);
  REQUIRE(h.entry_param_layouts.size() == 2);
  CHECK(ShapeToString(m.shapes().Get(h.entry_param_layouts[0])) == "f32[2]{0}");
  CHECK(ShapeToString(m.shapes().Get(h.entry_param_layouts[1])) == "(s32[], pred[3]{0})");
  CHECK(ShapeToString(m.shapes().Get(h.entry_result_layout)) == "(f32[2]{0}, f32[2]{0})");
  CHECK(p.At(h.entry_layout_offset) == "2:3");
  REQUIRE(h.input_output_alias.size() == 3);
  const InputOutputAlias& first = h.input_output_alias[0];
  CHECK(first.output_index == ShapeIndex{0});
  CHECK(first.parameter == 0);
  CHECK(first.parameter_index.empty());
  CHECK(first.must_alias);
  CHECK(p.At(first.offset) == "3:24");
  const InputOutputAlias& second = h.input_output_alias[1];
  CHECK(second.output_index == ShapeIndex{1});
  CHECK(second.parameter == 1);
  CHECK(second.parameter_index == ShapeIndex{1});
  CHECK_FALSE(second.must_alias);
  CHECK_FALSE(h.input_output_alias[2].must_alias);  // the default kind is may-alias
  REQUIRE(h.buffer_donors.size() == 2);
  CHECK(h.buffer_donors[0].parameter == 1);
  CHECK(h.buffer_donors[0].parameter_index == ShapeIndex{0});
  CHECK(h.buffer_donors[1].parameter == 0);
  CHECK(p.At(h.frontend_attributes_offset) == "5:3");
  CHECK(m.entry() == p.Comp("main"));
  // The propagation flags take a single bool or a list, possibly empty.
  Parse("HloModule m, allow_spmd_sharding_propagation_to_parameters=false, "
        "allow_spmd_sharding_propagation_to_output={}\nENTRY e {\n  ROOT c = f32[] constant(1)\n}");
  CHECK_PARSE_ERROR("HloModule m, allow_spmd_sharding_propagation_to_output={true,1}\nENTRY e {\n"
                    "  ROOT c = f32[] constant(1)\n}",
                    "1:62", "expects true or false");
}

TEST_CASE("module: defaults when the header has no attributes") {
  Parsed p = Parse("HloModule plain\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n");
  const ModuleHeader& h = p.m().header();
  CHECK(h.present);
  CHECK_FALSE(h.is_scheduled);
  CHECK(h.replica_count == 1);
  CHECK(h.num_partitions == 1);
  CHECK_FALSE(h.alias_passthrough_params);
  CHECK_FALSE(h.has_entry_layout);
  CHECK(h.input_output_alias.empty());
  CHECK(h.buffer_donors.empty());
  CHECK(h.frontend_attributes_offset == 0);
  // `%name` and `name:` are names too.
  CHECK(Parse("HloModule %pct\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n").m().name() == "pct");
  CHECK(Parse("HloModule colon:\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n").m().name() ==
        "colon");
}

TEST_CASE("module: origin_recovery_table parses the embedded modules") {
  Parsed p = Parse(R"(HloModule m, origin_recovery_table={
  {"a"}: {"b" {0}}, "HloModule r\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}"
  {"c"}: {}
}
ENTRY e {
  ROOT c = f32[] constant(1)
})");
  CHECK(p.m().name() == "m");
  Failure bad = ParseFailure(R"(HloModule m, origin_recovery_table={
  {"a"}: {"b"}, "HloModule r\nENTRY e {\n  ROOT p = f32[] prameter(0)\n}"
}
ENTRY e {
  ROOT c = f32[] constant(1)
})");
  CHECK(bad.at == "2:17");
  CHECK_THAT(bad.message, Catch::Matchers::Contains(
                              "the HLO module in origin_recovery_table does not parse"));
  CHECK_THAT(bad.message, Catch::Matchers::Contains("Unknown opcode: prameter"));
}

TEST_CASE("module: header attribute errors") {
  CHECK_PARSE_ERROR("HloModule m, is_scheduled=yes\nENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "1:27", "expects true or false");
  CHECK_PARSE_ERROR("HloModule m, colour=1\nENTRY e {\n  ROOT c = f32[] constant(1)\n}", "1:14",
                    "unexpected attribute \"colour\". Allowed attributes: alias_passthrough_params");
  CHECK_PARSE_ERROR(
      "HloModule m, replica_count=2, replica_count=2\nENTRY e {\n  ROOT c = f32[] constant(1)\n}",
      "1:31", "attribute replica_count already exists");
  CHECK_PARSE_ERROR("HloModule m,\nENTRY e {\n  ROOT c = f32[] constant(1)\n}", "2:1",
                    "expects attribute name");
  CHECK_PARSE_ERROR(
      "HloModule m, input_output_alias={ {0}: 0 }\nENTRY e {\n  ROOT c = f32[] constant(1)\n}",
      "1:40", "Expected format: <output_shape_index>: (<input_param>");
  CHECK_PARSE_ERROR(
      "HloModule m, input_output_alias={ {0}: (0, {}, kind-alias) }\nENTRY e {\n"
      "  ROOT c = f32[] constant(1)\n}",
      "1:48", "Unexpected aliasing kind kind-alias; expected SYSTEM or USER");
  // Checked against the entry result shape once the module is built.
  CHECK_PARSE_ERROR(
      "HloModule m, input_output_alias={ {1}: (0, {}) }\nENTRY e {\n"
      "  ROOT c = f32[] parameter(0)\n}",
      "1:35", "Trying to set up alias at {1} which is an invalid index for shape f32[]");
  CHECK_PARSE_ERROR(
      "HloModule m, input_output_alias={ {}: (-1, {}) }\nENTRY e {\n"
      "  ROOT c = f32[] parameter(0)\n}",
      "1:35", "aliased parameter number -1 must be >= 0");
  CHECK_PARSE_ERROR(
      "HloModule m, buffer_donor={ (-2, {}) }\nENTRY e {\n  ROOT c = f32[] parameter(0)\n}",
      "1:29", "buffer donor parameter number -2 must be >= 0");
  CHECK_PARSE_ERROR(
      "HloModule m, entry_computation_layout={(f32[])}\nENTRY e {\n"
      "  ROOT c = f32[] parameter(0)\n}",
      "1:47", "Expects -> before result shape");
  CHECK_PARSE_ERROR(
      "HloModule m, debug_attributes={ {\"x\"}: {} }\nENTRY e {\n  ROOT c = f32[] parameter(0)\n}",
      "1:41", "Expects attribute name in debug attributes");
  CHECK_PARSE_ERROR(
      "HloModule m, debug_attributes={ {\"x\"}: {log_mode=loud} }\nENTRY e {\n"
      "  ROOT c = f32[] parameter(0)\n}",
      "1:50", "Invalid debug_log_mode value: loud");
  CHECK_PARSE_ERROR(
      "HloModule m, debug_attributes={ {\"x\"}: {colour=1} }\nENTRY e {\n"
      "  ROOT c = f32[] parameter(0)\n}",
      "1:41", "Unknown debug attribute: colour");
}

TEST_CASE("module: stack frame tables") {
  Parsed p = Parse(R"(HloModule m

FileNames
1 "a.py"
2 "b.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4 end_column=5}
2 {file_name_id=2, function_name_id=1, line=7, end_line=7, column=1, end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=0}
2 {file_location_id=2 parent_frame_id=1}

ENTRY e {
  ROOT c = f32[] constant(1), metadata={op_name="x" stack_frame_id=2}
})");
  CHECK(p.m().computation_count() == 1);
  // Entries printed otherwise than XLA prints them (a 10-digit value, a
  // leading zero, two spaces, another key order) are read token by token:
  // accepted all the same.
  Parse("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
        "1 {file_location_id=2147483647 parent_frame_id=007}\n"
        "2 {file_location_id=1  parent_frame_id=0}\n"
        "03 {parent_frame_id=0 file_location_id=1}\n"
        "4 {file_location_id=1 parent_frame_id=0}"
        "ENTRY e {\n  ROOT c = f32[] constant(1)\n}");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
                    "1 {file_location_id=1 parent_frame_id=2147483648}\n"
                    "ENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "6:39", "value out of range for int32_t");
  // Empty sections are fine; all four keywords are required once FileNames appears.
  Parse("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
        "ENTRY e {\n  ROOT c = f32[] constant(1)\n}");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFileLocations\nStackFrames\nENTRY e {\n"
                    "  ROOT c = f32[] constant(1)\n}",
                    "3:1", "expects 'FunctionNames'");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFunctionNames\nFileLocations\n"
                    "1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4}\n"
                    "StackFrames\nENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "5:3", "sub-attribute end_column is expected but not seen");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
                    "1 {file_location_id=4294967296 parent_frame_id=0}\n"
                    "ENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "6:21", "value out of range for int32_t");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
                    "1 {file_location_id=1 parent_frame_id=0 colour=2}\n"
                    "ENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "6:41", "unexpected attribute \"colour\"");
  CHECK_PARSE_ERROR("HloModule m\nFileNames\nFunctionNames\nFileLocations\nStackFrames\n"
                    "1 {file_location_id=1 file_location_id=1 parent_frame_id=0}\n"
                    "ENTRY e {\n  ROOT c = f32[] constant(1)\n}",
                    "6:23", "attribute file_location_id already exists");
}

TEST_CASE("module: texts without HloModule") {
  // A bare ENTRY computation.
  Parsed bare = Parse("ENTRY main {\n  ROOT c = f32[] constant(1)\n}\n");
  const Module& m = bare.m();
  CHECK_FALSE(m.header().present);
  CHECK(m.name() == "module_main");
  CHECK(m.computation_count() == 1);
  CHECK(m.computation(m.entry()).is_entry);
  // A single computation without ENTRY is the entry.
  Parsed single = Parse("add {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n");
  CHECK(single.m().name() == "module_add");
  CHECK(single.m().entry() == single.Comp("add"));
  // Without ENTRY the last computation is the entry.
  Parsed two = Parse(R"(first {
  ROOT x = f32[] parameter(0)
}
second {
  y = f32[] parameter(0)
  ROOT r = f32[] call(y), to_apply=first
})");
  CHECK(two.m().entry() == two.Comp("second"));
  CHECK_FALSE(two.m().computation(two.Comp("first")).is_entry);
  // XLA would read a computation with a signature and no ENTRY as a single
  // instruction; dumps never look like that, so it is an error here.
  CHECK_PARSE_ERROR("foo (p: f32[]) -> f32[] {\n  ROOT p = f32[] parameter(0)\n}\n", "1:1",
                    "XLA would read this text as a single instruction");
  CHECK_PARSE_ERROR("ROOT x = f32[] add(y, z)\n", "1:1",
                    "expects 'HloModule', 'ENTRY' or a computation");
}

TEST_CASE("module: several modules in one file are parsed separately") {
  Parsed p = ParseAny(R"(HloModule first
ENTRY e {
  ROOT c = f32[] constant(1)
}
HloModule second
ENTRY e {
  ROOT c = s32[] constant(2)
}
// -----
ENTRY third {
  ROOT bad = f32[] negate(nowhere)
}
// -----

// -----
HloModule fourth
ENTRY e {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
)");
  REQUIRE(p.modules.size() == 4);
  CHECK(p.m(0).name() == "first");
  CHECK(p.m(1).name() == "second");
  CHECK(p.At(p.modules[1].begin_offset) == "5:1");
  REQUIRE(p.modules[2].error);
  CHECK(p.modules[2].module == nullptr);
  CHECK(p.modules[2].name == "");
  CHECK(p.At(p.modules[2].error->offset) == "11:27");
  CHECK(p.m(3).name() == "fourth");
  CHECK(p.m(3).instruction_count() == 2);
  // Each module's IR is its own: names do not leak between modules.
  CHECK(p.m(0).instruction_count() == 1);
  CHECK(p.At(p.m(1).begin_offset()) == "5:1");
  CHECK(p.At(p.m(1).end_offset()) == "9:1");
}

TEST_CASE("module: the module limit per file") {
  std::string text;
  for (int i = 0; i < 5; ++i) text += "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n";
  ParseLimits limits;
  limits.max_modules_per_file = 3;
  Parsed p = ParseAny(text, limits);
  REQUIRE(p.modules.size() == 4);
  CHECK_FALSE(p.modules[2].error);
  REQUIRE(p.modules[3].error);
  CHECK(p.At(p.modules[3].error->offset) == "13:1");
  CHECK_THAT(p.modules[3].error->message,
             Catch::Matchers::Contains("more than 3 modules in one file"));
}

TEST_CASE("computation: the parser keeps every name's hash, by instruction id") {
  // Named, nested anonymous and compact get-tuple-element instructions, in
  // two computations, so the hash list must stay in step with the ids.
  Parsed p = Parse(R"(HloModule m

%body (t: (f32[], f32[])) -> f32[] {
  %t = (f32[], f32[]) parameter(0)
  ROOT %sum = f32[] add(%t#0, f32[] multiply(%t#1, %t#1))
}

ENTRY %main.with.a.longer-name_0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %tuple = (f32[], f32[]) tuple(%a, %b)
  ROOT %r = f32[] call(%tuple), to_apply=%body
}
)");
  const Module& m = p.m();
  size_t named = 0;
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    INFO("instruction " << id << " '" << std::string(m.name(id)) << "'");
    if (m.instr(id).has(Instruction::kAnonymous)) {
      CHECK(m.name_hash(id) == 0);
      continue;
    }
    ++named;
    CHECK(m.name_hash(id) == StringViewHash()(m.name(id)));
  }
  CHECK(named == 6);
  CHECK(m.instruction_count() > named);  // the anonymous ones were made
}

TEST_CASE("computation: keyed attribute values, equal keys for equal texts") {
  // Values read byte-wise and through the grammar (blanks, a comment).
  Parsed p = Parse(R"(HloModule m

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY %main (a: f32[2,3], c: f32[2], d: f32[3]) -> f32[2] {
  %a = f32[2,3]{1,0} parameter(0)
  %c = f32[2]{0} parameter(1)
  %d = f32[3]{0} parameter(2)
  %b1 = f32[2,3]{1,0} broadcast(f32[2]{0} %c), dimensions={0}
  %b2 = f32[2,3]{1,0} broadcast(f32[2]{0} %c), dimensions={0}
  %b3 = f32[2,3]{1,0} broadcast(f32[3]{0} %d), dimensions={ 1 }
  %t = f32[3,2]{1,0} transpose(%a), dimensions={1,0}
  %s = f32[1,3]{1,0} slice(%a), slice={[0:1], [0:3]}
  %zero = f32[] constant(0)
  %r1 = f32[2]{0} reduce(%a, %zero), dimensions={1}, to_apply=%add
  %r2 = f32[3]{0} reduce(%a, %zero), dimensions={0/*rows*/}, to_apply=%add
  ROOT %r3 = f32[2]{0} reduce(%b1, %zero), dimensions={1}, to_apply=%add
}
)");
  const Module& m = p.m();
  auto key = [&](std::string_view name, AttrName attribute) -> uint32_t {
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      if (m.name(id) != name) continue;
      const Attribute* found = m.FindAttribute(id, attribute);
      return found == nullptr ? ~0u : found->value_key;
    }
    return ~0u;
  };
  const uint32_t zero = key("b1", AttrName::kDimensions);
  const uint32_t one = key("r1", AttrName::kDimensions);
  CHECK(zero != 0);
  CHECK(one != 0);
  CHECK(zero != one);
  CHECK(key("b2", AttrName::kDimensions) == zero);
  CHECK(key("r3", AttrName::kDimensions) == one);  // the same text on another opcode
  // Other texts, other keys: `{ 1 }` and `{0/*rows*/}` are not `{1}` or `{0}`.
  const std::vector<uint32_t> others = {
      key("b3", AttrName::kDimensions), key("t", AttrName::kDimensions),
      key("s", AttrName::kSlice), key("r2", AttrName::kDimensions)};
  for (size_t i = 0; i < others.size(); ++i) {
    INFO("other value " << i);
    CHECK(others[i] != 0);
    CHECK(others[i] != zero);
    CHECK(others[i] != one);
    for (size_t j = 0; j < i; ++j) CHECK(others[i] != others[j]);
  }
  CHECK(key("r1", AttrName::kToApply) == 0);  // not a keyed attribute
}

TEST_CASE("computation: an execution thread is read back from the text, escapes and all") {
  Parsed p = Parse(R"(HloModule m

first {
  ROOT x = f32[] parameter(0)
}, execution_thread="a\"b,c"

ENTRY e {
  ROOT a = f32[] parameter(0)
}, execution_thread="host"
)");
  const Module& m = p.m();
  // The string's text as the lexer saw it: the escaped quote does not end it.
  CHECK(m.execution_thread(p.Comp("first")) == R"(a\"b,c)");
  CHECK(m.execution_thread(p.Comp("e")) == "host");
}

TEST_CASE("computation: signatures, names, ROOT anywhere, execution threads") {
  Parsed p = Parse(R"(HloModule m

%sig.comp-1..x (p0: f32[], p1: (s32[2], pred[])) -> f32[] {
  %p1 = (s32[2], pred[]) parameter(1)
  ROOT %p0 = f32[] parameter(0)
  %unused = f32[] negate(p0)
}, execution_thread="side"

nosig {
  ROOT q = f32[] parameter(0)
}

ENTRY %main {
  a = f32[] parameter(0)
  b = (s32[2], pred[]) parameter(1)
  ROOT c = f32[] call(a, b), to_apply=%sig.comp-1..x
}
)");
  const Module& m = p.m();
  REQUIRE(m.computation_count() == 3);
  const CompId sig = p.Comp("sig.comp-1..x");
  const Computation& c = m.computation(sig);
  CHECK(c.has_signature);
  REQUIRE(c.signature_params().size() == 2);
  CHECK(ShapeToString(m.shapes().Get(c.signature_params()[1])) == "(s32[2], pred[])");
  CHECK(ShapeToString(m.shapes().Get(c.signature_result)) == "f32[]");
  CHECK(p.At(c.signature_offset) == "3:53");
  CHECK(p.At(c.name_offset) == "3:2");
  CHECK(p.At(c.begin_offset) == "3:1");
  CHECK(p.At(c.end_offset) == "7:2");
  CHECK(m.execution_thread(sig) == "side");
  CHECK(m.name(c.root) == "p0");  // ROOT need not be last
  CHECK(m.IsRoot(c.root));
  CHECK_FALSE(m.IsRoot(p.Id("unused")));
  REQUIRE(c.parameters().size() == 2);
  CHECK(m.name(c.parameters()[0]) == "p0");
  CHECK(m.name(c.parameters()[1]) == "p1");
  CHECK(Names(m, m.instructions(sig)) == StringList{"p1", "p0", "unused"});
  const Computation& nosig = m.computation(p.Comp("nosig"));
  CHECK_FALSE(nosig.has_signature);
  CHECK(nosig.signature_result == kNoShape);
  CHECK(m.execution_thread(p.Comp("nosig")) == "main");
  const Computation& main = m.computation(p.Comp("main"));
  CHECK(main.is_entry);
  CHECK(p.At(main.begin_offset) == "13:1");
  // Without ROOT the last instruction is the root.
  CHECK(m.name(nosig.root) == "q");
}

TEST_CASE("computation: inline computations and fusion computations") {
  Parsed p = Parse(R"(HloModule m
fused {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  r = f32[] constant(0)
  s = f32[] reduce(p, r), dimensions={0}, to_apply={
    a = f32[] parameter(0)
    b = f32[] parameter(1)
    ROOT sum = f32[] add(a, b)
  }
  ROOT f = f32[4] fusion(p), kind=kLoop, calls=fused
})");
  const Module& m = p.m();
  REQUIRE(m.computation_count() == 3);
  const CompId inline_id = m.called(p.Id("s"))[0];
  const Computation& inline_comp = m.computation(inline_id);
  CHECK(inline_comp.is_inline);
  CHECK(m.computation_name(inline_id) == "_");  // XLA names them "_"
  CHECK(m.instructions(inline_id).size() == 3);
  CHECK(m.computation(p.Comp("fused")).is_fusion_computation);
  CHECK_FALSE(m.computation(m.entry()).is_fusion_computation);
  // Each computation has its own names: `a` of the inline one is not `p`'s scope.
  CHECK(m.parent(p.Id("sum")) == inline_id);
  // parent() finds each instruction's computation by id, also where the
  // inline computation's ids interrupt the entry's.
  for (CompId c = 0; c < m.computation_count(); ++c) {
    for (InstrId id : m.instructions(c)) CHECK(m.parent(id) == c);
  }
  CHECK(m.parent(p.Id("p")) == m.entry());
  CHECK(m.parent(p.Id("f")) == m.entry());
  // Instructions in text order: consecutive ids store no list; the entry's
  // run is broken by the inline computation parsed in its middle.
  CHECK(Names(m, m.instructions(inline_id)) == StringList{"a", "b", "sum"});
  CHECK(inline_comp.consecutive_order);
  CHECK(Names(m, m.instructions(p.Comp("fused"))) == StringList{"x", "n"});
  CHECK(m.computation(p.Comp("fused")).consecutive_order);
  const InstrIdList entry = m.instructions(m.entry());
  CHECK(Names(m, entry) == StringList{"p", "r", "s", "f"});
  CHECK_FALSE(m.computation(m.entry()).consecutive_order);
  CHECK(entry.front() == p.Id("p"));
  CHECK(entry.back() == p.Id("f"));
  CHECK(entry[2] == p.Id("s"));
}

TEST_CASE("computation: errors") {
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY a {
  ROOT x = f32[] parameter(0)
}
ENTRY b {
  ROOT y = f32[] parameter(0)
})",
                    "5:1", "expects only one ENTRY");
  Failure dup = ParseFailure(R"(HloModule m
comp {
  ROOT x = f32[] parameter(0)
}
comp {
  ROOT y = f32[] parameter(0)
}
ENTRY e {
  ROOT z = f32[] parameter(0)
})");
  CHECK(dup.at == "5:1");
  CHECK(dup.message == "computation already exists: comp");
  CHECK(dup.note_at == "2:1");
  CHECK(dup.note == "computation previously defined here");
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=later
}
later {
  ROOT x = f32[] parameter(0)
})",
                    "4:36", "computation does not exist: later");
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e (p: f32[2]) -> f32[3] {
  ROOT p = f32[2] parameter(0)
})",
                    "2:24",
                    "Shape of computation e, f32[3], is not compatible with that of its root "
                    "instruction p, f32[2]");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n}\n", "3:1", "expects name");
  CHECK_PARSE_ERROR("HloModule m\n", "2:1", "expects name");
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e {
  ROOT p = f32[] parameter(0)
}, colour="red")",
                    "4:4", "unexpected attribute \"colour\"");
  // `%p: f32[]` does not lex as a parameter name with a colon.
  CHECK_PARSE_ERROR("HloModule m\nENTRY e (%p: f32[]) -> f32[] {\n  ROOT p = f32[] parameter(0)\n}",
                    "2:12", "expected primitive type, saw ':'");
}

TEST_CASE("computation: parameter numbers are unique and dense") {
  Failure dup = ParseFailure(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(0)
  ROOT t = (f32[], f32[]) tuple(a, b)
})");
  CHECK(dup.at == "4:23");
  CHECK(dup.message == "Duplicate parameter number 0");
  CHECK(dup.note_at == "3:3");
  CHECK_PARSE_ERROR(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(2)
  ROOT t = (f32[], f32[]) tuple(a, b)
})",
                    "4:3", "invalid parameter number. Expected [0, 2), got 2");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(-1)\n}", "3:28",
                    "parameter number must be >= 0");
  // Inline computations number their own parameters.
  Parse(R"(HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT s = f32[] reduce(p, z), dimensions={0}, to_apply={
    a = f32[] parameter(1)
    b = f32[] parameter(0)
    ROOT sum = f32[] add(a, b)
  }
})");
}

TEST_CASE("computation: duplicate parameter numbers are found small or large, in any order") {
  // The parser keeps small numbers by index and far-off ones in a map; a
  // duplicate must be found whichever holds the first, even after the
  // index has grown past a number the map holds.
  auto module = [](const std::vector<int64_t>& numbers) {
    std::string text = "HloModule m\nENTRY e {\n";
    for (size_t i = 0; i < numbers.size(); ++i) {
      text += "  p" + std::to_string(i) + " = f32[] parameter(" + std::to_string(numbers[i]) + ")\n";
    }
    return text + "}\n";
  };
  auto check_duplicate = [&](const std::vector<int64_t>& numbers, size_t first) {
    INFO("numbers ending " << numbers.back());
    const Failure dup = ParseFailure(module(numbers));
    const std::string n = std::to_string(numbers.back());
    CHECK(dup.message == "Duplicate parameter number " + n);
    const size_t name_size = 1 + std::to_string(numbers.size() - 1).size();  // `pN`
    CHECK(dup.at == std::to_string(numbers.size() + 2) + ":" + std::to_string(name_size + 22));
    CHECK(dup.note_at == std::to_string(first + 3) + ":3");
  };
  std::vector<int64_t> numbers = {100};
  for (int64_t i = 0; i < 100; ++i) numbers.push_back(i);
  numbers.push_back(100);
  check_duplicate(numbers, 0);
  check_duplicate({70, 0, 70}, 0);
  check_duplicate({0, 70, 1, 70}, 1);
  check_duplicate({5000000000, 1, 5000000000}, 0);
  numbers.clear();
  for (int64_t i = 0; i < 130; ++i) numbers.push_back(i);
  numbers.push_back(65);
  check_duplicate(numbers, 65);
  check_duplicate({3, 2, 1, 0, 2}, 1);
  // Dense in any order parses; one past a gap names the gap.
  numbers.clear();
  for (int64_t i = 199; i >= 0; --i) numbers.push_back(i);
  Parse(module(numbers));
  CHECK_PARSE_ERROR(module({0, 1, 90}), "5:3", "invalid parameter number. Expected [0, 3), got 90");
}

TEST_CASE("module: entry layouts are not checked when there is no entry_computation_layout") {
  // XLA copies the entry's layouts with ShapeLayout::CopyLayoutFromShape,
  // which checks only compatibility (2026-06-14 and HEAD): invalid ones parse.
  Parse("HloModule m\nENTRY e {\n  ROOT p = f32[2,3]{0,0} parameter(0)\n}");
  Parse("HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[2,3]{1,0}}\n"
        "ENTRY e {\n  ROOT p = f32[2,3]{0,0} parameter(0)\n}");
}

}  // namespace
}  // namespace hlolint::parse_testing
