// What SniffTextFormat (parse/format_sniff.h) tells from a file's start.
#include "parse/format_sniff.h"

#include <catch2/catch.hpp>
#include <string>

using namespace hlolint;

namespace {

TextFormat Sniff(std::string_view text, bool whole = true) {
  return SniffTextFormat(text, whole).format;
}

}  // namespace

TEST_CASE("sniff: HLO text after comments, in the forms XLA prints") {
  CHECK(Sniff("HloModule m, entry_computation_layout={()->f32[]}\n") == TextFormat::kHloText);
  CHECK(Sniff("// comment\n/* block\n comment */\n\nHloModule m\n") == TextFormat::kHloText);
  CHECK(Sniff("ENTRY %main (p: f32[]) -> f32[] {\n") == TextFormat::kHloText);
  CHECK(Sniff("ENTRY main {\n") == TextFormat::kHloText);
  CHECK(Sniff("%fused_computation (param_0: f32[4]) -> f32[4] {\n") == TextFormat::kHloText);
  CHECK(Sniff("add.clone {\n") == TextFormat::kHloText);
  CHECK(Sniff("region_0.1 (Arg_0: f32[], Arg_1: f32[]) -> f32[] {\n") == TextFormat::kHloText);
  // A header longer than the sniffed bytes.
  CHECK(Sniff("%c (p0: f32[1], p1: f32[2], p2: f32[3]", false) == TextFormat::kHloText);
  // Binary bytes later in the file are the parser's to report.
  CHECK(Sniff(std::string("HloModule m\nENTRY e {\n  c = f32[] constant(\0 1)\n", 44)) ==
        TextFormat::kHloText);
  const SniffResult at = SniffTextFormat("// a\n\n  HloModule m\n", true);
  CHECK(at.offset == 8);
}

TEST_CASE("sniff: no module, or only comments so far") {
  CHECK(Sniff("") == TextFormat::kNoModule);
  CHECK(Sniff(" \n\t\n// c\n") == TextFormat::kNoModule);
  CHECK(Sniff("// c\n// d\n", false) == TextFormat::kUndecided);
  CHECK(Sniff("/* open comment", false) == TextFormat::kUndecided);
}

TEST_CASE("sniff: what people pass by mistake") {
  CHECK(Sniff("module @jit_f attributes {mhlo.num_partitions = 1 : i32} {\n"
              "  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n") ==
        TextFormat::kMlirText);
  CHECK(Sniff("module {\n  func.func @main() {\n") == TextFormat::kMlirText);
  CHECK(Sniff("#loc1 = loc(\"x\")\nmodule @m {\n") == TextFormat::kMlirText);
  CHECK(Sniff("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n") == TextFormat::kMlirText);
  CHECK(Sniff("# comment\nhlo_module {\n  name: \"x\"\n}\n") == TextFormat::kProtoText);
  CHECK(Sniff("name: \"jit_f\"\nentry_computation_name: \"main\"\n") == TextFormat::kProtoText);
  CHECK(Sniff("{\"name\": \"jit_f\", \"entryComputationName\": \"main.3\"}") ==
        TextFormat::kProtoJson);
  CHECK(Sniff("{\"hlo\": true}\n") == TextFormat::kJson);
  CHECK(Sniff("[1, 2]\n") == TextFormat::kJson);
  // An HloModuleProto as jaxlib serializes one, and wrapped in an HloProto.
  const std::string module("\n\x0bjit__lambda\x12\x06main.1\x1a\xc6\x02\n\x06main.1", 30);
  CHECK(Sniff(module) == TextFormat::kProtoBinary);
  CHECK(Sniff(std::string("\n\xe2\x02", 3) + module) == TextFormat::kProtoBinary);
  CHECK(Sniff(std::string("\0\1\2\3", 4)) == TextFormat::kBinary);
  CHECK(Sniff("\x7f" "ELF\x02\x01\x01") == TextFormat::kBinary);
  CHECK(Sniff("caf\xc3\xa9 \xff\n") == TextFormat::kBinary);      // not UTF-8
  CHECK(Sniff("caf\xc3\xa9 ok\n") == TextFormat::kPlainText);     // UTF-8
  CHECK(Sniff("ok \xc3", false) == TextFormat::kPlainText);       // cut in a character
  CHECK(Sniff("\xed\xa0\x80") == TextFormat::kBinary);            // a surrogate
  CHECK(Sniff("cmake_minimum_required(VERSION 3.20)\nproject(x)\n") == TextFormat::kPlainText);
  CHECK(Sniff("numpy>=1.26\njax==0.4.30\n") == TextFormat::kPlainText);
  CHECK(Sniff("int main() { return 0; }\n") == TextFormat::kPlainText);
  CHECK(Sniff("Dear reader,\nthis is a letter.\n") == TextFormat::kPlainText);
}

TEST_CASE("sniff: broken HLO is left to the parser") {
  CHECK(Sniff("ROOT x = f32[] add(y, z)\n") == TextFormat::kHloLike);
  CHECK(Sniff("stray line\nHloModule m\n") == TextFormat::kHloLike);
  CHECK(Sniff("x = bf16[2]{0} parameter(0)\n") == TextFormat::kHloLike);
  CHECK(Sniff("ROOT CAUSE: unknown\n") == TextFormat::kPlainText);
}

TEST_CASE("sniff: which formats a scan lints and which are unsupported") {
  CHECK(ScanLints(TextFormat::kHloText));
  CHECK(ScanLints(TextFormat::kUndecided));
  CHECK_FALSE(ScanLints(TextFormat::kNoModule));
  CHECK(ScanLints(TextFormat::kHloLike));
  CHECK_FALSE(ScanLints(TextFormat::kPlainText));
  CHECK_FALSE(IsUnsupportedFormat(TextFormat::kHloLike));
  CHECK_FALSE(IsUnsupportedFormat(TextFormat::kNoModule));
  CHECK(IsUnsupportedFormat(TextFormat::kMlirText));
  CHECK(IsUnsupportedFormat(TextFormat::kBinary));
  CHECK(AdviceFor(TextFormat::kMlirText).fix.find("as_text(dialect=\"hlo\")") != std::string::npos);
}
