// The allreduce lesson on GPUs: timing one run (rlab run --backend gpu) and rlab bench's rows,
// beside the peer copy of the same bytes and the alpha-beta model.
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/backends/gpu/allreduce_gpu.cuh"
#include "lessons/engine/backends/gpu/timing.cuh"

namespace rlab {

namespace {

// One cudaMemcpyPeerAsync of `bytes` from rank 0 to rank 1, median of `reps`, in ms.
double peerCopyMs(GpuBackend& b, size_t bytes, int reps) {
  auto from = b.allocOnRank<char>(0, bytes), to = b.allocOnRank<char>(1, bytes);
  std::vector<double> ms;
  for (int k = 0; k < reps + 1; ++k) {
    b.startRankTimer();
    b.copyBetweenRanks(1, to.get(), 0, (const char*)from.get(), bytes);
    const double t = b.stopRankTimerMs();
    if (k > 0) ms.push_back(t);  // the first warms up
  }
  return median(ms);
}

template <class T, class Op>
double allReduceMs(GpuBackend& b, const Params& p, GpuBackend::Buffer<T>& input, int reps) {
  Trace scratch;
  const DriverId variant = variantOf(p)->driver;
  RankBuffers<GpuBackend, T, Op> ranks(b, p, input, variant == DriverId::AllReduceRing ? p.gpus : 1,
                                       false, scratch);
  std::vector<double> ms;
  for (int k = 0; k < reps + 1; ++k) {
    b.startRankTimer();
    if (variant == DriverId::AllReduceButterfly)
      butterflySteps(ranks);
    else if (variant == DriverId::AllReduceRing)
      ringSteps(ranks);
    else
      ncclSteps(ranks, p.n);
    const double t = b.stopRankTimerMs();
    if (k > 0) ms.push_back(t);
  }
  return median(ms);
}

template <class T, class Op>
double allReduceMsFrom(GpuBackend& b, const Params& p, const std::vector<double>& input, int reps) {
  const std::vector<T> host(input.begin(), input.end());
  auto buffer = b.alloc<T>(host.size());
  b.upload(buffer, host.data(), host.size());
  return allReduceMs<T, Op>(b, p, buffer, reps);
}

}  // namespace

Timings timeAllReduce(GpuBackend& b, const Params& p, const std::vector<double>& input) {
  Timings t;
  t.repetitions = repetitionsFor(p.n * p.gpus);
  t.kernelMs = withTypeAndOp(p, [&](auto type, auto op) {
    return allReduceMsFrom<decltype(type), decltype(op)>(b, p, input, t.repetitions);
  });
  const double bytes = double(p.n) * 4;  // int and float
  t.gbPerSecond = bytes / (t.kernelMs * 1e6);
  t.busGBs = t.gbPerSecond * 2.0 * (p.gpus - 1) / p.gpus;
  t.peerCopyGBs = bytes / (peerCopyMs(b, size_t(bytes), t.repetitions) * 1e6);
  t.copyFraction = t.busGBs / t.peerCopyGBs;
  t.measured = true;
  return t;
}

std::vector<BenchRow> benchAllReduce(GpuBackend& b, const std::vector<long long>& sizes,
                                     const std::vector<BenchKernel>& variants, ElementType type,
                                     int reps, const BenchProgress& progress) {
  std::vector<BenchRow> rows;
  const int gpus = b.deviceCount() >= 8 ? 8 : b.deviceCount() >= 4 ? 4 : 2;
  b.openRanks(gpus);
  // α: a 4-byte peer copy, all latency; β: seconds per byte of a 256 MiB peer copy.
  const double alphaMs = peerCopyMs(b, 4, 50);
  const double bigBytes = double(1 << 28);
  const double betaMsPerByte = (peerCopyMs(b, size_t(bigBytes), 5) - alphaMs) / bigBytes;
  for (long long n : sizes) {
    const double bytes = double(n) * 4;
    const double peerMs = peerCopyMs(b, size_t(bytes), reps);
    for (const BenchKernel& kernel : variants) {
      if (progress && !progress(kernel.name, n)) return rows;
      Params p;
      p.lesson = kernel.params.lesson;
      p.variant = kernel.params.variant;
      p.n = n;
      p.gpus = gpus;
      p.type = type;
      p.block = 256;
      p.data = "ones";
      const std::vector<double> input(size_t(n) * gpus, 1.0);
      BenchRow r;
      r.kernel = kernel.name;
      r.n = n;
      r.gpus = gpus;
      try {
        r.ms = type == ElementType::Int ? allReduceMsFrom<int, SumOp>(b, p, input, reps)
                                        : allReduceMsFrom<float, SumOp>(b, p, input, reps);
      } catch (const GpuUnavailable&) {
        if (variantOf(p)->driver != DriverId::AllReduceNccl || gpuBroken()) throw;
        continue;  // no NCCL here: the row is left out, the note says why
      }
      r.gbPerSecond = bytes / (r.ms * 1e6);
      r.busGBs = r.gbPerSecond * 2.0 * (gpus - 1) / gpus;
      r.peerCopyGBs = bytes / (peerMs * 1e6);
      r.copyFraction = r.busGBs / r.peerCopyGBs;
      r.modelMs = alphaBetaMs(variantOf(p)->driver, gpus, bytes, alphaMs, betaMsPerByte);
      rows.push_back(r);
    }
  }
  return rows;
}

std::string allReduceBenchNote(GpuBackend& b) {
  return english(b.ncclDescription());  // bench tables are for scripts: English
}

}  // namespace rlab
