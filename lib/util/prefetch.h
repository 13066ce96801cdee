// A software prefetch the compiler keeps.
#pragma once

namespace hlolint {

// Starts loading the cache line at `p` (which need not be valid memory).
// An asm statement rather than __builtin_prefetch alone: GCC 12 finds a
// function whose only effect is __builtin_prefetch free of side effects and
// deletes calls to it unless inlined first; the computation-name prefetch in
// ModuleParser::ParseComputation was gone from the binary that way.
inline void PrefetchForRead(const void* p) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace hlolint
