// Every lesson kernel, compiled by g++ through the shim, run by the lesson drivers.
#include "kernels/sim/shim.hpp"
// (the shim must come before any kernel source)
#include "kernels/sim/backend.hpp"
#include "lessons/dispatch.hpp"

namespace rlab {

RunOutput runOnSimulator(const Params& p, const std::vector<double>& input, bool trace) {
  sim::LaunchOptions options;
  options.schedule = sim::Schedule::parse(p.schedule);
  SimBackend backend(options);
  RunOutput out = runOnBackend(backend, p, input, trace);
  out.device = "CPU SIMT simulator, schedule " + options.schedule.str();
  return out;
}

}  // namespace rlab
