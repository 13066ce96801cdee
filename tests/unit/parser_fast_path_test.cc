// The parser reads common text byte-wise (shapes by exact text, the
// `shape opcode(shape %a, ...)` head of an instruction) and falls back to
// the token-level grammar at the first byte that does not fit. These tests
// parse the same texts with and without those shortcuts and require the
// same IR, or the same first error, down to every offset.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "corpus_sample.h"
#include "ir/module.h"
#include "parse/parser.h"
#include "parse_describe.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

void CheckBothWaysAgree(const SourceFile& file) {
  ParseLimits slow;
  slow.fast_paths = false;
  const std::string expected = DescribeParse(ParseAllModules(file, slow));
  const std::string actual = DescribeParse(ParseAllModules(file));
  if (actual == expected) return;
  // Show the first line that differs, not two dumps of the whole module.
  std::istringstream a(actual), e(expected);
  std::string line_a, line_e;
  int line = 0;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a));
    const bool more_e = static_cast<bool>(std::getline(e, line_e));
    ++line;
    if (!more_a && !more_e) break;
    if (!more_a || !more_e || line_a != line_e) break;
  }
  FAIL("file " << file.path() << ", line " << line << " of the IR description differs:\n"
               << "  with fast paths:    " << line_a << "\n  without fast paths: " << line_e);
}

void CheckText(std::string_view text) {
  auto file = SourceFile::FromString("test.hlo", text);
  CheckBothWaysAgree(*file);
}

TEST_CASE("fast paths: forms the byte-wise reader takes or hands back", "[parser][fast]") {
  // Ordinary dump lines, repeated shapes, tuples, parameters, constants.
  CheckText(R"(HloModule m
%c (p: (s32[], f32[2]{0})) -> f32[2] {
  %p = (s32[], f32[2]{0}) parameter(0)
  %g = f32[2]{0} get-tuple-element((s32[], f32[2]{0}) %p), index=1
  %k = f32[] constant(1)
  %b = f32[2]{0} broadcast(f32[] %k), dimensions={}
  %a = f32[2]{0} add(f32[2]{0} %g, f32[2]{0} %b)
  ROOT %m = f32[2]{0} multiply(f32[2]{0} %a, f32[2]{0} %a)
}
ENTRY %e (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  %t = (s32[], f32[2]{0}) tuple(s32[] constant(0), f32[2]{0} %x)
  ROOT %r = f32[2]{0} call((s32[], f32[2]{0}) %t), to_apply=%c
}
)");
  // Unprefixed names, no operand shapes, keywords and types as names.
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] add(x, x)\n"
            "  ROOT z = f32[2] add(f32[2] y, x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  %true = f32[2] parameter(0)\n  ROOT y = f32[2] add(true, true)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  %f32 = f32[2] parameter(0)\n  ROOT y = f32[2] add(f32, %f32)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  %nan = f32[2] parameter(0)\n  ROOT y = f32[2] add(nan, %nan)\n}\n");
  // Errors found on the way: undefined operand, wrong declared shape,
  // wrong operand count, compact tuple indices, odd spacing and comments.
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x, w)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(f32[3] x, x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  p = (f32[2], f32[2]) parameter(0)\n  ROOT y = f32[2] add(p#0, p#1)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x,x /* c */)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2]   parameter(0)\n  ROOT y = f32[2]{0} add( x , x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x, x), , metadata={}\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(x, x\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT x = f32[2] add(x, x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] negate(add(x, x))\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] nonsense(x, x)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add-start(x, x)\n}\n");
  // Operands naming the instruction right before (FindOperandName), names
  // of the same length, prefixes, and a nested or compact operand before.
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  xy = f32[2] negate(x)\n"
            "  yx = f32[2] negate(xy)\n  ROOT y = f32[2] add(yx, xy)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  xy = f32[2] negate(x)\n"
            "  ROOT y = f32[2] add(yz, xy)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  xy = f32[2] negate(x)\n"
            "  ROOT y = f32[2] add(x, xy)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  n = f32[2] negate(add(x, x))\n"
            "  ROOT r = f32[2] add(add, n)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  p = (f32[2], f32[2]) parameter(0)\n  a = f32[2] add(p#0, p#1)\n"
            "  ROOT b = f32[2] add(a, p)\n}\n");
  // Opcodes through the recent-opcode cache: seen, then near misses of them.
  for (const char* opcode : {"add", "ad", "adds", "Add", "add_", "multiply", "multiplyx", "multipl",
                             "get-tuple-element", "get-tuple-elements", "dynamic-update-slice"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
                          "  a = f32[2] add(x, x)\n  m = f32[2] multiply(a, a)\n"
                          "  ROOT y = f32[2] ") + opcode + "(x, m)\n}\n");
  }
  // Metadata: the plain form, and every form handed back to the tokens.
  for (const char* metadata :
       {R"m({op_type="add" op_name="a/b(c)" source_file="m.py" source_line=856})m", "{}",
        R"m({op_name="x\"y"})m", R"m({op_name="x\q"})m", R"m({source_line=-1})m",
        R"m({source_line=2147483648})m", R"m({source_line=123456789})m", R"m({source_line=1234567890})m",
        R"m({op_type="a",op_name="b"})m", R"m({op_type="a"  op_name="b"})m", R"m({op_type="a" op_type="b"})m",
        R"m({op_kind="a"})m", R"m({profile_type={1,2}})m", R"m({source_line=1.5})m",
        R"m({stack_frame_id=3 scheduling_name="s"})m", R"m({op_name="unterminated})m",
        R"m({op_name="multi
