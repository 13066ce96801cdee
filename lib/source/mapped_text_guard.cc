#include "source/mapped_text_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace hlolint {
namespace {

// One slot per file mapped at the same time (at most one per file worker
// and module thread); a file finding none is read instead.
constexpr int kSlots = 256;

struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};

Slot g_slots[kSlots];
std::mutex g_claim_mutex;  // claiming and freeing slots (not the handler)
struct sigaction g_previous;
uintptr_t g_page = 4096;  // read at install: sysconf is not async-signal-safe

void OnSigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= end) continue;
    const uintptr_t from = address / g_page * g_page;
    // Zeros from the faulting page to the end of the text: the file ends
    // there now. mmap is a plain system call, safe in a handler.
    if (::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
      break;
    }
    slot.faulted.store(true, std::memory_order_release);
    return;  // the read is retried and sees zeros
  }
  // Not ours: what SIGBUS did before.
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) return g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    return g_previous.sa_handler(signal);
  }
  ::signal(SIGBUS, SIG_DFL);
  ::raise(SIGBUS);
}

void InstallHandler() {
  g_page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action = {};
  action.sa_sigaction = OnSigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

bool MappedTextGuard::Register(const char* begin, size_t size, MappedTextGuard* out) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandler);
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = g_slots[i];
    if (slot.begin.load(std::memory_order_relaxed) != 0) continue;
    slot.faulted.store(false, std::memory_order_relaxed);
    slot.end.store(reinterpret_cast<uintptr_t>(begin) + size, std::memory_order_release);
    slot.begin.store(reinterpret_cast<uintptr_t>(begin), std::memory_order_release);
    out->slot_ = i;
    return true;
  }
  return false;
}

MappedTextGuard::~MappedTextGuard() {
  if (slot_ < 0) return;
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  g_slots[slot_].begin.store(0, std::memory_order_release);
  g_slots[slot_].end.store(0, std::memory_order_release);
}

bool MappedTextGuard::Faulted() const {
  return slot_ >= 0 && g_slots[slot_].faulted.load(std::memory_order_acquire);
}

}  // namespace hlolint
