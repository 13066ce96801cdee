#include "lsp/inbox.h"

#include <utility>

namespace hlolint::lsp {
namespace {

bool EndsTheStream(const ReadResult& read) {
  return read.status == ReadResult::Status::kEndOfStream ||
         read.status == ReadResult::Status::kBadFraming;
}

}  // namespace

Inbox::Inbox(std::istream& in, Mode mode) : reader_(in), mode_(mode) {
  if (mode_ != Mode::kOnDemand) thread_ = std::thread([this] { ReadLoop(); });
}

Inbox::~Inbox() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Inbox::ReadLoop() {
  for (;;) {
    ReadResult read = reader_.Read();
    const bool last = EndsTheStream(read);
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return closing_ || queue_.empty() || queued_bytes_ + read.body_bytes <= kMaxQueuedBytes;
    });
    if (closing_) return;
    queued_bytes_ += read.body_bytes;
    queue_.push_back(std::move(read));
    if (last) reader_done_ = true;
    changed_.notify_all();
    if (last) return;
  }
}

std::optional<ReadResult> Inbox::Take(std::optional<Clock::time_point> deadline) {
  if (last_) return last_;
  if (mode_ == Mode::kOnDemand) {
    ReadResult read = reader_.Read();
    if (EndsTheStream(read)) last_ = read;
    return read;
  }
  std::unique_lock lock(mutex_);
  auto ready = [&] {
    if (mode_ == Mode::kReadAllBeforeFirst) return reader_done_;
    return !queue_.empty();
  };
  if (deadline) {
    if (!changed_.wait_until(lock, *deadline, ready)) return std::nullopt;
  } else {
    changed_.wait(lock, ready);
  }
  if (mode_ == Mode::kReadAllBeforeFirst) mode_ = Mode::kReadAhead;
  ReadResult read = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= read.body_bytes;
  changed_.notify_all();
  if (EndsTheStream(read)) last_ = read;
  return read;
}

bool Inbox::HasWaiting() {
  if (mode_ == Mode::kOnDemand) return false;
  std::lock_guard lock(mutex_);
  return !queue_.empty() && !(queue_.size() == 1 && EndsTheStream(queue_.front()));
}

}  // namespace hlolint::lsp
