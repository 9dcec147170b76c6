#include "lessons/engine/run/run.hpp"

#include <algorithm>
#include <chrono>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/run/reference.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

namespace {

// allreduce: every rank's buffer against the host reference, element by element (element j
// combines input[r * n + j] over the ranks r).
void checkEveryRank(Trace& t, const std::vector<double>& input, int64_t chain) {
  const Params& p = t.params;
  const size_t n = size_t(p.n), gpus = size_t(p.gpus);
  t.correct = t.rankResults.size() == gpus;
  t.rankWrongElements.assign(gpus, 0);
  std::vector<double> column(gpus);
  Message firstWrong;
  for (size_t j = 0; j < n; ++j) {
    for (size_t r = 0; r < gpus; ++r) column[r] = input[r * n + j];
    const Reference ref = reference(p.op, p.type, column, chain);
    if (j == 0) {
      t.expected = ref.expected;
      t.tolerance = ref.tolerance;
      for (const auto& note : ref.notes)
        t.notes.push_back(Message("note.allreduce.element-0", {{"note", note}}));
    }
    t.tolerance = std::max(t.tolerance, ref.tolerance);
    for (size_t r = 0; r < t.rankResults.size(); ++r) {
      if (t.rankResults[r].size() == n && matches(t.rankResults[r][j], ref)) continue;
      t.correct = false;
      if (t.rankWrongElements[r]++ == 0 && firstWrong.empty())
        firstWrong = t.rankResults[r].size() == n
                         ? Message("note.allreduce.first-wrong",
                                   {{"rank", r},
                                    {"element", j},
                                    {"value", formatValue(t.rankResults[r][j], p.type)},
                                    {"expected", formatValue(ref.expected, p.type)}})
                         : Message("note.allreduce.rank-empty", {{"rank", r}});
    }
  }
  if (t.correct) {
    t.notes.push_back(Message("note.allreduce.every-rank-right", {{"gpus", gpus}, {"n", n}}));
    return;
  }
  std::vector<Message> counts;
  for (size_t r = 0; r < gpus; ++r)
    if (t.rankWrongElements[r] > 0)
      counts.push_back(Message("note.allreduce.rank-wrong-count",
                               {{"rank", r}, {"count", t.rankWrongElements[r]}}));
  t.notes.push_back(
      Message("note.allreduce.wrong-by-rank", {{"counts", counts}, {"first", firstWrong}}));
}

// The largest n at which a subtract run also runs the other kernels that offer it.
constexpr int64_t kCompareUpTo = 65536;

// The same data through every kernel that offers subtract, on the backend this run used.
std::vector<KernelAnswer> subtractAnswers(const Trace& t) {
  std::vector<KernelAnswer> answers;
  for (const auto& [lesson, variant] : subtractRuns()) {
    KernelAnswer a{lesson, variant};
    if (lesson == t.params.lesson && variant == t.params.variant) {
      a.result = t.result;
    } else {
      Params p = t.params;
      p.lesson = lesson;
      p.variant = variant;
      p.block = 0;  // each kernel's own
      p.trace = false;
      p.memory = false;
      try {
        a.result = runLessonOnce(p).result;
      } catch (const ParamError& e) {
        a.notRun = e.message();
      }
    }
    answers.push_back(a);
  }
  return answers;
}

// A subtract run (runLessonOnce left it without a verdict): why, and the other kernels' answers.
void compareSubtractAnswers(Trace& t) {
  t.notes.push_back(Message("note.subtract.not-associative"));
  if (t.params.n <= kCompareUpTo)
    t.otherKernels = subtractAnswers(t);
  else
    t.notes.push_back(Message("note.subtract.compared-up-to", {{"n", kCompareUpTo}}));
}

}  // namespace

Trace runLesson(const Params& params) {
  return runLesson(resolve(params));
}

Trace runLesson(const Resolved& run) {
  Trace t = runLessonOnce(run);
  if (!t.singleAnswer) compareSubtractAnswers(t);
  return t;
}

Message laneScheduleHeldNobody(const std::string& schedule, unsigned long long threadSteps) {
  return laneScheduleHeldNobody(sim::Schedule::parse(schedule), schedule, threadSteps);
}

