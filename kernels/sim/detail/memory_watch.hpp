// The simulator's own (kernels/sim/memory_watch.cpp): a launch's watch over global memory
// (LaunchOptions::watch), on x86-64 Linux only.
#pragma once

#include <vector>

#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

// Watches `watched` from construction to destruction, on the worker thread: each access by a
// kernel thread is added to g_launch.memory. Where memory cannot be watched (canWatchMemory()
// is false), a launch that asks to watch anything is refused with std::invalid_argument.
class MemoryWatch {
 public:
  explicit MemoryWatch(const std::vector<WatchedMemory>& watched);
  ~MemoryWatch();
  MemoryWatch(const MemoryWatch&) = delete;
  MemoryWatch& operator=(const MemoryWatch&) = delete;

 private:
  [[maybe_unused]] bool active_ = false;  // watching (the fallback never is)
};

}  // namespace rlab::sim::detail
