// Where output goes: atomic report files, terminals and colour.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli_options.h"

namespace hlolint {

// Writes `text` to `path` through a temporary file in the same directory and
// a rename, so readers never see a half-written report. False with `error`
// set on failure (the temporary file is removed).
bool WriteFileAtomically(const std::string& path, std::string_view text, std::string* error);

// Writes all of `text` to stdout; false on a write error (e.g. a closed pipe).
bool WriteStdout(std::string_view text);

bool StdoutIsTerminal();

// Whether to colour: --color always/never decide; for auto, FORCE_COLOR or
// CLICOLOR_FORCE (set, not "0") force colour, then NO_COLOR (set, non-empty)
// turns it off, as does TERM=dumb, and otherwise colour goes only to a
// terminal.
bool ShouldColor(ColorMode mode, bool to_terminal);

// The width the full format fits its lines to: the terminal's when stdout is
// one, else $COLUMNS, else 100.
uint32_t ReportWidth(bool to_terminal);

}  // namespace hlolint
