#include "lsp/framing.h"

#include "lsp/json_body.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <new>
#include <optional>
#include <string_view>

namespace hlolint::lsp {
namespace {

// A header line longer than this is not LSP; stop before buffering it.
constexpr size_t kMaxHeaderLine = 4096;
constexpr size_t kMaxHeaderLines = 32;
// The body is read in pieces so that a lying Content-Length on a short
// stream does not fill the whole promised size.
constexpr size_t kBodyChunk = size_t{1} << 20;
// Room after the body that the JSON parser reads past its end.
constexpr size_t kBodyPadding = 64;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

ReadResult Failure(ReadResult::Status status, uint64_t at, const std::string& what) {
  ReadResult result;
  result.status = status;
  result.error = "byte " + std::to_string(at) + ": " + what;
  return result;
}

}  // namespace

// One line without its "\r\n" (a bare "\n" is accepted too).
MessageReader::HeaderStatus MessageReader::ReadHeaderLine(std::string* line, bool first_line) {
  line->clear();
  std::streambuf* buffer = in_.rdbuf();
  while (true) {
    const int c = buffer == nullptr ? std::char_traits<char>::eof() : buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      return first_line && line->empty() ? HeaderStatus::kEndOfStream : HeaderStatus::kError;
    }
    ++offset_;
    if (c == '\n') {
      if (!line->empty() && line->back() == '\r') line->pop_back();
      return HeaderStatus::kOk;
    }
    if (line->size() >= kMaxHeaderLine) return HeaderStatus::kError;
    line->push_back(static_cast<char>(c));
  }
}

bool MessageReader::ReadBody(uint64_t length, std::string* body) {
  body->clear();
  // Reserved, not touched: the pages fill as the bytes arrive, and a large
  // document is not copied from buffer to growing buffer on its way in.
  try {
    body->reserve(static_cast<size_t>(length) + kBodyPadding);
  } catch (const std::bad_alloc&) {
    // No address space for the promise: grow as the bytes arrive instead.
  }
  std::streambuf* buffer = in_.rdbuf();
  while (body->size() < length && buffer != nullptr) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kBodyChunk, length - body->size()));
    const size_t old_size = body->size();
    body->resize(old_size + want);
    const std::streamsize got = buffer->sgetn(body->data() + old_size, want);
    offset_ += static_cast<uint64_t>(got);
    body->resize(old_size + static_cast<size_t>(got));
    if (static_cast<size_t>(got) < want) return false;
  }
  return body->size() == length;
}

ReadResult MessageReader::Read() {
  using Status = ReadResult::Status;
  const uint64_t start = offset_;
  std::optional<uint64_t> content_length;
  std::string line;
  for (size_t lines = 0;; ++lines) {
    if (lines == kMaxHeaderLines) return Failure(Status::kBadFraming, start, "too many header lines");
    switch (ReadHeaderLine(&line, lines == 0)) {
      case HeaderStatus::kEndOfStream:
        return {};
      case HeaderStatus::kError:
        return Failure(Status::kBadFraming, start,
                       line.size() >= kMaxHeaderLine
                           ? "header line too long"
                           : "the stream ended inside the header (no blank line after it)");
      case HeaderStatus::kOk:
        break;
    }
    if (line.empty()) break;  // the blank line that ends the header
    const size_t colon = line.find(':');
    if (colon == std::string::npos) {
      return Failure(Status::kBadFraming, start, "header line without ':': '" + line + "'");
    }
    const std::string_view name = Trim(std::string_view(line).substr(0, colon));
    const std::string_view value = Trim(std::string_view(line).substr(colon + 1));
    if (!EqualsIgnoreCase(name, "Content-Length")) continue;  // Content-Type: utf-8 is the only one
    uint64_t length = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (error != std::errc() || end != value.data() + value.size() || value.empty()) {
      return Failure(Status::kBadFraming, start,
                     "Content-Length is not a number: '" + std::string(value) + "'");
    }
    if (content_length && *content_length != length) {
      return Failure(Status::kBadFraming, start, "two different Content-Length headers");
    }
    content_length = length;
  }
  if (!content_length) return Failure(Status::kBadFraming, start, "no Content-Length header");
  if (*content_length > max_content_length_) {
    return Failure(Status::kBadFraming, start,
                   "Content-Length " + std::to_string(*content_length) + " exceeds the limit of " +
                       std::to_string(max_content_length_) + " bytes");
  }
  std::string body;
  if (!ReadBody(*content_length, &body)) {
    return Failure(Status::kBadFraming, start,
                   "the stream ended inside the body: " + std::to_string(body.size()) + " of " +
                       std::to_string(*content_length) + " bytes");
  }
  std::string why;
  std::optional<nlohmann::json> message = ParseJsonBody(body, &why);
  if (!message) {
    ReadResult failure = Failure(Status::kBadBody, start, why);
    failure.body_bytes = body.size();
    return failure;
  }
  ReadResult result;
  result.status = Status::kMessage;
  result.message = std::move(*message);
  result.body_bytes = body.size();
  return result;
}

void WriteMessage(std::ostream& out, const nlohmann::json& message) {
  // Invalid UTF-8 in a document's text (echoed in a message) must not throw.
  const std::string body =
      message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace hlolint::lsp
