#include "source/source_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "source/mapped_text_guard.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22  // Linux 5.14
#endif

namespace hlolint {
namespace {

// Where the page cache holds a file in 2 MB folios, a mapping that starts on
// this boundary maps each with one entry.
constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;

// A file shorter than a page has no whole page to map: it is read.
constexpr uint64_t kMinMappedBytes = 4096;

absl::Status ErrnoError(const std::string& what, const std::string& path) {
  return absl::Status(absl::StatusCode::kUnavailable,
                      absl::StrCat("cannot ", what, " '", path, "': ", std::strerror(errno)));
}

// Reads [offset, offset + size) of `fd` into `out`; returns the bytes read
// (fewer if the file was truncated meanwhile) or -1.
ssize_t ReadFully(int fd, char* out, size_t size, size_t offset) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, std::min<size_t>(size - done, size_t{1} << 30),
                              static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

char* ReadBuffer::Reserve(size_t bytes) {
  if (bytes + kSentinelBytes > capacity_) {
    data_.reset();  // never hold both
    capacity_ = bytes + kSentinelBytes;
    data_.reset(new char[capacity_]);
  }
  return data_.get();
}

absl::StatusOr<std::unique_ptr<SourceFile>> SourceFile::Open(const std::string& path,
                                                             std::string display_path,
                                                             ReadBuffer* buffer) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ErrnoError("open", path);
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError("stat", path);
  if (S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat("'", path, "' is a directory"));
  }
  std::unique_ptr<SourceFile> file(new SourceFile());
  file->path_ = std::move(display_path);

  if (S_ISREG(st.st_mode)) {
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > kMaxSourceBytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("'", path, "' is larger than the 4 GiB hlolint can lint"));
    }
    // Size 0 is not always empty: /proc and /sys files report it and read
    // their content. Read to the end, as a stream.
    if (size == 0) return ReadStream(fd, path, std::move(file->path_));
    const bool into_buffer = buffer != nullptr && buffer->Takes(size);
    if (buffer != nullptr) buffer->NoteFile();
    if (into_buffer || size < kMinMappedBytes) {
      char* data;
      if (into_buffer) {
        data = buffer->Reserve(size);
      } else {
        file->owned_.reset(new char[size + kSentinelBytes]);
        data = file->owned_.get();
      }
      const ssize_t done = ReadFully(fd, data, size, 0);  // short if truncated meanwhile
      if (done < 0) return ErrnoError("read", path);
      std::memset(data + done, 0, kSentinelBytes);
      file->data_ = data;
      file->size_ = static_cast<size_t>(done);
      return file;
    }
    return MapLarge(fd, size, path, std::move(file));
  }

  // FIFOs, character devices, ...: read everything. Clear O_NONBLOCK so a
  // FIFO blocks until its writer sends data or closes (a FIFO without a
  // writer reads as empty).
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return ReadStream(fd, path, std::move(file->path_));
}

