// Shared analyses of one module, computed on first use and cached so that
// every rule asking for the same fact pays for it once.
//
// An analysis is any class constructible as T(const Module&, Analyses&); it
// may ask for other analyses in its constructor. Rules call
// `ctx.analyses().Get<InPlacePairs>()` and so on.
//
// Rules of one module may run on several threads (LintOptions::
// module_threads), so Get is safe to call concurrently: the first caller
// of an analysis builds it (outside any lock, so different analyses are
// built in parallel), later callers of the same one wait for it. Once
// built, an analysis is read through one acquire load, without a lock.
// An analysis's const methods may be called from several threads at once:
// anything they compute lazily must be synchronised (see AttributeIndex,
// LayoutPhase, RootReachability).
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ir/module.h"
#include "xla/profile.h"

namespace hlolint {

class Analyses {
 public:
  // Distinct analysis types a program may use (a slot each).
  static constexpr size_t kMaxAnalysisTypes = 64;

  // `xla`: the XLA whose behaviour analyses mirror (in-place pairs, ...).
  explicit Analyses(const Module& module, const XlaProfile& xla = XlaProfile::Latest())
      : module_(module), xla_(xla) {
    build_order_.reserve(kMaxAnalysisTypes);
  }
  Analyses(const Analyses&) = delete;
  Analyses& operator=(const Analyses&) = delete;
  ~Analyses();

  const Module& module() const { return module_; }
  const XlaProfile& xla() const { return xla_; }
  // Before any analysis is built or asked for (the engine settles the
  // backend of `--backend auto` from the module first).
  void set_xla(const XlaProfile& xla) { xla_ = xla; }

  // Destroys the analyses built so far except those of the types Keep, the
  // last built first, so that what is built next reuses their memory
  // instead of fresh pages. A released analysis is built again if asked
  // for. A kept analysis must not refer to a released one. Not while
  // another thread uses this object.
  template <typename... Keep>
  void ReleaseAllBut() {
    ReleaseAllBut({SlotOf<Keep>()...});
  }

  template <typename T>
  const T& Get() {
    const size_t slot = SlotOf<T>();
    HolderBase* built = slots_[slot].built.load(std::memory_order_acquire);
    if (built == nullptr) built = Build(slot, &Make<T>);
    return static_cast<Holder<T>*>(built)->value;
  }

 private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <typename T>
  struct Holder : HolderBase {
    Holder(const Module& m, Analyses& a) : value(m, a) {}
    T value;
  };
  using Factory = std::unique_ptr<HolderBase> (*)(const Module&, Analyses&);
  template <typename T>
  static std::unique_ptr<HolderBase> Make(const Module& m, Analyses& a) {
    return std::make_unique<Holder<T>>(m, a);
  }

  // A small number per analysis type, the same for every Analyses.
  static size_t NextSlot();
  template <typename T>
  static size_t SlotOf() {
    static const size_t slot = NextSlot();
    return slot;
  }

  void ReleaseAllBut(std::initializer_list<size_t> kept);

  // Builds the analysis of `slot` unless another thread is building it (then
  // waits for it) or has built it; returns it. An exception of the
  // analysis's constructor reaches this caller and leaves the slot empty.
  HolderBase* Build(size_t slot, Factory make);

  struct Slot {
    std::atomic<HolderBase*> built{nullptr};  // set once, when complete
    std::unique_ptr<HolderBase> owned;        // under mutex_
    std::thread::id builder;                  // under mutex_; id() when nobody builds it
  };

  const Module& module_;
  XlaProfile xla_;
  std::mutex mutex_;
  std::condition_variable finished_;  // a build ended (built or failed)
  std::array<Slot, kMaxAnalysisTypes> slots_;
  std::vector<size_t> build_order_;  // under mutex_: destroyed in reverse
};

}  // namespace hlolint
