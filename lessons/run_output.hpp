// A backend's answer for one run, before the reference is checked.
#pragma once

#include <string>
#include <vector>

#include "lessons/params.hpp"
#include "lessons/trace.hpp"

namespace rlab {

struct RunOutput {
  double result = 0;
  std::vector<StepSnapshot> steps;
  std::vector<AtomicLanding> atomicOrder;
  std::vector<double> blockPartials;
  std::vector<std::string> notes;
  std::string device;
  Timings timings;  // GPU runs
};

// Implemented by kernels/sim/lessons_sim.cpp.
RunOutput runOnSimulator(const Params& p, const std::vector<double>& input, bool trace);

// Implemented by kernels/gpu/lessons_gpu.cu, or by a stand-in that says no GPU backend was
// built. Throws GpuUnavailable when no working device can take the run.
RunOutput runOnGpu(const Params& p, const std::vector<double>& input, bool trace);
bool gpuBackendBuilt();
// A built backend and a device that answers; the reason when not.
bool gpuUsable(std::string* why = nullptr);

class GpuUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rlab
