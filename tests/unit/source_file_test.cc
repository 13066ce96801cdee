// SourceFile: small regular files read into a reused ReadBuffer must look
// exactly like mapped ones (text, sentinel, positions), and lint the same.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "rules/registry.h"
#include "directive_marker.h"
#include "proc_smaps.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

namespace fs = std::filesystem;

fs::path TestDir() {
  const fs::path dir = fs::temp_directory_path() /
                       ("hlolint_source_file_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The text, then at least kSentinelBytes zero bytes (the lexer's sentinel).
void CheckText(const SourceFile& file, const std::string& text) {
  REQUIRE(file.size() == text.size());
  CHECK(file.text() == text);
  for (size_t i = 0; i < kSentinelBytes; ++i) CHECK(file.data()[text.size() + i] == '\0');
}

// Line numbers the slow way: every line start.
struct NaiveLines {
  std::vector<uint32_t> starts{0};
  explicit NaiveLines(const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts.push_back(static_cast<uint32_t>(i + 1));
    }
  }
  LineCol Locate(uint32_t offset) const {
    const auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    const auto line = static_cast<uint32_t>(it - starts.begin());
    return {line, offset - starts[line - 1] + 1};
  }
};

TEST_CASE("Positions agree with every line start, asked in any order, across the counted blocks") {
  // Lines of every length from empty to longer than a counting block
  // (4 KB), '\r\n' ends, a run of newlines, and no newline at the end.
  std::string text;
  for (int i = 0; text.size() < 70000; ++i) {
    text += std::string(static_cast<size_t>((i * 7919) % 5000), static_cast<char>('a' + i % 26));
    text += i % 11 == 0 ? "\r\n" : "\n";
    if (i % 97 == 0) text += "\n\n\n";
  }
  text += "last line";
  const NaiveLines naive(text);
  // Far offsets first, then near ones: the counted blocks grow as needed.
  std::vector<uint32_t> offsets = {static_cast<uint32_t>(text.size()), 69000, 5, 0, 4095, 4096, 4097};
  for (uint32_t at = 0; at <= text.size(); at += 997) offsets.push_back(at);
  for (uint32_t start : naive.starts) {
    offsets.push_back(start);
    if (start > 0) offsets.push_back(start - 1);  // the newline itself
  }
  auto file = SourceFile::FromString("lines.hlo", text);
  for (uint32_t offset : offsets) {
    INFO("offset " << offset);
    const LineCol want = naive.Locate(offset);
    const LineCol got = file->Locate(offset);
    CHECK(got.line == want.line);
    CHECK(got.column == want.column);
  }
  CHECK(file->Locate(static_cast<uint32_t>(text.size()) + 10).line == naive.starts.size());
  // Lines asked of a fresh file, from the last back to the first.
  auto lines = SourceFile::FromString("lines.hlo", text);
  const auto count = static_cast<uint32_t>(naive.starts.size());
  for (uint32_t line = count; line >= 1; --line) {
    const uint32_t begin = naive.starts[line - 1];
    size_t end = line < count ? naive.starts[line] - 1 : text.size();
    if (end > begin && text[end - 1] == '\r') --end;
    INFO("line " << line);
    CHECK(lines->Line(line) == std::string_view(text).substr(begin, end - begin));
  }
  CHECK(lines->Line(0).empty());
  CHECK(lines->Line(count + 1).empty());
  CHECK(lines->LineCount() == count);
  CHECK(SourceFile::FromString("empty.hlo", "")->LineCount() == 1);
  CHECK(SourceFile::FromString("empty.hlo", "")->Locate(0).line == 1);
  CHECK(SourceFile::FromString("nl.hlo", "\n")->LineCount() == 2);
}

// Whether `address` lies in a mapping of a file, not anonymous memory.
bool InFileMapping(const void* address) { return !MappedPathAt(address).empty(); }

TEST_CASE("SourceFile maps a worker's first file and reads later ones into a reused buffer") {
  const fs::path dir = TestDir();
  const std::string big = std::string(5000, 'x') + "\nsecond line\r\nthird";
  const std::string small = "ab\ncd";
  const fs::path big_path = Write(dir / "big.hlo", big);
  const fs::path small_path = Write(dir / "small.hlo", small);
  const fs::path empty_path = Write(dir / "empty.hlo", "");

  ReadBuffer buffer;
  const char* first_data = nullptr;
  {
    auto file = SourceFile::Open(big_path.string(), "shown.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, big);
    CHECK((*file)->path() == "shown.hlo");
    CHECK((*file)->Line(2) == "second line");
    CHECK((*file)->Locate(5001).line == 2);
    CHECK((*file)->LineCount() == 3);
    CHECK(InFileMapping((*file)->data()));
  }
  {
    auto file = SourceFile::Open(big_path.string(), "big.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, big);
    CHECK_FALSE(InFileMapping((*file)->data()));
    first_data = (*file)->data();
  }
  {
    // A smaller file after a bigger one: same memory, stale bytes cleared.
    auto file = SourceFile::Open(small_path.string(), "small.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, small);
    CHECK((*file)->data() == first_data);
    CHECK((*file)->Line(2) == "cd");
  }
  {
    auto file = SourceFile::Open(empty_path.string(), "empty.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, "");
  }
  {
    auto file = SourceFile::Open((dir / "missing.hlo").string(), "missing.hlo", &buffer);
    CHECK(!file.ok());
  }
  fs::remove_all(dir);
}

// A worker's first file is mapped whatever its size; from its second file
// on, files up to the buffer's reuse limit (ReadBuffer::kMaxReusedBytes
// unless given; a smaller one here) are read into the buffer it reuses;
// larger ones are always mapped.
TEST_CASE("SourceFile maps a worker's first file of any size and reads later ones into its buffer") {
  const fs::path dir = TestDir();
  const std::string line = "%instruction = f32[8]{0} parameter(0)\n";
  std::string mid;
  while (mid.size() <= (uint64_t{1} << 20)) mid += line;
  const uint64_t kReuseLimit = 3 * mid.size();
  std::string huge;
  while (huge.size() <= kReuseLimit) huge += mid;
  const fs::path mid_path = Write(dir / "mid.hlo", mid);
  const fs::path huge_path = Write(dir / "huge.hlo", huge);
  huge.clear();

  CHECK_FALSE(ReadBuffer().Takes(1));
  ReadBuffer buffer(kReuseLimit);
  CHECK_FALSE(buffer.Takes(mid.size()));
  {
    auto file = SourceFile::Open(mid_path.string(), "mid.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, mid);
    CHECK(InFileMapping((*file)->data()));
  }
  CHECK(buffer.Takes(kReuseLimit));
  CHECK_FALSE(buffer.Takes(kReuseLimit + 1));
  const char* reused = nullptr;
  for (int round = 0; round < 2; ++round) {
    auto file = SourceFile::Open(mid_path.string(), "mid.hlo", &buffer);
    REQUIRE(file.ok());
    CheckText(**file, mid);
    CHECK_FALSE(InFileMapping((*file)->data()));
    if (round == 0) reused = (*file)->data();
    CHECK((*file)->data() == reused);
  }
  {
    auto file = SourceFile::Open(huge_path.string(), "huge.hlo", &buffer);
    REQUIRE(file.ok());
    CHECK((*file)->size() > kReuseLimit);
    CHECK(InFileMapping((*file)->data()));
  }
  fs::remove_all(dir);
}

TEST_CASE("linting a file read into a buffer gives the mapped file's diagnostics") {
  const fs::path dir = TestDir();
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f16[4,6]{1,0} parameter(0)\n"
      "  ROOT r = f16[4,2,3]{1,2,0} reshape(p)\n"
      "}\n";
  const fs::path path = Write(dir / "m.hlo", text);
  LintOptions options;
  options.rules = AllRules();
  const FileResult mapped = LintFile(path.string(), "m.hlo", options);
  ReadBuffer buffer;
  const FileResult read = LintFile(path.string(), "m.hlo", options, &buffer);
  REQUIRE(!mapped.diagnostics.empty());
  REQUIRE(read.diagnostics.size() == mapped.diagnostics.size());
  for (size_t i = 0; i < read.diagnostics.size(); ++i) {
    CHECK(read.diagnostics[i].rule == mapped.diagnostics[i].rule);
    CHECK(read.diagnostics[i].message == mapped.diagnostics[i].message);
    CHECK(read.diagnostics[i].span.begin == mapped.diagnostics[i].span.begin);
    CHECK(read.diagnostics[i].fingerprint == mapped.diagnostics[i].fingerprint);
  }
  fs::remove_all(dir);
}

using testing::kTestMarker;

TEST_CASE("directive markers are found at the text's edges and only whole") {
  using Offsets = std::vector<uint32_t>;
  const auto markers = [](const std::string& text) {
    auto file = SourceFile::FromString("m.hlo", text);
    file->SetDirectiveMarker(kTestMarker);
    return file->DirectiveMarkers();
  };
  CHECK(markers("hlolint:") == Offsets{0});
  CHECK(markers("// hlolint: disable=x\n// hlolint:") == Offsets{3, 25});
  CHECK(markers("hlolint:hlolint:") == Offsets{0, 8});
  // Near misses: a ':' too early, the name without one, a cut-off name.
  CHECK(markers(":: a:b hlolint hlolint; olint: hlolint") == Offsets{});
  CHECK(markers("hhlolint: xhlolint:") == Offsets{1, 11});
  CHECK(markers("") == Offsets{});
}

TEST_CASE("directive markers: none without a marker, found again for another one") {
  using Offsets = std::vector<uint32_t>;
  const std::string text = "// hlolint: a\n// tool: b\n";
  auto file = SourceFile::FromString("m.hlo", text);
  CHECK(file->DirectiveMarker().empty());
  CHECK(file->DirectiveMarkers() == Offsets{});
  Offsets found;
  file->FindMarkers(0, file->size(), &found);
  CHECK(found == Offsets{});
  file->SetDirectiveMarker(kTestMarker);
  CHECK(file->DirectiveMarker() == kTestMarker);
  CHECK(file->DirectiveMarkers() == Offsets{3});
  file->SetDirectiveMarker(kTestMarker);  // the same again: the same list
  CHECK(file->DirectiveMarkers() == Offsets{3});
  file->SetDirectiveMarker("tool:");
  CHECK(file->DirectiveMarkers() == Offsets{17});
  file->SetDirectiveMarker("");
  CHECK(file->DirectiveMarkers() == Offsets{});
}

TEST_CASE("directive markers: every start, every range, as a plain search finds them") {
  // Markers and near misses at every alignment, in ranges cut anywhere
  // (a marker may run past a range's end): the offsets a plain search of
  // the whole text finds.
  constexpr std::string_view kMarker = kTestMarker;
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += std::string(static_cast<size_t>(i % 7), 'h');
    text += i % 3 == 0 ? "hlolint:" : i % 3 == 1 ? "hlolint;h::::::" : "hxxxxxx:";
  }
  text += "hlolint";  // cut off at the end
  const auto file = SourceFile::FromString("m.hlo", text);
  file->SetDirectiveMarker(kMarker);
  for (uint32_t begin = 0; begin < text.size(); begin += 5) {
    for (uint32_t end = begin; end <= text.size() + 3; end += 3) {
      std::vector<uint32_t> expected;
      for (size_t at = text.find(kMarker, begin); at != std::string::npos && at < end;
           at = text.find(kMarker, at + 1)) {
        expected.push_back(static_cast<uint32_t>(at));
      }
      std::vector<uint32_t> found;
      file->FindMarkers(begin, end, &found);
      INFO("range [" << begin << ", " << end << ")");
      REQUIRE(found == expected);
    }
  }
}

}  // namespace
}  // namespace hlolint
