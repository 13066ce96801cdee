// Releasing the text of a large file from the resident set must never
// change what readers see: a mapped file's pages come back from the page
// cache, and text held in memory must not be touched at all.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "directive_marker.h"
#include "proc_smaps.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

namespace fs = std::filesystem;

// Text above SourceFile::kReleaseMinBytes, different on every line.
std::string BigText() {
  std::string text;
  for (int i = 0; text.size() < SourceFile::kReleaseMinBytes + (1u << 20); ++i) {
    text += "%instruction." + std::to_string(i) + " = f32[8]{0} parameter(" +
            std::to_string(i) + ")\n";
  }
  return text;
}

// Writes `text` to a file of this process in the temporary directory.
fs::path WriteTemp(const std::string& stem, const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() / (stem + "_" + std::to_string(::getpid()) + ".hlo");
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

// A large file opened as hlolint opens it: its text mapped from the file.
std::unique_ptr<SourceFile> OpenMapped(const fs::path& path) {
  auto file = SourceFile::Open(path.string(), path.string());
  REQUIRE(file.ok());
  REQUIRE(MappedPathAt((*file)->data()) == fs::canonical(path).string());
  return *std::move(file);
}

// Whether the mapping that holds text()[offset] asks for huge pages (text
// released is mapped again without them).
bool AsksHugePages(const SourceFile& file, size_t offset) {
  return SmapsField(file.data() + offset, "VmFlags:").find(" hg") != std::string::npos;
}

// Reads the text front to back as a rule does, releasing behind.
void ReadWithReleaser(const SourceFile& file) {
  TextReleaser released(file);
  uint64_t sum = 0;
  for (uint32_t at = 0; at < file.size(); at += 4096) {
    sum += static_cast<unsigned char>(file.data()[at]);
    released.Advance(at);
  }
  released.ReleaseTo(file.size());
  CHECK(sum > 0);
}

TEST_CASE("Released pages of a mapped file read back unchanged") {
  const std::string text = BigText();
  const fs::path path = WriteTemp("hlolint_release_test", text);
  auto file = SourceFile::Open(path.string(), path.string());
  REQUIRE(file.ok());
  const SourceFile& f = **file;
  REQUIRE(f.text() == text);
  ReadWithReleaser(f);
  CHECK(f.text() == text);
  f.ReleasePages(0, f.size());
  CHECK(f.text() == text);
  CHECK(f.data()[f.size()] == '\0');  // the sentinel page is not the file's
  CHECK(f.LineCount() == static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n') + 1));
  fs::remove(path);
}

// A large file's text is the page cache's pages, not a copy in fresh memory
// (SourceFile::MapLarge), whatever its size modulo the page; the bytes after
// it are zeros either way.
TEST_CASE("A large file's text is mapped from the file, with a zero sentinel after it") {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::string base = BigText();
  base.resize(base.size() / page * page);
  for (const size_t size : {base.size(), base.size() - 1, base.size() - page + 1}) {
    const std::string text = base.substr(0, size);
    const fs::path path = WriteTemp("hlolint_map_test", text);
    auto file = SourceFile::Open(path.string(), path.string());
    REQUIRE(file.ok());
    const SourceFile& f = **file;
    INFO("size " << size);
    CHECK(f.text() == text);
    CHECK(MappedPathAt(f.data()) == fs::canonical(path).string());
    CHECK(MappedPathAt(f.data() + size / 2) == fs::canonical(path).string());
    for (size_t at = size; at < size + 64; ++at) CHECK(f.data()[at] == '\0');
    fs::remove(path);
  }
}

// The text starts on a 2 MB boundary and asks for huge pages, so a page
// cache that holds the file in 2 MB folios maps each with one entry; text
// is released in whole 2 MB units (a release that ended inside one would
// take the rest of it off huge pages), and released text no longer asks
// for them (a read there maps 4 KB back in, not 2 MB).
TEST_CASE("A large file's text starts on a huge page and is released in whole ones") {
  constexpr size_t kHuge = size_t{2} << 20;
  const std::string text = BigText();
  REQUIRE(text.size() > 4 * kHuge);
  const fs::path path = WriteTemp("hlolint_huge_test", text);
  const auto file = OpenMapped(path);
  const SourceFile& f = *file;
  CHECK(reinterpret_cast<uintptr_t>(f.data()) % kHuge == 0);
  CHECK(AsksHugePages(f, 0));
  CHECK(AsksHugePages(f, 3 * kHuge));
  // Up to 1.5 huge pages: the first whole one goes, the half after stays.
  f.ReleasePages(0, static_cast<uint32_t>(kHuge + kHuge / 2));
  CHECK_FALSE(AsksHugePages(f, 0));
  CHECK_FALSE(AsksHugePages(f, kHuge - 1));
  CHECK(AsksHugePages(f, kHuge));
  // From where the last release stopped: its huge page goes whole.
  f.ReleasePages(static_cast<uint32_t>(kHuge + kHuge / 2), static_cast<uint32_t>(2 * kHuge + 1));
  CHECK_FALSE(AsksHugePages(f, kHuge));
  CHECK_FALSE(AsksHugePages(f, 2 * kHuge - 1));
  CHECK(AsksHugePages(f, 2 * kHuge));
  CHECK(f.text() == text);
  fs::remove(path);
}

// The parser's second thread reads a chunk of the text while the first one
// may still read the text just before it (lib/parse/parallel_parse.cc). Its
// releaser (the one with a sink) leaves the huge page its chunk starts in
// whole: only the first thread's own releaser, which goes front to back,
// releases that one. A reader after the end of another (the next module's)
// releases it with its own.
TEST_CASE("A reader running ahead of another releases nothing before where it starts") {
  const std::string text = BigText();
  const fs::path path = WriteTemp("hlolint_ahead_test", text);
  const auto file = OpenMapped(path);
  const SourceFile& f = *file;
  constexpr uint32_t kHuge = uint32_t{2} << 20;
  REQUIRE(f.size() > 4 * kHuge);
  const uint32_t from = 2 * kHuge + kHuge / 2;
  DirectiveMarkerSink sink;
  TextReleaser ahead(f, from, &sink);
  ahead.ReleaseTo(4 * kHuge + 1);
  CHECK(AsksHugePages(f, from - 1));
  CHECK(AsksHugePages(f, from));
  CHECK(AsksHugePages(f, 3 * kHuge - 1));
  CHECK_FALSE(AsksHugePages(f, 3 * kHuge));
  CHECK_FALSE(AsksHugePages(f, 4 * kHuge - 1));
  CHECK(AsksHugePages(f, 4 * kHuge));
  TextReleaser after(f, from);
  after.ReleaseTo(3 * kHuge);
  CHECK_FALSE(AsksHugePages(f, 2 * kHuge));
  CHECK(AsksHugePages(f, 2 * kHuge - 1));
  CHECK(f.text() == text);
  fs::remove(path);
}

// A file truncated after it was mapped: reading past its new end would
// raise SIGBUS. The reader sees zeros there instead, and the file says it
// changed; an untouched file does not.
TEST_CASE("A mapped file truncated under the reader reads as zeros past its end") {
  const std::string text = BigText();
  const fs::path path = WriteTemp("hlolint_truncate_test", text);
  const auto file = OpenMapped(path);
  const SourceFile& f = *file;
  CHECK_FALSE(f.ChangedWhileRead());
  CHECK(f.text() == text);  // every page read once: all resident still
  f.ReleasePages(0, f.size());  // so the reads below fault them in again
  const size_t kept = 1u << 20;
  REQUIRE(::truncate(path.c_str(), static_cast<off_t>(kept)) == 0);
  // Up to the last whole page: the partial page after it was read, not
  // mapped, and keeps the old bytes.
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  size_t nonzero_past_end = 0;
  for (size_t at = 0; at < f.size() / page * page; ++at) {
    if (at >= kept && f.data()[at] != '\0') ++nonzero_past_end;
  }
  CHECK(nonzero_past_end == 0);
  CHECK(std::string_view(f.data(), kept) == std::string_view(text).substr(0, kept));
  CHECK(f.ChangedWhileRead());
  fs::remove(path);

  auto again = SourceFile::Open(path.string() + ".missing", "x");
  CHECK_FALSE(again.ok());
}

using testing::kTestMarker;

// Every offset of kTestMarker in `text`, found the slow way.
std::vector<uint32_t> MarkersIn(const std::string& text) {
  std::vector<uint32_t> found;
  for (size_t at = text.find(kTestMarker); at != std::string::npos;
       at = text.find(kTestMarker, at + 1)) {
    found.push_back(static_cast<uint32_t>(at));
  }
  return found;
}

// Opens `path` with kTestMarker as its directive marker, set before any read.
std::unique_ptr<SourceFile> OpenWatched(const fs::path& path) {
  auto file = SourceFile::Open(path.string(), path.string());
  REQUIRE(file.ok());
  (*file)->SetDirectiveMarker(kTestMarker);
  return std::move(*file);
}

TEST_CASE("Directive markers are all found, however the releases cut the text") {
  std::string text = BigText();
  // Markers across every megabyte boundary (where a 4 KB-step reader
  // releases, every 2 MB, and where the search of what no reader released
  // steps), at the very start and end, and here and there.
  const size_t marker = kTestMarker.size();
  std::vector<size_t> at = {0, text.size() - marker, 12345, 3333333};
  for (size_t mb = 1u << 20; mb + marker < text.size(); mb += 1u << 20) at.push_back(mb - 3);
  for (size_t a : at) text.replace(a, marker, kTestMarker);
  const std::vector<uint32_t> expected = MarkersIn(text);
  REQUIRE(expected.size() == at.size());

  const fs::path path = WriteTemp("hlolint_marker_test", text);
  SECTION("after a reader released the whole file") {
    auto file = OpenWatched(path);
    ReadWithReleaser(*file);
    CHECK(file->DirectiveMarkers() == expected);
  }
  SECTION("after a reader that stopped half way") {
    auto file = OpenWatched(path);
    TextReleaser released(*file);
    for (uint32_t a = 0; a < 5'000'000; a += 4096) released.Advance(a);
    CHECK(file->DirectiveMarkers() == expected);
    CHECK(file->DirectiveMarkers() == expected);  // asked again: the same list
  }
  SECTION("after readers on four threads released it at the same time") {
    // Rules of one module run in parallel, each releasing behind itself.
    auto file = OpenWatched(path);
    std::vector<std::thread> readers;
    for (uint32_t t = 0; t < 4; ++t) {
      readers.emplace_back([&, t] {
        TextReleaser released(*file);
        for (uint32_t a = t * 4096; a < file->size(); a += 4096 * 4) released.Advance(a);
      });
    }
    for (std::thread& reader : readers) reader.join();
    CHECK(file->DirectiveMarkers() == expected);
  }
  SECTION("after pages were released that nobody searched") {
    // ReleasePages alone does not search: the markers there are found
    // when the list is asked for (the pages map again), not lost.
    auto file = OpenWatched(path);
    file->ReleasePages(0, file->size());
    CHECK(file->DirectiveMarkers() == expected);
  }
  SECTION("with no reader, and held in memory") {
    auto file = SourceFile::FromString("big.hlo", text);
    file->SetDirectiveMarker(kTestMarker);
    CHECK(file->DirectiveMarkers() == expected);
  }
  SECTION("none for a file that watches for no marker") {
    auto file = SourceFile::Open(path.string(), path.string());
    REQUIRE(file.ok());
    ReadWithReleaser(**file);
    CHECK((*file)->DirectiveMarkers().empty());
  }
  fs::remove(path);
}

TEST_CASE("Text held in memory is never released (it would read back as zeros)") {
  const std::string text = BigText();
  auto file = SourceFile::FromString("big.hlo", text);
  ReadWithReleaser(*file);
  file->ReleasePages(0, file->size());
  CHECK(file->text() == text);
}

}  // namespace
}  // namespace hlolint