line"})m", R"m({source_line=12 })m", R"m({ source_line=12})m",
        R"m({op_types="a"})m", R"m({source_files="a"})m", R"m({source_linex=1})m", R"m({source_fil="a"})m",
        R"m({op_name=1})m", R"m({source_line="1"})m", R"m({source_file="a" source_file="b"})m",
        R"m({op_type="a" source_line=1 op_name="b" source_file="c"})m", R"m({op_type=)m",
        R"m({op_name="a" stack_frame_id=3})m", R"m({stack_frame_id=3 stack_frame_id=4})m",
        R"m({op_name="a" source_file="f" source_line=1 source_end_line=2 source_column=3 source_end_column=4})m",
        R"m({source_end_column=4 source_column=3 source_end_line=2})m", R"m({stack_frame_i=3})m",
        R"m({stack_frame_idx=3})m", R"m({source_end_lin=2})m", R"m({source_end_columns=2})m",
        R"m({source_c=2})m", R"m({source_column="2"})m", R"m({source_end_line=-2})m",
        R"m({source_end_column=9999999999})m", R"m({source_e=1})m", R"m({stack_frame_id=})m"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
                          "  ROOT y = f32[2] add(x, x), metadata=") +
              metadata + "\n}\n");
  }
  // Attribute names after the comma, in every spacing.
  for (const char* attrs : {",dimensions={0}", ",  dimensions={0}", ",\n dimensions={0}",
                            ", dimensions ={0}", ", dimensions= {0}", ", dimensions:{0}",
                            ", f32={0}", ", 9dimensions={0}", ", dimensions={0}, dimensions={0}",
                            ", dimensions={0},", ", bogus=1", ", /*c*/dimensions={0}",
                            // Names matched byte-wise (TakeCommonAttributeName) and near misses.
                            ", dimension={0}", ", dimensionsx={0}", ", dimensions_={0}",
                            ", Dimensions={0}", ", metadata={}", ", metadata ={}", ",metadata={}",
                            ", metadata={}, dimensions={0}", ", metadata={}, metadata={}",
                            ", index=1", ", indexes=1", ", custom_call_target=\"a\"",
                            ", rhs_batch_dims={}", ", to_apply=%c", ", to_apply", ", k=1",
                            ", dimensions={0}, metadatas={}"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
                          "  ROOT y = f32[2] reverse(x)") +
              attrs + "\n}\n");
  }
  // Replica groups repeated, changed, and followed by other text.
  CheckText("HloModule m, replica_count=4\nadd { x = f32[] parameter(0)\n y = f32[] parameter(1)\n"
            " ROOT a = f32[] add(x, y) }\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "  a = f32[4] all-reduce(p), replica_groups={{0,1},{2,3}}, to_apply=add\n"
            "  b = f32[4] all-reduce(a), replica_groups={{0,1},{2,3}}, to_apply=add\n"
            "  c = f32[4] all-reduce(b), replica_groups={{0,1},{2,3}}}, to_apply=add\n"
            "  d = f32[4] all-reduce(c), replica_groups=[2,2]<=[4], to_apply=add\n"
            "  e = f32[4] all-reduce(d), replica_groups=[2,2]<=[4]T(0), to_apply=add\n"
            "  f = f32[4] all-reduce(e), replica_groups=[2,2]<=[4]<=[4], to_apply=add\n"
            "  ROOT g = f32[4] all-reduce(f), replica_groups=[2,2]<=[4],to_apply=add\n}\n");
  // A remembered iota text followed by more: a one-dimensional reshape
  // takes no transpose, so nothing after it belongs to the value.
  for (const char* after : {"T(0)", "T(1)", " T(0)", "\n  T(0)", "T", "<=[4]"}) {
    for (const char* rest : {", to_apply=add", "\n"}) {
      CheckText(std::string("HloModule m, replica_count=4\nadd { x = f32[] parameter(0)\n"
                            " y = f32[] parameter(1)\n ROOT a = f32[] add(x, y) }\nENTRY e {\n"
                            "  p = f32[4] parameter(0)\n"
                            "  d = f32[4] all-reduce(p), replica_groups=[2,2]<=[4], to_apply=add\n"
                            "  ROOT e = f32[4] all-reduce(d), replica_groups=[2,2]<=[4]") +
                after + rest + (rest[0] == ',' ? "\n}\n" : ", to_apply=add\n}\n"));
    }
  }
  // A layout after blanks belongs to the shape (a cached text of the
  // dimensions alone must not end it there); a body after a signature does not.
  CheckText("HloModule m\nENTRY e (p: f32[2]) -> f32[2] {\n  x = f32[2] parameter(0)\n"
            "  y = f32[2] {0} add(f32[2] x, f32[2] /*c*/ {0} x)\n  ROOT z = f32[2] copy(y)\n}\n");
  CheckText("HloModule m\nc (x: f32[], y: f32[]) -> f32[] {\n 6)} add(x, y)\n}\n");
  for (const char* brace : {"{ :T(2)}", "{\n0}", "{-1}", "{?}", "{/*c*/0}", "{}", "{ }"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
                          "  ROOT y = f32[2] ") + brace + " negate(f32[2] " + brace + " x)\n}\n");
  }
  // Operand shapes repeating the one read just before, and near misses.
  for (const char* operands :
       {"f32[2] %x, f32[2] %x", "f32[2] %x, f32[2] x", "f32[2] %x, f32[2]  %x", "f32[2] %x, f32[2] {0} %x",
        "f32[2]{0} %x, f32[2]{0}%x", "f32[2] %x, f32[3] %x", "f32[2] %x, f32[2]{0} %x",
        "f32[2] %x, f32[2] %y", "f32[2] %x, f32[2] /*c*/ %x"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  %x = f32[2]{0} parameter(0)\n"
                          "  ROOT %y = f32[2]{0} add(") + operands + ")\n}\n");
  }
  // Unprefixed operand names that the lexer reads as something else.
  for (const char* operand : {"x", "f32", "true", "nan", "inf", "ROOT", "ENTRY", "b01f_01io->b01f",
                              "bf_io->bf", "fusion", "b0", "nan(0x1)", "x.1-2", "manual"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  x = f32[2]{0} parameter(0)\n"
                          "  ROOT y = f32[2]{0} add(f32[2]{0} x, ") + operand + ")\n}\n");
    CheckText(std::string("HloModule m\nENTRY e {\n  %") + operand + " = f32[2]{0} parameter(0)\n"
              "  ROOT y = f32[2]{0} add(" + operand + ", " + operand + ")\n}\n");
  }
  // Parameter numbers: the dump form, and every form handed back.
  for (const char* number : {"0", "1", "00", "01", "123456789", "1234567890", " 1", "1 ", "-1", "0x1",
                             "1,", "99999999999999999999", "", "1)", "/*c*/1"}) {
    CheckText(std::string("HloModule m\nENTRY e {\n  %x = f32[2]{0} parameter(0)\n"
                          "  %y = f32[2]{0} parameter(") + number + ")\n  ROOT %z = f32[2]{0} add(%x, %y)\n}\n");
  }
  // Recently read shapes sharing their first bytes, one a prefix of another,
  // in sets of two ways, and followed by what ends a shape and what does not.
  {
    std::string text = "HloModule m\nENTRY e (p: f32[2,3]{1,0}, q: f32[2,3]) -> f32[2,3] {\n";
    text += "  %p = f32[2,3]{1,0} parameter(0)\n  %q = f32[2,3]{0,1} parameter(1)\n";
    const char* shapes[] = {"f32[2,3]{1,0}", "f32[2,3]{0,1}", "f32[2,3]", "f32[2,3]{1,0:T(2)}",
                            "f32[2,3] {1,0}", "(f32[2,3]{1,0}, f32[2,3])", "f32[2,3]{1,0}"};
    int n = 0;
    for (const char* a : shapes) {
      for (const char* b : shapes) {
        text += "  %v" + std::to_string(n) + " = " + a + " add(" + b + " %p, " + a + " %q)\n";
        text += "  %w" + std::to_string(n) + " = " + b + " negate(" + a + "  %p)\n";
        ++n;
      }
    }
    text += "  ROOT %r = f32[2,3]{1,0} add(f32[2,3]{1,0} %p, f32[2,3]{1,0} %p)\n}\n";
    CheckText(text);
  }
  // Tuple shapes of kilobytes (while-loop state), repeated, nested, and cut.
  {
    std::string tuple = "(";
    for (int i = 0; i < 120; ++i) tuple += std::string(i ? ", " : "") + "f32[2,3]{1,0}";
    tuple += ")";
    const std::string nested = "(" + tuple + ", s32[])";
    std::string text = "HloModule m\nENTRY e (p: " + tuple + ") -> " + nested + " {\n  %p = " +
                       tuple + " parameter(0)\n  %c = s32[] constant(0)\n";
    for (int i = 0; i < 3; ++i) {
      text += "  %t" + std::to_string(i) + " = " + nested + " tuple(" + tuple + " %p, s32[] %c)\n";
      text += "  %u" + std::to_string(i) + " = " + tuple + " get-tuple-element(" + nested + " %t" +
              std::to_string(i) + "), index=0\n";
    }
    text += "  ROOT %r = " + nested + " tuple(" + tuple + " %u2, s32[] %c)\n}\n";
    CheckText(text);
    CheckText(text.substr(0, text.size() / 2));
  }
  // Computation signatures: the dump form, and every form handed back.
  for (const char* signature :
       {"(a: f32[2], b: (f32[2], s32[])) -> f32[2]", "() -> f32[2]", "(a:f32[2]) -> f32[2]",
        "(%a: f32[2]) -> f32[2]", "(a : f32[2]) -> f32[2]", "(a: f32[2],b: f32[2]) -> f32[2]",
        "(a: f32[2], ) -> f32[2]", "(a: f32[2]) ->f32[2]", "(a: f32[2])-> f32[2]",
        "(a: f32[2]) -> f32[2]{0}", "(a: f32[2]) -> f32[2] {0}", "(a: f32[2]) -> f32[3]",
        "(a: f32[2]) f32[2]", "(ENTRY: f32[2], f32: f32[2], true: f32[]) -> f32[2]",
        "(a: f32[2]\n) -> f32[2]", "(a: f32[2] /*c*/) -> f32[2]", "(a: f32[7]) -> f32[2]",
        "(a: f32[2]) -> (f32[2], f32[2])", "(a: f32[2], a: f32[2]) -> f32[2]",
        // Shapes the module has not used yet, read by the grammar in place;
        // broken ones handed back with the rest.
        "(a: f32[9,9], b: u8[5]{0}) -> (f32[2], u8[5])", "(a: f32[2], b: s16[3,4]) -> s16[3,4]",
        "(a: f32[2,) -> f32[2]", "(a: f33[2]) -> f32[2]", "(a: f32[2]{1}) -> f32[2]",
        "(a: f32[2]) -> f32[2,", "(a: f32[2]) -> s16[4]{1}", "(a: u8[7]) -> (u8[7], (s8[], u8[7]))"}) {
    for (const char* body : {" {", "{", " {\n", " /*c*/ {"}) {
      CheckText(std::string("HloModule m\nc (p: f32[2], q: (f32[2], s32[])) -> f32[2] {\n"
                            "  ROOT p = f32[2] parameter(0)\n}\n"
                            "d ") + signature + body +
                "\n  p = f32[2] parameter(0)\n  ROOT r = f32[2] negate(p)\n}\n"
                "ENTRY e (x: f32[2]) -> f32[2] {\n  x = f32[2] parameter(0)\n"
                "  ROOT y = f32[2] call(x), to_apply=c\n}\n");
    }
  }
  // Truncated in the middle of an operand list, and at a shape.
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] add(f32[2] x, f32[");
  CheckText("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2");
  CheckText("HloModule m\nc (p: f32[2]) -> f32[2] {\n  ROOT p = f32[2] parameter(0)\n}\nd (p: f32[2]");
  CheckText("HloModule m\nc (p: f32[2]) -> f32[2] {\n  ROOT p = f32[2] parameter(0)\n}\nd (p: f32[2]) -> f32[2]");
}

TEST_CASE("fast paths: header tables read byte-wise or handed back", "[parser][fast]") {
  const std::string entry = "ENTRY e {\n  ROOT p = (f32[2], f32[2]) parameter(0)\n}\n";
  // input_output_alias as XLA prints it, then each way it is not.
  for (const char* alias : {
           "{ {0}: (0, {}, may-alias), {1}: (0, {1}, must-alias), {1,0}: (12, {}) }",
           "{ {0}: (0, {}, may-alias) }",
           "{}",
           "{ {0}: (0, {}) , {1}: (0, {}) }",
           "{ {0}: (00, {}) }",
           "{ {0}: (1234567890, {}) }",
           "{ {0}: (0, {0, 1}) }",
           "{ {0}: (0, {}, may-alias) /* c */ }",
           "{ {0}: (0, {}, maybe-alias) }",
           "{ {0}: (0, {}, may-alias), }",
           "{ {0}: (0, {}, may-alias)",
           "{ {-1}: (0, {}) }",
       }) {
    CheckText(std::string("HloModule m, input_output_alias=") + alias + "\n" + entry);
  }
  // Stack frame tables.
  const std::string tables =
      "HloModule m\nFileNames\n1 \"a.py\"\nFunctionNames\n1 \"f\"\nFileLocations\n";
  for (const char* locations : {
           "1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4 end_column=5}\n",
           "1 {end_column=5 column=4 end_line=3 line=2 function_name_id=1 file_name_id=1}\n",
           "1 {file_name_id=1, function_name_id=1, line=2, end_line=3, column=4, end_column=5}\n",
           "1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4}\n",
           "1 {file_name_id=1 function_name_id=1 line=2 line=2 end_line=3 column=4 end_column=5}\n",
           "1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4 end_column=5 x=1}\n",
           "1 {file_name_id=1 function_name_id=1 line=9999999999 end_line=3 column=4 end_column=5}\n",
           "1 {file_name_id=1 function_name_id=1 line=2 end_line=3 column=4 end_column=5\n",
       }) {
    CheckText(tables + locations + "StackFrames\n1 {file_location_id=1 parent_frame_id=0}\n" +
              entry);
  }
}

TEST_CASE("fast paths: attribute values read byte-wise or handed back", "[parser][fast]") {
  // Each line is checked with every value: the forms dumps print, and near
  // misses the byte-wise reader must leave to the grammar (or reject the
  // same way).
  const std::string head = R"(HloModule m
%fc (a: f32[2]) -> f32[2] {
  ROOT %a = f32[2]{0} parameter(0)
}
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
add2 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %e (p: f32[2], q: f32[2,3]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  %q = f32[2,3]{1,0} parameter(1)
  %z = f32[] constant(0)
  %t = (f32[2]{0}, f32[]) tuple(%p, %z)
)";
  const std::string tail = "  ROOT %out = f32[2]{0} copy(%p)\n}\n";
  struct Case {
    const char* line;  // `$` is replaced by each value
    std::vector<const char*> values;
  };
  const std::vector<Case> cases = {
      {"  %f = f32[2]{0} fusion(f32[2]{0} %p), kind=kLoop, calls=$\n",
       {"%fc", "fc", "%fc.x", "%nope", "%", "%1a", "%fc/*c*/", "%fc ", " %fc", "%fc,kind=kLoop",
        "%add", "{\n  ROOT %b = f32[2]{0} parameter(0)\n}", "%fc:", "%fc=", "%fc%fc", "\"fc\""}},
      {"  %f = f32[2]{0} fusion(f32[2]{0} %p), calls=%fc, kind=$\n",
       {"kLoop", "kInput", "kOutput", "kCustom", "kLoopy", "kloop", "kLoop:", "kLoop=1", " kLoop",
        "\"kLoop\"", "kLoop.", "kLoop-", "kLoop/*c*/", "kLoop, kind=kInput", "kLoop,", "k", "f32"}},
      {"  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=$\n",
       {"%add", "add2", "%add2", "%add, to_apply=%add", "%fc", "%add\n  , metadata={}"}},
      {"  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions=$, to_apply=%add\n",
       {"{0}", "{}", "{ 0}", "{0 }", "{0,}", "{-0}", "{00}", "{1}", "{0,0}", "{0:1}", "{0}}", "{1e2}",
        "{0x1}", "{0_0}", "{0b}", "{0f}", "{0?}", "{0i}", "{0o}", "{0.}", "{0-}", "{", "{0",
        "{999999999999999999}", "{9999999999999999999}", "{18446744073709551616}", "0", "{0}{0}"}},
      {"  %tr = f32[3,2]{1,0} transpose(f32[2,3]{1,0} %q), dimensions=$\n",
       {"{1,0}", "{0,1}", "{1, 0}", "{1,0,1}", "{1,/*c*/0}", "{1,\n0}", "{2,0}"}},
      {"  %g = f32[] get-tuple-element(%t), index=$\n",
       {"1", "0", "01", "2", "-1", "1e3", "1.5", "1_0", "1b", "1f", "1x1", "1?", "1i", "1o", "1-",
        "1.", "999999999999999999", "9999999999999999999", "18446744073709551616", "0x1", " 1",
        "1 ", "1/*c*/", "true", "\"1\"", "1\n  , metadata={}", "1, index=1"}},
      {"  %cc = f32[2]{0} custom-call(f32[2]{0} %p), custom_call_target=$\n",
       {"\"foo\"", "\"\"", "\"f\\\"oo\"", "\"f\\qoo\"", "\"f\\noo\"", "\"multi\nline\"", "foo", "'foo'",
        "\"foo", "\"foo\"\"bar\"", "\"foo\" ", "\"foo\",custom_call_has_side_effect=true"}},
      {"  %cc = f32[2]{0} custom-call(f32[2]{0} %p), custom_call_target=\"x\", "
       "custom_call_has_side_effect=$\n",
       {"true", "false", "True", "TRUE", "truex", "true:", "true=", "1", "\"true\"", " true",
        "true.", "false/*c*/"}},
      {"  %cc = (f32[2]{0}, f32[]) custom-call(f32[2]{0} %p, f32[] %z), custom_call_target=\"x\", "
       "output_to_operand_aliasing=$\n",
       {"{{0}: (0, {})}", "{{}: (0, {})}", "{{0}: (0, {}), {1}: (1, {})}", "{{0}: (1, {0})}",
        "{{0}:(0, {})}", "{{0}: (0,{})}", "{{0}: ( 0, {})}", "{{0}: (0, {}),}", "{{0}: (0, {}) }",
        "{{0}: (-1, {})}", "{{0}: (7, {})}", "{{0,1,2}: (0, {3,4})}", "{{0}: (0, {}), {0}: (1, {})}",
        "{}", "{ }", "{{0}: (0, {})", "{{0} (0, {})}", "{{0}: (0 {})}", "{{0,}: (0, {})}",
        "{{0}: (0, {}),{1}: (1, {})}", "{{0}: (0, {}),  {1}: (1, {})}"}},
      {"  %f = f32[2]{0} fusion(f32[2]{0} %p), kind=kLoop, calls=%fc, backend_config=$\n",
       {"{\"a\":1}", "{}", "{\"a\":\"}\"}", "{\"a\":\"\\\"}\"}", "{\"a\":{\"b\":[1]}}", "{\"a\":1",
        "{\"a\":\"x", "{\"a\":1}}", "{\"a\":1}x", "{\n}", " {}", "\"str\"", "\"s\\q\"", "\"s\\n\"",
        "'s'", "\"s", "\"\"", "{\"a\":1}, backend_config={}", "{\"a\":\"\\q\"}", "{\"a\":1}/*c*/",
        "x", "1", "{\"a\":\"\n\"}", "{\"a\\\n\":1}"}},
      {"  %c = pred[2]{0} compare(f32[2]{0} %p, f32[2]{0} %p), direction=$\n",
       {"EQ", "NE", "GE", "GT", "LE", "LT", "eq", "EQQ", "E", "EQ:", "EQ=", "EQ.", "EQ-", " EQ",
        "EQ/*c*/", "\"EQ\"", "EQ, direction=NE", "EQ, type=TOTALORDER", "f32", "true", "LT,"}},
      {"  %sl = f32[1]{0} slice(f32[2]{0} %p), slice=$\n",
       {"{[0:1]}", "{[0:1:1]}", "{[1:2]}", "{[0:1], [0:1]}", "{[0:1],[0:1]}", "{[0:1],   [0:1]}",
        "{[0]}", "{[0:1:1:1]}", "{[]}", "{}", "{[-1:1]}", "{[0:1],}", "{[0:1] }", "{[ 0:1]}",
        "{[0:1]", "{[0:1}", "{[0:1]]}", "{[0:1],\n[0:1]}", "{[0:01]}", "{[0:1e1]}", "{[0:3]}",
        "{[0:1]}}", "[0:1]", "{[0:1],[0:1],[0:1]}"}},
  };
  for (const Case& c : cases) {
    for (const char* value : c.values) {
      std::string line = c.line;
      line.replace(line.find('$'), 1, value);
      CheckText(head + line + tail);
    }
  }
}

TEST_CASE("fast paths: runs of attributes read byte-wise or handed back", "[parser][fast]") {
  // TakePlainAttributes reads `, name=value` after `, name=value` without the
  // lexer and stops before the first that does not fit: every position in a
  // run, duplicates, names the opcode does not allow, uncommon names, odd
  // blanks and what follows the last value.
  const std::string head = R"(HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%fc (a: f32[2]) -> f32[2] {
  ROOT %a = f32[2]{0} parameter(0)
}
ENTRY %e (p: f32[2], q: f32[2,3]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  %q = f32[2,3]{1,0} parameter(1)
  %z = f32[] constant(0)
)";
  const std::string tail = "  ROOT %out = f32[2]{0} copy(%p)\n}\n";
  const std::string md = R"(metadata={op_type="add" op_name="a/b" source_file="x.py" source_line=3})";
  const std::vector<std::string> lines = {
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), " + md + ", dimensions={0}, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, " + md + ", to_apply=%add",
      // Duplicates: of a value read byte-wise, of metadata, after a gap.
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, dimensions={0}, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, " + md + ", " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), to_apply=%add, dimensions={0}, to_apply=%add",
      // Not allowed here (a common name), unknown, uncommon but allowed.
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, index=1",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, kind=kLoop, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, bogus=1, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, "
      "sharding={replicated}, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, "
      "frontend_attributes={a=\"b\"}, " + md,
      // Missing: a required attribute, a value, a ',' between attributes.
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0} to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0},to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0},  to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0} , to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add,",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add, ",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add,, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add /*c*/, " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add\n  , " + md,
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add x",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), dimensions={0}, to_apply=%add %x = f32[] "
      "constant(1)",
      // Metadata the byte-wise reader hands back, then more attributes.
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), metadata={op_name=\"a\\\"b\"}, dimensions={0}, "
      "to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), metadata= {}, dimensions={0}, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), metadata={}, dimensions={0}, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), metadata={op_type=\"a\" op_type=\"b\"}, "
      "dimensions={0}, to_apply=%add",
      "  %r = f32[] reduce(f32[2]{0} %p, f32[] %z), metadata={op_type=\"a\"}x, dimensions={0}, "
      "to_apply=%add",
      // Several keyed values (dimensions, slice) with equal and different texts.
      "  %b = f32[2,3]{1,0} broadcast(f32[2]{0} %p), dimensions={0}, " + md,
      "  %b = f32[2,3]{1,0} broadcast(f32[2]{0} %p), dimensions={0}\n"
      "  %b2 = f32[2,3]{1,0} broadcast(f32[2]{0} %p), dimensions={0}, " + md + "\n"
      "  %sl = f32[1]{0} slice(f32[2]{0} %p), slice={[0:1]}, " + md,
      "  %f = f32[2]{0} fusion(f32[2]{0} %p), kind=kLoop, calls=%fc, " + md,
      "  %f = f32[2]{0} fusion(f32[2]{0} %p), kind=kLoop, calls=%fc, backend_config={\"a\":1}, " + md,
      "  %f = f32[2]{0} fusion(f32[2]{0} %p), kind=kLoop, kind=kLoop, calls=%fc",
      "  %f = f32[2]{0} fusion(f32[2]{0} %p), calls=%fc",
      "  %i = s32[] constant(0)\n  %ds = f32[1]{0} dynamic-slice(f32[2]{0} %p, s32[] %i), "
      "dynamic_slice_sizes={1}, " + md,
      "  %i = s32[] constant(0)\n  %ds = f32[1]{0} dynamic-slice(f32[2]{0} %p, s32[] %i), "
      "dynamic_slice_sizes={1}, dynamic_slice_sizes={1}",
      "  %i = s32[] constant(0)\n  %ds = f32[1]{0} dynamic-slice(f32[2]{0} %p, s32[] %i), "
      "dynamic_slice_sizes={3}, " + md,
      "  %i = s32[] constant(0)\n  %ds = f32[1]{0} dynamic-slice(f32[2]{0} %p, s32[] %i), "
      "dynamic_slice_sizes=1",
      "  %n = f32[2]{0} negate(f32[2]{0} %p), dynamic_slice_sizes={1}",
      "  %n = f32[2]{0} negate(f32[2]{0} %p), index_vector_dim=1",
      "  %ix = s32[1,1]{1,0} constant({{0}})\n  %g = f32[1]{0} gather(f32[2]{0} %p, s32[1,1]{1,0} %ix), "
      "offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
      "slice_sizes={1}, " + md,
      "  %ix = s32[1,1]{1,0} constant({{0}})\n  %g = f32[1]{0} gather(f32[2]{0} %p, s32[1,1]{1,0} %ix), "
      "offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
      "index_vector_dim=1, slice_sizes={1}",
  };
  for (const std::string& line : lines) CheckText(head + line + "\n" + tail);
}

