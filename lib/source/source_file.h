// A loaded input text and the mapping from byte offsets to line:column.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "source/mapped_text_guard.h"

namespace hlolint {

// 1-based line and column of a byte offset. Columns count bytes.
struct LineCol {
  uint32_t line = 0;
  uint32_t column = 0;
};

// Largest input accepted: offsets are stored as 32-bit values.
inline constexpr uint64_t kMaxSourceBytes = (uint64_t{1} << 32) - 2;
// Largest stream (standard input, FIFO, device) read into memory: unlike a
// mapped file, it is held on the heap, and /dev/zero never ends.
inline constexpr uint64_t kMaxStreamBytes = uint64_t{1} << 30;
// Zero bytes guaranteed after the text (at least): the NUL sentinel plus
// slack for 16-byte vector loads that start before it.
inline constexpr size_t kSentinelBytes = 64;

// Memory for reading small files, reused from one file to the next by one
// thread (see SourceFile::Open). Holds the largest file read so far.
class ReadBuffer {
 public:
  // From its second file on, the buffer takes files up to this size:
  // where the page cache holds a file in 4 KB folios (written in small
  // pieces, or a file system or kernel without large folios), mapping it
  // costs a fault and a TLB entry per 4 KB, while memory this thread reuses
  // costs neither, and a dump directory holds the same module after pass
  // after pass (docs/performance.md, "Read once"). A first file, the only
  // one of most runs, is mapped whatever its size: fresh memory to read it
  // into costs a fault per 4 KB, far more than mapping the page cache.
  // Larger files are mapped: their text is released behind the parser,
  // which keeps the peak near the file's size.
  static constexpr uint64_t kMaxReusedBytes = uint64_t{256} << 20;

  explicit ReadBuffer(uint64_t max_reused_bytes = kMaxReusedBytes)
      : max_reused_bytes_(max_reused_bytes) {}

  // Whether a file of `bytes` is read into this buffer (see above).
  bool Takes(uint64_t bytes) const {
    return files_ > 0 && bytes <= max_reused_bytes_;
  }
  // Counts a file opened while this buffer served (read into it or not).
  void NoteFile() { ++files_; }
  // Room for `bytes` plus the zero sentinel; the old contents are not kept.
  char* Reserve(size_t bytes);

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
  size_t files_ = 0;
  uint64_t max_reused_bytes_;
};

struct DirectiveMarkerSink;

// Immutable text of one input. The bytes are followed by at least one NUL
// byte (a sentinel the lexer relies on), which is not part of text().
class SourceFile {
 public:
  // Reads a file: a large regular file is mapped (see MapLarge), a small one
  // read into memory, a stream (FIFO, device) to its end. With a `buffer`, a
  // regular file the buffer takes (ReadBuffer::Takes) is read into it instead:
  // the SourceFile then borrows the buffer, which must outlive it and serve
  // no other file meanwhile. For many small files this is cheaper than
  // memory of their own, whose munmap also interrupts every other thread of
  // the process (TLB shootdown).
  static absl::StatusOr<std::unique_ptr<SourceFile>> Open(const std::string& path,
                                                          std::string display_path,
                                                          ReadBuffer* buffer = nullptr);
  // Reads a stream (FIFO, device) to its end; fails past kMaxStreamBytes.
  static absl::StatusOr<std::unique_ptr<SourceFile>> ReadStream(int fd, const std::string& path,
                                                                std::string display_path);
  // Wraps bytes already in memory (stdin, tests).
  static std::unique_ptr<SourceFile> FromString(std::string display_path, std::string_view text);

  ~SourceFile();
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  // The path as the user gave it; used in every diagnostic.
  const std::string& path() const { return path_; }
  std::string_view text() const { return {data_, size_}; }
  const char* data() const { return data_; }
  uint32_t size() const { return static_cast<uint32_t>(size_); }

  LineCol Locate(uint32_t offset) const;
  // The text of the given 1-based line, without its line terminator.
  std::string_view Line(uint32_t line) const;
  uint32_t LineCount() const;

  // The file shrank while its mapped text was read: the reader saw zeros
  // past its new end (MappedTextGuard), and its findings are not the file's.
  bool ChangedWhileRead() const { return guard_ != nullptr && guard_->Faulted(); }

  // Takes the pages of text()[begin, end) out of the process's resident set
  // (whole pages inside the range; large files only, a no-op for text held
  // in a buffer or a string): the file is mapped over them. The bytes stay
  // readable: the next access maps them in from the page cache. Lets a
  // reader that goes front to back keep a large file from being resident
  // all at once. Nothing before `floor` is released, not even the rest of
  // the huge page `begin` is in: another thread may still be reading there.
  void ReleasePages(uint32_t begin, uint32_t end, uint32_t floor = 0) const;
  // Files at least this large release the text behind their readers (see
  // TextReleaser); below it the re-mapping is not worth it.
  static constexpr uint32_t kReleaseMinBytes = 8u << 20;

