// Shared analyses of one module, computed on first use and cached so that
// every rule asking for the same fact pays for it once.
//
// An analysis is any class constructible as T(const Module&, Analyses&); it
// may ask for other analyses in its constructor. Rules call
// `ctx.analyses().Get<InPlacePairs>()` and so on.
#pragma once

#include <memory>
#include <typeindex>
#include <unordered_map>

#include "ir/module.h"

namespace hlolint {

class Analyses {
 public:
  explicit Analyses(const Module& module) : module_(module) {}
  Analyses(const Analyses&) = delete;
  Analyses& operator=(const Analyses&) = delete;

  const Module& module() const { return module_; }

  template <typename T>
  const T& Get() {
    const std::type_index key(typeid(T));
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      auto holder = std::make_unique<Holder<T>>(module_, *this);
      it = cache_.emplace(key, std::move(holder)).first;
    }
    return static_cast<Holder<T>*>(it->second.get())->value;
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

  const Module& module_;
  std::unordered_map<std::type_index, std::unique_ptr<HolderBase>> cache_;
};

}  // namespace hlolint
