// Paths in reports that CI services map to files of the repository (SARIF
// artifact URIs, GitHub annotations).
#pragma once

#include <string>

namespace hlolint {

// `path` relative to `base` when it lies under it, else `path` unchanged. A
// relative `path` is taken relative to `working_directory` first; with an
// empty `base` (or `base` equal to the working directory) relative paths
// stay as they are. Both directories are absolute.
std::string PathRelativeTo(const std::string& path, const std::string& base,
                           const std::string& working_directory);

}  // namespace hlolint
