// What --version prints; defined in a file generated at build time
// (cmake/BuildInfo.cmake).
#pragma once

namespace hlolint {

// "hlolint 0.1.0 (git c23975a)", "(git c23975a-dirty)" or "(no git)".
const char* VersionLine();

}  // namespace hlolint
