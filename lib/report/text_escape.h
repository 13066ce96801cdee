// Escaping shared by the reporters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hlolint {

// Keeps a message on one line: "\n" -> "\\n", "\r" -> "\\r" (and a
// backslash before either stays as it is, so the text is readable).
std::string OneLine(std::string_view text);

// Replaces bytes that are not valid UTF-8 with U+FFFD.
std::string ValidUtf8(std::string_view text);

// Text for a terminal or a log: invalid UTF-8 and control characters other
// than tab (C0, DEL and C1, which a terminal could act on, e.g. escape
// sequences hidden in a hostile file) become U+FFFD. When `starts` is given,
// (*starts)[i] is set for every input byte i that begins a character of the
// output, to that character's index (a display column, tabs counting one).
std::string TerminalText(std::string_view text, std::vector<uint32_t>* starts = nullptr);

// Text and attribute content for XML 1.0 (characters XML cannot carry at
// all, such as most control characters, become U+FFFD).
std::string XmlEscape(std::string_view text);

// A path as a URI reference: unsafe characters (':' included, so that a
// relative path never reads as a scheme) percent-encoded, a leading "./"
// dropped; absolute paths become file:// URIs.
std::string PathToUri(std::string_view path);

}  // namespace hlolint
