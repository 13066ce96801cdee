// One module parsed on two threads (parallel_parse.cc): the state the two
// threads share.
//
// A large module's text is cut into chunks at computation boundaries. The
// first thread parses them front to back as usual; another thread parses
// them back to front, each into a module of its own (a fragment), until the
// two meet. The first thread then merges the other's fragments in order:
// the same IR as parsing on one thread. Whatever a fragment could not
// settle alone (a check about a name not known yet, see name_resolver.h; an
// error; a chunk boundary that was not one) the first thread parses itself.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace hlolint {

class ModuleParser;

struct ParallelParse {
  std::vector<uint32_t> boundaries;  // chunk i >= 1 starts at boundaries[i - 1]
  std::mutex mutex;
  size_t entered = 0;              // the last chunk the first thread entered (mutex)
  size_t claimed_from = SIZE_MAX;  // the first chunk the other thread took (mutex)
  std::vector<std::unique_ptr<ModuleParser>> fragments;  // by chunk
  std::vector<char> parsed;        // by chunk: the fragment reached the chunk's end
  std::atomic<bool> cancel{false};
  std::thread thread;
  bool joined = false;
  size_t next = 0;                 // the next boundary the first thread reaches
  // The boundaries are instruction lines inside one large computation (a
  // module with no computation boundary to cut at): every chunk after the
  // first continues the computation the first thread is in when it gets
  // there (ModuleParser::ParseContinuation, TakeContinuation).
  bool continuation = false;
  // Once the other thread has parsed its last chunk it faults in the pages
  // the merges will copy its fragments into, while the first thread
  // merges: the first thread gives it where this module's arrays end (fresh
  // memory is a page fault a page, which the merge would pay itself).
  std::condition_variable changed;
  bool other_done = false;   // (mutex)
  bool room_given = false;   // (mutex)
  std::array<std::pair<char*, size_t>, 5> room{};  // (mutex) past each array's end
  size_t chunks() const { return boundaries.size() + 1; }
  ~ParallelParse();
};

}  // namespace hlolint
