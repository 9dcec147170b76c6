// Watching global memory: every load and store a kernel's threads make in the buffers a launch
// watches (LaunchOptions::watch), for the coalescing view. x86-64 Linux only, because it needs
// the page fault's address and the CPU's trap flag from the signal's saved registers; elsewhere
// canWatchMemory() is false and a launch that asks to watch is refused with one sentence (the
// fallback at the end of this file), while every other launch runs the same.
//
// The kernel's global memory is plain host memory and its loads and stores plain instructions,
// so the simulator cannot see them pass, unless it takes the pages away: for a launch that
// watches memory the watched pages are PROT_NONE, each access faults, the SIGSEGV handler
// records the faulting address (si_addr), the instruction and whether it wrote, opens the
// pages and sets the trap flag; the instruction then runs, and the SIGTRAP that follows it
// closes the pages again. Only the worker thread's faults in watched pages are ours; any other
// fault goes to the handler that was there before, as if we had never been.

#include "kernels/sim/detail/memory_watch.hpp"

#include <stdexcept>

#include "kernels/sim/detail/launch_state.hpp"

#if defined(__x86_64__) && defined(__linux__)
#define RLAB_SIM_CAN_WATCH_MEMORY 1
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#else
#define RLAB_SIM_CAN_WATCH_MEMORY 0
#endif

namespace rlab::sim {

bool canWatchMemory() {
  return RLAB_SIM_CAN_WATCH_MEMORY;
}

namespace detail {

bool g_recordingMemory = false;

// A step mark needs no signals: it is kept wherever the launch keeps accesses.
void noteStep(int step) {
  if (!g_launch.memory || g_launch.thread() == kNoThread) return;
  MemoryAccess mark;
  mark.block = g_launch.block->blockLinear();
  mark.thread = g_launch.block->current();
  mark.step = step;
  g_launch.memory->push_back(mark);
}

#if RLAB_SIM_CAN_WATCH_MEMORY

namespace {

// What the signal handlers need, set while a watch lasts. Plain data: handlers read it.
struct WatchState {
  const std::vector<WatchedMemory>* watched = nullptr;
  pthread_t watcher{};    // the worker thread: faults on any other thread are not ours
  bool stepping = false;  // the trap flag is set: the next SIGTRAP is ours
  struct sigaction previousSegv {
  }, previousTrap{};
};
WatchState g_watch;

const WatchedMemory* watchedAt(uintptr_t address) {
  if (!g_watch.watched) return nullptr;
  for (const WatchedMemory& w : *g_watch.watched) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(w.begin);
    if (address >= begin && address < begin + w.bytes) return &w;
  }
  return nullptr;
}

void setWatchedPages(int protection) {
  for (const WatchedMemory& w : *g_watch.watched)
    mprotect(const_cast<void*>(w.begin), w.bytes, protection);
}

constexpr greg_t kTrapFlag = 0x100;

void onWatchedFault(int, siginfo_t* info, void* context) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  const WatchedMemory* w = watchedAt(address);
  if (!w || !pthread_equal(pthread_self(), g_watch.watcher)) {
    sigaction(SIGSEGV, &g_watch.previousSegv, nullptr);  // not ours: it faults again, theirs
    return;
  }
  auto& registers = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  if (g_launch.memory && g_launch.thread() != kNoThread) {
    // The interrupted code is a kernel's load or store, never the allocator, so growing the
    // vector here is safe in practice.
    MemoryAccess a;
    a.block = g_launch.block->blockLinear();
    a.thread = g_launch.block->current();
    a.buffer = w->buffer;
    a.offset = (long long)(address - reinterpret_cast<uintptr_t>(w->begin));
    a.bytes = w->elementBytes;
    a.write = (registers[REG_ERR] & 2) != 0;
    a.instruction = uintptr_t(registers[REG_RIP]);
    g_launch.memory->push_back(a);
  }
  setWatchedPages(PROT_READ | PROT_WRITE);
  registers[REG_EFL] |= kTrapFlag;
  g_watch.stepping = true;
}

void onStepped(int, siginfo_t*, void* context) {
  if (!g_watch.stepping || !pthread_equal(pthread_self(), g_watch.watcher)) {
    sigaction(SIGTRAP, &g_watch.previousTrap, nullptr);
    raise(SIGTRAP);
    return;
  }
  static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
  g_watch.stepping = false;
  setWatchedPages(PROT_NONE);
}

}  // namespace

MemoryWatch::MemoryWatch(const std::vector<WatchedMemory>& watched) {
  if (watched.empty()) return;
  active_ = true;
  g_watch.watched = &watched;
  g_watch.watcher = pthread_self();
  g_watch.stepping = false;
  struct sigaction fault {
  }, step{};
  fault.sa_sigaction = onWatchedFault;
  fault.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&fault.sa_mask);
  step.sa_sigaction = onStepped;
  step.sa_flags = SA_SIGINFO;
  sigemptyset(&step.sa_mask);
  sigaction(SIGSEGV, &fault, &g_watch.previousSegv);
  sigaction(SIGTRAP, &step, &g_watch.previousTrap);
  g_recordingMemory = true;
  setWatchedPages(PROT_NONE);
}

MemoryWatch::~MemoryWatch() {
  if (!active_) return;
  setWatchedPages(PROT_READ | PROT_WRITE);
  sigaction(SIGSEGV, &g_watch.previousSegv, nullptr);
  sigaction(SIGTRAP, &g_watch.previousTrap, nullptr);
  g_recordingMemory = false;
  g_watch.watched = nullptr;
}

#else  // The fallback: no watching on this machine.

MemoryWatch::MemoryWatch(const std::vector<WatchedMemory>& watched) {
  if (!watched.empty())
    throw std::invalid_argument(
        "counting memory transactions needs x86-64 Linux; this simulator runs without them");
}

MemoryWatch::~MemoryWatch() = default;

#endif

}  // namespace detail

}  // namespace rlab::sim
