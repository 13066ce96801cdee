// Syntax XLA's parser accepted for some weeks only, read for the XLA of
// ParseLimits::xla: `conv_kind=` (later `convolution_kind=`) on
// convolutions, and unquoted (later quoted) mesh axis names in named
// shardings. Each form is accepted inside its window and rejected outside
// it with a message that says which XLA took it; the byte-wise fast paths
// and the two-thread parse honour the profile as the grammar does.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "parse/attributes.h"
#include "parse_describe.h"
#include "parse_helpers.h"
#include "xla/profile.h"

namespace hlolint::parse_testing {
namespace {

ParseLimits For(std::string_view version) {
  const std::optional<XlaProfile> profile = XlaProfile::Parse(version);
  REQUIRE(profile);
  ParseLimits limits;
  limits.xla = *profile;
  return limits;
}

std::string Day(XlaChange change) { return XlaChangeOf(change).date.ToString(); }

// How messages describe the XLA read for.
std::string ReadAs(std::string_view version) {
  return "this file is read as " + For(version).xla.Describe();
}

// A module with a computation `add` whose entry has parameters m
// (f32[4,4]) and c (f32[1,4,1]), then `line` (line 10 of the text).
std::string WithLine(const std::string& line) {
  return "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n  m = f32[4,4] parameter(0)\n"
         "  c = f32[1,4,1] parameter(1)\n" + line + "\n}\n";
}

// "10:<column of the first `at` in the line>" (line 10 as WithLine places
// it), or of what follows `mesh[` for "mesh[*".
std::string At(const std::string& line, std::string_view at) {
  const bool after_mesh = at == "mesh[*";
  const size_t column = line.find(after_mesh ? "mesh[" : at);
  REQUIRE(column != std::string::npos);
  return "10:" + std::to_string(column + 1 + (after_mesh ? 5 : 0));
}

void CheckParses(const std::string& line, std::string_view version) {
  INFO("xla-version " << version << ": " << line);
  Parse(WithLine(line), For(version));
}

// The first error is at `at` and its message holds each fragment.
void CheckFails(const std::string& line, std::string_view version, std::string_view at,
                std::initializer_list<std::string> fragments) {
  INFO("xla-version " << version << ": " << line);
  const Failure failure = ParseFailure(WithLine(line), For(version));
  INFO("error: " << failure.at << ": " << failure.message);
  CHECK(failure.at == At(line, at));
  for (const std::string& fragment : fragments) {
    CHECK_THAT(failure.message, Catch::Matchers::Contains(fragment));
  }
}

const std::string kConvKind =
    "  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, dim_labels=b0f_0io->b0f, "
    "conv_kind=fprop";
const std::string kConvolutionKind =
    "  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, dim_labels=b0f_0io->b0f, "
    "convolution_kind=wgrad";

TEST_CASE("xla version: the dates come from the table of changes", "[parser][xla]") {
  // The tests below name days on both sides of each change.
  CHECK(Day(XlaChange::kConvKindAccepted) == "2026-01-29");
  CHECK(Day(XlaChange::kConvKindRenamed) == "2026-03-20");
  CHECK(Day(XlaChange::kUnquotedMeshAxesAccepted) == "2026-02-10");
  CHECK(Day(XlaChange::kMeshAxesQuoted) == "2026-03-05");
}

TEST_CASE("xla version: conv_kind= only from 2026-01-29 to 2026-03-19", "[parser][xla]") {
  for (std::string_view version : {"2026-01-29", "2026-02-28", "2026-03-19"}) {
    CheckParses(kConvKind, version);
    for (std::string_view value : {"wgrad", "dgrad", "unset"}) {
      CheckParses("  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, "
                  "dim_labels=b0f_0io->b0f, conv_kind=" + std::string(value), version);
    }
    CheckFails("  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, "
               "dim_labels=b0f_0io->b0f, conv_kind=bprop",
               version, "bprop", {"expects convolution kind"});
  }
  // After the rename: the old name is an unexpected attribute.
  const std::string after =
      "unexpected attribute \"conv_kind\" (XLA accepted conv_kind= only from 2026-01-29 to "
      "2026-03-19; since 2026-03-20 it is convolution_kind=; ";
  CHECK_THAT(ReadAs("latest"),
             Catch::Matchers::StartsWith("this file is read as XLA latest (" +
                                         XlaProfile::LatestDate().ToString() + " or later)"));
  CheckFails(kConvKind, "latest", "conv_kind",
             {after + ReadAs("latest") +
                  ": --xla-version 2026-03-19 reads it as that XLA did). "
                  "Allowed attributes: algorithm, backend_config,"});
  CheckFails(kConvKind, "2026-03-20", "conv_kind",
             {after + ReadAs("2026-03-20") +
                  ": --xla-version 2026-03-19 reads it as that XLA did). Allowed attributes: ",
              "convolution_kind"});
  // Before it was added.
  CheckFails(kConvKind, "2026-01-28", "conv_kind",
             {after + ReadAs("2026-01-28") +
              ": --xla-version 2026-03-19 reads it as that XLA did). Allowed attributes: "});
  // No conv_kind is listed as allowed where it is not.
  const Failure failure = ParseFailure(WithLine(kConvKind), For("2026-01-28"));
  CHECK_THAT(failure.message, !Catch::Matchers::Contains("kind,"));
}

TEST_CASE("xla version: convolution_kind= only from 2026-03-20", "[parser][xla]") {
  for (std::string_view version : {"2026-03-20", "2026-06-01", "latest", "jaxlib-0.10.0"}) {
    CheckParses(kConvolutionKind, version);
  }
  for (std::string_view version : {"2026-03-19", "2026-01-29", "2026-01-28", "2025-06-01"}) {
    CheckFails(kConvolutionKind, version, "convolution_kind",
               {"unexpected attribute \"convolution_kind\" (XLA accepts convolution_kind= only "
                "from 2026-03-20 on; from 2026-01-29 to 2026-03-19 it was conv_kind=; " +
                ReadAs(version) + ": --xla-version 2026-03-20 or later reads it). Allowed "
                "attributes: "});
  }
  // The backend is part of the description when it is known.
  ParseLimits gpu = For("2026-03-01");
  gpu.xla = gpu.xla.WithBackend(Backend::kGpu);
  const Failure failure = ParseFailure(WithLine(kConvolutionKind), gpu);
  CHECK_THAT(failure.message, Catch::Matchers::Contains("read as XLA of 2026-03-01, gpu:"));
}

TEST_CASE("xla version: a misspelt attribute gets no version note", "[parser][xla]") {
  const Failure failure = ParseFailure(
      WithLine("  ROOT r = f32[1,4,1] convolution(c, c), window={size=1}, "
               "dim_labels=b0f_0io->b0f, conv_knd=fprop"),
      For("2026-02-01"));
  CHECK_THAT(failure.message, Catch::Matchers::StartsWith("unexpected attribute \"conv_knd\". "
                                                          "Allowed attributes: "));
  CHECK_THAT(failure.message, Catch::Matchers::Contains("conv_kind,"));
}

const std::string kQuoted =
    "  ROOT n = f32[4,4] negate(m), sharding={mesh['a'=2,'b'=4], [{'a'}, {'b':(2)2}], "
    "replicated={}}";
const std::string kUnquoted =
    "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a}, {b:(2)2}], replicated={}}";

TEST_CASE("xla version: unquoted mesh axes only from 2026-02-10 to 2026-03-04", "[parser][xla]") {
  const std::vector<std::string> unquoted = {
      kUnquoted,
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4,c=3,d=8], [{a}, {b:(2)2}]}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[x=2,y=2], device_ids=(0,2,1,3), [{x}]}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a}], replicated={b}}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], unreduced}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a}, {}], manual={b:(2)2}}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a, ?}, {}], unreduced={b}}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2], [{%a}, {}]}",
      "  ROOT n = (f32[4,4], f32[4,4]) tuple(m, m), sharding={{mesh[a=2], [{a}, {}]}, "
      "{maximal_mesh[device_id=5]}}",
  };
  const std::vector<std::string> either = {
      "  ROOT n = f32[4,4] negate(m), sharding={maximal_mesh[device_id=5]}",
      "  ROOT n = f32[4,4] negate(m), sharding={mesh[], replicated}",
  };
  for (std::string_view version : {"2026-02-10", "2026-02-20", "2026-03-04"}) {
    for (const std::string& line : unquoted) CheckParses(line, version);
    for (const std::string& line : either) CheckParses(line, version);
    // The quoted form was not: XLA wanted an attribute name (`a=`) or a name.
    CheckFails(kQuoted, version, "'a'=2",
               {"expects attribute name (XLA accepts quoted mesh axis names (mesh['a'=2], {'a'}) "
                "only from 2026-03-05 on; from 2026-02-10 to 2026-03-04 they were unquoted "
                "(mesh[a=2], {a}); " + ReadAs(version) +
                ": --xla-version 2026-03-05 or later reads it)"});
    // A reference in the other form than its mesh's names: no XLA took
    // that, so no note.
    CheckFails("  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{'a'}, {}]}", version,
               "'a'}", {"expects name"});
    CHECK(ParseFailure(WithLine("  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2], [{'a'}]}"),
                       For(version)).message == "expects name");
    // Other errors keep their messages, the mesh written as it was.
    CheckFails("  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{z}, {}]}", version, "z}",
               {"axis 'z' is not a valid axis name or index in mesh mesh[a=2,b=4]"});
    CheckFails("  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a}, {}], replicated={7}}",
               version, "7}", {"expects name"});
    const Failure failure = ParseFailure(
        WithLine("  ROOT n = f32[4,4] negate(m), sharding={mesh[a=2,b=4], [{a}, {}], replicated={7}}"),
        For(version));
    CHECK_THAT(failure.message, !Catch::Matchers::Contains("XLA"));
    // Replica groups in mesh form stay quoted whatever the version.
    CheckFails("  ROOT r = f32[4,4] all-reduce(m), replica_groups=mesh[x=2] {x}, to_apply=add",
               version, "x=2", {"expects string"});
  }
  // Before 2026-03-05 the quoted form fails; from then on the unquoted one.
  for (std::string_view version : {"2026-03-05", "2026-05-01", "latest"}) {
    CheckParses(kQuoted, version);
    for (const std::string& line : either) CheckParses(line, version);
    const std::string note =
        "(XLA accepted unquoted mesh axis names (mesh[a=2], {a}) only from 2026-02-10 to "
        "2026-03-04; since 2026-03-05 they are quoted (mesh['a'=2], {'a'}); " + ReadAs(version) +
        ": --xla-version 2026-03-04 reads it as that XLA did)";
    for (const std::string& line : unquoted) {
      CheckFails(line, version, "mesh[*", {"expects string " + note});
    }
    // References in the other form than their mesh's names, or not names
    // at all: no XLA took them, so no note.
    for (const char* line :
         {"  ROOT n = f32[4,4] negate(m), sharding={mesh['a'=2], [{a}, {}]}",
          "  ROOT n = f32[4,4] negate(m), sharding={mesh['a'=2,'b'=4], [{'a'}, {b:(2)2}]}",
          "  ROOT n = f32[4,4] negate(m), sharding={mesh['a'=2,'b'=4], [{'a'}], replicated={b}}",
          "  ROOT n = f32[4,4] negate(m), sharding={mesh['a'=2], [{7}, {}]}"}) {
      INFO(line);
      CHECK(ParseFailure(WithLine(line), For(version)).message == "expects string");
    }
  }
}

