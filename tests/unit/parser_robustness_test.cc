// The parser on hostile input: deep nesting, huge numbers, truncated and
// random bytes, many modules. Every input must give a module or a located
// error, never a crash, a hang or a stack overflow.
#include <catch2/catch.hpp>

#include <string>

#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

std::string Repeat(std::string_view piece, int count) {
  std::string out;
  out.reserve(piece.size() * static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) out += piece;
  return out;
}

// Every module parsed or failed with an error inside the text.
void CheckWellFormedResult(const Parsed& p, size_t size) {
  for (const ParsedModule& module : p.modules) {
    if (module.error) {
      CHECK(module.error->offset <= size);
      CHECK_FALSE(module.error->message.empty());
      CHECK(module.module == nullptr);
    } else {
      CHECK(module.module != nullptr);
    }
  }
}

TEST_CASE("robustness: 100,000 nested tuple shapes give a located nesting error") {
  const int depth = 100000;
  std::string text = "HloModule m\nENTRY e {\n  ROOT p = " + Repeat("(", depth) + "f32[]" +
                     Repeat(")", depth) + " parameter(0)\n}\n";
  Failure f = ParseFailure(text);
  CHECK_THAT(f.message, Catch::Matchers::Contains("nesting deeper than 500 levels"));
  // The instruction takes one level, so the 500th '(' is one too many.
  CHECK(f.at == "3:" + std::to_string(12 + 499));
}

TEST_CASE("robustness: deep nesting of every recursive construct") {
  const int depth = 100000;
  const std::string head = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n";
  auto check_nesting = [&](const std::string& line) {
    Failure f = ParseFailure(head + line + "\n}\n");
    INFO(f.at << ": " << f.message);
    CHECK_THAT(f.message, Catch::Matchers::Contains("nesting deeper than 500 levels"));
    CHECK(f.at.rfind("4:", 0) == 0);
  };
  // Nested operand instructions.
  check_nesting("  ROOT r = f32[] negate(" + Repeat("negate(", depth) + "a" + Repeat(")", depth + 1));
  // (Tuple literals nest no deeper than their shape, which is limited first.)
  // Nested buffer shapes.
  check_nesting("  ROOT r = " + Repeat("b(", depth) + "f32[]" + Repeat(")", depth) + " parameter(1)");
  // Nested custom-call literal tuples.
  check_nesting("  ROOT r = f32[] custom-call(), custom_call_target=\"t\", literal=" +
                Repeat("(", depth) + Repeat(")", depth));
  // Nested inline computations.
  check_nesting("  ROOT r = f32[] call(a), to_apply=" +
                Repeat("{ x = f32[] call(), to_apply=", depth) + "{ ROOT y = f32[] constant(0) }" +
                Repeat("}", depth));
  // Original-value tuple trees.
  Failure origin = ParseFailure(head + "  ROOT r = f32[] negate(a), origin={" + Repeat("(", depth) +
                                Repeat(")", depth) + "}\n}\n");
  CHECK_THAT(origin.message, Catch::Matchers::Contains("nesting too deep in original value"));
  // Literal braces and JSON braces are counted, not recursed.
  Failure braces = ParseFailure(head + "  ROOT r = f32[2] constant(" + Repeat("{", depth) + ")\n}\n");
  CHECK(braces.at == "4:29");
  CHECK_THAT(braces.message, Catch::Matchers::Contains("expects nested array in rank 1"));
  Parse(head + "  ROOT r = f32[] negate(a), backend_config=" + Repeat("{", depth) +
        Repeat("}", depth) + "\n}\n");
  Failure json = ParseFailure(head + "  ROOT r = f32[] negate(a), backend_config=" +
                              Repeat("{", depth) + "\n}\n");
  CHECK(json.at == "4:44");
  CHECK_THAT(json.message, Catch::Matchers::Contains("unterminated JSON object"));
  Failure sharding = ParseFailure(head + "  ROOT r = f32[] negate(a), sharding=" +
                                  Repeat("{", depth) + "\n}\n");
  CHECK(sharding.at == "4:40");
}

