// The race detector (detail/race_detector.hpp says what orders two accesses) and the hooks the
// compiler calls: g++'s -fsanitize=thread turns every load and store of the code it builds into
// a call of __tsan_readN / __tsan_writeN (N bytes) before it, atomics of the C++ kind into
// __tsan_atomicN_*, and asks for __tsan_init at start. The simulator answers them here, so no
// ThreadSanitizer runtime is linked: outside a launch that detects races a hook returns at once.
// The sentence a race is told in: race_error.cpp.
//
// [SECTION] The detector
// [SECTION] The compiler's hooks

#include "kernels/sim/detail/race_detector.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/detail/cluster.hpp"
#include "kernels/sim/detail/launch_state.hpp"

namespace rlab::sim {

bool lessonKernelsDetectRaces() {
#if defined(RLAB_LESSON_RACE_HOOKS)
  return true;
#else
  return false;
#endif
}

namespace detail {

thread_local RaceDetector* t_raceDetector = nullptr;

// ============================================================================================
// [SECTION] The detector
// ============================================================================================

uint32_t RaceDetector::Knowledge::of(uint32_t block) const {
  for (const auto& [b, e] : upTo)
    if (b == block) return e;
  return 0;
}

void RaceDetector::Knowledge::raise(uint32_t block, uint32_t epochs) {
  for (auto& [b, e] : upTo)
    if (b == block) {
      e = std::max(e, epochs);
      return;
    }
  upTo.emplace_back(block, epochs);
}

void RaceDetector::Knowledge::join(const Knowledge& other) {
  for (const auto& [b, e] : other.upTo) raise(b, e);
}

RaceDetector::RaceDetector(LaunchStats& stats, const std::vector<ByteRange>& shared,
                           const LaunchOptions& options)
    : stats_(stats), shared_(shared), options_(options) {
  for (const ByteRange& r : shared_) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(r.begin),
                    end = reinterpret_cast<uintptr_t>(r.end);
    if (sharedLow_ == sharedHigh_ || begin < sharedLow_) sharedLow_ = begin;
    sharedHigh_ = std::max(sharedHigh_, end);
  }
}

void RaceDetector::startCluster(const ClusterRun& cluster, unsigned threads) {
  cluster_ = &cluster;
  threads_ = threads;
  clusterEpoch_ = 0;
  blocks_.resize(cluster.size());
  for (unsigned rank = 0; rank < cluster.size(); ++rank) {
    BlockClock& b = blocks_[rank];
    b.run = &cluster.block(rank);
    b.linear = cluster.blockLinear(rank);
    b.epoch = 0;
    b.clocks.assign(size_t(threads) * 32, 0);
    for (unsigned t = 0; t < threads; ++t) b.clocks[size_t(t) * 32 + t % 32] = 1;
    b.knows.assign(threads, {});
    b.fenced.assign(threads, 0);
  }
  running_ = &blocks_[0];
}

void RaceDetector::enterBlock(unsigned rank) {
  running_ = &blocks_[rank];
}

void RaceDetector::barrierOpened() {
  ++running_->epoch;
  // What any thread of the block acquired, every thread knows after the barrier.
  Knowledge all;
  for (const Knowledge& k : running_->knows) all.join(k);
  if (!all.upTo.empty()) std::fill(running_->knows.begin(), running_->knows.end(), all);
}

void RaceDetector::clusterBarrierOpened() {
  ++clusterEpoch_;
  Knowledge all;  // what any thread of the cluster acquired, every one of them knows after it
  for (BlockClock& b : blocks_) {
    ++b.epoch;
    for (const Knowledge& k : b.knows) all.join(k);
  }
  if (!all.upTo.empty())
    for (BlockClock& b : blocks_) std::fill(b.knows.begin(), b.knows.end(), all);
}

void RaceDetector::warpSynced(unsigned warpStart, unsigned group) {
  std::vector<uint32_t>& clocks = running_->clocks;
  uint32_t joined[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(group >> l & 1u) || warpStart + l >= threads_) continue;
    const uint32_t* lane = &clocks[size_t(warpStart + l) * 32];
    for (unsigned k = 0; k < 32; ++k) joined[k] = std::max(joined[k], lane[k]);
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(group >> l & 1u) || warpStart + l >= threads_) continue;
    uint32_t* lane = &clocks[size_t(warpStart + l) * 32];
    std::memcpy(lane, joined, sizeof joined);
    ++lane[l];
  }
}

