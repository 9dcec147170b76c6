// rlab bench: timings of every lesson kernel that scales, beside CUB and the copy roofline.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

// What a row of rlab bench measured: a lesson's kernel, or one of the yardsticks beside them.
enum class BenchRole { Lesson, CpuLoop, Cub, Roofline };
// "lesson", "cpu_loop", "cub", "roofline": as JSON and the recordings name it.
const char* name(BenchRole role);

struct BenchRow {
  std::string kernel;
  long long n = 0;
  double ms = 0;            // GPU: kernel-only median; simulator: wall time of one run
  double gbPerSecond = 0;   // input bytes read per second
  double copyFraction = 0;  // of the device-to-device copy bandwidth (GPU only)
  double cubRatio = 0;      // CUB's time / this time (GPU only): above 1 is faster than CUB
  // allreduce (n: elements per GPU): bus bandwidth (gbPerSecond is the algorithm bandwidth),
  // the peer copy of the same bytes, and the alpha-beta model's time for this algorithm.
  int gpus = 0;
  double busGBs = 0;
  double peerCopyGBs = 0;
  double modelMs = 0;
  BenchRole role = BenchRole::Lesson;
  // The speed-up table (GPU only; fillSpeedUps): the CPU loop's time / this time, and the time
  // of the lesson kernel before this one in the course order / this time. 0: none.
  double cpuRatio = 0;
  double previousRatio = 0;
  // shared coarsened: elements per thread and the add during the load; 0: not this kernel.
  int perThread = 0;
  bool loadAdd = true;
};

// The alpha-beta model of an all-reduce of `bytes` per GPU over G GPUs: each step costs
// α + (bytes moved) · β. Butterfly: log2 G steps of the whole buffer; ring (and NCCL's ring):
// 2 (G - 1) steps of bytes / G. α and β are measured on the machine (benchGpu: α the median
// time of a 4-byte peer copy, β the inverse of the peer copy bandwidth at 256 MiB).
// Inline: the GPU backend's library (rlab_gpu) uses it and sits below the core in the link.
inline double alphaBetaMs(DriverId variant, int gpus, double bytes, double alphaMs,
                          double betaMsPerByte) {
  if (gpus < 2) return 0;
  if (variant == DriverId::AllReduceButterfly) {
    int steps = 0;
    for (int g = 1; g < gpus; g *= 2) ++steps;
    return steps * (alphaMs + bytes * betaMsPerByte);
  }
  return 2.0 * (gpus - 1) * (alphaMs + bytes / gpus * betaMsPerByte);
}

struct BenchRequest {
  std::vector<long long> sizes;
  std::vector<std::pair<std::string, std::string>> kernels;  // lesson, variant
  ElementType type = ElementType::Int;
  int reps = 20;
  // shared coarsened: a row for each of these elements per thread (empty: the kernel's own),
  // with or without the add during the load.
  std::vector<int> perThread;
  bool loadAdd = true;
};

// One timed kernel of a request: the run's parameters and the row's name.
struct BenchKernel {
  Params params;  // lesson, variant, per thread and load add; the bench fills in the rest
  std::string name;
};
// Inline, as alphaBetaMs: the GPU backend's library (rlab_gpu) uses them and sits below the
// core in the link.
// The request's kernels in the course order, shared coarsened once per elements per thread:
// "shared coarsened", or "shared coarsened K=4" (and ", no load add") when the request chose.
inline std::vector<BenchKernel> benchKernels(const BenchRequest& request) {
  std::vector<BenchKernel> kernels;
  for (const auto& [lesson, variant] : request.kernels) {
    BenchKernel k;
    k.params.lesson = lesson;
    k.params.variant = variant;
    k.name = runName(lesson, variant);
    const VariantInfo* v = lessonOrThrow(lesson).findVariant(variant);
    if (v && v->defaultPerThread > 0 && (!request.perThread.empty() || !request.loadAdd)) {
      const std::vector<int> counts =
          request.perThread.empty() ? std::vector<int>{v->defaultPerThread} : request.perThread;
      for (int perThread : counts) {
        BenchKernel chosen = k;
        chosen.params.perThread = perThread;
        chosen.params.loadAdd = request.loadAdd;
        chosen.name += " K=" + std::to_string(perThread) + (request.loadAdd ? "" : ", no load add");
        kernels.push_back(chosen);
      }
    } else {
      if (v && v->defaultPerThread > 0) k.params.perThread = v->defaultPerThread;
      kernels.push_back(k);
    }
  }
  return kernels;
}

// Fills each row's cpuRatio and previousRatio from the times of the rows of the same n: the
// CPU loop's row, and the lesson row before it (none for the first lesson row of an n).
inline void fillSpeedUps(std::vector<BenchRow>& rows) {
  for (BenchRow& r : rows) {
    r.cpuRatio = 0;
    r.previousRatio = 0;
    if (r.gpus > 0 || !(r.ms > 0)) continue;  // across GPUs: no CPU loop to compare with
    const BenchRow* previous = nullptr;
    for (const BenchRow& other : rows) {
      if (&other == &r) break;
      if (other.n == r.n && other.gpus == 0 && other.role == BenchRole::Lesson) previous = &other;
    }
    for (const BenchRow& other : rows)
      if (other.n == r.n && other.gpus == 0 && other.role == BenchRole::CpuLoop && other.ms > 0)
        r.cpuRatio = other.ms / r.ms;
    if (r.role == BenchRole::Lesson && previous && previous->ms > 0)
      r.previousRatio = previous->ms / r.ms;
  }
}

// The middle of `v` (the upper one of an even count); 0 for none.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The plain host loop (`for i: acc = combine(acc, a[i])`) over `host`, in milliseconds: the
// median of `reps` runs after one unrecorded run.
template <class T, class Combine>
double hostLoopMs(const std::vector<T>& host, T identity, Combine combine, int reps = 1) {
  std::vector<double> ms;
  for (int k = -1; k < std::max(reps, 1); ++k) {
    const auto start = std::chrono::steady_clock::now();
    T acc = identity;
    for (const T& v : host) acc = combine(acc, v);
    volatile T sink = acc;
    (void)sink;
    const double took =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (k >= 0) ms.push_back(took);
  }
  return median(ms);
}

// Called before each measurement; return false to cancel.
using BenchProgress = std::function<bool(const std::string& kernel, long long n)>;

// 2^10 to 2^28 (×4) on a GPU; to 2^16 on the simulator, which is a million times slower.
std::vector<long long> defaultBenchSizes(bool gpu);

// The lesson kernels that are timed on one GPU (every lesson but the barrier race and the
// lessons across GPUs): what `rlab bench` and the timing chart measure unless told otherwise.
std::vector<std::pair<std::string, std::string>> scalableKernels();
// The variants of the lessons across GPUs (allreduce): timed when asked for by name.
std::vector<std::pair<std::string, std::string>> acrossGpuKernels();

// Implemented by the GPU backend; throws GpuUnavailable without one.
std::vector<BenchRow> benchGpu(const BenchRequest& request, const BenchProgress& progress,
                               std::string& device);
// Simulator throughput: the same kernels on the simulator (not GPU times).
std::vector<BenchRow> benchSimulator(const BenchRequest& request, const BenchProgress& progress);

}  // namespace rlab
