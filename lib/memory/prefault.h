// Faulting memory in ahead of its use: on another thread than the one that
// will write it (PrefaultForWrite), or in batches ahead of it (PopulateAhead).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace hlolint {

// Faults in the whole pages of [block, block + size) for writing, without
// changing a byte (MADV_POPULATE_WRITE; nothing on kernels before 5.14), in
// 2 MB steps, stopping early once `cancel` is set. Safe while another
// thread writes there, and on memory freed meanwhile. False when the kernel
// refused (memory unmapped meanwhile, or a kernel before 5.14).
bool PrefaultForWrite(void* block, std::size_t size, const std::atomic<bool>* cancel);

// Faults in the pages ahead of an array that grows into fresh memory, a
// batch at a time (MADV_POPULATE_WRITE; nothing on kernels before 5.14), on
// the thread that writes it: one call per 512 KB instead of a page fault
// per 4 KB page, which is cheaper than faulting the pages in one by one as
// the writer reaches them (the parser's use: ReadAhead in parse/read_ahead.h).
class PopulateAhead {
 public:
  // The array's elements are [data, data + used) in a block of `capacity`
  // bytes; called as it grows (a block moved elsewhere starts over).
  void Grow(const void* data, std::size_t used, std::size_t capacity) {
    const auto begin = reinterpret_cast<uintptr_t>(data);
    if (begin == begin_ && begin + used + kLow <= done_) return;
    Populate(begin, used, capacity);
  }

 private:
  static constexpr uintptr_t kLow = uintptr_t{128} << 10;   // populate again this near
  static constexpr uintptr_t kStep = uintptr_t{512} << 10;  // bytes per call

  void Populate(uintptr_t begin, std::size_t used, std::size_t capacity);

  uintptr_t begin_ = 0;  // the block populated in
  uintptr_t done_ = 0;   // populated up to here (a page boundary)
};

}  // namespace hlolint
