// Every lesson kernel, compiled by g++ through the shim, run by the lesson drivers.
#include "kernels/sim/shim.hpp"
// (the shim must come before any kernel source)
#include "lessons/engine/backends.hpp"
#include "lessons/engine/drivers.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/backends/sim/backend.hpp"

namespace rlab {

void runOnSimulator(const Params& p, const std::vector<double>& input, bool trace, Trace& out) {
  sim::LaunchOptions options;
  options.schedule = sim::Schedule::parse(p.schedule);
  options.capturePrintf = true;  // into the trace, not onto the terminal
  SimBackend backend(options, trace && recordsMemory(p));
  runOnBackend(backend, p, input, trace, out);
  out.memoryRecorded = backend.recordsMemory();
  out.timings.simRounds = backend.rounds();
  out.timings.simWarpSteps = backend.warpSteps();
  out.timings.simWarpStepThreads = backend.warpStepThreads();
  out.kernelOutput = outputLines(backend.printed());
  if (backend.printedCut())
    out.notes.push_back(Message("note.sim.printf-cut", {{"mebibytes", sim::kPrintedBytes >> 20}}));
  out.backend = "sim";
  out.device = Message("device.simulator", {{"schedule", options.schedule.str()}});
}

bool simulatorHasDriver(const std::string& lesson, const std::string& variant) {
  return hasDriver<SimBackend>(lesson, variant);
}

}  // namespace rlab
