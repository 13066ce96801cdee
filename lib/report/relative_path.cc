#include "report/relative_path.h"

#include <filesystem>

namespace hlolint {

std::string PathRelativeTo(const std::string& path, const std::string& base,
                           const std::string& working_directory) {
  namespace fs = std::filesystem;
  if (path.empty() || base.empty()) return path;
  const bool absolute = path.front() == '/';
  if (!absolute) {
    // Relative to the base already, or nothing to resolve it against.
    if (working_directory.empty()) return path;
    if (fs::path(base).lexically_normal() == fs::path(working_directory).lexically_normal()) {
      return path;
    }
  }
  const fs::path full = absolute ? fs::path(path) : fs::path(working_directory) / path;
  const std::string relative =
      full.lexically_normal().lexically_relative(fs::path(base).lexically_normal())
          .generic_string();
  if (relative.empty() || relative == "." || relative.rfind("..", 0) == 0) return path;
  return relative;
}

}  // namespace hlolint
