// The simulator's own (kernels/sim/cluster.cpp): the blocks of one thread block cluster, run
// together, and their distributed shared memory.
//
// Every launch runs in clusters; one without a cluster shape is a cluster of one block each, as
// CUDA counts it (cluster.sync() is then its block's barrier). The blocks of a cluster are
// resident together: each has its own BlockRun on fibers of its own, and they take turns.
// Between two cluster.sync() a block runs until each of its threads has exited or waits at
// cluster.sync(); the schedule says in which order the blocks take their turns (reverse: the
// highest rank first; random:SEED and the other random ones: an order of their own each time),
// so a block that reads a neighbour's shared memory too early meets it unwritten under one
// schedule or another. cluster.sync() opens when every thread of the cluster that has not
// exited waits there (the PTX ISA's barrier.cluster: "all non-exited threads of the cluster").
//
// __shared__ is the worker thread's one copy (shared_memory.hpp), so it holds the running
// block's shared memory; every other block's lives in a store of its own, swapped in and out
// at each turn. map_shared_rank gives a thread the address of a neighbour's store: valid while
// the thread runs, which is exactly when it may use it. A store has poison between and after
// its variables, and a block that exits leaves poison behind.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/detail/shared_memory.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

class RaceDetector;

class ClusterRun {
 public:
  // `shared`: the bytes of every block's shared memory on the worker (the kernel's __shared__
  // variables and the launch's dynamic bytes).
  ClusterRun(const std::function<void()>& body, const LaunchOptions& options, FiberPool& fibers,
             LaunchStats& stats, const std::vector<ByteRange>& shared, RaceDetector* races);

  // Runs the cluster at `clusterIdx` (in clusters), every block to its end.
  void run(uint3 clusterIdx);

  unsigned size() const { return unsigned(blocks_.size()); }
  unsigned runningRank() const { return resident_; }
  unsigned blockLinear(unsigned rank) const { return linear_[rank]; }
  bool exited(unsigned rank) const { return blocks_[rank]->exited(); }
  const BlockRun& block(unsigned rank) const { return *blocks_[rank]; }

  // cluster.map_shared_rank(p, rank): p's bytes in block `rank`'s shared memory.
  void* mapSharedRank(const void* p, unsigned rank, const char* file, int line);
  // cluster.query_shared_rank(p): whose shared memory p is in.
  unsigned querySharedRank(const void* p, const char* file, int line) const;

  // Where an address is in the cluster's shared memory: the block it belongs to, one address
  // for its bytes whichever way they are reached (the block's store), and its variable.
  struct Place {
    bool shared = false;       // in some block's shared memory (or past it: outOfBounds)
    bool outOfBounds = false;  // in a store, but in the poison between or after its variables
    unsigned rank = 0;
    uintptr_t key = 0;
    const ByteRange* variable = nullptr;  // as the worker's copy names it
    size_t offset = 0;                    // bytes from the variable's start
  };
  Place place(uintptr_t address) const;
  // Stops the launch: the running thread reached past a neighbour's variable, or the shared
  // memory of a block that has exited, at `site`.
  [[noreturn]] void refuseReach(const Place& at, const std::string& site) const;

 private:
  static constexpr size_t kGap = 256;  // poison after each variable in a store
  void enter(unsigned rank);           // swaps its shared memory in; it runs next
  const ByteRange* residentVariableAt(uintptr_t address) const;
  std::vector<unsigned> turnOrder(uint64_t turn) const;

  const LaunchOptions& options_;
  const std::vector<ByteRange>& shared_;
  RaceDetector* races_;
  std::vector<std::unique_ptr<BlockRun>> blocks_;
  std::vector<unsigned> linear_;
  std::vector<uint3> blockIdx_;
  std::vector<size_t> offsets_;  // a variable's place in a store
  size_t storeBytes_ = 0;
  std::vector<std::vector<unsigned char>> stores_;  // a block each (none for clusters of one)
  unsigned resident_ = 0;                           // whose shared memory the worker holds
  uint64_t clusterLinear_ = 0;
};

}  // namespace rlab::sim::detail
