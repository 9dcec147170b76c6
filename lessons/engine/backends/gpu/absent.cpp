// The GPU backend's stand-in where the build has no CUDA.
#include "lessons/engine/backends.hpp"
#include "lessons/engine/bench.hpp"

namespace rlab {

namespace {
const char* const kNotBuilt = "No GPU backend is built here (configure found no nvcc)";
}

bool gpuBackendBuilt() {
  return false;
}

bool gpuHasDriver(const std::string&, const std::string&) {
  return false;
}

void injectGpuFailure(bool) {}  // every GPU run fails here anyway

GpuProbe probeGpu() {
  return {false, "", std::string(kNotBuilt) + "."};
}

void runOnGpu(const Params&, const std::vector<double>&, bool, Trace&) {
  throw GpuUnavailable(std::string(kNotBuilt) + "; use --backend sim.");
}

std::vector<BenchRow> benchGpu(const BenchRequest&, const BenchProgress&, std::string&) {
  throw GpuUnavailable(std::string(kNotBuilt) + ".");
}

}  // namespace rlab
