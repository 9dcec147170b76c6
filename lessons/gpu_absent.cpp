// Stand-in for kernels/gpu when the build has no CUDA.
#include "lessons/bench.hpp"
#include "lessons/run_output.hpp"

namespace rlab {

bool gpuBackendBuilt() {
  return false;
}

bool gpuUsable(std::string* why) {
  if (why) *why = "no GPU backend is built here";
  return false;
}

RunOutput runOnGpu(const Params&, const std::vector<double>&, bool) {
  throw GpuUnavailable(
      "No GPU backend is built here (configure found no nvcc); use --backend sim.");
}

std::vector<BenchRow> benchGpu(const BenchRequest&, const BenchProgress&, std::string&) {
  throw GpuUnavailable("No GPU backend is built here (configure found no nvcc).");
}

}  // namespace rlab