TEST_CASE("xla version: no named shardings before 2026-02-10", "[parser][xla]") {
  const std::string head =
      "unexpected token (XLA parses named shardings (mesh[...], maximal_mesh[...]) only from "
      "2026-02-10 on, with unquoted axis names (mesh[a=2]) until 2026-03-04 and quoted ones "
      "(mesh['a'=2]) since 2026-03-05; ";
  for (std::string_view version : {"2026-02-09", "2026-01-01", "jaxlib-0.10.0"}) {
    if (version == "jaxlib-0.10.0") {
      // A jaxlib built from XLA of 2026-04-14: quoted names.
      CheckParses(kQuoted, version);
      continue;
    }
    const std::string v = ReadAs(version);
    CheckFails(kQuoted, version, "mesh",
               {head + v + ": --xla-version 2026-03-05 or later reads it)"});
    CheckFails(kUnquoted, version, "mesh",
               {head + v + ": --xla-version 2026-03-04 reads it as that XLA did)"});
    CheckFails("  ROOT n = f32[4,4] negate(m), sharding={maximal_mesh[device_id=5]}", version,
               "maximal_mesh", {head + v + ": --xla-version 2026-02-10 or later reads it)"});
    CheckFails("  ROOT n = f32[4,4] negate(m), sharding={mesh[], replicated}", version, "mesh",
               {head + v + ": --xla-version 2026-02-10 or later reads it)"});
    // Inside a tuple sharding too; HLO shardings as always.
    CheckFails("  ROOT n = (f32[4,4], f32[4,4]) tuple(m, m), sharding={{replicated}, "
               "{mesh['a'=2], [{'a'}, {}]}}",
               version, "mesh", {head + v});
    CheckParses("  ROOT n = f32[4,4] negate(m), sharding={devices=[2,1]<=[2]}", version);
    // Replica groups in mesh form: as today.
    CheckParses("  ROOT r = f32[4,4] all-reduce(m), to_apply=add, "
                "replica_groups=mesh['x'=2,'y'=2] {'y'}",
                version);
  }
}