void RaceDetector::fence() {
  const unsigned thread = running_ ? running_->run->current() : kNoThread;
  if (thread != kNoThread) running_->fenced[thread] = 1;
}

bool RaceDetector::inCluster(uint32_t block) const {
  for (const BlockClock& b : blocks_)
    if (b.linear == block) return true;
  return false;
}

bool RaceDetector::ordered(const Stamp& earlier, unsigned thread) const {
  const BlockClock& b = *running_;
  if (earlier.block == b.linear) {
    if (earlier.thread == thread || earlier.epoch < b.epoch) return true;
    return earlier.thread / 32 == thread / 32 &&
           b.clocks[size_t(thread) * 32 + earlier.thread % 32] >= earlier.clock;
  }
  if (earlier.clusterEpoch < clusterEpoch_ && inCluster(earlier.block)) return true;
  return b.knows[thread].of(earlier.block) > earlier.epoch;
}

const ByteRange* RaceDetector::sharedVariableAt(uintptr_t address) const {
  for (const ByteRange& r : shared_)
    if (address >= reinterpret_cast<uintptr_t>(r.begin) &&
        address < reinterpret_cast<uintptr_t>(r.end))
      return &r;
  return nullptr;
}

RaceDetector::Place RaceDetector::named(Place place, uintptr_t address) const {
  if (place.shared && !place.variable)
    if (const ByteRange* v = sharedVariableAt(address)) {
      place.variable = v;
      place.offset = address - reinterpret_cast<uintptr_t>(v->begin);
    }
  return place;
}

RaceAccess RaceDetector::accessOf(const Stamp& s, unsigned bytes) const {
  RaceAccess a;
  a.block = s.block;
  a.thread = s.thread;
  a.write = s.write;
  a.atomic = s.atomic;
  a.epoch = s.epoch;
  a.instruction = s.instruction;
  a.bytes = bytes;
  a.value = s.value;
  return a;
}

void RaceDetector::report(const Stamp& earlier, const Stamp& later, const Place& place,
                          uintptr_t address, unsigned bytes) {
  ++stats_.racingAccesses;
  const uint64_t pair = (uint64_t(earlier.instruction) * 0x9e3779b97f4a7c15ull) ^
                        (uint64_t(later.instruction) + (earlier.write ? 1 : 0));
  if (stats_.races.size() >= kRacesKept || !reportedPairs_.insert(pair).second) return;
  Race race;
  race.earlier = accessOf(earlier, bytes);
  race.later = accessOf(later, bytes);
  race.address = address;
  race.shared = place.shared;
  race.owner = place.owner;
  if (const Place at = named(place, address); at.variable) {
    race.variable = at.variable->name;
    race.offset = at.offset;
  }
  stats_.races.push_back(std::move(race));
}