// A file no reused buffer takes is mapped from the page cache with its
// page tables filled in one call: no byte is copied and no fresh memory is
// taken. Fresh memory is what costs most on virtual machines whose host
// takes back the pages the guest frees, far more than mapping the same
// text (docs/performance.md).
// The text starts on a 2 MB boundary and the mapping asks for
// huge pages: where the page cache holds the file in 2 MB folios (a file
// written in large writes, as XLA writes its dumps, or read in through such
// a mapping) each is mapped by one entry instead of 512, which makes the
// first touch of the text cheaper. The last partial page is read
// into zeroed memory after the mapping (the sentinel). Where the file
// cannot be mapped, it is read into that memory instead. Text released
// behind its readers leaves the resident set (ReleasePages).
absl::StatusOr<std::unique_ptr<SourceFile>> SourceFile::MapLarge(
    int fd, uint64_t size, const std::string& path, std::unique_ptr<SourceFile> file) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t whole = size / page * page;  // whole pages of the file
  // The text on a huge-page boundary, then at least one page of zeros.
  const size_t reserved = whole + 2 * page + kHugePageBytes;
  void* region = ::mmap(nullptr, reserved, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return ErrnoError("map memory for", path);
  char* const text = reinterpret_cast<char*>(
      (reinterpret_cast<uintptr_t>(region) + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1});
  file->mapping_ = region;
  file->mapping_size_ = reserved;
  size_t mapped = 0;
  // Pages of the file are mapped here only under a guard (a truncated file
  // must not crash the run): without one, the file is read and stays read.
  auto guard = std::make_unique<MappedTextGuard>();
  const bool guarded = MappedTextGuard::Register(text, whole, guard.get());
  if (guarded) file->guard_ = std::move(guard);
  if (guarded && ::mmap(text, whole, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) != MAP_FAILED) {
    // Advice first, so what the page cache lacks is read in 2 MB folios;
    // then the page tables in one call (a kernel without MADV_POPULATE_READ
    // fills them on first touch).
    ::madvise(text, whole, MADV_HUGEPAGE);
    ::madvise(text, whole, MADV_POPULATE_READ);
    struct stat now;
    // Truncated since it was measured: a mapped page past the end would
    // fault (SIGBUS). Read what is there instead.
    if (::fstat(fd, &now) == 0 && static_cast<uint64_t>(now.st_size) >= size) {
      mapped = whole;
    } else {
      ::mmap(text, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    }
  }
  const ssize_t rest = ReadFully(fd, text + mapped, size - mapped, mapped);
  if (rest < 0) return ErrnoError("read", path);
  ::mprotect(text + mapped, reserved - mapped - static_cast<size_t>(text - static_cast<char*>(region)),
             PROT_READ);
  file->data_ = text;
  file->size_ = mapped + static_cast<size_t>(rest);
  file->text_mapped_ = mapped != 0;
  file->release_fd_ = guarded ? ::dup(fd) : -1;  // -1: released text simply stays
  return file;
}

absl::StatusOr<std::unique_ptr<SourceFile>> SourceFile::ReadStream(int fd, const std::string& path,
                                                                   std::string display_path) {
  // Read straight into the final buffer (no copy at the end), growing it
  // geometrically; the sentinel's room is kept free after the text.
  size_t capacity = size_t{1} << 16;
  std::unique_ptr<char[]> buffer(new char[capacity + kSentinelBytes]);
  size_t size = 0;
  while (true) {
    if (size == capacity) {
      if (capacity >= kMaxStreamBytes) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "'", path, "' is a stream larger than the ", kMaxStreamBytes >> 20,
            " MiB hlolint reads into memory (save it to a file)"));
      }
      const size_t grown = std::min<size_t>(capacity * 2, kMaxStreamBytes);
      std::unique_ptr<char[]> bigger(new char[grown + kSentinelBytes]);
      std::memcpy(bigger.get(), buffer.get(), size);
      buffer = std::move(bigger);
      capacity = grown;
    }
    const ssize_t n = ::read(fd, buffer.get() + size, capacity - size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("read", path);
    }
    if (n == 0) break;
    size += static_cast<size_t>(n);
  }
  std::memset(buffer.get() + size, 0, kSentinelBytes);
  std::unique_ptr<SourceFile> file(new SourceFile());
  file->path_ = std::move(display_path);
  file->owned_ = std::move(buffer);
  file->data_ = file->owned_.get();
  file->size_ = size;
  return file;
}

std::unique_ptr<SourceFile> SourceFile::FromString(std::string display_path,
                                                   std::string_view text) {
  std::unique_ptr<SourceFile> file(new SourceFile());
  file->path_ = std::move(display_path);
  size_t size = std::min<size_t>(text.size(), kMaxSourceBytes);
  // Zero padding past the end: the NUL sentinel, and room for the lexer's
  // 16-byte loads (an mmap'd file gets a whole zero page instead).
  file->owned_ = std::make_unique_for_overwrite<char[]>(size + kSentinelBytes);
  std::memcpy(file->owned_.get(), text.data(), size);
  std::memset(file->owned_.get() + size, 0, kSentinelBytes);
  file->data_ = file->owned_.get();
  file->size_ = size;
  return file;
}

SourceFile::~SourceFile() {
  guard_.reset();  // before the range is unmapped
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
  if (release_fd_ >= 0) ::close(release_fd_);
}

namespace {

// Newlines in [p, end), 16 bytes at a time: each compare leaves -1 in a
// byte lane per newline, summed in the lanes for up to 255 steps.
size_t CountNewlines(const char* p, const char* end) {
  size_t count = 0;
#ifdef __SSE2__
  const __m128i newline = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    __m128i lanes = _mm_setzero_si128();
    const size_t steps = std::min<size_t>(255, static_cast<size_t>(end - p) / 16);
    for (size_t k = 0; k < steps; ++k, p += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, newline));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    count += static_cast<size_t>(_mm_cvtsi128_si32(sums)) +
             static_cast<size_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; p < end; ++p) count += *p == '\n';
  return count;
}

}  // namespace

