// rlab bench: timings of every lesson kernel that scales, beside CUB and the copy roofline.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lessons/params.hpp"

namespace rlab {

struct BenchRow {
  std::string kernel;
  long long n = 0;
  double ms = 0;            // GPU: kernel-only median; simulator: wall time of one run
  double gbPerSecond = 0;   // input bytes read per second
  double copyFraction = 0;  // of the device-to-device copy bandwidth (GPU only)
  double cubRatio = 0;      // CUB's time / this time (GPU only): above 1 is faster than CUB
};

struct BenchRequest {
  std::vector<long long> sizes;
  std::vector<std::pair<std::string, std::string>> kernels;  // lesson, variant
  ElementType type = ElementType::Int;
  int reps = 20;
};

// Called before each measurement; return false to cancel.
using BenchProgress = std::function<bool(const std::string& kernel, long long n)>;

// 2^10 to 2^28 (×4) on a GPU; to 2^16 on the simulator, which is a million times slower.
std::vector<long long> defaultBenchSizes(bool gpu);

// The lesson kernels that are timed (every lesson but the barrier race).
std::vector<std::pair<std::string, std::string>> scalableKernels();

// Implemented by the GPU backend; throws GpuUnavailable without one.
std::vector<BenchRow> benchGpu(const BenchRequest& request, const BenchProgress& progress,
                               std::string& device);
// Simulator throughput: the same kernels on the simulator (not GPU times).
std::vector<BenchRow> benchSimulator(const BenchRequest& request, const BenchProgress& progress);

}  // namespace rlab
