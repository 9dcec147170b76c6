// The hooks that kernel code calls through shim.hpp (declared in detail/hooks.hpp): a barrier,
// a yield point, a warp step, a warp operation, printf, an atomic to record, a failed assertion,
// the device heap; and the globals the shim reads for threadIdx, blockIdx, blockDim, gridDim and
// clock64(). Each hook turns a CUDA call into what the running block does with it
// (detail/block_run.hpp). Called
// outside a launch, a hook says so rather than touching a block that is not there.

#include "kernels/sim/detail/hooks.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "kernels/sim/detail/launch_state.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

uint3 g_threadIdx;
uint3 g_blockIdx;
dim3 g_blockDim;
dim3 g_gridDim;
bool g_recordAtomics = false;
long long g_logicalClock = 0;

namespace {
[[noreturn]] __attribute__((noinline, cold)) void outsideKernel(const char* what) {
  throw std::logic_error(std::string(what) + " called outside a simulated kernel");
}

inline BlockRun& runningBlock(const char* what) {
  if (g_launch.thread() == kNoThread) [[unlikely]]
    outsideKernel(what);
  return *g_launch.block;
}

}  // namespace

void failThread(KernelFailure failure, const char* file, int line) {
  if (line > 0) {
    failure.english = "at " + where(file, line) + " " + failure.english;
    failure.args.emplace_back("site", where(file, line));
  }
  if (g_launch.thread() != kNoThread) throw failure;
  throw std::logic_error(failure.english);
}

void barrier(const char* file, int line) {
  BlockRun& block = runningBlock("__syncthreads");
  block.arriveAtBarrier(file, line);
  block.suspend();
}

int barrierVote(BarrierVote vote, int predicate, const char* file, int line) {
  BlockRun& block = runningBlock("__syncthreads_count, _and or _or");
  block.arriveAtBarrier(file, line, predicate != 0);
  block.suspend();
  return block.barrierVoteResult(vote);
}

void yieldPoint(const char*, int) {
  BlockRun& block = runningBlock("a yield point");
  block.arriveAtYield();
  block.suspend();
}

void warpStep(const char*, int) {
  BlockRun& block = runningBlock("a warp step");
  block.arriveAtWarpStep();
  block.suspend();
}

uint64_t warpCollective(WarpOp op, unsigned mask, uint64_t bits, int arg, int width,
                        const char* file, int line) {
  BlockRun& block = runningBlock("a warp operation");
  if (width <= 0 || width > 32 || (width & (width - 1)))
    failThread({"sim.warp-width",
                "sim.warp-width-in-block",
                {{"width", std::to_string(width)}},
                "calls a warp operation with width " + std::to_string(width) +
                    "; the width must be a power of two from 1 to 32."},
               file, line);
  block.arriveAtWarpOp({op, mask, bits, arg, width, file, line});
  block.suspend();
  return block.warpResult();
}

int kernelPrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const bool inKernel = g_launch.thread() != kNoThread;
  int length = 0;
  if (inKernel && g_launch.printed) {
    char small[256];
    va_list again;
    va_copy(again, args);
    length = std::vsnprintf(small, sizeof small, format, args);
    std::string text;
    if (length >= 0 && size_t(length) < sizeof small) {
      text = small;
    } else if (length > 0) {
      text.resize(size_t(length) + 1);
      std::vsnprintf(text.data(), text.size(), format, again);
      text.pop_back();
    }
    va_end(again);
    std::string& out = g_launch.printed->printed;
    if (out.size() + text.size() <= kPrintedBytes)
      out += text;
    else
      g_launch.printed->printedCut = true;
  } else {
    length = std::vprintf(format, args);
  }
  va_end(args);
  if (inKernel) {  // printing takes a GPU thread time: the others go on
    g_launch.block->arriveAtYield();
    g_launch.block->suspend();
  }
  return length;
}

void noteAtomic(const void* address, double old, double operand, double after) {
  const BlockRun& block = runningBlock("an atomic");
  if (g_launch.atomics)
    g_launch.atomics->push_back(
        {block.blockLinear(), block.current(), address, old, operand, after});
}

void failAssertion(const char* expression, const char* file, int line) {
  failThread({"sim.assertion",
              "sim.assertion-in-block",
              {{"expression", expression}},
              std::string("failed assertion '") + expression + "'."},
             file, line);
}

void failInKernel(const char* id, const char* idInBlock, const char* english, const char* file,
                  int line) {
  failThread({id, idInBlock, {}, english}, file, line);
}

// ---- The device heap ----------------------------------------------------------------------------
// Blocks for a kernel's malloc and new, counted against CUDA's default heap. They outlive the
// launch, as on a GPU, until the kernel frees them or the process ends.

namespace {
std::mutex g_heapMutex;
std::unordered_map<void*, size_t> g_heapBlocks;
size_t g_heapBytes = 0;
}  // namespace

size_t g_heapRefusals = 0;

void* deviceMalloc(size_t bytes) {
  std::lock_guard<std::mutex> lock(g_heapMutex);
  if (bytes > kDeviceHeapBytes - g_heapBytes) {
    ++g_heapRefusals;
    return nullptr;
  }
  void* block = std::aligned_alloc(16, (std::max<size_t>(bytes, 1) + 15) / 16 * 16);
  if (!block) return nullptr;
  g_heapBlocks.emplace(block, bytes);
  g_heapBytes += bytes;
  return block;
}

void deviceFree(void* pointer) {
  if (!pointer) return;
  std::unique_lock<std::mutex> lock(g_heapMutex);
  auto found = g_heapBlocks.find(pointer);
  if (found == g_heapBlocks.end()) {
    lock.unlock();
    failInKernel("sim.bad-free", "sim.bad-free-in-block",
                 "freed a pointer that malloc or new in a kernel did not give.", "", 0);
  }
  g_heapBytes -= found->second;
  g_heapBlocks.erase(found);
  std::free(pointer);
}

}  // namespace rlab::sim::detail

size_t rlab::sim::deviceHeapRefusals() noexcept {
  return detail::g_heapRefusals;
}