TEST_CASE("robustness: the nesting limit is configurable") {
  ParseLimits limits;
  limits.max_nesting_depth = 10;
  const std::string text = "HloModule m\nENTRY e {\n  ROOT p = ((((((((((f32[])))))))))) parameter(0)\n}\n";
  Parsed p = ParseAny(text, limits);
  REQUIRE(p.modules.size() == 1);
  REQUIRE(p.modules[0].error);
  CHECK(p.At(p.modules[0].error->offset) == "3:21");
  CHECK_FALSE(ParseAny(text).modules[0].error);
}

TEST_CASE("robustness: huge numbers") {
  const std::string head = "HloModule m\nENTRY e {\n  ROOT p = ";
  CHECK(Parse(head + "f32[9223372036854775807] parameter(0)\n}").m().shape(0).dimensions[0] ==
        INT64_MAX);
  // XLA checks each dimension, not the element count (ElementCount is
  // nullopt for these).
  CHECK_FALSE(ElementCount(Parse(head + "f32[9223372036854775807,2] parameter(0)\n}").m().shape(0))
                  .has_value());
  CHECK_FALSE(ElementCount(Parse(head + "f32[65536,65536,65536,65536] parameter(0)\n}").m().shape(0))
                  .has_value());
  CHECK_PARSE_ERROR(head + "f32[18446744073709551616] parameter(0)\n}", "3:16",
                    "integer literal 18446744073709551616 does not fit in 64 bits");
  CHECK_PARSE_ERROR(head + "s64[] constant(99999999999999999999999999)\n}", "3:27",
                    "does not fit in 64 bits");
  CHECK_PARSE_ERROR(head + "f32[] parameter(9223372036854775807)\n}", "3:8",
                    "invalid parameter number. Expected [0, 1), got 9223372036854775807");
  CHECK_PARSE_ERROR(head + "f32[] parameter(18446744073709551615)\n}", "3:28",
                    "parameter number must be >= 0");
  CHECK_PARSE_ERROR(head + "f32[] constant(1e99999)\n}", "3:27",
                    "Constant is out of range for double");
  Parse(head + "f32[] constant(1e-99999)\n}");
  CHECK_PARSE_ERROR(head + "s32[4] iota(), iota_dimension=99999999999999999999\n}", "3:42",
                    "does not fit in 64 bits");
}

constexpr std::string_view kMediumModule = R"(HloModule medium, is_scheduled=true, entry_computation_layout={(f32[8,4]{1,0}, s32[])->(f32[8,4]{1,0}, s32[])}, input_output_alias={ {0}: (0, {}, may-alias) }

FileNames
1 "model.py"
FunctionNames
1 "fn"
FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=20}
StackFrames
1 {file_location_id=1 parent_frame_id=0}

%add.clone (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y), metadata={op_type="Add" op_name="add" source_file="model.py" source_line=3}
}

%fused_computation (param_0: f32[8,4], param_1: f32[]) -> f32[8,4] {
  %param_0 = f32[8,4]{1,0} parameter(0)
  %param_1 = f32[] parameter(1)
  %broadcast = f32[8,4]{1,0} broadcast(%param_1), dimensions={}
  ROOT %multiply = f32[8,4]{1,0} multiply(%param_0, %broadcast)
}

%cond (t: (s32[], f32[8,4])) -> pred[] {
  %t = (s32[], f32[8,4]{1,0}) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %limit = s32[] constant(10)
  ROOT %lt = pred[] compare(%i, %limit), direction=LT
}

%body (t: (s32[], f32[8,4])) -> (s32[], f32[8,4]) {
  %t = (s32[], f32[8,4]{1,0}) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %v = f32[8,4]{1,0} get-tuple-element(%t), index=1
  %scale = f32[] constant(0.5)
  %f = f32[8,4]{1,0} fusion(%v, %scale), kind=kLoop, calls=%fused_computation
  ROOT %out = (s32[], f32[8,4]{1,0}) tuple(%next, %f)
}

