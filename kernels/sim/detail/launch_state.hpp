// The simulator's own: what the running launch shares between the runtime's files. launch()
// (launch.cpp) fills it on the worker thread for the launch's length and empties it on the way
// out, thrown or not; the hooks, the fibers and the memory watch's signal handler read it.
#pragma once

#include <vector>

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

class ClusterRun;

struct LaunchState {
  BlockRun* block = nullptr;                    // the running block; null between launches
  ClusterRun* cluster = nullptr;                // its cluster
  std::vector<AtomicEvent>* atomics = nullptr;  // LaunchOptions::recordAtomics
  LaunchStats* printed = nullptr;               // LaunchOptions::capturePrintf
  std::vector<MemoryAccess>* memory = nullptr;  // LaunchOptions::watch

  // The simulated thread running now, or kNoThread (no launch, or between threads).
  unsigned thread() const { return block ? block->current() : kNoThread; }
};

// Plain data, touched by the worker thread only (a signal handler on it may read it too).
extern LaunchState g_launch;

}  // namespace rlab::sim::detail
