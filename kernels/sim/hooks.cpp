// The hooks that kernel code calls through shim.hpp (declared in detail/hooks.hpp): a barrier,
// a yield point, a warp step, a warp operation, printf, an atomic to record, a failed assertion;
// and the globals the shim reads for threadIdx, blockIdx, blockDim, gridDim and clock64(). Each
// hook turns a CUDA call into what the running block does with it (detail/block_run.hpp). Called
// outside a launch, a hook says so rather than touching a block that is not there.

#include "kernels/sim/detail/hooks.hpp"

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "kernels/sim/detail/launch_state.hpp"

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

void barrier(const char* file, int line) {
  BlockRun& block = runningBlock("__syncthreads");
  block.arriveAtBarrier(file, line);
  block.suspend();
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
    throw std::invalid_argument("warp operation at " + where(file, line) + " has width " +
                                std::to_string(width) +
                                "; width must be a power of two from 1 to 32");
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
  std::string message = std::string("failed assertion '") + expression + "'";
  if (line > 0) message += " at " + where(file, line);
  if (g_launch.thread() != kNoThread) throw AssertionFailure{message};
  throw std::logic_error(message);
}

}  // namespace rlab::sim::detail
