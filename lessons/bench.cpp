#include "lessons/bench.hpp"

#include <chrono>

#include "lessons/registry.hpp"
#include "lessons/run.hpp"

namespace rlab {

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
  for (long long n : request.sizes) {
    for (const auto& [lesson, variant] : request.kernels) {
      if (progress && !progress(lesson + " " + variant, n)) return rows;
      Params p;
      p.lesson = lesson;
      p.variant = variant;
      p.n = n;
      p.type = request.type;
      p.data = "ones";
      p.trace = false;
      const auto start = std::chrono::steady_clock::now();
      runLesson(p);
      BenchRow r;
      r.kernel = variant == "default" ? lesson : lesson + " " + variant;
      r.n = n;
      r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                 .count();
      r.gbPerSecond = double(n) * 4 / (r.ms * 1e6);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace rlab
