// The CUDA device as a lesson backend. Every API call is checked; errors become one sentence.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "lessons/backends.hpp"

namespace rlab {

// After an illegal address or a kernel fault the CUDA context is unusable until the process
// ends: say so once and refuse GPU work from then on.
bool gpuBroken();
void markGpuBroken();

// Throws GpuUnavailable with a sentence saying what went wrong and what to do.
void checkCuda(cudaError_t status, const char* what);

// Keeps the GPU busy for a moment, so that the events and kernels queued after it run back to
// back on the GPU: the time between two events is then the GPU's alone, without the host's
// launch overhead (several microseconds, as long as a small kernel itself).
void holdGpuWhileQueueing();

class GpuBackend {
 public:
  template <class T>
  class Buffer {
   public:
    explicit Buffer(size_t count) : count_(count) {
      if (count) checkCuda(cudaMalloc(&data_, count * sizeof(T)), "allocating device memory");
    }
    Buffer(Buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    Buffer& operator=(Buffer&& other) noexcept {
      std::swap(data_, other.data_);
      std::swap(count_, other.count_);
      return *this;
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
      if (data_) cudaFree(data_);
    }
    T* get() { return data_; }
    const T* get() const { return data_; }
    size_t size() const { return count_; }

   private:
    T* data_ = nullptr;
    size_t count_ = 0;
  };

  GpuBackend();
  ~GpuBackend();

  // A GPU keeps no record of the order its atomics landed in: drivers rebuild it from values.
  static constexpr bool kRecordsAtomics = false;

  template <class T>
  Buffer<T> alloc(size_t count) {
    return Buffer<T>(count);
  }
  template <class T>
  void upload(Buffer<T>& dst, const T* src, size_t count, size_t offset = 0) {
    if (count)
      checkCuda(cudaMemcpy(dst.get() + offset, src, count * sizeof(T), cudaMemcpyHostToDevice),
                "copying to the GPU");
  }
  template <class T>
  void download(T* dst, const Buffer<T>& src, size_t count, size_t offset = 0) {
    if (count)
      checkCuda(cudaMemcpy(dst, src.get() + offset, count * sizeof(T), cudaMemcpyDeviceToHost),
                "copying from the GPU");
  }

  // Events around each launch only: kernelMs() adds up the kernels, not the host in between.
  template <class... Params, class... Args>
  void launch(dim3 grid, dim3 block, void (*kernel)(Params...), Args... args) {
    holdGpuWhileQueueing();
    checkCuda(cudaEventRecord(start_), "recording an event");
    kernel<<<grid, block>>>(args...);
    checkCuda(cudaGetLastError(), "launching a kernel");
    checkCuda(cudaEventRecord(stop_), "recording an event");
    checkCuda(cudaEventSynchronize(stop_), "running a kernel");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start_, stop_), "timing a kernel");
    kernelMs_ += ms;
  }

  long long multiprocessors() const { return multiprocessors_; }
  int threadSlotsPerMultiprocessor() const { return threadSlotsPerMultiprocessor_; }
  double kernelMs() const { return kernelMs_; }
  void resetKernelTime() { kernelMs_ = 0; }
  const std::string& deviceName() const { return deviceName_; }
  // Name, compute capability and memory, for the controls and the run's header.
  const std::string& description() const { return description_; }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  double kernelMs_ = 0;
  int multiprocessors_ = 1;
  int threadSlotsPerMultiprocessor_ = 2048;
  std::string deviceName_, description_;
};

}  // namespace rlab
