// Between the library's positions (1-based lines, 1-based byte columns) and
// LSP's (0-based lines, 0-based UTF-16 code units), and between document
// URIs and the paths the library lints under.
#pragma once

#include <cstdint>
#include <optional>
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

// The bytes of `line` that its first `utf16_units` UTF-16 code units take
// (Utf16Length's counting); the whole line when it has fewer. A position
// inside a surrogate pair rounds to the character's end.
uint32_t ByteColumn(std::string_view line, uint32_t utf16_units);

// An LSP Range ({"start":{line,character},"end":{...}}) for a location in
// `text`, the text the location's offsets index. A location without a line
// (a finding about the whole file) is the start of the document.
nlohmann::json RangeIn(std::string_view text, const api::Location& location);

// An LSP Position ({line, character}) as an api::Position (1-based line,
// 1-based byte column) of `line_text`, the text of that line; nullopt when
// the JSON is not a position.
std::optional<api::Position> ToApiPosition(const nlohmann::json& position,
                                           std::string_view line_text);
// The 0-based line of an LSP Position, or nullopt when it is not one.
std::optional<uint32_t> LspLine(const nlohmann::json& position);
// Whether the JSON is an LSP Position (unsigned line and character).
bool IsLspPosition(const nlohmann::json& position);

// The URI of a local path: /a/b c.hlo -> file:///a/b%20c.hlo (the
// inverse of PathFromUri).
std::string UriFromPath(std::string_view path);

// The path a document's diagnostics and configuration search use:
// file:///a/b%20c.hlo -> /a/b c.hlo; any other scheme keeps the URI as is.
std::string PathFromUri(std::string_view uri);

}  // namespace hlolint::lsp
