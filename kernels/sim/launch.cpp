// The launch: the one worker thread every kernel runs on, and launch(), which runs a grid's
// blocks one after another there. All simulated threads run on that thread so that __shared__
// (static thread_local) means "this block"; launches from several host threads wait their turn.
// Everything a launch sets up for the others (the running block, where atomics, printf output
// and memory accesses go) is one LaunchState, filled here and emptied on the way out.

#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/detail/cluster.hpp"
#include "kernels/sim/detail/fibers.hpp"
#include "kernels/sim/detail/launch_state.hpp"
#include "kernels/sim/detail/memory_watch.hpp"
#include "kernels/sim/detail/race_detector.hpp"
#include "kernels/sim/detail/shared_memory.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim {

namespace detail {
LaunchState g_launch;
}  // namespace detail

namespace {

// All simulated threads run here, so that __shared__ (thread_local) means "this block".
class Worker {
 public:
  static Worker& instance() {
    static Worker worker;
    return worker;
  }

  template <class Job>
  void runOnWorker(Job&& job) {
    std::unique_lock<std::mutex> callerLock(callers_);  // one launch at a time
    std::exception_ptr error;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      job_ = [&] {
        try {
          job();
        } catch (...) {
          error = std::current_exception();
        }
      };
      done_ = false;
      wake_.notify_one();
      finished_.wait(lock, [&] { return done_; });
    }
    if (error) std::rethrow_exception(error);
  }

  detail::FiberPool& fibers() { return fibers_; }

 private:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
      wake_.notify_one();
    }
    thread_.join();
  }

  void loop() {
    fibers_.setHomeStack(detail::threadStack());
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return quit_ || job_ != nullptr; });
      if (quit_) return;
      auto job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      lock.lock();
      done_ = true;
      finished_.notify_all();
    }
  }

  std::mutex callers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::function<void()> job_;
  bool done_ = true;
  bool quit_ = false;
  detail::FiberPool fibers_{detail::fiberMain};
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options,
                   const std::function<void()>& body) {
  return launch(grid, block, options, nullptr, body);
}

RunningThread runningThread() noexcept {
  RunningThread r;
  const detail::BlockRun* block = detail::g_launch.block;
  if (!block || block->current() == detail::kNoThread) return r;
  r.running = true;
  r.block = block->blockLinear();
  r.thread = block->current();
  return r;
}

void runOnWorkerThread(const std::function<void()>& job) {
  Worker::instance().runOnWorker(job);
}

size_t sharedMemoryBytes(const void* kernel) {
  size_t bytes = 0;
  Worker::instance().runOnWorker([&] {
    for (const detail::ByteRange& r : detail::sharedVariablesOf(kernel)) bytes += r.end - r.begin;
  });
  return bytes;
}

bool usesDynamicSharedMemory(const void* kernel) {
  bool uses = false;
  Worker::instance().runOnWorker([&] { uses = detail::dynamicSharedOf(kernel).begin != nullptr; });
  return uses;
}

