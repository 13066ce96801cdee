// The colours of the human formats (full and concise), as GCC and clang use
// them: bold locations, the severity word in its colour, green carets, blue
// gutters. kPlain has every colour empty, so renderers need no branches.
#pragma once

#include <string_view>

#include "diag/diagnostic.h"

namespace hlolint {

struct Palette {
  std::string_view bold, reset, error, warning, note, caret, gutter;
};

inline constexpr Palette kPlainPalette{"", "", "", "", "", "", ""};
inline constexpr Palette kAnsiPalette{"\x1b[1m",    "\x1b[0m",    "\x1b[1;31m", "\x1b[1;35m",
                                      "\x1b[1;36m", "\x1b[1;32m", "\x1b[1;34m"};

inline std::string_view SeverityColor(const Palette& p, Severity severity) {
  switch (severity) {
    case Severity::kError: return p.error;
    case Severity::kWarning: return p.warning;
    case Severity::kNote: return p.note;
  }
  return p.error;
}

}  // namespace hlolint
