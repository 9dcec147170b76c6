// The simulator's own (kernels/sim/race_detector.cpp): the race detector of one launch.
//
// The compiler places the hooks: code built with g++'s -fsanitize=thread calls __tsan_read4,
// __tsan_write16 and the rest before every load and store, and the simulator answers them
// itself (no ThreadSanitizer runtime is linked). Only the worker thread's calls during a launch
// that asked for it (LaunchOptions::detectRaces) are looked at; every other call returns at
// once. What orders two accesses is CUDA's, not the simulator's order of running them:
//   - the same thread;
//   - a barrier of their block between them (the block's epoch: barriers it has opened);
//   - a __syncwarp their lanes both took part in (a vector clock per lane of each warp);
//   - in different blocks: a __threadfence() and then an atomic by the earlier block's thread,
//     and an atomic on the same address by the later thread (or by a thread of its block before
//     a barrier), as in the last-block ticket of CUDA's threadFenceReduction. Such a release
//     covers the whole earlier block up to its epoch then: threads of that block that kept
//     writing in the same epoch after the fence are taken as covered (a race missed, never one
//     made up).
//   - in one thread block cluster: a cluster.sync() between them (the cluster's epoch), which
//     orders shared and global memory alike, and is a barrier of each block too.
// Two atomics never race. Shared memory starts afresh at each cluster (of one block, without
// clusters); global memory at each launch (a launch boundary orders everything). In a cluster
// a block's shared memory is one set of cells however it is reached (its own __shared__, or a
// neighbour's map_shared_rank); a neighbour's that is past its variables, or whose block has
// exited, ends the launch.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "kernels/sim/detail/shared_memory.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

class BlockRun;
class ClusterRun;

class RaceDetector {
 public:
  RaceDetector(LaunchStats& stats, const std::vector<ByteRange>& shared,
               const LaunchOptions& options);

  void startCluster(const ClusterRun& cluster, unsigned threads);  // its blocks, fresh
  void enterBlock(unsigned rank);  // the cluster's block that runs from now on
  void barrierOpened();            // the running block's
  void clusterBarrierOpened();
  void warpSynced(unsigned warpStart, unsigned group);  // lanes (bits) of the warp at warpStart
  void fence();                                         // the running thread's __threadfence
  // A load or store of the running thread (atomic: one of CUDA's atomics, read and write).
  void access(uintptr_t address, unsigned bytes, bool write, bool atomic, uintptr_t instruction);
  bool inAtomic = false;  // the atomic's own load and store are not looked at again

 private:
  struct Stamp {
    uint32_t block = ~0u;  // ~0u: none
    uint32_t epoch = 0;
    uint32_t clock = 0;  // its lane's own clock then
    uint32_t clusterEpoch = 0;
    uint16_t thread = 0;
    bool write = false;
    bool atomic = false;
    uintptr_t instruction = 0;
    uint64_t value = 0;
    bool valid() const { return block != ~0u; }
  };
  static constexpr int kReadsKept = 4;
  struct Cell {
    Stamp write;
    Stamp reads[kReadsKept];
    uint8_t nextRead = 0;
    bool shared = false;
  };
  // Which epochs of another block a thread knows the accesses of: those below the value.
  struct Knowledge {
    std::vector<std::pair<uint32_t, uint32_t>> upTo;
    uint32_t of(uint32_t block) const;
    void raise(uint32_t block, uint32_t epochs);
    void join(const Knowledge& other);
  };

  // One block of the running cluster: how far it has come, and what its threads know.
  struct BlockClock {
    const BlockRun* run = nullptr;
    uint32_t linear = 0;
    uint32_t epoch = 0;            // barriers it has opened (cluster.sync() too)
    std::vector<uint32_t> clocks;  // 32 a thread: what it knows of each lane of its warp
    std::vector<Knowledge> knows;  // a thread each
    std::vector<uint8_t> fenced;   // a thread each: it has called __threadfence()
  };
  // Where an access lands: whether in shared memory, the cell it is checked in, and the
  // variable and block it belongs to.
  struct Place {
    bool shared = false;
    uintptr_t key = 0;
    const ByteRange* variable = nullptr;
    size_t offset = 0;
    uint32_t owner = 0;  // linear block
  };
  Place placeOf(uintptr_t address, uintptr_t instruction);
  Place named(Place place, uintptr_t address) const;  // with its variable, where it has one
  bool inCluster(uint32_t block) const;
  bool ordered(const Stamp& earlier, unsigned thread) const;
  void check(Cell& cell, const Stamp& now, const Place& place, uintptr_t address, unsigned bytes);
  void report(const Stamp& earlier, const Stamp& later, const Place& place, uintptr_t address,
              unsigned bytes);
  RaceAccess accessOf(const Stamp& s, unsigned bytes) const;
  const ByteRange* sharedVariableAt(uintptr_t address) const;

  LaunchStats& stats_;
  const std::vector<ByteRange>& shared_;
  const LaunchOptions& options_;  // onAccess, offLimits
  uintptr_t sharedLow_ = 0, sharedHigh_ = 0;
  const ClusterRun* cluster_ = nullptr;
  std::vector<BlockClock> blocks_;  // the cluster's, by rank
  BlockClock* running_ = nullptr;
  unsigned threads_ = 0;  // a block's
  uint32_t clusterEpoch_ = 0;
  std::unordered_map<uintptr_t, Cell> cells_;
  std::unordered_map<uintptr_t, Knowledge> released_;  // an atomic's address: what it carries
  std::unordered_set<uint64_t> reportedPairs_;
  std::unordered_set<uintptr_t> reportedUninitialised_;
};

// The LaunchError for the first race, or else the first read of unwritten shared memory, that
// `stats` holds (LaunchOptions::failOnRace).
[[noreturn]] void failOnRace(const LaunchStats& stats, const LaunchOptions& options,
                             bool severalBlocks);

// The running launch's detector on the worker thread, null everywhere else.
extern thread_local RaceDetector* t_raceDetector;

}  // namespace rlab::sim::detail