void SourceFile::CountLinesThrough(size_t offset, uint32_t newlines) const {
  const size_t wanted = std::min(offset, size_) >> kLineBlockBits;
  if (block_newlines_.size() > wanted || block_newlines_.back() >= newlines) return;
  size_t begin = (block_newlines_.size() - 1) << kLineBlockBits;
  // The scan need not keep a large file resident.
  TextReleaser released(*this, static_cast<uint32_t>(begin));
  while (block_newlines_.size() <= wanted && block_newlines_.back() < newlines) {
    const size_t end = begin + (size_t{1} << kLineBlockBits);
    block_newlines_.push_back(block_newlines_.back() +
                              static_cast<uint32_t>(CountNewlines(data_ + begin, data_ + end)));
    begin = end;
    released.Advance(static_cast<uint32_t>(begin));
  }
}

size_t SourceFile::AfterNewline(uint32_t k) const {
  // Blocks are counted until one holds the kth newline, or the text ends.
  CountLinesThrough(size_, k);
  // The last block with fewer than k newlines before it.
  const size_t block = static_cast<size_t>(std::lower_bound(block_newlines_.begin(),
                                                            block_newlines_.end(), k) -
                                           block_newlines_.begin()) -
                       1;
  const char* p = data_ + (block << kLineBlockBits);
  const char* const end = data_ + size_;
  for (uint32_t left = k - block_newlines_[block];; ++p) {
    p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (p == nullptr) return size_ + 1;
    if (--left == 0) return static_cast<size_t>(p - data_) + 1;
  }
}

LineCol SourceFile::Locate(uint32_t offset) const {
  if (offset > size_) offset = static_cast<uint32_t>(size_);
  size_t newlines;
  {
    std::lock_guard<std::mutex> lock(lines_mutex_);
    CountLinesThrough(offset);
    const size_t block = offset >> kLineBlockBits;
    newlines = block_newlines_[block] + CountNewlines(data_ + (block << kLineBlockBits), data_ + offset);
  }
  const void* last = offset == 0 ? nullptr : ::memrchr(data_, '\n', offset);
  const size_t line_start = last == nullptr ? 0 : static_cast<const char*>(last) - data_ + 1;
  return {static_cast<uint32_t>(newlines + 1), static_cast<uint32_t>(offset - line_start + 1)};
}

uint32_t SourceFile::LineCount() const {
  std::lock_guard<std::mutex> lock(lines_mutex_);
  CountLinesThrough(size_);
  const size_t last = size_ >> kLineBlockBits;
  return block_newlines_[last] +
         static_cast<uint32_t>(CountNewlines(data_ + (last << kLineBlockBits), data_ + size_)) + 1;
}

std::string_view SourceFile::Line(uint32_t line) const {
  if (line == 0) return {};
  size_t begin = 0;
  if (line > 1) {
    std::lock_guard<std::mutex> lock(lines_mutex_);
    begin = AfterNewline(line - 1);
    if (begin > size_) return {};
  }
  const void* newline = std::memchr(data_ + begin, '\n', size_ - begin);
  size_t end = newline == nullptr ? size_ : static_cast<const char*>(newline) - data_;
  if (end > begin && data_[end - 1] == '\r') --end;
  return {data_ + begin, end - begin};
}

void SourceFile::ReleasePages(uint32_t begin, uint32_t end, uint32_t floor) const {
  end = std::min(end, static_cast<uint32_t>(size_));
  if (release_fd_ < 0 || begin >= end) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  // Whole pages inside the range, short of the page that holds the end of
  // the text: past it a file mapping has no bytes (the sentinel must stay).
  // Mapped text goes in whole huge pages, from the one `begin` is in (what
  // of it an earlier call left is released now): a mapping that ended inside
  // one would take the rest of it off huge pages. From the first whole unit
  // after `floor` at the earliest.
  const uintptr_t unit = text_mapped_ ? kHugePageBytes : page;
  const uintptr_t lowest = (uintptr_t{floor} + unit - 1) / unit * unit;
  const uintptr_t first = std::max(
      lowest,
      text_mapped_ ? uintptr_t{begin} / unit * unit : (uintptr_t{begin} + unit - 1) / unit * unit);
  const uintptr_t last = std::min<uintptr_t>(end, size_ / page * page) / unit * unit;
  if (first >= last) return;
  // The same bytes from the page cache, mapped over the resident ones
  // without huge pages: they leave the resident set, and a later read maps
  // in the 4 KB it needs, not 2 MB.
  ::mmap(const_cast<char*>(data_) + first, last - first, PROT_READ, MAP_PRIVATE | MAP_FIXED,
         release_fd_, static_cast<off_t>(first));
}

