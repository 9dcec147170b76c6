// The runner of a build without the CUDA toolkit: exercises run on the simulator only.
#include "lessons/engine/exercise_runner/gpu.hpp"

namespace rlab::exercise {

int runOnGpu(const Exercise&, const std::string&, const std::string&, const GpuRun&,
             const ReportLine& report) {
  report("@error\t" + encodeMessage(Message("runner.no-gpu-path")));
  return 3;
}

}  // namespace rlab::exercise
