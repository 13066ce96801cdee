// Faulting memory in ahead of its use, on another thread than the one that
// will write it.
#pragma once

#include <atomic>
#include <cstddef>

namespace hlolint {

// Faults in the whole pages of [block, block + size) for writing, without
// changing a byte (MADV_POPULATE_WRITE; nothing on kernels before 5.14), in
// 2 MB steps, stopping early once `cancel` is set. Safe while another
// thread writes there, and on memory freed meanwhile.
void PrefaultForWrite(void* block, std::size_t size, const std::atomic<bool>* cancel);

}  // namespace hlolint
