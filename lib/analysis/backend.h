// Which XLA backend compiled a module, when `--backend auto` leaves it to
// the input: the dump file's platform, then the module's own marks (custom
// call targets only one backend registers, GPU backend configs, TPU tiled
// layouts).
#pragma once

#include <string_view>

#include "ir/module.h"
#include "xla/profile.h"

namespace hlolint {

class OpcodeIndex;

// kUnknown when nothing tells.
Backend BackendOfDumpPlatform(std::string_view platform);
// `dump_platform`: what the dump file's name says (DumpContext::platform).
Backend DetectBackend(const Module& module, std::string_view dump_platform,
                      const OpcodeIndex& opcodes);

}  // namespace hlolint
