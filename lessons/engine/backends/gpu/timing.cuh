// What timing a kernel on the GPU takes: event pairs that measure the GPU alone, CUB on the
// same input, the copy roofline, and the lesson and CUB timed side by side.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <chrono>
#include <vector>

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/run/drivers.hpp"
#include "lessons/engine/backends/gpu/backend.cuh"
#include "lessons/engine/registry.hpp"

namespace rlab {

template <class F>
double eventMs(F&& work) {
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start), "cudaEventCreate");
  checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  holdGpuWhileQueueing();
  checkCuda(cudaEventRecord(start), "cudaEventRecord");
  work();
  checkCuda(cudaEventRecord(stop), "cudaEventRecord");
  checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

// Device-to-device copy bandwidth, reads plus writes, in GB/s: measured once per process.
double copyBandwidthGBs();

template <class Op>
struct CubOp {
  template <class T>
  __device__ T operator()(T a, T b) const {
    return Op::apply(a, b);
  }
};

// cub::DeviceReduce on one input, its workspace allocated once.
template <class T, class Op>
class CubReduce {
 public:
  CubReduce(const T* in, long long n) : in_(in), n_(n) {
    checkCuda(cudaMalloc(&out_, sizeof(T)), "cudaMalloc");
    try {
      cub::DeviceReduce::Reduce(nullptr, tempBytes_, in_, out_, n_, CubOp<Op>{},
                                Op::template identity<T>());
      checkCuda(cudaMalloc(&temp_, tempBytes_), "cudaMalloc");
      runMs();  // warm-up
    } catch (...) {
      cudaFree(temp_);
      cudaFree(out_);
      throw;
    }
  }
  ~CubReduce() {
    cudaFree(temp_);
    cudaFree(out_);
  }
  CubReduce(const CubReduce&) = delete;
  CubReduce& operator=(const CubReduce&) = delete;

  double runMs() {
    return eventMs([&] {
      cub::DeviceReduce::Reduce(temp_, tempBytes_, in_, out_, n_, CubOp<Op>{},
                                Op::template identity<T>());
    });
  }
  double medianMs(int reps) {
    std::vector<double> ms;
    for (int k = 0; k < reps; ++k) ms.push_back(runMs());
    return median(ms);
  }

 private:
  const T* in_;
  long long n_;
  T* out_ = nullptr;
  void* temp_ = nullptr;
  size_t tempBytes_ = 0;
};

template <class T, class Op>
double cpuLoopMs(const std::vector<T>& host, int reps = 1) {
  return hostLoopMs(
      host, Op::template identity<T>(), [](T a, T b) { return Op::apply(a, b); }, reps);
}

struct SideBySide {
  double lessonMs = 0;
  double cubMs = 0;
};

// Kernel-only times of the lesson and of CUB on the same input, medians over `reps` after a
// warm-up. The two alternate run by run, so that clock and temperature drift touch both alike.
// In-place lessons get a fresh copy of the input before every run, outside the timed launches;
// the others read the same buffer as CUB does (a copy just before would leave the L2 cache full
// of dirty lines that the timed kernel then has to write back).
template <class T, class Op>
SideBySide lessonAndCubMs(GpuBackend& b, const Params& p, GpuBackend::Buffer<T>& base,
                          GpuBackend::Buffer<T>& work, CubReduce<T, Op>& cub, int reps) {
  std::vector<double> lesson, library;
  const bool inPlace = lessonOrThrow(p.lesson).findVariant(p.variant)->inPlace;
  for (int k = -1; k < reps; ++k) {
    if (inPlace)
      checkCuda(
          cudaMemcpy(work.get(), base.get(), size_t(p.n) * sizeof(T), cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
    b.resetKernelTime();
    Trace scratch;
    drive<GpuBackend, T, Op>(b, p, inPlace ? work : base, false, scratch);
    const double cubMs = cub.runMs();
    if (k < 0) continue;
    lesson.push_back(b.kernelMs());
    library.push_back(cubMs);
  }
  return {median(lesson), median(library)};
}

inline int repetitionsFor(long long n) {
  return n >= (1 << 26) ? 20 : n >= (1 << 20) ? 30 : 50;
}

}  // namespace rlab