TEST_CASE("fast paths: repeated shardings and replica groups taken again", "[parser][fast]") {
  // The last valid text is taken again byte for byte; anything else
  // (another text, an invalid one, a longer one it begins) is read by the
  // grammar.
  const std::vector<std::string> shardings = {
      "{replicated}", "{maximal device=0}", "{devices=[2]<=[2]}", "{devices=[2]0,1}",
      "{devices=[2]<=[3]}", "{{replicated}, {maximal device=1}}", "{replicated}}",
      "{replicated}x", "{replicated} ", "{replicated/*c*/}", "{ replicated}", "{manual}",
      "{devices=[1,2]<=[2] last_tile_dim_replicate}", "{}", "{replicated",
      "{replicated metadata={op_name=\"a\"}}", "{replicated}, sharding={replicated}"};
  for (const std::string& first : shardings) {
    for (const std::string& second : shardings) {
      CheckText("HloModule m\nENTRY e {\n  %p = f32[2]{0} parameter(0)\n"
                "  %a = f32[2]{0} negate(f32[2]{0} %p), sharding=" + first + ", metadata={}\n"
                "  %b = f32[2]{0} negate(f32[2]{0} %a), sharding=" + second + ", metadata={}\n"
                "  ROOT %c = f32[2]{0} negate(f32[2]{0} %b), sharding=" + first + "\n}\n");
    }
  }
  const std::vector<std::string> groups = {"{{0,1},{2,3}}", "{{0,1},{2,3}}}", "[2,2]<=[4]",
                                           "[2,2]<=[2,2]T(1,0)", "[2,2]<=[5]", "{}", "{{0,1}",
                                           "[2,2]<=[4]x", "{{0,1},{2,3}}, replica_groups={}"};
  for (const std::string& first : groups) {
    for (const std::string& second : groups) {
      CheckText("HloModule m, replica_count=4\nadd { x = f32[] parameter(0)\n"
                " y = f32[] parameter(1)\n ROOT a = f32[] add(x, y) }\nENTRY e {\n"
                "  p = f32[4] parameter(0)\n"
                "  a = f32[4] all-reduce(p), replica_groups=" + first + ", to_apply=add\n"
                "  b = f32[4] all-reduce(a), replica_groups=" + second + ", to_apply=add\n"
                "  ROOT c = f32[4] all-reduce(b), to_apply=add, replica_groups=" + first + "\n}\n");
    }
  }
}

