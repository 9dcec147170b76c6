// rlab bench on the GPU: every lesson kernel that scales, beside CUB and the copy roofline.
#include "lessons/bench.hpp"
#include "lessons/gpu/allreduce_gpu.cuh"
#include "lessons/gpu/timing.cuh"

namespace rlab {

namespace {

template <class T>
std::vector<BenchRow> benchSizeTyped(
    GpuBackend& b, long long n, const std::vector<std::pair<std::string, std::string>>& kernels,
    int reps, const BenchProgress& progress) {
  std::vector<BenchRow> rows;
  std::vector<T> host(static_cast<size_t>(n));
  for (size_t i = 0; i < host.size(); ++i) host[i] = T(int(i % 7));  // small: sums stay exact
  auto base = b.alloc<T>(host.size()), work = b.alloc<T>(host.size());
  b.upload(base, host.data(), host.size());
  const double copyGBs = copyBandwidthGBs();
  CubReduce<T, SumOp> cub(base.get(), n);
  const double cubMs = cub.medianMs(reps);
  // A lesson's ratio compares it with the CUB runs that alternated with its own.
  auto row = [&](const std::string& name, double ms, double cubSideBySideMs) {
    BenchRow r;
    r.kernel = name;
    r.n = n;
    r.ms = ms;
    r.gbPerSecond = double(n) * sizeof(T) / (ms * 1e6);
    r.copyFraction = r.gbPerSecond / copyGBs;
    r.cubRatio = cubSideBySideMs / ms;
    return r;
  };
  {
    BenchRow cpu = row("cpu loop", cpuLoopMs<T, SumOp>(host), cubMs);
    rows.push_back(cpu);
  }
  rows.push_back(row("cub", cubMs, cubMs));
  for (const auto& [lesson, variant] : kernels) {
    if (progress && !progress(lesson + " " + variant, n)) break;
    Params p;
    p.lesson = lesson;
    p.variant = variant;
    p.n = n;
    p.type = std::is_same<T, int>::value ? ElementType::Int : ElementType::Float;
    p.block = 256;
    const SideBySide side = lessonAndCubMs<T, SumOp>(b, p, base, work, cub, reps);
    rows.push_back(
        row(variant == "default" ? lesson : lesson + " " + variant, side.lessonMs, side.cubMs));
  }
  // The copy roofline for this size: reading n elements at copy speed.
  BenchRow copy =
      row("copy (read n at copy speed)", double(n) * sizeof(T) / (copyGBs * 1e6), cubMs);
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
  std::vector<std::pair<std::string, std::string>> oneGpu;
  std::vector<std::string> acrossGpus;
  for (const auto& kernel : request.kernels)
    if (kernel.first == "allreduce")
      acrossGpus.push_back(kernel.second);
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
  return rows;
}

}  // namespace rlab
