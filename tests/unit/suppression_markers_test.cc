// Directive markers (here the suppression scanner's `hlolint:`, set on each
// file as it would set it) are found by the parser's lexer in the comments
// it skips, not by a second pass over the text: the file searches
// only text no parser lexed. These tests pin down that every marker in a
// comment is found wherever the byte-wise fast paths read, after parse
// errors, in large files whose text is released behind the parser, and on
// two threads; that a marker inside a string or a JSON dict, which is no
// comment's, is not; and that a file with no marker has none found.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lex/lexer.h"
#include "parse/parser.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarker = "hlolint:";

// The offset of every marker of `text` that follows `// `: the ones the
// tests below put in comments (those in strings do not).
std::vector<uint32_t> CommentMarkers(const std::string& text) {
  std::vector<uint32_t> found;
  for (size_t at = text.find(kMarker); at != std::string::npos; at = text.find(kMarker, at + 1)) {
    if (at >= 3 && text.compare(at - 3, 3, "// ") == 0) found.push_back(static_cast<uint32_t>(at));
  }
  return found;
}

std::vector<uint32_t> ParsedMarkers(const std::string& text, const ParseLimits& limits = {},
                                    std::string_view marker = kMarker) {
  auto file = SourceFile::FromString("m.hlo", text);
  file->SetDirectiveMarker(marker);
  ParseAllModules(*file, limits);
  return file->DirectiveMarkers();
}

TEST_CASE("lexer: notes the markers of the comments it skips, once each", "[lexer]") {
  const std::string text =
      "a /* // hlolint: one */ \"// hlolint: in a string\" b // hlolint: two // hlolint: three\n"
      "c /* hlolint: four\n hlolint: five */ d";
  std::vector<uint32_t> expected;
  for (size_t at = text.find(kMarker); at != std::string::npos; at = text.find(kMarker, at + 1)) {
    if (text.compare(at + kMarker.size(), 10, " in a stri") != 0) {
      expected.push_back(static_cast<uint32_t>(at));
    }
  }
  REQUIRE(expected.size() == 5);
  std::vector<uint32_t> noted;
  Lexer lexer(text.data(), static_cast<uint32_t>(text.size()));
  lexer.CollectDirectiveMarkers(kMarker, &noted);
  while (lexer.Lex() != TokKind::kEof) {
  }
  CHECK(noted == expected);
  lexer.Reset(0);  // lexed again: nothing is noted twice
  while (lexer.Lex() != TokKind::kEof) {
  }
  CHECK(noted == expected);
}

TEST_CASE("lexer: an empty marker collects nothing", "[lexer]") {
  const std::string text = "a // hlolint: one\n/* hlolint: two */ b";
  std::vector<uint32_t> noted;
  Lexer lexer(text.data(), static_cast<uint32_t>(text.size()));
  lexer.CollectDirectiveMarkers("", &noted);
  while (lexer.Lex() != TokKind::kEof) {
  }
  CHECK(noted.empty());
}

// Comments where the byte-wise readers would take the text: in layouts, a
// tuple shape, replica groups and a sharding each written twice (a text
// read once is taken again unread), after metadata, and on lines of their
// own; markers in a string and in a JSON dict, which are no comments.
const std::string kCommentedModule = R"(HloModule m, replica_count=4

// hlolint: ignore[ALL] on a line of its own
%fused (a: (f32[8], /* // hlolint: ignore[x] a tuple */ s32[])) -> f32[8] {
  %a = (f32[8], /* // hlolint: ignore[x] a tuple */ s32[]) parameter(0)
  ROOT %g = f32[8]{0} get-tuple-element((f32[8], /* // hlolint: ignore[x] a tuple */ s32[]) %a), index=0
}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p: f32[8]{0}, q: s32[]) -> f32[8] {
  %p = f32[8]{/* // hlolint: ignore[y] in a layout */0} parameter(0), sharding={devices=[4]0,1,2,3 /* // hlolint: ignore[s] */}
  %q = s32[] parameter(1), metadata={op_name="hlolint: ignore[z] in a string" source_line=3} // hlolint: ignore[z] after metadata
  %r0 = f32[8]{0} all-reduce(f32[8]{0} %p), replica_groups={{0,1},/* // hlolint: ignore[r] */{2,3}}, to_apply=%add
  %r1 = f32[8]{0} all-reduce(f32[8]{0} %r0), replica_groups={{0,1},/* // hlolint: ignore[r] */{2,3}}, to_apply=%add
  %s = f32[8]{0} copy(f32[8]{0} %r1), sharding={devices=[4]0,1,2,3 /* // hlolint: ignore[s] */}
  %t = (f32[8], /* // hlolint: ignore[x] a tuple */ s32[]) tuple(f32[8]{0} %s, s32[] %q)
  %f = f32[8]{0} fusion((f32[8], /* // hlolint: ignore[x] a tuple */ s32[]) %t), kind=kLoop, calls=%fused
  ROOT %c = f32[8]{0} custom-call(f32[8]{0} %f), custom_call_target="k", backend_config={"note": 1, // hlolint: ignore[j] in a JSON dict
    "more": 2} // hlolint: ignore[ALL] after the dict
}
)";

