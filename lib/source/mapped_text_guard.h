// Keeps a mapped file that shrinks under hlolint from crashing it. Reading a
// mapped page past the end of a truncated file raises SIGBUS; for text that
// a SourceFile mapped (registered here), the handler maps zeros over the
// rest of the text and notes the file as changed, and the read goes on (the
// parser sees the zeros as the end of the text). The caller then reports the
// file as changed while linted instead of its findings. Any other SIGBUS
// gets the handling it had before (by default, the process ends).
#pragma once

#include <cstddef>

namespace hlolint {

class MappedTextGuard {
 public:
  // Registers [begin, begin + size) (page-aligned `begin`); the handler is
  // installed on first use. Returns false when every slot is taken (the
  // caller then reads the file instead of mapping it).
  static bool Register(const char* begin, size_t size, MappedTextGuard* out);
  // Unregisters (before the mapping goes away).
  ~MappedTextGuard();
  MappedTextGuard() = default;
  MappedTextGuard(const MappedTextGuard&) = delete;
  MappedTextGuard& operator=(const MappedTextGuard&) = delete;

  // A read of the range hit the end of the file: it shrank after mapping.
  bool Faulted() const;

 private:
  int slot_ = -1;
};

}  // namespace hlolint