TEST_CASE("fast paths: a few alternating replica groups taken again", "[parser][fast]") {
  // The parser remembers the last four valid texts: a module cycling
  // through three reads each once, five evict one another, and an invalid
  // text after them (one of them with more after it, or another) is read
  // by the grammar, with the same error.
  const std::vector<std::string> valid = {"[1,4]<=[4]", "[2,2]<=[4]", "[2,2]<=[2,2]T(1,0)",
                                          "{{0,1},{2,3}}", "[4,1]<=[4]"};
  const std::vector<std::string> invalid = {"[2,2]<=[5]", "[2,2]<=[4]x", "{{0,1}", "[2,2]<=[2,2]"};
  for (size_t distinct = 1; distinct <= valid.size(); ++distinct) {
    for (const std::string& bad : invalid) {
      std::string text =
          "HloModule m, replica_count=4\nadd { x = f32[] parameter(0)\n"
          " y = f32[] parameter(1)\n ROOT a = f32[] add(x, y) }\nENTRY e {\n"
          "  p0 = f32[4] parameter(0)\n";
      const size_t count = 3 * distinct;
      for (size_t i = 0; i < count; ++i) {
        text += "  p" + std::to_string(i + 1) + " = f32[4] all-reduce(p" + std::to_string(i) +
                "), replica_groups=" + valid[i % distinct] + ", to_apply=add\n";
      }
      text += "  q = f32[4] all-reduce(p0), replica_groups=" + bad + ", to_apply=add\n";
      CheckText(text + "  ROOT r = f32[4] negate(p" + std::to_string(count) + ")\n}\n");
    }
  }
}

