// The launch: the one worker thread every kernel runs on, and launch(), which runs a grid's
// blocks one after another there. All simulated threads run on that thread so that __shared__
// (static thread_local) means "this block"; launches from several host threads wait their turn.
// Everything a launch sets up for the others (the running block, where atomics, printf output
// and memory accesses go) is one LaunchState, filled here and emptied on the way out.

#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/detail/fibers.hpp"
#include "kernels/sim/detail/launch_state.hpp"
#include "kernels/sim/detail/memory_watch.hpp"
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

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options, const void* kernel,
                   const std::function<void()>& body) {
  const uint64_t threadsPerBlock = uint64_t(block.x) * block.y * block.z;
  if (threadsPerBlock == 0 || threadsPerBlock > 1024)
    throw std::invalid_argument("a block has " + std::to_string(threadsPerBlock) +
                                " threads; CUDA allows 1 to 1024");
  if (uint64_t(grid.x) * grid.y * grid.z == 0)
    throw std::invalid_argument("the grid has no blocks; launch at least one");
  LaunchStats stats;
  Worker& worker = Worker::instance();
  worker.runOnWorker([&] {
    detail::g_blockDim = block;
    detail::g_gridDim = grid;
    detail::g_recordAtomics = options.recordAtomics;
    static const std::vector<detail::ByteRange> noKernel;
    const auto& shared = kernel ? detail::sharedVariablesOf(kernel) : noKernel;
    detail::BlockRun run(body, options, worker.fibers(), stats, &shared);  // for every block
    detail::g_launch = {&run, options.recordAtomics ? &stats.atomics : nullptr,
                        options.capturePrintf ? &stats : nullptr,
                        options.watch.empty() ? nullptr : &stats.memory};
    struct EndLaunch {  // on the way out, thrown or not
      ~EndLaunch() {
        detail::g_launch = {};
        detail::g_recordAtomics = false;
      }
    } end;
    detail::MemoryWatch watch(options.watch);  // before the blocks, after: off
    unsigned linear = 0;
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x, ++linear) {
          for (const detail::ByteRange& r : shared)
            std::memset(r.begin, kSharedPoisonByte, r.end - r.begin);
          detail::g_blockIdx = {x, y, z};
          run.run(linear);  // a failed block has unwound its fibers before it throws
        }
  });
  return stats;
}

}  // namespace rlab::sim
