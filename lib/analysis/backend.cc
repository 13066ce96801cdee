#include "analysis/backend.h"

#include <string_view>

#include "analysis/opcode_index.h"
#include "parse/attributes.h"

namespace hlolint {
namespace {

// Custom-call targets that only one backend's compiler emits.
Backend BackendOfCustomCallTarget(std::string_view target) {
  static constexpr std::string_view kGpu[] = {"__cublas", "__cudnn", "__triton", "__gpu$",
                                              "xla.gpu.", "__nccl", "__cusolver",
                                              "__xla_gpu", "__nvshmem"};
  static constexpr std::string_view kCpu[] = {"__onednn$", "xla.cpu.", "__xla_cpu"};
  for (std::string_view prefix : kGpu) {
    if (target.starts_with(prefix)) return Backend::kGpu;
  }
  for (std::string_view prefix : kCpu) {
    if (target.starts_with(prefix)) return Backend::kCpu;
  }
  return Backend::kUnknown;
}

// TPU layouts tile two minor dimensions (`T(8,128)`); GPU and CPU tile only
// sub-byte element types, with one-dimensional tiles.
bool HasTpuTiling(const Module& m) {
  const ShapeTable& shapes = m.shapes();
  for (ShapeId id = 0; id < shapes.size(); ++id) {
    for (const std::vector<int64_t>& tile : shapes.Get(id).layout.tiles) {
      if (tile.size() >= 2) return true;
    }
  }
  return false;
}

// GPU backend configs of fusions and collectives carry an operation queue.
bool HasGpuBackendConfig(const Module& m, std::span<const InstrId> fusions) {
  constexpr size_t kLooked = 16;  // the first few tell, and a large module has very many
  for (size_t i = 0; i < fusions.size() && i < kLooked; ++i) {
    const auto config = RawStringAttr(m, fusions[i], AttrName::kBackendConfig);
    if (config && (config->find("\"operation_queue_id\"") != std::string_view::npos ||
                   config->find("\"fusion_backend_config\"") != std::string_view::npos)) {
      return true;
    }
  }
  return false;
}

}  // namespace

Backend BackendOfDumpPlatform(std::string_view platform) {
  if (platform.ends_with("gpu") || platform.starts_with("sm_") || platform.starts_with("gfx")) {
    return Backend::kGpu;
  }
  if (platform.starts_with("cpu") || platform.ends_with("cpu")) return Backend::kCpu;
  if (platform.starts_with("tpu") || platform.ends_with("tpu")) return Backend::kTpu;
  return Backend::kUnknown;
}

Backend DetectBackend(const Module& m, std::string_view dump_platform,
                      const OpcodeIndex& opcodes) {
  if (Backend from_name = BackendOfDumpPlatform(dump_platform); from_name != Backend::kUnknown) {
    return from_name;
  }
  for (InstrId id : opcodes.Of(Opcode::kCustomCall)) {
    const Backend from_target = BackendOfCustomCallTarget(CustomCallTarget(m, id));
    if (from_target != Backend::kUnknown) return from_target;
  }
  if (HasGpuBackendConfig(m, opcodes.Of(Opcode::kFusion))) return Backend::kGpu;
  if (HasTpuTiling(m)) return Backend::kTpu;
  return Backend::kUnknown;
}

}  // namespace hlolint
