#include "memory/prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace hlolint {

bool PrefaultForWrite(void* block, std::size_t size, const std::atomic<bool>* cancel) {
  constexpr uintptr_t kStep = uintptr_t{2} << 20;
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  uintptr_t at = (reinterpret_cast<uintptr_t>(block) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(block) + size) / page * page;
  while (at < end && !(cancel != nullptr && cancel->load(std::memory_order_relaxed))) {
    const uintptr_t step = std::min(end - at, kStep);
    // Fails on memory unmapped meanwhile, or on an older kernel: then the
    // writer faults the pages in itself.
    if (::madvise(reinterpret_cast<void*>(at), step, MADV_POPULATE_WRITE) != 0) return false;
    at += step;
  }
  return true;
}

void PopulateAhead::Populate(uintptr_t begin, std::size_t used, std::size_t capacity) {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t end = begin + used;
  if (begin != begin_ || done_ < end) {
    begin_ = begin;
    done_ = end / page * page;
  }
  const uintptr_t limit = (begin + capacity) / page * page;
  const uintptr_t step = std::min(kStep, limit > done_ ? limit - done_ : 0);
  if (step == 0) {
    done_ = ~uintptr_t{0} - kLow;  // nothing left to populate in this block
    return;
  }
  // On an older kernel the call fails and the writer faults pages itself.
  if (!PrefaultForWrite(reinterpret_cast<void*>(done_), step, nullptr)) {
    done_ = ~uintptr_t{0} - kLow;
    return;
  }
  done_ += step;
}

}  // namespace hlolint
