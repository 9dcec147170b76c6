// The CUDA device as a lesson backend: errors as sentences, the device and its properties, and
// the spin that makes event timings measure the GPU alone.
#include <atomic>
#include <cstdio>

#include "lessons/engine/backends/gpu/backend.cuh"

namespace rlab {

// ---- Errors ------------------------------------------------------------------------------------

namespace {
// Set by any worker thread whose kernel faulted, read by all of them.
std::atomic<bool> g_broken{false};
std::atomic<bool> g_failureInjected{false};
}  // namespace

bool gpuBroken() {
  return g_broken.load();
}
void markGpuBroken() {
  g_broken.store(true);
}

void checkCuda(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  const std::string during = std::string(" (while ") + what + ").";
  switch (status) {
    case cudaErrorNoDevice:
      throw GpuUnavailable("No CUDA device is present" + during);
    case cudaErrorInsufficientDriver:
      throw GpuUnavailable(
          "The NVIDIA driver is older than this build's CUDA runtime; update "
          "the driver" +
          during);
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
      throw GpuUnavailable(
          "This build has no kernel image for this GPU's architecture; "
          "rebuild with CMAKE_CUDA_ARCHITECTURES set to it" +
          during);
    case cudaErrorMemoryAllocation:
      throw GpuUnavailable("The GPU is out of memory for this n; try a smaller --n" + during);
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
      markGpuBroken();
      throw GpuUnavailable(std::string("A kernel failed on the GPU: ") +
                           cudaGetErrorString(status) +
                           "; GPU use ends for this process, your settings are kept" + during);
    default:
      throw GpuUnavailable(std::string("CUDA error: ") + cudaGetErrorString(status) + during);
  }
}

// ---- The GPU backend -------------------------------------------------------------------------

namespace {

// Longer than the host takes to queue an event, CUB's two launches and another event.
constexpr long long kHoldNanoseconds = 100'000;

__global__ void spinFor(long long nanoseconds) {
  long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < nanoseconds);
}

}  // namespace

void holdGpuWhileQueueing() {
  spinFor<<<1, 1>>>(kHoldNanoseconds);
  checkCuda(cudaGetLastError(), "launching a kernel");
}

void injectGpuFailure(bool on) {
  g_failureInjected.store(on);
}

GpuBackend::GpuBackend() {
  if (g_failureInjected.load())
    throw GpuUnavailable("A kernel failed on the GPU (a failure injected by a test).");
  if (gpuBroken())
    throw GpuUnavailable("GPU use ended earlier in this process after a kernel failed.");
  int driver = 0;
  cudaDriverGetVersion(&driver);
  if (driver == 0)
    throw GpuUnavailable("No NVIDIA driver is installed here, so no CUDA device can run.");
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count), "looking for a CUDA device");
  if (count == 0) throw GpuUnavailable("No CUDA device is present.");
  int device = 0;
  checkCuda(cudaGetDevice(&device), "choosing the device");
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, device), "reading the device's properties");
  deviceName_ = prop.name;
  char description[256];
  std::snprintf(description, sizeof description, "%s, compute capability %d.%d, %.1f GiB",
                prop.name, prop.major, prop.minor, double(prop.totalGlobalMem) / (1 << 30));
  description_ = description;
  multiprocessors_ = prop.multiProcessorCount;
  threadSlotsPerMultiprocessor_ = prop.maxThreadsPerMultiProcessor;
  checkCuda(cudaGetDeviceCount(&deviceCount_), "counting the GPUs");
  checkCuda(cudaEventCreate(&start_), "creating an event");
  checkCuda(cudaEventCreate(&stop_), "creating an event");
}

GpuBackend::~GpuBackend() {
  closeRanks();
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
}

bool gpuBackendBuilt() {
  return true;
}

GpuProbe probeGpu() {
  try {
    GpuBackend probe;
    GpuProbe found{true, probe.description(), "", probe.deviceCount(), probe.deviceName()};
    cudaDriverGetVersion(&found.cudaDriver);
    cudaRuntimeGetVersion(&found.cudaRuntime);
    return found;
  } catch (const GpuUnavailable& e) {
    return {false, "", e.what()};
  }
}

}  // namespace rlab