TEST_CASE("xla version: named shardings read back in the form they have", "[parser][xla]") {
  // Rules read attributes again (parse/attributes.h) without a profile.
  Parsed unquoted = Parse(WithLine(kUnquoted), For("2026-02-20"));
  const std::optional<Sharding> a = ShardingAttr(unquoted.m(), unquoted.Id("n"));
  REQUIRE(a);
  CHECK(a->kind == Sharding::Kind::kNamed);
  CHECK(a->mesh_axes == StringList{"a", "b"});
  CHECK(a->mesh_sizes == std::vector<int64_t>{2, 4});
  Parsed quoted = Parse(WithLine(kQuoted), For("2026-03-05"));
  const std::optional<Sharding> b = ShardingAttr(quoted.m(), quoted.Id("n"));
  REQUIRE(b);
  CHECK(b->mesh_axes == StringList{"a", "b"});
  Parsed conv = Parse(WithLine(kConvKind), For("2026-02-01"));
  CHECK(IdentAttr(conv.m(), conv.Id("r"), AttrName::kConvKind) == "fprop");
}

// The same text parsed with and without the fast paths, on one thread and
// on two, for the XLA of `limits`: the same IR or the same first error.
void CheckAllWaysAgree(const std::string& text, ParseLimits limits) {
  auto file = SourceFile::FromString("xla.hlo", text);
  limits.fast_paths = false;
  const std::string plain = DescribeParse(ParseAllModules(*file, limits));
  limits.fast_paths = true;
  CHECK(DescribeParse(ParseAllModules(*file, limits)) == plain);
  limits.threads = 2;
  limits.parallel_min_bytes = 0;
  for (size_t at = text.find("\n}\n"); at != std::string::npos; at = text.find("\n}\n", at + 1)) {
    limits.parallel_split_from = static_cast<uint32_t>(at);
    CHECK(DescribeParse(ParseAllModules(*file, limits)) == plain);
  }
  limits.parallel_split_from = 0;
  for (size_t at = text.find("\n  "); at != std::string::npos; at = text.find("\n  ", at + 1)) {
    limits.parallel_continuation_from = static_cast<uint32_t>(at);
    CHECK(DescribeParse(ParseAllModules(*file, limits)) == plain);
  }
}

