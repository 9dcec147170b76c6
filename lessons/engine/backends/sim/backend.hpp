// The simulator as a lesson backend: "device" memory is host memory, launches run on fibers.
//
// Every buffer is followed by a guard zone filled with the shared-memory poison byte, so that a
// kernel that reads past the end of its input gets values that break the result (int
// 2139062143, float 3.39e38) instead of whatever the heap held, and a kernel that writes past
// the end is caught after its launch and named in one sentence.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/run/trace.hpp"
#include "lessons/engine/backends/sim/coalescing.hpp"

namespace rlab {

namespace sim_memory {

// 1024 ints or floats: more than any block reaches past the end with one element a thread.
inline constexpr size_t kGuardBytes = 4096;
inline constexpr unsigned char kGuardByte = sim::kSharedPoisonByte;
// The elements start on a cache line: int4/float4 loads need 16 bytes.
inline constexpr std::align_val_t kAlignment{64};

template <class T>
const char* elementName() {
  if constexpr (std::is_same_v<T, int>) return "int";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, unsigned>) return "unsigned";
  if constexpr (std::is_same_v<T, unsigned long long>) return "unsigned long long";
  return "element";
}

// The elements (zeroed, as a fresh std::vector was) and the guard zone after them.
// `ownPages`: the block starts on a page and fills whole pages, so that the simulator can watch
// its accesses (sim::WatchedMemory) without catching anyone else's.
class GuardedBlock {
 public:
  GuardedBlock(size_t count, size_t elementSize, const char* elementName, bool ownPages = false)
      : count_(count),
        elementSize_(elementSize),
        elementName_(elementName),
        alignment_(ownPages ? kPage : kAlignment),
        allocated_(ownPages ? (dataBytes() + kGuardBytes + size_t(kPage) - 1) / size_t(kPage) *
                                  size_t(kPage)
                            : dataBytes() + kGuardBytes) {
    bytes_ = static_cast<unsigned char*>(::operator new(allocated_, alignment_));
    std::memset(bytes_, 0, dataBytes());
    std::memset(bytes_ + dataBytes(), kGuardByte, kGuardBytes);
  }
  ~GuardedBlock() { ::operator delete(bytes_, alignment_); }
  size_t allocatedBytes() const { return allocated_; }
  size_t elementSize() const { return elementSize_; }
  const char* elementName() const { return elementName_; }
  bool ownsPages() const { return alignment_ == kPage; }
  bool holds(const void* p) const {
    const auto* b = static_cast<const unsigned char*>(p);
    return b >= bytes_ && b < bytes_ + allocated_;
  }
  GuardedBlock(const GuardedBlock&) = delete;
  GuardedBlock& operator=(const GuardedBlock&) = delete;

  unsigned char* bytes() const { return bytes_; }
  size_t count() const { return count_; }

  static constexpr size_t kNone = size_t(-1);

  // The first element past the end that no longer holds the guard pattern, or kNone.
  size_t firstWrittenPastEnd() const {
    const unsigned char* guard = bytes_ + dataBytes();
    for (size_t k = 0; k < kGuardBytes; ++k)
      if (guard[k] != kGuardByte) return count_ + k / elementSize_;
    return kNone;
  }

  // Throws sim::LaunchError naming the launch (grid and block of threads), the buffer and the
  // first element written past its end, and restores the guard so that one bad write is
  // reported once.
  void checkGuard(unsigned blocks, unsigned threads) {
    const size_t index = firstWrittenPastEnd();
    if (index == kNone) return;
    std::memset(bytes_ + dataBytes(), kGuardByte, kGuardBytes);
    auto counted = [](size_t count, const std::string& name) {
      return std::to_string(count) + " " + name + (count == 1 ? "" : "s");
    };
    throw sim::LaunchError("a kernel launched with " + counted(blocks, "block") + " of " +
                               counted(threads, "thread") + " wrote past the end of a buffer of " +
                               counted(count_, elementName_) + " (indices 0 to " +
                               std::to_string(count_ - 1) + "): element " + std::to_string(index) +
                               " is the first one written past the end.",
                           {"sim.buffer-overrun",
                            {{"blocks", std::to_string(blocks)},
                             {"threads", std::to_string(threads)},
                             {"count", std::to_string(count_)},
                             {"type", elementName_},
                             {"last", std::to_string(count_ - 1)},
                             {"index", std::to_string(index)}},
                            {}});
  }