ENTRY %main (p0: f32[8,4], p1: s32[]) -> (f32[8,4], s32[]) {
  %p0 = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]0,1}
  %p1 = s32[] parameter(1)
  %init = (s32[], f32[8,4]{1,0}) tuple(%p1, %p0)
  %loop = (s32[], f32[8,4]{1,0}) while(%init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"10"}}
  %res = f32[8,4]{1,0} get-tuple-element(%loop), index=1
  %zero = f32[] constant(0)
  %sum = f32[] reduce(%res, %zero), dimensions={0,1}, to_apply=%add.clone
  %ar = f32[8,4]{1,0} all-reduce(%res), channel_id=1, replica_groups=[1,2]<=[2], use_global_device_ids=true, to_apply=%add.clone
  %c = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, /*x*/ 4 } })
  %cc = (f32[8,4]{1,0}, u32[]) custom-call(%ar), custom_call_target="foo", api_version=API_VERSION_STATUS_RETURNING, frontend_attributes={_xla_compute_type="host"}
  %g = f32[8,4]{1,0} get-tuple-element(%cc), index=0, control-predecessors={%sum}
  %idx = s32[] get-tuple-element(%loop), index=0
  ROOT %result = (f32[8,4]{1,0}, s32[]) tuple(%g, %idx)
}
)";

TEST_CASE("robustness: the medium module parses") {
  Parsed p = Parse(kMediumModule);
  const Module& m = p.m();
  CHECK(m.computation_count() == 5);
  CHECK(m.is_scheduled());
  CHECK(Names(m, m.control_predecessors(p.Id("g"))) == StringList{"sum"});
}

TEST_CASE("robustness: every prefix of a module parses or fails with a located error") {
  const std::string full(kMediumModule);
  size_t failures = 0;
  for (size_t length = 0; length <= full.size(); ++length) {
    const std::string prefix = full.substr(0, length);
    Parsed p = ParseAny(prefix);
    for (const ParsedModule& module : p.modules) {
      if (module.error) {
        ++failures;
        REQUIRE(module.error->offset <= length);
        REQUIRE_FALSE(module.error->message.empty());
      }
    }
  }
  // A prefix ending right after a computation's '}' (and any blank lines
  // after it) is a complete module whose last computation is the entry:
  // three places after each of the four computations, two after ENTRY.
  const size_t complete = 4 * 3 + 2;
  CHECK(failures == full.size() - complete);
}

TEST_CASE("robustness: random bytes and mutated modules") {
  // A fixed linear congruential generator keeps the test deterministic.
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 200; ++round) {
    std::string garbage(1 + next() % 2000, '\0');
    for (char& c : garbage) c = static_cast<char>(next() & 0xff);
    Parsed p = ParseAny(garbage);
    CheckWellFormedResult(p, garbage.size());
  }
  // Single-byte mutations of a real module: some still parse, the rest fail
  // with a located error.
  const std::string full(kMediumModule);
  for (int round = 0; round < 2000; ++round) {
    std::string mutated = full;
    mutated[next() % mutated.size()] = static_cast<char>(next() & 0xff);
    Parsed p = ParseAny(mutated);
    CheckWellFormedResult(p, mutated.size());
  }
}

TEST_CASE("robustness: invalid UTF-8 in strings is kept, in names it is an error") {
  Parsed p = Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), "
                   "metadata={op_name=\"\xff\xfe\xc3\x28\"}\n}\n");
  CHECK(Metadata(p.m(), p.Id("c"))->op_name == "\xff\xfe\xc3\x28");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  ROOT c\xff = f32[] constant(1)\n}\n", "3:9",
                    "unexpected non-ASCII byte 0xFF");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  ROOT caf\xc3\xa9 = f32[] constant(1)\n}\n", "3:11",
                    "unexpected non-ASCII byte 0xC3");
}