void RaceDetector::check(Cell& cell, const Stamp& now, const Place& place, uintptr_t address,
                         unsigned bytes) {
  const unsigned thread = now.thread;
  if (cell.shared && cell.write.valid() && !inCluster(cell.write.block)) {
    cell = Cell{};  // shared memory: a block's of an earlier cluster, whose life has ended
    cell.shared = true;
  }
  if (cell.shared)
    for (Stamp& r : cell.reads)
      if (r.valid() && !inCluster(r.block)) r = {};
  auto races = [&](const Stamp& before) {
    return before.valid() && (before.write || now.write) && !(before.atomic && now.atomic) &&
           !ordered(before, thread);
  };
  if (races(cell.write)) report(cell.write, now, place, address, bytes);
  if (now.write) {
    for (const Stamp& r : cell.reads)
      if (races(r)) {
        report(r, now, place, address, bytes);
        break;
      }
    cell.write = now;
    for (Stamp& r : cell.reads) r = {};
    cell.nextRead = 0;
    return;
  }
  if (cell.shared && !cell.write.valid()) {
    // A read of shared memory no thread of its cluster has written.
    if (stats_.uninitialisedReads.size() < kRacesKept &&
        reportedUninitialised_.insert(now.instruction).second) {
      UninitialisedRead u;
      u.read = accessOf(now, bytes);
      u.address = address;
      u.owner = place.owner;
      if (const Place at = named(place, address); at.variable) {
        u.variable = at.variable->name;
        u.offset = at.offset;
      }
      stats_.uninitialisedReads.push_back(std::move(u));
    }
  }
  for (Stamp& r : cell.reads)
    if (r.valid() && r.thread == thread && r.block == now.block) {
      r = now;
      return;
    }
  cell.reads[cell.nextRead] = now;
  cell.nextRead = uint8_t((cell.nextRead + 1) % kReadsKept);
}

// The simulator's own variables that the shim's inline functions read and write in kernel code
// (threadIdx, clock64()'s logical clock ...): no memory of the kernel's.
static bool simulatorOwn(uintptr_t address) {
  static const std::pair<const void*, size_t> own[] = {
      {&g_threadIdx, sizeof g_threadIdx},
      {&g_blockIdx, sizeof g_blockIdx},
      {&g_blockDim, sizeof g_blockDim},
      {&g_gridDim, sizeof g_gridDim},
      {&g_recordAtomics, sizeof g_recordAtomics},
      {&g_logicalClock, sizeof g_logicalClock},
      {&g_recordingMemory, sizeof g_recordingMemory}};
  for (const auto& [begin, bytes] : own)
    if (address - reinterpret_cast<uintptr_t>(begin) < bytes) return true;
  return false;
}

RaceDetector::Place RaceDetector::placeOf(uintptr_t address, uintptr_t instruction) {
  Place p;
  p.key = address;
  p.owner = running_->linear;
  if (cluster_->size() == 1) {  // the variable is looked up only where it is named (named())
    p.shared = address >= sharedLow_ && address < sharedHigh_;
    return p;
  }
  const ClusterRun::Place at = cluster_->place(address);
  if (!at.shared) return p;
  const bool exited = at.rank != cluster_->runningRank() && cluster_->exited(at.rank);
  if (at.outOfBounds || exited) {
    std::string site = options_.nameInstruction ? options_.nameInstruction(instruction) : "";
    if (site.empty()) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(instruction));
      site = hex;
    }
    cluster_->refuseReach(at, site);
  }
  p.shared = true;
  p.key = at.key;
  p.variable = at.variable;
  p.offset = at.offset;
  p.owner = cluster_->blockLinear(at.rank);
  return p;
}