TEST_CASE("fast paths: repeated metadata taken again", "[parser][fast]") {
  // Metadata equal byte for byte to the last valid one (its closing brace
  // included) is taken again; a longer text it begins, an invalid one, or
  // any other is read again.
  const std::vector<std::string> metadata = {
      "{op_name=\"a\"}", "{op_name=\"a\" source_line=3}", "{op_name=\"a\" op_name=\"b\"}",
      "{op_name=\"a\"}}", "{op_name=\"a\\\"b\"}", "{}", "{op_name=\"a\",source_line=3}",
      "{op_name=\"ab\"}", "{source_line=1234567890}", "{op_name=\"a\" }",
      "{op_type=\"x\" op_name=\"a\"}", "{op_name=\"a\"} "};
  for (const std::string& first : metadata) {
    for (const std::string& second : metadata) {
      CheckText("HloModule m\nENTRY e {\n  %p = f32[2]{0} parameter(0)\n"
                "  %a = f32[2]{0} negate(f32[2]{0} %p), metadata=" + first + "\n"
                "  %b = f32[2]{0} negate(f32[2]{0} %a), metadata=" + second + "\n"
                "  ROOT %c = f32[2]{0} negate(f32[2]{0} %b), metadata=" + first + ", sharding={replicated}\n}\n");
    }
  }
}

