#include "lessons/run.hpp"

#include <chrono>

#include "lessons/reference.hpp"
#include "lessons/run_output.hpp"

namespace rlab {

int64_t traceLimit(const std::string& lesson) {
  return lesson == "atomic" ? 4096 : 65536;
}

Trace runLesson(const Params& params) {
  const Resolved r = resolve(params);
  const Params& p = r.params;
  const std::vector<double> input = makeInput(r);
  const bool trace = p.trace && p.n <= traceLimit(p.lesson);

  Trace t;
  t.params = p;
  t.dataLabel = r.dataLabel;
  bool useGpu = p.backend == BackendChoice::Gpu;
  if (p.backend == BackendChoice::Auto && gpuBackendBuilt()) useGpu = true;

  RunOutput out;
  const auto start = std::chrono::steady_clock::now();
  if (useGpu) {
    try {
      out = runOnGpu(p, input, trace);
      t.backend = "gpu";
    } catch (const GpuUnavailable& e) {
      if (p.backend == BackendChoice::Gpu) throw;
      t.notes.push_back(std::string(e.what()) + " Running on the simulator instead.");
      useGpu = false;
    }
  }
  if (!useGpu) {
    if (p.backend == BackendChoice::Auto && !gpuBackendBuilt())
      t.notes.push_back("No GPU backend is built here; running on the simulator.");
    out = runOnSimulator(p, input, trace);
    t.backend = "sim";
    t.timings.simSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  t.params.backend = useGpu ? BackendChoice::Gpu : BackendChoice::Sim;
  t.device = out.device;
  if (out.timings.measured) t.timings = out.timings;
  t.traced = trace;
  if (trace) {
    StepSnapshot input0;
    input0.label = "input";
    input0.values = input;
    t.steps.push_back(std::move(input0));
    for (StepSnapshot& s : out.steps) t.steps.push_back(std::move(s));
  } else if (p.trace) {
    t.notes.push_back("Steps are recorded up to n = " + std::to_string(traceLimit(p.lesson)) +
                      "; this run shows the result only.");
  }
  t.atomicOrder = std::move(out.atomicOrder);
  t.blockPartials = std::move(out.blockPartials);
  t.result = out.result;
  const Reference ref = reference(p.op, p.type, input);
  t.expected = ref.expected;
  t.tolerance = ref.tolerance;
  t.correct = matches(t.result, ref);
  for (const auto& note : ref.notes) t.notes.push_back(note);
  for (auto& note : out.notes) t.notes.push_back(std::move(note));
  return t;
}

}  // namespace rlab
