// Shared analyses of one module, computed on first use and cached so that
// every rule asking for the same fact pays for it once.
#pragma once

#include "ir/module.h"

namespace hlolint {

class Analyses {
 public:
  explicit Analyses(const Module& module) : module_(module) {}
  Analyses(const Analyses&) = delete;
  Analyses& operator=(const Analyses&) = delete;

  const Module& module() const { return module_; }

 private:
  const Module& module_;
};

}  // namespace hlolint
