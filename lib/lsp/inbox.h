// The messages the client sent and the server has not handled yet.
//
// With read-ahead, a thread reads the stream while the server works, so the
// server sees what is queued: it can let a burst of edits pass before
// linting, and drop a request the client cancelled before it was answered.
// Without it, each message is read when the server asks (the tests' mode
// where every change is linted before the next message is read).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "lsp/framing.h"

namespace hlolint::lsp {

class Inbox {
 public:
  using Clock = std::chrono::steady_clock;

  // What the reader may hold unread by the server: past it, reading waits.
  // A message as large as the framing allows is taken when nothing else waits.
  static constexpr uint64_t kMaxQueuedBytes = uint64_t{512} << 20;

  enum class Mode {
    kOnDemand,            // read when asked, on the caller's thread
    kReadAhead,           // a thread reads as messages arrive
    kReadAllBeforeFirst,  // read-ahead, but the first Take waits for the end of the stream
  };

  Inbox(std::istream& in, Mode mode);
  // Waits for the reader thread, so its stream must end (`hlolint lsp`
  // exits without destroying its Inbox: the client may keep stdin open).
  ~Inbox();
  Inbox(const Inbox&) = delete;
  Inbox& operator=(const Inbox&) = delete;

  // The next message, or the end or failure of the stream (repeated once
  // reached). With a deadline: nullopt if nothing arrived by then.
  std::optional<ReadResult> Take(std::optional<Clock::time_point> deadline = std::nullopt);
  // Whether a message is waiting (always false on demand).
  bool HasWaiting();
  // Calls `visit` on each message waiting, oldest first, without taking it.
  template <typename Visit>
  void ForEachWaiting(Visit visit) {
    std::lock_guard lock(mutex_);
    for (const ReadResult& read : queue_) visit(read);
  }

 private:
  void ReadLoop();

  MessageReader reader_;
  Mode mode_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ReadResult> queue_;
  uint64_t queued_bytes_ = 0;
  bool reader_done_ = false;  // the stream ended or broke: the last queued item says how
  bool closing_ = false;
  std::optional<ReadResult> last_;  // end of stream or broken framing, once reached
  std::thread thread_;
};

}  // namespace hlolint::lsp