 private:
  size_t dataBytes() const { return count_ * elementSize_; }

  static constexpr std::align_val_t kPage{4096};

  unsigned char* bytes_ = nullptr;
  size_t count_ = 0;
  size_t elementSize_ = 1;
  const char* elementName_ = "element";
  std::align_val_t alignment_;
  size_t allocated_;
};

}  // namespace sim_memory

class SimBackend {
 public:
  // `recordMemory`: every launch records its global loads and stores (the coalescing view);
  // Recording::snapshots() takes them per step. Slow: for traces of small runs.
  explicit SimBackend(sim::LaunchOptions options, bool recordMemory = false)
      : options_(options), recordMemory_(recordMemory && sim::canWatchMemory()) {}

  LaunchLog launches;  // the launches of the run being traced

  template <class T>
  class Buffer {
   public:
    Buffer(Buffer&&) noexcept = default;
    Buffer& operator=(Buffer&&) noexcept = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    T* get() { return block_ ? reinterpret_cast<T*>(block_->bytes()) : nullptr; }
    const T* get() const { return block_ ? reinterpret_cast<const T*>(block_->bytes()) : nullptr; }
    size_t size() const { return block_ ? block_->count() : 0; }

   private:
    friend class SimBackend;
    explicit Buffer(std::shared_ptr<sim_memory::GuardedBlock> block) : block_(std::move(block)) {}

    std::shared_ptr<sim_memory::GuardedBlock> block_;  // null for an empty buffer
  };

  template <class T>
  Buffer<T> alloc(size_t count) {
    if (count == 0) return Buffer<T>(nullptr);
    auto block = std::make_shared<sim_memory::GuardedBlock>(
        count, sizeof(T), sim_memory::elementName<T>(), recordMemory_);
    live_.push_back(block);
    return Buffer<T>(std::move(block));
  }
  template <class T>
  void upload(Buffer<T>& dst, const T* src, size_t count, size_t offset = 0) {
    checkRange("upload", dst.size(), count, offset);
    if (count) std::memcpy(dst.get() + offset, src, count * sizeof(T));
  }
  template <class T>
  void download(T* dst, const Buffer<T>& src, size_t count, size_t offset = 0) {
    checkRange("download", src.size(), count, offset);
    if (count) std::memcpy(dst, src.get() + offset, count * sizeof(T));
  }

