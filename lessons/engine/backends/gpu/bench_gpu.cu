// rlab bench on the GPU: every lesson kernel that scales, beside CUB and the copy roofline.
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/backends/gpu/allreduce_gpu.cuh"
#include "lessons/engine/backends/gpu/timing.cuh"

namespace rlab {

namespace {

template <class T>
std::vector<BenchRow> benchSizeTyped(GpuBackend& b, long long n,
                                     const std::vector<BenchKernel>& kernels, int reps,
                                     const BenchProgress& progress) {
  std::vector<BenchRow> rows;
  std::vector<T> host(static_cast<size_t>(n));
  for (size_t i = 0; i < host.size(); ++i) host[i] = T(int(i % 7));  // small: sums stay exact
  auto base = b.alloc<T>(host.size()), work = b.alloc<T>(host.size());
  b.upload(base, host.data(), host.size());
  const double copyGBs = copyBandwidthGBs();
  CubReduce<T, SumOp> cub(base.get(), n);
  const double cubMs = cub.medianMs(reps);
  // A lesson's ratio compares it with the CUB runs that alternated with its own.
  auto row = [&](const std::string& name, BenchRole role, double ms, double cubSideBySideMs) {
    BenchRow r;
    r.kernel = name;
    r.role = role;
    r.n = n;
    r.ms = ms;
    r.gbPerSecond = double(n) * sizeof(T) / (ms * 1e6);
    r.copyFraction = r.gbPerSecond / copyGBs;
    r.cubRatio = cubSideBySideMs / ms;
    return r;
  };
  // The plain host loop on the same data, in this run: the table's "x the CPU loop".
  rows.push_back(row("cpu loop", BenchRole::CpuLoop, cpuLoopMs<T, SumOp>(host, reps), cubMs));
  rows.push_back(row("cub", BenchRole::Cub, cubMs, cubMs));
  for (const BenchKernel& k : kernels) {
    if (progress && !progress(k.name, n)) break;
    Params p = k.params;
    p.n = n;
    p.type = std::is_same<T, int>::value ? ElementType::Int : ElementType::Float;
    p.block = 256;
    const SideBySide side = lessonAndCubMs<T, SumOp>(b, p, base, work, cub, reps);
    BenchRow r = row(k.name, BenchRole::Lesson, side.lessonMs, side.cubMs);
    r.perThread = p.perThread;
    r.loadAdd = p.loadAdd;
    rows.push_back(r);
  }
  // The copy roofline for this size: reading n elements at copy speed.
  BenchRow copy = row("copy (read n at copy speed)", BenchRole::Roofline,
                      double(n) * sizeof(T) / (copyGBs * 1e6), cubMs);
  rows.push_back(copy);
  return rows;
}

}  // namespace

std::vector<BenchRow> benchGpu(const BenchRequest& request, const BenchProgress& progress,
                               std::string& device) {
  GpuBackend b;
  device = b.deviceName();
  std::vector<BenchRow> rows;
  // The allreduce variants run across GPUs: their own rows, after the one-GPU kernels.
  std::vector<BenchKernel> oneGpu;
  std::vector<BenchKernel> acrossGpus;
  for (const BenchKernel& kernel : benchKernels(request))
    if (lessonOrThrow(kernel.params.lesson).defaultGpus > 0)  // runs across GPUs
      acrossGpus.push_back(kernel);
    else
      oneGpu.push_back(kernel);
  if (!oneGpu.empty())
    for (long long n : request.sizes) {
      auto part = request.type == ElementType::Int
                      ? benchSizeTyped<int>(b, n, oneGpu, request.reps, progress)
                      : benchSizeTyped<float>(b, n, oneGpu, request.reps, progress);
      rows.insert(rows.end(), part.begin(), part.end());
    }
  if (!acrossGpus.empty()) {
    auto part = benchAllReduce(b, request.sizes, acrossGpus, request.type, request.reps, progress);
    rows.insert(rows.end(), part.begin(), part.end());
    device += " x" + std::to_string(b.deviceCount()) + "; " + allReduceBenchNote(b);
  }
  fillSpeedUps(rows);
  return rows;
}

}  // namespace rlab
