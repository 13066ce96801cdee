// Paths made relative to the repository for SARIF and GitHub annotations.
#include <catch2/catch.hpp>

#include "report/relative_path.h"

namespace hlolint {
namespace {

TEST_CASE("Paths under the base become relative to it, others stay as given") {
  // SARIF: the base is the working directory.
  CHECK(PathRelativeTo("/repo/dumps/a.hlo", "/repo", "/repo") == "dumps/a.hlo");
  CHECK(PathRelativeTo("dumps/a.hlo", "/repo", "/repo") == "dumps/a.hlo");
  CHECK(PathRelativeTo("/elsewhere/a.hlo", "/repo", "/repo") == "/elsewhere/a.hlo");
  // GitHub: the base is the workspace, the working directory inside it.
  CHECK(PathRelativeTo("a.hlo", "/repo", "/repo/sub") == "sub/a.hlo");
  CHECK(PathRelativeTo("./x/../a.hlo", "/repo/", "/repo/sub") == "sub/a.hlo");
  CHECK(PathRelativeTo("../../out.hlo", "/repo", "/repo/sub") == "../../out.hlo");
  CHECK(PathRelativeTo("/repo", "/repo", "/repo") == "/repo");
  // No base, or nothing to resolve a relative path against.
  CHECK(PathRelativeTo("/repo/a.hlo", "", "/repo") == "/repo/a.hlo");
  CHECK(PathRelativeTo("a.hlo", "/repo", "") == "a.hlo");
}

}  // namespace
}  // namespace hlolint