  // After the launch every live buffer's guard zone is checked: a kernel that wrote past the
  // end of one throws sim::LaunchError.
  // With memory recorded, the buffers the kernel gets as pointer arguments are watched (not
  // the trace recorder's: those are inside a struct).
  template <class... Params, class... Args>
  void launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    launches.launched(grid.x, block.x);
    if (!recordMemory_) {
      keep(sim::launch(grid, block, options_, kernel, args...), grid);
      checkGuards(grid, block);
      return;
    }
    sim::LaunchOptions options = options_;
    int position = 0;
    (watchArgument(options.watch, args, position++), ...);
    sim::LaunchStats stats = sim::launch(grid, block, options, kernel, args...);
    memory_ = std::move(stats.memory);
    keep(stats, grid);
    checkGuards(grid, block);
  }

  // launch() in thread block clusters of `cluster` blocks (cudaLaunchKernelEx with
  // cudaLaunchAttributeClusterDimension).
  template <class... Params, class... Args>
  void launchInClusters(dim3 grid, dim3 block, dim3 cluster, void (*kernel)(Params...),
                        Args... args) {
    struct Restore {
      sim::LaunchOptions& options;
      ~Restore() { options.cluster = dim3(1, 1, 1); }
    } restore{options_};
    options_.cluster = cluster;
    launch(grid, block, kernel, args...);
  }

  // Memory is recorded (the constructor's recordMemory, on a machine that can).
  bool recordsMemory() const { return recordMemory_; }
  // The last launch's loads and stores as warp requests, per step of that launch and then those
  // after the threads' last steps (warpRequests); then forgets them. Empty unless memory is
  // recorded.
  std::vector<std::vector<WarpMemoryRequest>> takeWarpRequests(int steps) {
    if (!recordMemory_) return {};
    auto requests = warpRequests(memory_, steps);
    memory_.clear();
    return requests;
  }

  // The simulator records every atomic as it lands (thread, address, the value it found), so a
  // driver can take the order from the record instead of rebuilding it from values.
  static constexpr bool kRecordsAtomics = true;

  // launch(), recording the atomics on `address`: each thread's landing (its last atomic
  // there: a compare-and-swap loop's earlier tries stored nothing) as (the thread's index in the
  // grid, the value it found), in the order they landed.
  template <class T, class... Params, class... Args>
  std::vector<std::pair<long long, double>> launchRecordingAtomics(const T* address, dim3 grid,
                                                                   dim3 block,
                                                                   void (*kernel)(Params...),
                                                                   Args... args) {
    sim::LaunchOptions options = options_;
    options.recordAtomics = true;
    launches.launched(grid.x, block.x);
    const sim::LaunchStats stats = sim::launch(grid, block, options, kernel, args...);
    keep(stats, grid);
    checkGuards(grid, block);
    std::map<long long, size_t> last;  // thread -> its last atomic on the address
    for (size_t k = 0; k < stats.atomics.size(); ++k)
      if (stats.atomics[k].address == address)
        last[(long long)stats.atomics[k].block * block.x + stats.atomics[k].thread] = k;
    std::vector<std::pair<size_t, long long>> byTime;
    for (const auto& [thread, k] : last) byTime.emplace_back(k, thread);
    std::sort(byTime.begin(), byTime.end());
    std::vector<std::pair<long long, double>> landings;
    for (const auto& [k, thread] : byTime) landings.emplace_back(thread, stats.atomics[k].old);
    return landings;
  }

  // ---- Several GPUs (lesson allreduce) ----
  // Virtual GPUs on the CPU: every rank's buffer is host memory, a copy between ranks is a
  // memcpy done at once, and the ranks run one after the other, so the waits are empty.
  static constexpr bool kHasNccl = false;
  static constexpr int kVirtualGpus = 8;
  void openRanks(int ranks) {
    if (ranks > kVirtualGpus)
      throw std::invalid_argument("the simulator has " + std::to_string(kVirtualGpus) +
                                  " virtual GPUs");
  }
  template <class T>
  Buffer<T> allocOnRank(int, size_t count) {
    return alloc<T>(count);
  }
  template <class T>
  void copyBetweenRanks(int, T* to, int, const T* from, size_t count) {
    if (count) std::memcpy(to, from, count * sizeof(T));
  }
  template <class... Params, class... Args>
  void launchOnRank(int rank, dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    launch(grid, block, kernel, args...);
    launches.note({{"rank", rank}});
  }
  void rankBarrier() {}
  void finishRanks() {}

  // Scheduling rounds of every launch so far, summed over blocks (round-based schedules).
  uint64_t rounds() const { return rounds_; }
  // The first race (or read of unwritten shared memory) of the launches so far, with
  // LaunchOptions::detectRaces, and how many racing accesses they had in all.
  // The sentence for it names lines as `nameInstruction` does (LaunchOptions).
  std::optional<sim::LaunchError> race(
      const std::function<std::string(uintptr_t)>& nameInstruction) const {
    if (!raced_) return std::nullopt;
    sim::LaunchOptions naming;
    naming.nameInstruction = nameInstruction;
    const std::string element = raceElement_;
    naming.nameAddress = [element](uintptr_t) { return element; };
    return sim::raceError(raceStats_, naming, raceInSeveralBlocks_);
  }
  // The instructions the first race's launch raced at, for looking their lines up at once.
  const std::vector<uintptr_t>& raceInstructions() const { return raceInstructions_; }
  uint64_t racingAccesses() const { return racingAccesses_; }
  // The most warp steps one thread took in any launch so far, and one past the highest thread
  // of a block that took one (sim::LaunchStats).
  uint64_t warpSteps() const { return warpSteps_; }
  unsigned warpStepThreads() const { return warpStepThreads_; }
  uint64_t laneThreadWarpSteps() const { return laneThreadWarpSteps_; }
  // What the kernels printed so far (with LaunchOptions::capturePrintf), launch after launch,
  // and whether a launch printed more than the simulator keeps.
  const std::string& printed() const { return printed_; }
  bool printedCut() const { return printedCut_; }

  // The simulator runs one block at a time; two "SMs" keep grid-stride kernels honest, with
  // the thread slots of an H100's.
  long long multiprocessors() const { return 2; }
  int threadSlotsPerMultiprocessor() const { return 2048; }

 private:
  static void checkRange(const char* what, size_t size, size_t count, size_t offset) {
    if (offset > size || count > size - offset)
      throw std::out_of_range(std::string("a ") + what + " of " + std::to_string(count) +
                              " elements at offset " + std::to_string(offset) +
                              " runs past the end of a buffer of " + std::to_string(size) + ".");
  }

  void keep(const sim::LaunchStats& stats, dim3 grid) {
    if (!raced_ && (!stats.races.empty() || !stats.uninitialisedReads.empty())) {
      raced_ = true;
      raceStats_.races = stats.races;
      raceStats_.uninitialisedReads = stats.uninitialisedReads;
      raceInSeveralBlocks_ = grid.x * grid.y * grid.z > 1;
      for (const sim::Race& r : stats.races) {
        raceInstructions_.push_back(r.earlier.instruction);
        raceInstructions_.push_back(r.later.instruction);
      }
      for (const sim::UninitialisedRead& u : stats.uninitialisedReads)
        raceInstructions_.push_back(u.read.instruction);
      // Named now, while the buffers live; the lines (slow to look up) when asked for.
      raceElement_ = raceStats_.races.empty() ? "" : elementAt(raceStats_.races.front().address);
    }
    racingAccesses_ += stats.racingAccesses;
    rounds_ += stats.rounds;
    warpSteps_ = std::max(warpSteps_, stats.warpSteps);
    warpStepThreads_ = std::max(warpStepThreads_, stats.warpStepThreads);
    laneThreadWarpSteps_ = std::max(laneThreadWarpSteps_, stats.laneThreadWarpSteps);
    printed_ += stats.printed;
    printedCut_ = printedCut_ || stats.printedCut;
  }

  // "int[4]": a global element by its buffer's type (the lessons' buffers have no names here).
  std::string elementAt(uintptr_t address) {
    std::erase_if(live_, [](const auto& weak) { return weak.expired(); });
    for (const auto& weak : live_)
      if (auto buffer = weak.lock();
          buffer && buffer->holds(reinterpret_cast<const void*>(address)))
        return std::string(buffer->elementName()) + "[" +
               std::to_string((address - reinterpret_cast<uintptr_t>(buffer->bytes())) /
                              buffer->elementSize()) +
               "]";
    return "";
  }

  void checkGuards(dim3 grid, dim3 block) {
    std::erase_if(live_, [](const auto& weak) { return weak.expired(); });
    for (const auto& weak : live_)
      if (auto buffer = weak.lock()) buffer->checkGuard(grid.x, block.x);
  }

  template <class Arg>
  void watchArgument(std::vector<sim::WatchedMemory>& watch, const Arg& arg, int position) {
    if constexpr (std::is_pointer_v<Arg>) {
      std::erase_if(live_, [](const auto& weak) { return weak.expired(); });
      for (const auto& weak : live_)
        if (auto buffer = weak.lock(); buffer && buffer->ownsPages() && buffer->holds(arg)) {
          for (const sim::WatchedMemory& w : watch)
            if (w.begin == buffer->bytes()) return;  // passed twice: watched once
          watch.push_back({buffer->bytes(), buffer->allocatedBytes(),
                           unsigned(buffer->elementSize()), position});
          return;
        }
    }
  }

  sim::LaunchOptions options_;
  bool recordMemory_ = false;
  std::vector<sim::MemoryAccess> memory_;  // the last launch's
  uint64_t rounds_ = 0;
  bool raced_ = false;
  sim::LaunchStats raceStats_;  // the first launch that raced: its races
  bool raceInSeveralBlocks_ = false;
  std::string raceElement_;
  std::vector<uintptr_t> raceInstructions_;
  uint64_t racingAccesses_ = 0;
  uint64_t warpSteps_ = 0;
  unsigned warpStepThreads_ = 0;
  uint64_t laneThreadWarpSteps_ = 0;
  std::string printed_;
  bool printedCut_ = false;
  std::vector<std::weak_ptr<sim_memory::GuardedBlock>> live_;  // buffers of this backend
};

}  // namespace rlab