namespace {

// Dynamic shared memory: the launch's bytes, and a block that wrote past them. The whole buffer
// is poisoned at each block's start, so a read past the bytes shows the poison; a write past
// them would land outside the block's shared memory on a GPU, and is named when the block ends.
class DynamicShared {
 public:
  DynamicShared(const detail::ByteRange& buffer, size_t bytes, size_t staticBytes)
      : buffer_(buffer), bytes_(bytes) {
    const size_t capacity = size_t(buffer.end - buffer.begin);
    if (staticBytes + bytes > kSharedMemoryPerBlock)
      throw LaunchError("the launch asks for " + std::to_string(staticBytes + bytes) +
                            " bytes of shared memory a block (" + std::to_string(staticBytes) +
                            " declared __shared__ in the kernel, " + std::to_string(bytes) +
                            " dynamic); CUDA gives a block at most " +
                            std::to_string(kSharedMemoryPerBlock) +
                            " bytes unless the host raises the limit with cudaFuncSetAttribute.",
                        {"sim.shared-memory-limit",
                         {{"bytes", std::to_string(staticBytes + bytes)},
                          {"static", std::to_string(staticBytes)},
                          {"dynamic", std::to_string(bytes)},
                          {"limit", std::to_string(kSharedMemoryPerBlock)}},
                         {}});
    if (capacity < bytes) bytes_ = capacity;
  }
  void startBlock() const {
    if (buffer_.begin) std::memset(buffer_.begin, kSharedPoisonByte, buffer_.end - buffer_.begin);
  }
  // `severalBlocks`: the sentence names the block.
  void endBlock(unsigned block, bool severalBlocks) const {
    for (const unsigned char* p = buffer_.begin + bytes_; p < buffer_.end; ++p) {
      if (*p == kSharedPoisonByte) continue;
      const std::string byte = std::to_string(p - buffer_.begin);
      LaunchFailure failure{
          "sim.dynamic-shared-overrun",
          {{"array", buffer_.name}, {"byte", byte}, {"bytes", std::to_string(bytes_)}},
          {}};
      if (severalBlocks) {
        failure.id = "sim.dynamic-shared-overrun-in-block";
        failure.args.emplace_back("block", std::to_string(block));
      }
      throw LaunchError(
          detail::stopped((severalBlocks ? "block " + std::to_string(block) : "the block") +
                          " wrote to extern __shared__ " + buffer_.name + "[] at byte " + byte +
                          ", past the " + std::to_string(bytes_) +
                          " bytes of dynamic shared memory the launch gave it; on a GPU that "
                          "write lands outside the block's shared memory."),
          std::move(failure));
    }
  }
  // What onBarrier shows of it: the launch's bytes.
  void addSpan(std::vector<detail::ByteRange>& spans) const {
    if (buffer_.begin && bytes_ > 0)
      spans.push_back({buffer_.begin, buffer_.begin + bytes_, buffer_.name});
  }