void SourceFile::SetDirectiveMarker(std::string_view marker) {
  if (marker == directive_marker_) return;
  // What was found was found for another marker: search again from the
  // front. No reader reads the file meanwhile (see the declaration).
  directive_marker_ = std::string(marker);
  markers_.clear();
  markers_searched_to_.store(0, std::memory_order_release);
}

const std::vector<uint32_t>& SourceFile::DirectiveMarkers() const {
  // What no reader released is searched here, a megabyte at a time, and
  // released behind (a parse that stopped early left most of a file).
  constexpr uint32_t kChunk = 1u << 20;
  uint32_t searched = markers_searched_to_.load(std::memory_order_acquire);
  TextReleaser released(*this, searched);
  while (searched < size_) {
    const uint32_t end = static_cast<uint32_t>(std::min<size_t>(size_, size_t{searched} + kChunk));
    SearchMarkersTo(end);
    released.Advance(end);
    searched = markers_searched_to_.load(std::memory_order_acquire);
  }
  // Searched to the end: nothing is added to the list any more.
  return markers_;
}

void SourceFile::SearchMarkersTo(uint32_t end) const {
  end = std::min(end, static_cast<uint32_t>(size_));
  if (end <= markers_searched_to_.load(std::memory_order_acquire)) return;
  // Readers on several threads release text (rules of one module run in
  // parallel): one searches, and the search goes on from where it stopped.
  std::lock_guard<std::mutex> lock(markers_mutex_);
  const uint32_t from = markers_searched_to_.load(std::memory_order_relaxed);
  if (end <= from) return;
  FindMarkers(from, end, &markers_);
  markers_searched_to_.store(end, std::memory_order_release);
}

void SourceFile::FindMarkers(uint32_t begin, uint32_t end, std::vector<uint32_t>* out) const {
  end = std::min(end, static_cast<uint32_t>(size_));
  // Without a marker there is nothing to find (an empty needle would match
  // at every offset).
  const std::string_view marker = directive_marker_;
  if (end <= begin || marker.empty()) return;
  // A marker that starts before `end` may run past it: search up to where
  // the last such one would end.
  const std::string_view window =
      text().substr(0, std::min(size_, size_t{end} + marker.size() - 1));
  for (size_t at = window.find(marker, begin); at != std::string_view::npos && at < end;
       at = window.find(marker, at + 1)) {
    out->push_back(static_cast<uint32_t>(at));
  }
}

void SourceFile::AdoptMarkers(uint32_t from, const DirectiveMarkerSink& sink) const {
  SearchMarkersTo(from);
  std::lock_guard<std::mutex> lock(markers_mutex_);
  // Whatever was searched meanwhile (beyond `from`) is in the list already.
  const uint32_t searched = markers_searched_to_.load(std::memory_order_relaxed);
  for (uint32_t at : sink.markers) {
    if (at >= searched && at < sink.searched_to) markers_.push_back(at);
  }
  markers_searched_to_.store(std::max(searched, sink.searched_to), std::memory_order_release);
}

void TextReleaser::SearchMarkersTo(uint32_t to) {
  if (sink_ == nullptr) {
    file_.SearchMarkersTo(to);
  } else if (to > sink_->searched_to) {
    file_.FindMarkers(sink_->searched_to, to, &sink_->markers);
    sink_->searched_to = to;
  }
}

void TextReleaser::Release(uint32_t offset) {
  const uint32_t to = offset - kMargin;
  if (to > released_) {
    SearchMarkersTo(to);
    file_.ReleasePages(released_, to, floor_);
    released_ = to;
  }
  next_ = uint64_t{offset} + kStride;
}

void TextReleaser::ReleaseTo(uint32_t offset) {
  if (file_.size() < SourceFile::kReleaseMinBytes || offset <= released_) return;
  SearchMarkersTo(offset);
  file_.ReleasePages(released_, offset, floor_);
  released_ = offset;
}

}  // namespace hlolint