TEST_CASE("robustness: NUL bytes anywhere are errors at the NUL") {
  static const char kInString[] =
      "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), metadata={op_name=\"a\0b\"}\n}\n";
  CHECK_PARSE_ERROR(std::string(kInString, sizeof(kInString) - 1), "3:51", "NUL byte in the text");
  static const char kInComment[] = "HloModule m /* \0 */\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n";
  CHECK_PARSE_ERROR(std::string(kInComment, sizeof(kInComment) - 1), "1:16", "NUL byte in the text");
  static const char kBare[] = "HloModule m\nENTRY e {\n  ROOT c = f32[] \0constant(1)\n}\n";
  CHECK_PARSE_ERROR(std::string(kBare, sizeof(kBare) - 1), "3:18", "NUL byte in the text");
}

TEST_CASE("robustness: wide instructions and many modules") {
  // 100,000 operands, 100,000 tuple elements and as many control
  // predecessors (more than fit in 16 bits).
  const int n = 100000;
  std::string text = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  t = (";
  for (int i = 0; i < n; ++i) text += i ? ", f32[]" : "f32[]";
  text += ") tuple(" + Repeat("a, ", n - 1) + "a)\n";
  std::string preds;
  for (int i = 0; i < n; ++i) {
    text += "  n" + std::to_string(i) + " = f32[] negate(a)\n";
    preds += (i ? ", n" : "n") + std::to_string(i);
  }
  text += "  ROOT r = f32[] negate(a), control-predecessors={" + preds + "}\n}\n";
  Parsed p = Parse(text);
  const Module& m = p.m();
  CHECK(m.operands(p.Id("t")).size() == static_cast<size_t>(n));
  CHECK(m.shape(p.Id("t")).tuple_shapes.size() == static_cast<size_t>(n));
  CHECK(m.control_predecessors(p.Id("r")).size() == static_cast<size_t>(n));
  CHECK(m.users(p.Id("a")).size() == static_cast<size_t>(n + 2));

  // 100,000 tiny modules in one file, each parsed on its own; the consumer
  // drops each IR so memory holds one at a time.
  const std::string tiny = "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n// -----\n";
  const std::string many = Repeat(tiny, n);
  auto file = SourceFile::FromString("many.hlo", many);
  int parsed = 0, failed = 0;
  ParseModules(*file, [&](ParsedModule&& module) {
    if (module.error) {
      ++failed;
    } else if (module.module->instruction_count() == 1) {
      ++parsed;
    }
  });
  CHECK(parsed == n);
  CHECK(failed == 0);
}

TEST_CASE("robustness: the instruction size limit") {
  ParseLimits limits;
  limits.max_instruction_bytes = 64;
  const std::string text = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  ROOT r = f32[] negate(a), "
                           "metadata={op_name=\"a very long name that goes on and on\"}\n}\n";
  Parsed p = ParseAny(text, limits);
  REQUIRE(p.modules[0].error);
  CHECK(p.At(p.modules[0].error->offset) == "4:12");
  CHECK_THAT(p.modules[0].error->message,
             Catch::Matchers::Contains("instruction text is longer than the limit of 64 bytes"));
}

TEST_CASE("robustness: text that is not HLO") {
  // Text with nothing of HLO in it is one unsupported-format finding.
  for (const char* text : {"int main() { return 0; }\n", "{\"hlo\": true}\n", "\n\n  prose\n"}) {
    Parsed other = ParseAny(text);
    REQUIRE(other.modules.size() == 1);
    CHECK(other.modules[0].unsupported_format);
    CHECK_FALSE(other.modules[0].fix.empty());
  }
  Parsed prose = ParseAny("\n\n  prose\n");
  CHECK(prose.At(prose.modules[0].error->offset) == "3:3");
  Parsed proto = ParseAny("# comment\nhlo_module {\n  name: \"x\"\n}\n");
  REQUIRE(proto.modules.size() == 1);
  CHECK(proto.modules[0].unsupported_format);
  CHECK(proto.At(proto.modules[0].error->offset) == "2:1");
  // Empty and comment-only files hold no module.
  CHECK(ParseAny("").modules.empty());
  CHECK(ParseAny("  // nothing\n/* here */\n").modules.empty());
}

}  // namespace
}  // namespace hlolint::parse_testing
