// rlab bench: every lesson kernel that scales, over sizes, on the GPU beside CUB and the copy
// roofline; on the simulator (its throughput, not GPU times) when there is no GPU.
#include <algorithm>
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/backends/backends.hpp"

namespace rlab::cli {

int benchCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  BenchRequest request;
  request.type = c.params.type;
  request.reps = c.reps;
  request.perThread = c.benchPerThread;
  request.loadAdd = c.benchLoadAdd;
  const auto& wanted = c.benchLessons;
  for (const auto& [lesson, variant] : scalableKernels())
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), lesson) != wanted.end())
      request.kernels.emplace_back(lesson, variant);
  for (const auto& [lesson, variant] : acrossGpuKernels())  // only by name: they need GPUs
    if (std::find(wanted.begin(), wanted.end(), lesson) != wanted.end())
      request.kernels.emplace_back(lesson, variant);
  BenchTable table;
  table.type = request.type;
  table.gpuTimes = c.params.backend == BackendChoice::Gpu ||
                   (c.params.backend == BackendChoice::Auto && gpuBackendBuilt());
  request.sizes = c.benchSizes.empty() ? defaultBenchSizes(table.gpuTimes) : c.benchSizes;
  const BenchProgress progress = [&](const std::string& kernel, long long n) {
    err << "bench: " << kernel << ", n = " << n << "\r" << std::flush;
    return true;
  };
  if (table.gpuTimes) {
    try {
      table.rows = benchGpu(request, progress, table.device);
    } catch (const GpuUnavailable& e) {
      if (c.params.backend == BackendChoice::Gpu) throw;
      err << "bench: " << e.what() << " Measuring the simulator instead.\n";
      table.gpuTimes = false;
    }
  }
  if (!table.gpuTimes) {
    table.rows = benchSimulator(request, progress);
    table.device = "CPU SIMT simulator";
  }
  err << std::string(60, ' ') << "\r";
  if (c.format == Format::Json)
    out << benchJson(table).dump() << "\n";
  else if (c.format == Format::Csv)
    printBenchCsv(table, out);
  else
    printBenchText(table, out, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