  // The text that starts a directive in a comment, as the layer that reads
  // the directives asks for it (e.g. `// tool: ...`): what DirectiveMarkers
  // lists and what a parser's lexer notes in the comments it skips. Set it
  // before any reader (parser, TextReleaser, DirectiveMarkers) reads the
  // file, so the markers are found while the pages are resident; set later,
  // the search starts over from the front. Setting the marker the file has
  // already changes nothing. A file with no marker (the default, or an empty
  // one) lists no markers, and its readers search for none.
  void SetDirectiveMarker(std::string_view marker);
  std::string_view DirectiveMarker() const { return directive_marker_; }
  // Offsets of the DirectiveMarker in the text, in order: every one in
  // a comment, and in text no parser lexed (the parser's lexer notes those
  // of the comments it skips and hands them over, AdoptMarkers; a marker
  // inside a string or a JSON dict is no comment's), every one at all. The
  // text not lexed is searched range by range as a TextReleaser releases it,
  // while the pages are still resident, so reading the directives after
  // the rules maps no page of the file back in. The search goes front to
  // back from where it stopped, whoever released what: text released
  // before it was searched is read again here, never skipped. Safe while
  // other threads' TextReleasers release text; the list is final once this
  // returns.
  const std::vector<uint32_t>& DirectiveMarkers() const;
  // Appends to `out` the offsets of the markers that start in [begin, end),
  // changing nothing here: for a reader on another thread than the file's
  // own (see DirectiveMarkerSink).
  void FindMarkers(uint32_t begin, uint32_t end, std::vector<uint32_t>* out) const;
  // Takes the markers a reader found in [from, sink.searched_to) (its sink:
  // a lexer's, or another thread's reader's), once this file's own search
  // has reached `from`; the file's search goes on from sink.searched_to.
  void AdoptMarkers(uint32_t from, const DirectiveMarkerSink& sink) const;

 private:
  SourceFile() = default;
  static absl::StatusOr<std::unique_ptr<SourceFile>> MapLarge(int fd, uint64_t size,
                                                              const std::string& path,
                                                              std::unique_ptr<SourceFile> file);
  // Counts the newlines of the blocks before the one that holds `offset`
  // (of all of them for size_), as far as not counted yet, stopping early
  // once `newlines` are counted. Under lines_mutex_.
  void CountLinesThrough(size_t offset, uint32_t newlines = UINT32_MAX) const;
  // Position after the `k`th newline (k >= 1), or size_ + 1 when the text
  // has fewer. Under lines_mutex_.
  size_t AfterNewline(uint32_t k) const;

  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  // At most one of these owns the bytes (neither when borrowed from a
  // ReadBuffer).
  std::unique_ptr<char[]> owned_;
  void* mapping_ = nullptr;  // a large file's mapping and sentinel page (MapLarge)
  size_t mapping_size_ = 0;
  bool text_mapped_ = false;  // the text is a mapping of the file, 2 MB-aligned
  int release_fd_ = -1;  // the file, for mapping released text (ReleasePages)
  std::unique_ptr<MappedTextGuard> guard_;  // while the file's pages are mapped

  // Line numbers: the newlines before each block of 2^kLineBlockBits bytes,
  // counted only as far as a position was asked for (a finding early in a
  // large file reads no further), without an entry per line (7.7 million
  // at 1 GB). Within a block, newlines are counted when asked.
  static constexpr int kLineBlockBits = 12;
  mutable std::mutex lines_mutex_;
  mutable std::vector<uint32_t> block_newlines_{0};  // [b]: before block b

  friend class TextReleaser;
  // Finds the markers that start before `end` and were not searched yet.
  // Thread-safe: TextReleasers of several threads call it.
  void SearchMarkersTo(uint32_t end) const;
  mutable std::mutex markers_mutex_;  // one search at a time
  // Markers before this offset are in markers_ (written under the mutex).
  mutable std::atomic<uint32_t> markers_searched_to_{0};
  mutable std::vector<uint32_t> markers_;
  std::string directive_marker_;  // SetDirectiveMarker; empty: none
};

// Directive markers a reader found before the file's own list takes them
// (SourceFile::AdoptMarkers): those a parser's lexer noted in comments, and
// those a TextReleaser that reads ahead of the file's own search (the
// parser's second thread, on the second half of a module) found in the text
// it releases: the file's list grows front to back, so searching there
// would search the text in between too.
struct DirectiveMarkerSink {
  std::vector<uint32_t> markers;
  uint32_t searched_to = 0;  // markers before this offset are in `markers`
};

// Releases the text behind a reader that moves (mostly) front to back
// through a large mapped file: every kStride bytes of progress, the pages
// more than kMargin bytes behind the reader leave the resident set. Reads
// behind it still work (they map the page again). Does nothing for files
// smaller than SourceFile::kReleaseMinBytes. Before any text leaves, the
// file searches it for directive markers (SourceFile::DirectiveMarkers).
// A reader with a sink runs ahead of another thread's reader, which may
// still be in the text before `from`: it releases nothing there.
class TextReleaser {
 public:
  static constexpr uint32_t kStride = 2u << 20;
  static constexpr uint32_t kMargin = 256u << 10;

  // `from`: where the reader starts (text before it is left alone).
  // `sink`: where the markers go instead of the file (its searched_to is
  // set to `from`).
  explicit TextReleaser(const SourceFile& file, uint32_t from = 0,
                        DirectiveMarkerSink* sink = nullptr)
      : file_(file),
        released_(from),
        next_(file.size() >= SourceFile::kReleaseMinBytes
                  ? uint64_t{from} + kStride + kMargin
                  : UINT64_MAX),
        floor_(sink != nullptr ? from : 0),
        sink_(sink) {
    if (sink_ != nullptr) sink_->searched_to = from;
  }
  // The reader has reached `offset`.
  void Advance(uint32_t offset) {
    if (Due(offset)) Release(offset);
  }
  // Whether Advance(offset) would release text (and search it first).
  bool Due(uint32_t offset) const { return offset >= next_; }
  // Releases everything behind the reader up to `offset` (no margin).
  void ReleaseTo(uint32_t offset);

 private:
  void Release(uint32_t offset);
  // Searches the markers before `to` that are not searched yet.
  void SearchMarkersTo(uint32_t to);

  const SourceFile& file_;
  uint32_t released_;
  uint64_t next_;  // UINT64_MAX: never
  uint32_t floor_;  // nothing before it is released (see ReleasePages)
  DirectiveMarkerSink* sink_;
};

}  // namespace hlolint