TEST_CASE("parse: every marker in a comment is found, wherever the fast paths read",
          "[parser][suppressions]") {
  const std::string& text = kCommentedModule;
  std::vector<uint32_t> expected = CommentMarkers(text);
  // Not the one in the JSON dict: the dict is one token, its `//` no comment.
  const size_t in_dict = text.find("hlolint: ignore[j]");
  expected.erase(std::find(expected.begin(), expected.end(), in_dict));
  REQUIRE(expected.size() == 13);
  const std::vector<ParsedModule> modules = ParseAllModules(*SourceFile::FromString("m.hlo", text));
  REQUIRE(modules.size() == 1);
  REQUIRE_FALSE(modules[0].error.has_value());
  CHECK(ParsedMarkers(text) == expected);
  ParseLimits grammar_only;
  grammar_only.fast_paths = false;
  CHECK(ParsedMarkers(text, grammar_only) == expected);
  // No marker: none found; the texts taken again unread are the same.
  CHECK(ParsedMarkers(text, {}, "").empty());
  CHECK(ParsedMarkers(text, grammar_only, "").empty());
  // Another marker: only its own offsets.
  std::vector<uint32_t> ignores;
  for (uint32_t at : expected) ignores.push_back(at + static_cast<uint32_t>(kMarker.size()) + 1);
  CHECK(ParsedMarkers(text, {}, "ignore[") == ignores);
}

TEST_CASE("parse: markers in the text skipped after a parse error are found",
          "[parser][suppressions]") {
  // The first module fails at %bad; the rest of it is never lexed, and the
  // second module is parsed after the split marker.
  const std::string text =
      "HloModule one\n"
      "ENTRY %e {\n"
      "  %p = f32[] parameter(0) // hlolint: ignore[a] before the error\n"
      "  %bad = f32[] negate(f32[] %missing) // hlolint: ignore[b] at the error\n"
      "  // hlolint: ignore[c] skipped\n"
      "  ROOT %r = f32[] negate(f32[] %p) /* // hlolint: ignore[d] skipped */\n"
      "}\n"
      "// -----\n"
      "// hlolint: ignore[e] between modules\n"
      "HloModule two\n"
      "ENTRY %e {\n"
      "  ROOT %p = f32[] parameter(0) // hlolint: ignore[f] in the second\n"
      "}\n"
      "// hlolint: ignore[g] at the end\n";
  const std::vector<uint32_t> expected = CommentMarkers(text);
  REQUIRE(expected.size() == 7);
  CHECK(ParsedMarkers(text) == expected);
}

// A module above SourceFile::kReleaseMinBytes, with markers in comments
// every few hundred lines and in strings: the parser releases the text
// behind it, and hands the file the markers before it does.
std::string LargeCommentedModule() {
  std::string text = "HloModule big\n\nENTRY %e (p: f32[16]) -> f32[16] {\n  %v0 = f32[16]{0} parameter(0)\n";
  int i = 1;
  while (text.size() < SourceFile::kReleaseMinBytes + (3u << 20)) {
    text += "  %v" + std::to_string(i) + " = f32[16]{0} add(f32[16]{0} %v" + std::to_string(i - 1) +
            ", f32[16]{0} %v0), metadata={op_name=\"" +
            (i % 301 == 0 ? "hlolint: in a string" : "jit(f)/add") +
            "\" source_line=" + std::to_string(i) + "}";
    text += i % 499 == 0 ? " // hlolint: ignore[verify-shape] x\n" : "\n";
    if (i % 997 == 0) text += "  // hlolint: ignore[ALL] y\n";
    ++i;
  }
  return text + "  ROOT %out = f32[16]{0} negate(f32[16]{0} %v" + std::to_string(i - 1) + ")\n}\n";
}

TEST_CASE("parse: a large file's markers are found on one thread and on two",
          "[parser][suppressions][parallel]") {
  const std::string text = LargeCommentedModule();
  const std::vector<uint32_t> expected = CommentMarkers(text);
  REQUIRE(expected.size() > 100);
  const fs::path path =
      fs::temp_directory_path() / ("hlolint_markers_" + std::to_string(::getpid()) + ".hlo");
  { std::ofstream(path, std::ios::binary) << text; }
  ParseLimits two_threads;
  two_threads.threads = 2;
  two_threads.parallel_min_bytes = 0;
  for (const ParseLimits& limits : {ParseLimits{}, two_threads}) {
    auto file = SourceFile::Open(path.string(), path.string());
    REQUIRE(file.ok());
    (*file)->SetDirectiveMarker(kMarker);
    const std::vector<ParsedModule> modules = ParseAllModules(**file, limits);
    REQUIRE(modules.size() == 1);
    CHECK_FALSE(modules[0].error.has_value());
    CHECK((*file)->DirectiveMarkers() == expected);
  }
  fs::remove(path);
}

}  // namespace
}  // namespace hlolint