TEST_CASE("fast paths: small scalar constants read byte-wise or handed back", "[parser][fast]") {
  for (const char* type : {"f16", "bf16", "f32", "f64", "s8", "u8", "s16", "u16", "s32", "s64", "u32",
                           "u64", "pred", "c64", "f8e4m3fn", "s4", "token"}) {
    for (const char* layout : {"", "{}", "{0}", " {}"}) {
      for (const char* value : {"0", "1", "7", "00", "0007", "9999", "10000", "65504", "65520",
                                "32767", "32768", "255", "256", "127", "128", "-1", "1.5", "0x1",
                                "1e2", "1e", "true", "false", " 1", "1 ", "1/*c*/", "", "{1}", "1,",
                                "1)", "nan", "inf", "(1, 2)", "99999999999999999999"}) {
        // The parameter puts the shape's text in the cache the byte-wise
        // reader looks shapes up in.
        const std::string shape = std::string(type) + "[]" + layout;
        CheckText("HloModule m\nENTRY e {\n  %x = f32[] parameter(0)\n  %y = " + shape +
                  " parameter(1)\n  %c = " + shape + " constant(" + value +
                  ")\n  ROOT %r = f32[] copy(%x)\n}\n");
      }
    }
  }
  // Not scalars, and the last line of a file.
  CheckText("HloModule m\nENTRY e {\n  %c = f32[1]{0} constant(1)\n  ROOT %r = f32[1]{0} copy(%c)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  %c = f32[0]{0} constant(1)\n  ROOT %r = f32[0]{0} copy(%c)\n}\n");
  CheckText("HloModule m\nENTRY e {\n  %x = f32[] parameter(0)\n  ROOT %c = f32[] constant(1)");
  CheckText("HloModule m\nENTRY e {\n  %x = f32[] parameter(0)\n  ROOT %c = f32[] constant(1)\n}");
  CheckText("HloModule m\nENTRY e {\n  %x = f32[] parameter(0)\n  %c = f32[] constant(1), metadata={}\n"
            "  ROOT %r = f32[] copy(%x)\n}\n");
}

TEST_CASE("fast paths: our golden inputs parse the same both ways", "[parser][fast]") {
  namespace fs = std::filesystem;
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(HLOLINT_SOURCE_DIR) / "tests")) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".hlo" && ext != ".txt") continue;
    auto file = SourceFile::Open(entry.path().string(), entry.path().string());
    if (!file.ok()) continue;
    CheckBothWaysAgree(**file);
    ++files;
  }
  CHECK(files > 100);
}

TEST_CASE("fast paths: the corpus parses the same both ways", "[parser][fast][corpus]") {
  namespace fs = std::filesystem;
  const fs::path corpus(HLOLINT_CORPUS_DIR);
  if (!fs::is_directory(corpus)) {
    WARN("corpus not found at " << corpus.string() << ": skipped");
    return;
  }
  size_t files = 0;
  for (const fs::path& path : CorpusSample(corpus)) {
    auto file = SourceFile::Open(path.string(), path.string());
    if (!file.ok()) continue;
    CheckBothWaysAgree(**file);
    ++files;
  }
  CHECK(files > 2500 / kCorpusStride);
}

}  // namespace
}  // namespace hlolint
