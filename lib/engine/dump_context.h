// What is known about a file from its XLA dump file name (see
// docs/dump-directories.md): the module, the step and the passes around it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hlolint {

struct DumpContext {
  std::string module_id;   // "0042" in module_0042.<name>...
  std::string module_name;
  std::optional<int64_t> step;
  std::string pipeline;    // e.g. "post-layout_assignment"
  std::string after_pass;  // e.g. "cublas-gemm-rewriter"
  std::string before_pass; // e.g. "layout_normalization"
};

}  // namespace hlolint
