// The JSON object of one diagnostic, shared by the json and json-lines
// formats (docs/hlolint-output.schema.json, "diagnostic").
#pragma once

#include <string>

#include "engine/lint.h"
#include "nlohmann/json.hpp"

namespace hlolint {

nlohmann::ordered_json DiagnosticToJson(const FileResult& file, const Diagnostic& d);

// Serialises with invalid UTF-8 replaced rather than throwing.
std::string DumpJson(const nlohmann::ordered_json& value, int indent);

}  // namespace hlolint
