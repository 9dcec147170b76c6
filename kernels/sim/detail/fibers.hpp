// The simulator's own (kernels/sim/fibers.cpp): the fibers a block's threads run on, and the
// jump between them.
//
// Thread i of every block runs on fiber i, and fibers live as long as the process: a block
// starts by resuming fibers that already exist, not by creating 256 new ones. Each fiber loops
// forever: run one simulated thread to its end, hand control back, wait for the next block.
// The raw fcontext jump is the cheapest switch Boost.Context has; the fiber keeps nothing on
// its stack between threads, so an idle fiber needs no unwinding.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <vector>

namespace rlab::sim::detail {

namespace fc = boost::context::detail;

// A stack as AddressSanitizer must be told about it at every switch (unused without ASan).
struct Stack {
  const void* bottom = nullptr;
  size_t size = 0;
  void* fakeStack = nullptr;  // ASan's home for this stack's escaped locals while it sleeps
};

// The calling thread's own stack (the worker's, where the scheduler runs).
Stack threadStack();

#if defined(__SANITIZE_ADDRESS__)
inline constexpr size_t kStackBytes = 256 * 1024;
#else
inline constexpr size_t kStackBytes = 64 * 1024;
#endif

// Stacks come in 2 MiB slabs, and each stack top sits at its own offset within a page so that
// the tops do not all fall into the same cache set.
class FiberPool {
 public:
  // Room for the largest cluster from the start: a suspended fiber keeps pointers to its own
  // context and stack entries, so the arrays must never move.
  explicit FiberPool(void (*entry)(fc::transfer_t));
  ~FiberPool();
  FiberPool(const FiberPool&) = delete;
  FiberPool& operator=(const FiberPool&) = delete;

  // The suspended contexts of the first `count` fibers; the scheduler updates them in place.
  fc::fcontext_t* contexts(size_t count) {
    while (contexts_.size() < count) addSlab();
    return contexts_.data();
  }
  Stack* stacks() { return stacks_.data(); }  // as many as contexts()

  // The scheduler's side: where a fiber that hands control back lands (the worker's own stack).
  fc::fcontext_t& home() { return home_; }
  Stack& homeStack() { return homeStack_; }
  void setHomeStack(const Stack& stack) { homeStack_ = stack; }

 private:
  static constexpr size_t kSlabBytes = 2 * 1024 * 1024;
  static constexpr size_t kSlot = kStackBytes + 4096;
  static constexpr size_t kStacksPerSlab = kSlabBytes / kSlot;
  // The largest cluster's threads: 16 blocks of 1024 (runtime.hpp's kMaxClusterBlocks).
  static constexpr size_t kMaxFibers =
      (16 * 1024 + kStacksPerSlab - 1) / kStacksPerSlab * kStacksPerSlab;

  void addSlab();

  void (*entry_)(fc::transfer_t);
  std::vector<void*> slabs_;
  std::vector<fc::fcontext_t> contexts_;
  std::vector<Stack> stacks_;
  fc::fcontext_t home_ = nullptr;
  Stack homeStack_;
};

// Every jump names where the one who jumps is to be kept (its thread's slot, or the pool's
// home), and whoever it lands on stores it there: threads can hand control to each other
// directly. Under AddressSanitizer every switch is announced, so that it checks the right stack.
inline void jumpTo(fc::fcontext_t target, const Stack& targetStack, fc::fcontext_t* keepMeIn,
                   Stack& myStack) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(&myStack.fakeStack, targetStack.bottom, targetStack.size);
#else
  (void)targetStack;
  (void)myStack;
#endif
  const fc::transfer_t from = fc::jump_fcontext(target, keepMeIn);
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(myStack.fakeStack, nullptr, nullptr);
#endif
  *static_cast<fc::fcontext_t*>(from.data) = from.fctx;
}

}  // namespace rlab::sim::detail
