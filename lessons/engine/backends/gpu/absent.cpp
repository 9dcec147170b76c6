// The GPU backend's stand-in where the build has no CUDA.
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"

namespace rlab {

bool gpuBackendBuilt() {
  return false;
}

bool gpuHasDriver(DriverId) {
  return false;
}

void injectGpuFailure(bool) {}  // every GPU run fails here anyway

GpuProbe probeGpu() {
  return {false, {}, Message("gpu.not-built"), 0};
}

void runOnGpu(const Params&, const std::vector<double>&, bool, Trace&) {
  throw GpuUnavailable(Message("gpu.not-built-use-sim"));
}

std::vector<BenchRow> benchGpu(const BenchRequest&, const BenchProgress&, std::string&) {
  throw GpuUnavailable(Message("gpu.not-built"));
}

}  // namespace rlab
