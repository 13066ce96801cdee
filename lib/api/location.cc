#include "hlolint/location.h"

namespace hlolint::api {

std::optional<Severity> SeverityFromName(std::string_view name) {
  for (Severity severity : {Severity::kError, Severity::kWarning, Severity::kNote}) {
    if (name == SeverityName(severity)) return severity;
  }
  return std::nullopt;
}

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kNote: return "note";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

}  // namespace hlolint::api
