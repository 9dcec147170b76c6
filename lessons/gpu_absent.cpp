// Stand-in for kernels/gpu when the build has no CUDA.
#include "lessons/run_output.hpp"

namespace rlab {

bool gpuBackendBuilt() {
  return false;
}

RunOutput runOnGpu(const Params&, const std::vector<double>&, bool) {
  throw GpuUnavailable(
      "No GPU backend is built here (configure found no nvcc); use --backend sim.");
}

}  // namespace rlab
