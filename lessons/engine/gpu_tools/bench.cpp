#include "lessons/engine/gpu_tools/bench.hpp"

#include <algorithm>
#include <chrono>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab {

const char* name(BenchRole role) {
  switch (role) {
    case BenchRole::CpuLoop:
      return "cpu_loop";
    case BenchRole::Cub:
      return "cub";
    case BenchRole::Roofline:
      return "roofline";
    case BenchRole::Lesson:
      break;
  }
  return "lesson";
}

std::vector<std::pair<std::string, std::string>> scalableKernels() {
  std::vector<std::pair<std::string, std::string>> kernels;
  for (const LessonInfo& l : lessons())
    if (l.timed && l.defaultGpus == 0)
      for (const VariantInfo& v : l.variants) kernels.emplace_back(l.id, v.id);
  return kernels;
}

std::vector<std::pair<std::string, std::string>> acrossGpuKernels() {
  std::vector<std::pair<std::string, std::string>> kernels;
  for (const LessonInfo& l : lessons())
    if (l.timed && l.defaultGpus > 0)
      for (const VariantInfo& v : l.variants) kernels.emplace_back(l.id, v.id);
  return kernels;
}

std::vector<long long> defaultBenchSizes(bool gpu) {
  std::vector<long long> sizes;
  for (long long n = 1 << 10; n <= (gpu ? (1ll << 28) : (1ll << 16)); n *= 4) sizes.push_back(n);
  return sizes;
}

std::vector<BenchRow> benchSimulator(const BenchRequest& request, const BenchProgress& progress) {
  std::vector<BenchRow> rows;
  const std::vector<BenchKernel> kernels = benchKernels(request);
  // The CPU loop stands beside the kernels of one GPU (allreduce's n is per GPU).
  const bool oneGpu = std::any_of(kernels.begin(), kernels.end(), [](const BenchKernel& k) {
    return lessonOrThrow(k.params.lesson).defaultGpus == 0;
  });
  for (long long n : request.sizes) {
    // The CPU loop is real on this machine; the kernels' rows are the simulator's speed.
    if (oneGpu) {
      BenchRow cpu;
      cpu.kernel = "cpu loop";
      cpu.role = BenchRole::CpuLoop;
      cpu.n = n;
      cpu.ms = request.type == ElementType::Int
                   ? hostLoopMs(
                         std::vector<int>(size_t(n), 1), 0,
                         [](int a, int b) { return int(unsigned(a) + unsigned(b)); }, request.reps)
                   : hostLoopMs(
                         std::vector<float>(size_t(n), 1.f), 0.f,
                         [](float a, float b) { return a + b; }, request.reps);
      cpu.gbPerSecond = double(n) * 4 / (cpu.ms * 1e6);
      rows.push_back(cpu);
    }
    for (const BenchKernel& k : kernels) {
      if (progress && !progress(k.name, n)) return rows;
      Params p = k.params;
      p.n = n;
      p.type = request.type;
      p.data = "ones";
      p.trace = false;
      const auto start = std::chrono::steady_clock::now();
      runLesson(p);
      BenchRow r;
      r.kernel = k.name;
      r.n = n;
      r.perThread = k.params.perThread;
      r.loadAdd = k.params.loadAdd;
      r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                 .count();
      r.gbPerSecond = double(n) * 4 / (r.ms * 1e6);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace rlab