 private:
  detail::ByteRange buffer_;
  size_t bytes_;
};

// CUDA's limits on a launch's clusters (cudaLaunchKernelEx refuses the launch otherwise).
void checkClusters(dim3 grid, const LaunchOptions& options) {
  const dim3 c = options.cluster;
  const uint64_t blocks = uint64_t(c.x) * c.y * c.z;
  const unsigned limit =
      options.nonPortableClusterSize ? kMaxClusterBlocks : kPortableClusterBlocks;
  const std::string shape =
      std::to_string(c.x) + " x " + std::to_string(c.y) + " x " + std::to_string(c.z);
  if (blocks == 0 || blocks > limit) {
    const bool optIn = !options.nonPortableClusterSize && blocks <= kMaxClusterBlocks && blocks > 0;
    throw LaunchError(
        "a cluster of " + shape + " = " + std::to_string(blocks) + " blocks is more than CUDA " +
            "allows (" + std::to_string(limit) + " blocks" +
            (optIn ? ", or 16 once the kernel opts in with cudaFuncSetAttribute("
                     "cudaFuncAttributeNonPortableClusterSizeAllowed, 1)"
                   : "") +
            "); the launch fails with cudaErrorInvalidClusterSize.",
        {optIn ? "sim.cluster-too-large-portable" : "sim.cluster-too-large",
         {{"shape", shape}, {"blocks", std::to_string(blocks)}, {"limit", std::to_string(limit)}},
         {}});
  }
  if (grid.x % c.x || grid.y % c.y || grid.z % c.z) {
    const std::string gridShape =
        std::to_string(grid.x) + " x " + std::to_string(grid.y) + " x " + std::to_string(grid.z);
    throw LaunchError("the grid of " + gridShape + " blocks is not a whole number of clusters of " +
                          shape +
                          "; CUDA needs each of the grid's dimensions to be a multiple "
                          "of the cluster's (the launch fails with cudaErrorInvalidClusterSize).",
                      {"sim.cluster-not-divisible", {{"grid", gridShape}, {"shape", shape}}, {}});
  }
}

}  // namespace

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options, const void* kernel,
                   const std::function<void()>& body) {
  const uint64_t threadsPerBlock = uint64_t(block.x) * block.y * block.z;
  if (threadsPerBlock == 0 || threadsPerBlock > 1024)
    throw std::invalid_argument("a block has " + std::to_string(threadsPerBlock) +
                                " threads; CUDA allows 1 to 1024");
  if (uint64_t(grid.x) * grid.y * grid.z == 0)
    throw std::invalid_argument("the grid has no blocks; launch at least one");
  checkClusters(grid, options);
  LaunchStats stats;
  Worker& worker = Worker::instance();
  worker.runOnWorker([&] {
    detail::g_blockDim = block;
    detail::g_gridDim = grid;
    detail::g_clusterDim = options.cluster;
    detail::g_recordAtomics = options.recordAtomics;
    static const std::vector<detail::ByteRange> noKernel;
    static const detail::ByteRange noBuffer;
    const auto& declared = kernel ? detail::sharedVariablesOf(kernel) : noKernel;
    static const std::string notStripped;
    const std::string& file = kernel ? detail::strippedModuleOf(kernel) : notStripped;
    if (!file.empty())
      throw LaunchError(file +
                            " has no symbol table (it was stripped), so the simulator cannot "
                            "tell its kernels' __shared__ variables from its other "
                            "thread-local data; run a build that keeps the symbol table "
                            "(strip --strip-debug keeps it).",
                        {"sim.stripped", {{"file", file}}, {}});
    size_t staticBytes = 0;
    for (const detail::ByteRange& r : declared) staticBytes += r.end - r.begin;
    const DynamicShared dynamic(kernel ? detail::dynamicSharedOf(kernel) : noBuffer,
                                options.dynamicSharedBytes, staticBytes);
    std::vector<detail::ByteRange> shared = declared;  // what a barrier shows
    dynamic.addSpan(shared);
    std::optional<detail::RaceDetector> races;
    if (options.detectRaces) races.emplace(stats, shared, options);
    detail::ClusterRun cluster(body, options, worker.fibers(), stats, shared,
                               races ? &*races : nullptr);
    detail::g_launch = {nullptr, &cluster, options.recordAtomics ? &stats.atomics : nullptr,
                        options.capturePrintf ? &stats : nullptr,
                        options.watch.empty() ? nullptr : &stats.memory};
    detail::t_raceDetector = races ? &*races : nullptr;
    struct EndLaunch {  // on the way out, thrown or not
      ~EndLaunch() {
        detail::g_launch = {};
        detail::g_recordAtomics = false;
        detail::g_clusterDim = {1, 1, 1};
        detail::t_raceDetector = nullptr;
      }
    } end;
    detail::MemoryWatch watch(options.watch);  // before the blocks, after: off
    const dim3 c = options.cluster;
    const bool severalBlocks = uint64_t(grid.x) * grid.y * grid.z > 1;
    for (unsigned z = 0; z < grid.z / c.z; ++z)
      for (unsigned y = 0; y < grid.y / c.y; ++y)
        for (unsigned x = 0; x < grid.x / c.x; ++x) {
          for (const detail::ByteRange& r : declared)
            std::memset(r.begin, kSharedPoisonByte, r.end - r.begin);
          dynamic.startBlock();
          cluster.run({x, y, z});  // a failed block has unwound its fibers before it throws
          dynamic.endBlock(cluster.blockLinear(cluster.runningRank()), severalBlocks);
        }
    if (races && (!stats.races.empty() || !stats.uninitialisedReads.empty())) {
      if (options.failOnRace) detail::failOnRace(stats, options, severalBlocks);
      if (options.onRace) options.onRace(raceError(stats, options, severalBlocks));
    }
  });
  return stats;
}

}  // namespace rlab::sim