Message laneScheduleHeldNobody(const sim::Schedule& s, const std::string& schedule,
                               unsigned long long threadSteps) {
  if (s.kind != sim::Schedule::Kind::Lane || threadSteps >= s.stallRound) return {};
  return Message("note.lane-never-held", {{"thread", (long long)s.stallThread},
                                          {"step", (long long)s.stallRound},
                                          {"steps", (long long)threadSteps},
                                          {"schedule", schedule}});
}

Trace runLessonOnce(const Params& params) {
  return runLessonOnce(resolve(params));
}

Trace runLessonOnce(const Resolved& r) {
  const Params& p = r.params;
  const LessonInfo& lesson = *r.lesson;
  const VariantInfo& variant = *r.variant;
  const std::vector<double> input = makeInput(r);
  const bool trace = p.trace && p.n <= lesson.traceLimit;

  Trace t;
  t.params = p;
  t.dataLabel = r.dataLabel;
  t.traced = trace;
  if (trace) {
    StepSnapshot input0;
    input0.label = Message("step.input");
    input0.values = input;
    t.steps.push_back(std::move(input0));
  } else if (p.trace) {
    t.notes.push_back(Message("note.steps-limit", {{"n", lesson.traceLimit}}));
  }

  bool useGpu = p.backend == BackendChoice::Gpu;
  if (p.backend == BackendChoice::Auto) {
    const GpuProbe gpu = probeGpu();
    const bool clusters = gpu.clusters || !variant.needsClusters;
    useGpu = gpu.usable && gpu.devices >= std::max(1, p.gpus) && clusters;
    if (!gpu.usable)
      t.fallback = Message("note.fallback", {{"why", gpu.why}});
    else if (!clusters)  // a GPU before sm_90
      t.fallback = Message("note.fallback-no-clusters", {{"name", gpu.name}});
    else if (!useGpu)  // the allreduce lesson on a machine with fewer GPUs than it asks for
      t.fallback = Message("note.fallback-fewer-gpus", {{"gpus", gpu.devices}, {"asked", p.gpus}});
  }
  if (useGpu) {
    runOnGpu(p, input, trace, t);
  } else {
    runOnSimulator(r, input, trace, t);  // it times the run itself, not the naming of a race
    if (Message idle =
            laneScheduleHeldNobody(*r.schedule, p.schedule, t.timings.simLaneThreadWarpSteps);
        !idle.empty())
      t.notes.push_back(std::move(idle));
  }
  t.params.backend = useGpu ? BackendChoice::Gpu : BackendChoice::Sim;
  if (!t.fallback.empty()) t.notes.insert(t.notes.begin(), t.fallback);

  if (p.memory) {
    if (!variant.globalMemorySteps)
      t.notes.push_back(Message("note.memory.not-global", {{"variants", globalMemoryRunsText()}}));
    else if (useGpu)
      t.notes.push_back(Message("note.memory.on-gpu"));
    else if (!trace || p.n > kMemoryTraceLimit)
      t.notes.push_back(
          Message("note.memory.up-to", {{"n", std::min(kMemoryTraceLimit, lesson.traceLimit)}}));
    else if (!t.memoryRecorded)
      t.notes.push_back(Message("note.memory.not-watched"));
  }
  if (lesson.defaultGpus > 0) {
    checkEveryRank(t, input, variant.longestChain(p.n, p.block));
    return t;
  }
  const Reference ref = reference(p.op, p.type, input, longestChainOf(variant, p));
  t.expected = ref.expected;
  t.tolerance = ref.tolerance;
  t.singleAnswer = isAssociative(p.op);
  t.correct = t.singleAnswer && matches(t.result, ref);
  for (const auto& note : ref.notes) t.notes.push_back(note);
  if (t.threadsOffTotal > 0) {
    t.correct = false;
    const long long threads = (p.n + p.block - 1) / p.block * p.block;
    t.notes.push_back(
        Message("note.butterfly.threads-off", {{"off", t.threadsOffTotal}, {"threads", threads}}));
  }
  // The simulator's race note (run_sim.cpp) is written before the run is judged: a right sum
  // says so beside its race.
  for (Message& note : t.notes)
    if (note.id == "note.race" && t.correct) note.id = "note.race-right";
  return t;
}

}  // namespace rlab
