// What the exercise runner's GPU path holds while it runs a learner's kernel: the loaded kernel
// and the device's size, device buffers of ints freed on every path, and a launch whose failure
// is one sentence, and the exercise's whole reduction on them (gpu_device.cpp). gpu.cpp runs
// the cases with them, leaderboard.cpp times the kernel.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "lessons/engine/exercise_runner/gpu_toolkit.hpp"

namespace rlab::exercise {

struct Gpu {
  Driver& d;
  CUfunction kernel = nullptr;
  unsigned dynamicSharedPerThread = 0;  // the exercise's extern __shared__ bytes a thread
  long long multiprocessors = 1, threadsPerMultiprocessor = 2048;
  bool broken = false;  // a sticky error: the context is gone, no case can run after it
};

// Device ints, freed on every path.
class DeviceInts {
 public:
  DeviceInts(Gpu& gpu, size_t count) : gpu_(gpu), count_(std::max<size_t>(count, 1)) {
    gpu_.d.check(gpu_.d.cuMemAlloc(&ptr_, count_ * sizeof(int)), "cuMemAlloc");
  }
  ~DeviceInts() { gpu_.d.cuMemFree(ptr_); }
  DeviceInts(const DeviceInts&) = delete;
  DeviceInts& operator=(const DeviceInts&) = delete;
  CUdeviceptr& ptr() { return ptr_; }
  void upload(const std::vector<int>& host) {
    gpu_.d.check(gpu_.d.cuMemcpyHtoD(ptr_, host.data(), host.size() * sizeof(int)),
                 "a copy to the GPU");
  }
  void fill(int value) {
    gpu_.d.check(gpu_.d.cuMemsetD32(ptr_, unsigned(value), count_), "cuMemsetD32");
  }
  void copyFrom(DeviceInts& source, size_t count) {
    gpu_.d.check(gpu_.d.cuMemcpyDtoD(ptr_, source.ptr(), count * sizeof(int)), "cuMemcpyDtoD");
  }
  std::vector<int> download(size_t count) {
    std::vector<int> host(count);
    gpu_.d.check(gpu_.d.cuMemcpyDtoH(host.data(), ptr_, count * sizeof(int)),
                 "a copy from the GPU");
    return host;
  }

 private:
  Gpu& gpu_;
  CUdeviceptr ptr_ = 0;
  size_t count_;
};

inline bool sticky(CUresult r) {
  return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_MISALIGNED_ADDRESS ||
         r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
         r == CUDA_ERROR_HARDWARE_STACK_ERROR || r == CUDA_ERROR_INVALID_PC ||
         r == CUDA_ERROR_ASSERT || r == CUDA_ERROR_LAUNCH_TIMEOUT;
}

// A failed launch or wait as one sentence; after a sticky failure nothing more runs.
inline void throwLaunchFailure(Gpu& gpu, CUresult r) {
  gpu.broken = sticky(r);
  throw GpuUnavailable(Message(gpu.broken ? "runner.kernel-failed-lost" : "runner.kernel-failed",
                               {{"error", gpu.d.words(r)}}));
}

// Queues a launch on the default stream and returns: a timing queues every launch of a whole
// reduction before it waits.
template <class... Args>
void queueLaunch(Gpu& gpu, long long grid, int block, Args*... args) {
  void* params[] = {static_cast<void*>(args)...};
  const CUresult r =
      gpu.d.cuLaunchKernel(gpu.kernel, unsigned(grid), 1, 1, unsigned(block), 1, 1,
                           gpu.dynamicSharedPerThread * unsigned(block), nullptr, params, nullptr);
  if (r != CUDA_SUCCESS) throwLaunchFailure(gpu, r);
}

// Waits for what was queued.
inline void waitForGpu(Gpu& gpu) {
  if (const CUresult r = gpu.d.cuCtxSynchronize(); r != CUDA_SUCCESS) throwLaunchFailure(gpu, r);
}

// Launches and waits.
template <class... Args>
void launch(Gpu& gpu, long long grid, int block, Args*... args) {
  queueLaunch(gpu, grid, block, args...);
  waitForGpu(gpu);
}

inline long long blocksFor(long long threads, long long block) {
  return (threads + block - 1) / block;
}

// The exercise's whole reduction of one input (an atomic result's launch, every pass of block
// partials, every step of an in-place fold), as its cases run it and the leaderboard times it:
// every launch is queued before any is waited for. For the shapes AtomicResult, BlockPartials
// and FoldStep.
class WholeReduction {
 public:
  WholeReduction(const Exercise& e, Gpu& gpu, const std::vector<int>& host, int block);
  // Puts back what a run changes (the result's identity, an in-place fold's input); outside a
  // timing.
  void prepare();
  // Queues every launch of one run.
  void queue();
  // Waits for the run, then its sum.
  int result();

 private:
  const Exercise& e_;
  Gpu& gpu_;
  long long n_, grid_ = 0;
  int block_;
  DeviceInts input_;
  std::vector<std::unique_ptr<DeviceInts>> out_;  // the result, the passes' partials or the fold
  std::vector<long long> lengths_;                // the passes' inputs
};

}  // namespace rlab::exercise