void RaceDetector::access(uintptr_t address, unsigned bytes, bool write, bool atomic,
                          uintptr_t instruction) {
  const unsigned thread = running_ ? running_->run->current() : kNoThread;
  if (thread == kNoThread || simulatorOwn(address)) return;
  const Stack& stack = running_->run->stack(thread);
  if (address - reinterpret_cast<uintptr_t>(stack.bottom) < stack.size) return;  // its own
  const Place place = placeOf(address, instruction);
  BlockClock& block = *running_;
  Stamp now;
  now.block = block.linear;
  now.epoch = block.epoch;
  now.clock = block.clocks[size_t(thread) * 32 + thread % 32];
  now.clusterEpoch = clusterEpoch_;
  now.thread = uint16_t(thread);
  now.write = write;
  now.atomic = atomic;
  now.instruction = instruction;
  // What a read gets. Not for a write: a write past a buffer's end must fault as the kernel's
  // store, not as a read of ours; and not where the launch watches memory (LaunchOptions::watch),
  // whose pages a read of ours would fault on and count as the kernel's access.
  if (!write && !g_recordingMemory)
    std::memcpy(&now.value, reinterpret_cast<const void*>(address), std::min(bytes, 8u));
  if (options_.onAccess || (!options_.offLimits.empty() && !stats_.offLimits)) {
    ThreadAccess seen{block.linear, thread, address, bytes, write, atomic, instruction};
    for (const auto& [begin, end] : options_.offLimits)
      if (address < end && address + bytes > begin && !stats_.offLimits) stats_.offLimits = seen;
    if (options_.onAccess) {
      seen.shared = place.shared;
      if (const Place at = named(place, address); at.variable) {
        seen.sharedVariable = &at.variable->name;
        seen.sharedOffset = at.offset;
      }
      options_.onAccess(seen);
    }
  }
  // Four bytes a cell; a narrower access a cell of its own byte (a char array's neighbours
  // belong to different threads without racing).
  if (bytes < 4) {
    Cell& cell = cells_[place.key | (uintptr_t(1) << 63)];
    cell.shared = place.shared;
    check(cell, now, place, address, bytes);
  } else {
    for (uintptr_t a = place.key & ~uintptr_t(3); a < place.key + bytes; a += 4) {
      Cell& cell = cells_[a];
      cell.shared = place.shared;
      check(cell, now, place, address, bytes);
    }
  }
  if (!atomic) return;
  // An atomic acquires what earlier fenced atomics on its address released, and releases what
  // its thread knows (its own block up to now) where the thread has fenced.
  Knowledge& carried = released_[address];
  block.knows[thread].join(carried);
  if (block.fenced[thread]) {
    carried.join(block.knows[thread]);
    carried.raise(block.linear, block.epoch + 1);
  }
}

}  // namespace detail

}  // namespace rlab::sim

// ============================================================================================
// [SECTION] The compiler's hooks
// ============================================================================================
// Their names and signatures are g++'s (and clang's) -fsanitize=thread instrumentation.

using rlab::sim::detail::t_raceDetector;

#define RLAB_TSAN_HOOK extern "C" __attribute__((visibility("default"), used))

namespace {
inline void plainAccess(const void* address, unsigned bytes, bool write, uintptr_t instruction) {
  rlab::sim::detail::RaceDetector* detector = t_raceDetector;
  if (!detector || detector->inAtomic) [[likely]]
    return;
  detector->access(reinterpret_cast<uintptr_t>(address), bytes, write, false, instruction);
}
}  // namespace

#define RLAB_ACCESS_HOOKS(N)                                                            \
  RLAB_TSAN_HOOK void __tsan_read##N(void* p) {                                         \
    plainAccess(p, N, false, reinterpret_cast<uintptr_t>(__builtin_return_address(0))); \
  }                                                                                     \
  RLAB_TSAN_HOOK void __tsan_write##N(void* p) {                                        \
    plainAccess(p, N, true, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));  \
  }                                                                                     \
  RLAB_TSAN_HOOK void __tsan_unaligned_read##N(void* p) {                               \
    plainAccess(p, N, false, reinterpret_cast<uintptr_t>(__builtin_return_address(0))); \
  }                                                                                     \
  RLAB_TSAN_HOOK void __tsan_unaligned_write##N(void* p) {                              \
    plainAccess(p, N, true, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));  \
  }                                                                                     \
  /* volatile orders nothing in CUDA's memory model: a plain access */                  \
  RLAB_TSAN_HOOK void __tsan_volatile_read##N(void* p) {                                \
    plainAccess(p, N, false, reinterpret_cast<uintptr_t>(__builtin_return_address(0))); \
  }                                                                                     \
  RLAB_TSAN_HOOK void __tsan_volatile_write##N(void* p) {                               \
    plainAccess(p, N, true, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));  \
  }

