// Every lesson kernel compiled by nvcc, run by the same drivers as on the simulator, and timed
// beside CUB when the run asks for timings.
#include "lessons/engine/backends/gpu/allreduce_gpu.cuh"
#include "lessons/engine/backends/gpu/timing.cuh"

namespace rlab {

namespace {

template <class T, class Op>
Timings timeRun(GpuBackend& b, const Params& p, const std::vector<double>& input) {
  Timings t;
  const std::vector<T> host(input.begin(), input.end());
  auto base = b.alloc<T>(host.size()), work = b.alloc<T>(host.size());
  b.upload(base, host.data(), host.size());
  t.repetitions = repetitionsFor(p.n);
  CubReduce<T, Op> cub(base.get(), p.n);
  const SideBySide side = lessonAndCubMs<T, Op>(b, p, base, work, cub, t.repetitions);
  t.kernelMs = side.lessonMs;
  t.cubMs = side.cubMs;
  // With copies: the input up, the lesson, the result down.
  std::vector<double> total;
  for (int k = 0; k < 3; ++k) {
    const auto start = std::chrono::steady_clock::now();
    b.upload(work, host.data(), host.size());
    Trace scratch;
    drive<GpuBackend, T, Op>(b, p, work, false, scratch);
    total.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  t.withCopiesMs = median(total);
  t.gbPerSecond = double(p.n) * sizeof(T) / (t.kernelMs * 1e6);
  t.copyFraction = t.gbPerSecond / copyBandwidthGBs();
  t.cpuMs = cpuLoopMs<T, Op>(host);
  t.cubRatio = t.cubMs / t.kernelMs;
  t.measured = true;
  return t;
}

}  // namespace

void runOnGpu(const Params& p, const std::vector<double>& input, bool trace, Trace& out) {
  GpuBackend backend;
  backend.capturePrintf(p.printing);
  runOnBackend(backend, p, input, trace, out);
  out.kernelOutput = outputLines(backend.printed());
  if (backend.printedUncaught()) out.notes.push_back(Message("note.gpu.printf-uncaught"));
  out.backend = BackendChoice::Gpu;
  out.device = backend.description();
  if (p.timed && lessonOrThrow(p.lesson).defaultGpus > 0)
    out.timings = timeAllReduce(backend, p, input);
  else if (p.timed && lessonOrThrow(p.lesson).timed)
    out.timings = withTypeAndOp(p, [&](auto type, auto op) {
      return timeRun<decltype(type), decltype(op)>(backend, p, input);
    });
}

bool gpuHasDriver(DriverId driver) {
  return hasDriver<GpuBackend>(driver);
}

}  // namespace rlab
