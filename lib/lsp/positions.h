// Between the library's positions (1-based lines, 1-based byte columns) and
// LSP's (0-based lines, 0-based UTF-16 code units), and between document
// URIs and the paths the library lints under.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hlolint/location.h"

namespace hlolint::lsp {

// UTF-16 code units that `utf8` takes: a 4-byte sequence is a surrogate
// pair. Bytes that are not valid UTF-8 count one unit each, as the
// replacement character an editor shows for them; stray continuation bytes
// count none.
uint32_t Utf16Length(std::string_view utf8);

// An LSP Range ({"start":{line,character},"end":{...}}) for a location in
// `text`, the text the location's offsets index. A location without a line
// (a finding about the whole file) is the start of the document.
nlohmann::json RangeIn(std::string_view text, const api::Location& location);

// The path a document's diagnostics and configuration search use:
// file:///a/b%20c.hlo -> /a/b c.hlo; any other scheme keeps the URI as is.
std::string PathFromUri(std::string_view uri);

}  // namespace hlolint::lsp