RLAB_ACCESS_HOOKS(1)
RLAB_ACCESS_HOOKS(2)
RLAB_ACCESS_HOOKS(4)
RLAB_ACCESS_HOOKS(8)
RLAB_ACCESS_HOOKS(16)

RLAB_TSAN_HOOK void __tsan_read_range(void* p, unsigned long bytes) {
  plainAccess(p, unsigned(bytes), false, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}
RLAB_TSAN_HOOK void __tsan_write_range(void* p, unsigned long bytes) {
  plainAccess(p, unsigned(bytes), true, reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}
RLAB_TSAN_HOOK void __tsan_init() {}
RLAB_TSAN_HOOK void __tsan_func_entry(void*) {}
RLAB_TSAN_HOOK void __tsan_func_exit() {}
RLAB_TSAN_HOOK void __tsan_vptr_update(void**, void*) {}
RLAB_TSAN_HOOK void __tsan_vptr_read(void**) {}

namespace rlab::sim::detail {

void raceFence() {
  if (RaceDetector* detector = t_raceDetector) detector->fence();
}

void raceAtomicBegin(const void* address, unsigned bytes) {
  RaceDetector* detector = t_raceDetector;
  if (!detector) return;
  detector->access(reinterpret_cast<uintptr_t>(address), bytes, true, true,
                   reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
  detector->inAtomic = true;
}

void raceAtomicEnd() {
  if (RaceDetector* detector = t_raceDetector) detector->inAtomic = false;
}

}  // namespace rlab::sim::detail

// C++ atomics in code built with the hooks (the host code around the lesson kernels: a
// shared_ptr's count, say) arrive as these calls and must still be atomic: the real operation,
// sequentially consistent, on whatever thread calls it. They are never a kernel's (CUDA's
// atomics are the shim's own), so the detector does not look at them.
#define RLAB_TSAN_ATOMICS(N, T)                                                                    \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_load(const volatile T* a, int) {                             \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                \
  RLAB_TSAN_HOOK void __tsan_atomic##N##_store(volatile T* a, T v, int) {                          \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_exchange(volatile T* a, T v, int) {                          \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_add(volatile T* a, T v, int) {                         \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_sub(volatile T* a, T v, int) {                         \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_and(volatile T* a, T v, int) {                         \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_or(volatile T* a, T v, int) {                          \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                              \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_xor(volatile T* a, T v, int) {                         \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                             \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_fetch_nand(volatile T* a, T v, int) {                        \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                                \
  RLAB_TSAN_HOOK int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* expected,        \
                                                                T desired, int, int) {             \
    return __atomic_compare_exchange_n(a, expected, desired, false, __ATOMIC_SEQ_CST,              \
                                       __ATOMIC_SEQ_CST);                                          \
  }                                                                                                \
  RLAB_TSAN_HOOK int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* expected,          \
                                                              T desired, int, int) {               \
    return __atomic_compare_exchange_n(a, expected, desired, false, __ATOMIC_SEQ_CST,              \
                                       __ATOMIC_SEQ_CST);                                          \
  }                                                                                                \
  RLAB_TSAN_HOOK T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T expected, T desired,   \
                                                           int, int) {                             \
    __atomic_compare_exchange_n(a, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return expected;                                                                               \
  }

RLAB_TSAN_ATOMICS(8, uint8_t)
RLAB_TSAN_ATOMICS(16, uint16_t)
RLAB_TSAN_ATOMICS(32, uint32_t)
RLAB_TSAN_ATOMICS(64, uint64_t)

RLAB_TSAN_HOOK void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
RLAB_TSAN_HOOK void __tsan_atomic_signal_fence(int) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
