#include "analysis/analyses.h"

#include <algorithm>
#include <stdexcept>

namespace hlolint {

size_t Analyses::NextSlot() {
  static std::atomic<size_t> next{0};
  const size_t slot = next.fetch_add(1, std::memory_order_relaxed);
  // A programming error (more analysis classes than slots), not an input's.
  if (slot >= kMaxAnalysisTypes) {
    throw std::length_error("more analysis types than Analyses::kMaxAnalysisTypes");
  }
  return slot;
}

Analyses::~Analyses() { ReleaseAllBut({}); }

void Analyses::ReleaseAllBut(std::initializer_list<size_t> kept) {
  // Later analyses may hold references into earlier ones: last built, first gone.
  std::vector<size_t> still_built;  // in reverse build order
  for (auto it = build_order_.rbegin(); it != build_order_.rend(); ++it) {
    if (std::find(kept.begin(), kept.end(), *it) != kept.end()) {
      still_built.push_back(*it);
      continue;
    }
    slots_[*it].built.store(nullptr, std::memory_order_relaxed);
    slots_[*it].owned.reset();
  }
  build_order_.assign(still_built.rbegin(), still_built.rend());
}

Analyses::HolderBase* Analyses::Build(size_t slot, Factory make) {
  Slot& s = slots_[slot];
  const std::thread::id self = std::this_thread::get_id();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      if (s.owned != nullptr) return s.owned.get();
      if (s.builder == std::thread::id()) break;  // nobody builds it: this thread will
      if (s.builder == self) {
        // Its own constructor asked for it, directly or through another
        // analysis: waiting would never end.
        throw std::logic_error("analyses ask for each other in their constructors");
      }
      finished_.wait(lock);
    }
    s.builder = self;
  }
  // Built outside the lock: analyses it asks for, and other threads'
  // analyses, are built meanwhile.
  std::unique_ptr<HolderBase> built;
  try {
    built = make(module_, *this);
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      s.builder = std::thread::id();  // a waiter tries again (and likely fails the same way)
    }
    finished_.notify_all();
    throw;
  }
  HolderBase* const result = built.get();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s.owned = std::move(built);
    s.builder = std::thread::id();
    build_order_.push_back(slot);
    s.built.store(result, std::memory_order_release);
  }
  finished_.notify_all();
  return result;
}

}  // namespace hlolint
