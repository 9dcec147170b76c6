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

void checkCuda(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  switch (status) {
    case cudaErrorNoDevice:
      throw GpuUnavailable(Message("gpu.no-device-in", {{"call", call}}));
    case cudaErrorInsufficientDriver:
      throw GpuUnavailable(Message("gpu.driver-too-old", {{"call", call}}));
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
      throw GpuUnavailable(Message("gpu.no-kernel-image", {{"call", call}}));
    case cudaErrorMemoryAllocation:
      throw GpuUnavailable(Message("gpu.out-of-memory", {{"call", call}}));
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
      markGpuBroken();
      throw GpuUnavailable(
          Message("gpu.kernel-failed", {{"error", cudaGetErrorString(status)}, {"call", call}}));
    default:
      throw GpuUnavailable(
          Message("gpu.cuda-error", {{"error", cudaGetErrorString(status)}, {"call", call}}));
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

void holdGpuFor(long long nanoseconds) {
  spinFor<<<1, 1>>>(nanoseconds);
  checkCuda(cudaGetLastError(), "cudaGetLastError");
}

void holdGpuWhileQueueing() {
  holdGpuFor(kHoldNanoseconds);
}

void injectGpuFailure(bool on) {
  g_failureInjected.store(on);
}

GpuBackend::GpuBackend() {
  if (g_failureInjected.load()) throw GpuUnavailable(Message("gpu.failure-injected"));
  if (gpuBroken()) throw GpuUnavailable(Message("gpu.ended-earlier"));
  int driver = 0;
  cudaDriverGetVersion(&driver);
  if (driver == 0) throw GpuUnavailable(Message("gpu.no-driver"));
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (count == 0) throw GpuUnavailable(Message("gpu.no-device"));
  int device = 0;
  checkCuda(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  deviceName_ = prop.name;
  description_ = Message(
      "device.gpu", {{"name", prop.name},
                     {"capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
                     {"memory", printedNumber("%.1f", double(prop.totalGlobalMem) / (1 << 30))}});
  multiprocessors_ = prop.multiProcessorCount;
  clusters_ = prop.major >= 9;
  capability_ = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  threadSlotsPerMultiprocessor_ = prop.maxThreadsPerMultiProcessor;
  checkCuda(cudaGetDeviceCount(&deviceCount_), "cudaGetDeviceCount");
  checkCuda(cudaEventCreate(&start_), "cudaEventCreate");
  checkCuda(cudaEventCreate(&stop_), "cudaEventCreate");
}

Message GpuBackend::clustersAbsent() const {
  return Message("gpu.no-clusters", {{"name", deviceName_}, {"capability", capability_}});
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
    GpuProbe found{true, probe.description(), {}, probe.deviceCount(), probe.deviceName()};
    found.clusters = probe.hasClusters();
    cudaDriverGetVersion(&found.cudaDriver);
    cudaRuntimeGetVersion(&found.cudaRuntime);
    return found;
  } catch (const GpuUnavailable& e) {
    return {false, {}, e.message(), 0};
  }
}

}  // namespace rlab
