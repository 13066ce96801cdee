// LSP's base protocol: JSON-RPC messages framed by a Content-Length header
// on a byte stream (stdin/stdout, or string streams in the tests).
//
// The reader never throws and never waits for bytes the header did not
// promise: every failure comes back as data, located by the byte offset in
// the stream where the failing message began.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace hlolint::lsp {

// A body longer than this is refused without reading it: a client that
// sends more is broken or hostile, and buffering it would cost the memory.
// A 1 GB dump, escaped as JSON, fits.
inline constexpr uint64_t kMaxContentLength = uint64_t{2} << 30;

struct ReadResult {
  enum class Status {
    kMessage,       // `message` holds the parsed body
    kEndOfStream,   // the stream ended cleanly between messages
    kBadBody,       // framed correctly but not JSON: the stream can go on
    kBadFraming,    // the header or the body's length is broken: the stream cannot go on
  };
  Status status = Status::kEndOfStream;
  nlohmann::json message;
  std::string error;  // "byte N: ...", with kBadBody and kBadFraming
  uint64_t body_bytes = 0;  // the body's length, with kMessage and kBadBody
};

// Reads messages one at a time from a stream it does not own.
class MessageReader {
 public:
  explicit MessageReader(std::istream& in, uint64_t max_content_length = kMaxContentLength)
      : in_(in), max_content_length_(max_content_length) {}

  ReadResult Read();

 private:
  enum class HeaderStatus { kOk, kEndOfStream, kError };
  HeaderStatus ReadHeaderLine(std::string* line, bool first_line);
  bool ReadBody(uint64_t length, std::string* body);

  std::istream& in_;
  uint64_t max_content_length_;
  uint64_t offset_ = 0;  // bytes consumed so far, to locate errors
};

// Frames and writes one message, then flushes so the client sees it.
void WriteMessage(std::ostream& out, const nlohmann::json& message);

}  // namespace hlolint::lsp
