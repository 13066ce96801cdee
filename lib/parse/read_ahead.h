// Keeps a large module's text and IR arrays in memory ahead of the parser:
// prefetches the text a few lines ahead and faults in the pages the IR's
// arrays grow into. Nothing here changes what is parsed.
#pragma once

#include <algorithm>
#include <cstddef>

#include "ir/module.h"
#include "memory/prefault.h"
#include "util/prefetch.h"

namespace hlolint {

class ReadAhead {
 public:
  // Whether a module of `text_bytes` is large enough to pay for it: the
  // text of a smaller one was just read into a buffer, or stays cached.
  void BeginModule(size_t text_bytes) { enabled_ = text_bytes >= kMinBytes; }

  // The text from `at` on: the hardware prefetcher stops at every 4 KB
  // page, so a few lines ahead are asked for.
  void Text(const char* data, size_t size, size_t at) {
    if (!enabled_) return;
    const size_t ahead = std::min(at + kTextAhead, size);
    if (text_prefetched_ < at) text_prefetched_ = at;
    for (; text_prefetched_ < ahead; text_prefetched_ += 64) PrefetchForRead(data + text_prefetched_);
  }

  // The pages ahead of the arrays an instruction grows: faulted in by the
  // batch instead of once per page.
  void InstructionArrays(Module::Builder& builder) {
    if (!enabled_) return;
    Grow(builder.instructions(), instrs_);
    Grow(builder.ids(), ids_);
    Grow(builder.attributes(), attrs_);
    Grow(builder.name_hashes(), hashes_);
  }
  void ComputationArray(Module::Builder& builder) {
    if (enabled_) Grow(builder.computations(), comps_);
  }

 private:
  static constexpr size_t kTextAhead = 2048;
  static constexpr size_t kMinBytes = size_t{16} << 20;

  template <typename Vector>
  static void Grow(const Vector& v, PopulateAhead& ahead) {
    using T = typename Vector::value_type;
    ahead.Grow(v.data(), v.size() * sizeof(T), v.capacity() * sizeof(T));
  }

  bool enabled_ = false;
  size_t text_prefetched_ = 0;  // offset
  PopulateAhead instrs_, ids_, attrs_, hashes_, comps_;
};

}  // namespace hlolint
