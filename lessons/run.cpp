#include "lessons/run.hpp"

#include <chrono>

#include "lessons/backends.hpp"
#include "lessons/reference.hpp"
#include "lessons/registry.hpp"

namespace rlab {

Trace runLesson(const Params& params) {
  const Resolved r = resolve(params);
  const Params& p = r.params;
  const LessonInfo& lesson = lessonOrThrow(p.lesson);
  const std::vector<double> input = makeInput(r);
  const bool trace = p.trace && p.n <= lesson.traceLimit;

  Trace t;
  t.params = p;
  t.dataLabel = r.dataLabel;
  t.traced = trace;
  if (trace) {
    StepSnapshot input0;
    input0.label = "input";
    input0.values = input;
    t.steps.push_back(std::move(input0));
  } else if (p.trace) {
    t.notes.push_back("Steps are recorded up to n = " + std::to_string(lesson.traceLimit) +
                      "; this run shows the result only.");
  }

  bool useGpu = p.backend == BackendChoice::Gpu;
  if (p.backend == BackendChoice::Auto) {
    const GpuProbe gpu = probeGpu();
    useGpu = gpu.usable;
    if (!useGpu) t.fallback = gpu.why + " Running on the simulator instead.";
  }
  if (useGpu) {
    runOnGpu(p, input, trace, t);
  } else {
    const auto start = std::chrono::steady_clock::now();
    runOnSimulator(p, input, trace, t);
    t.timings.simSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  t.params.backend = useGpu ? BackendChoice::Gpu : BackendChoice::Sim;
  if (!t.fallback.empty()) t.notes.insert(t.notes.begin(), t.fallback);

  const VariantInfo& variant = *lesson.findVariant(p.variant);
  const Reference ref = reference(p.op, p.type, input, variant.longestChain(p.n, p.block));
  t.expected = ref.expected;
  t.tolerance = ref.tolerance;
  t.correct = matches(t.result, ref);
  for (const auto& note : ref.notes) t.notes.push_back(note);
  return t;
}

}  // namespace rlab