TEST_CASE("xla version: fast paths and two threads honour the version", "[parser][xla][fast]") {
  // Shardings repeat (the fast path takes the last valid text again), in
  // several computations (the second thread parses the later ones).
  auto module = [](const std::string& sharding, const std::string& conv) {
    std::string text = "HloModule m\n";
    for (int i = 0; i < 3; ++i) {
      text += "f" + std::to_string(i) + " {\n  m = f32[4,4] parameter(0)\n"
              "  c = f32[1,4,1] parameter(1)\n";
      for (int j = 0; j < 4; ++j) {
        text += "  n" + std::to_string(j) + " = f32[4,4] negate(m), sharding=" + sharding + "\n";
      }
      text += "  x = f32[1,4,1] convolution(c, c), window={size=1}, dim_labels=b0f_0io->b0f, " +
              conv + "\n  ROOT r = f32[4,4] copy(m), sharding=" + sharding + "\n}\n";
    }
    text += "ENTRY e {\n  m = f32[4,4] parameter(0)\n  c = f32[1,4,1] parameter(1)\n"
            "  ROOT r = f32[4,4] call(m, c), to_apply=f2, sharding=" + sharding + "\n}\n";
    return text;
  };
  const std::vector<std::string> texts = {
      module("{mesh[a=2,b=4], [{a}, {b:(2)2}]}", "conv_kind=fprop"),
      module("{mesh['a'=2,'b'=4], [{'a'}, {'b':(2)2}]}", "convolution_kind=fprop"),
      module("{maximal_mesh[device_id=1]}", "feature_group_count=1"),
      module("{replicated}", "conv_kind=dgrad"),
  };
  for (std::string_view version :
       {"2026-01-28", "2026-01-29", "2026-02-09", "2026-02-10", "2026-03-04", "2026-03-05",
        "2026-03-19", "2026-03-20", "latest"}) {
    INFO("xla-version " << version);
    for (const std::string& text : texts) CheckAllWaysAgree(text, For(version));
  }
  // Each of them parses for some XLA, and fails for another.
  CHECK_FALSE(ParseAllModules(*SourceFile::FromString("a", texts[0]), For("2026-02-10"))[0].error);
  CHECK(ParseAllModules(*SourceFile::FromString("a", texts[0]), For("2026-03-05"))[0].error);
  CHECK_FALSE(ParseAllModules(*SourceFile::FromString("b", texts[1]), For("2026-03-20"))[0].error);
  CHECK(ParseAllModules(*SourceFile::FromString("b", texts[1]), For("2026-03-19"))[0].error);
}

TEST_CASE("xla version: golden inputs parse the same both ways for their version",
          "[parser][xla][fast]") {
  namespace fs = std::filesystem;
  size_t files = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(HLOLINT_SOURCE_DIR) / "tests" / "golden")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".hlo") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string contents = text.str();
    const std::string run = "// RUN: xla-version=";
    const size_t at = contents.find(run);
    if (at == std::string::npos) continue;
    const size_t end = contents.find('\n', at);
    const std::string version = contents.substr(at + run.size(), end - at - run.size());
    INFO(entry.path().string() << ": xla-version " << version);
    CheckAllWaysAgree(contents, For(version));
    ++files;
  }
  CHECK(files >= 8);
}

}  // namespace
}  // namespace hlolint::parse_testing
