#include "lessons/engine/run.hpp"

#include <algorithm>
#include <chrono>

#include "lessons/engine/backends.hpp"
#include "lessons/engine/reference.hpp"
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
  std::string firstWrong;
  for (size_t j = 0; j < n; ++j) {
    for (size_t r = 0; r < gpus; ++r) column[r] = input[r * n + j];
    const Reference ref = reference(p.op, p.type, column, chain);
    if (j == 0) {
      t.expected = ref.expected;
      t.tolerance = ref.tolerance;
      for (const auto& note : ref.notes) t.notes.push_back("Element 0: " + note);
    }
    t.tolerance = std::max(t.tolerance, ref.tolerance);
    for (size_t r = 0; r < t.rankResults.size(); ++r) {
      if (t.rankResults[r].size() == n && matches(t.rankResults[r][j], ref)) continue;
      t.correct = false;
      if (t.rankWrongElements[r]++ == 0 && firstWrong.empty())
        firstWrong = "rank " + std::to_string(r) + " element " + std::to_string(j) + " holds " +
                     (t.rankResults[r].size() == n ? formatValue(t.rankResults[r][j], p.type)
                                                   : std::string("nothing")) +
                     " where " + formatValue(ref.expected, p.type) + " was expected";
    }
  }
  if (t.correct) {
    t.notes.push_back("Every one of the " + std::to_string(gpus) +
                      " ranks holds the reference in all " + std::to_string(n) + " elements.");
    return;
  }
  std::string counts;
  for (size_t r = 0; r < gpus; ++r)
    if (t.rankWrongElements[r] > 0)
      counts += (counts.empty() ? "" : ", ") + std::string("rank ") + std::to_string(r) + ": " +
                std::to_string(t.rankWrongElements[r]);
  t.notes.push_back("Wrong elements by rank (" + counts + "); the first: " + firstWrong + ".");
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
        a.notRun = e.what();
      }
    }
    answers.push_back(a);
  }
  return answers;
}

// A subtract run (runLessonOnce left it without a verdict): why, and the other kernels' answers.
void compareSubtractAnswers(Trace& t) {
  t.notes.push_back(
      "Subtraction is not associative ((a - b) - c is not a - (b - c)), and 0 is an identity "
      "only on its right (x - 0 = x, but 0 - x = -x): every order of operations has an answer "
      "of its own, and none is the right one. A reduction needs an associative operator with an "
      "identity, as sum, max, min and product are. Beside it: the host's loop, a[0] - a[1] "
      "- ... - a[n-1].");
  if (t.params.n <= kCompareUpTo)
    t.otherKernels = subtractAnswers(t);
  else
    t.notes.push_back("The other kernels that offer subtract run beside it up to n = " +
                      std::to_string(kCompareUpTo) + ".");
}

}  // namespace

Trace runLesson(const Params& params) {
  Trace t = runLessonOnce(params);
  if (!t.singleAnswer) compareSubtractAnswers(t);
  return t;
}

Trace runLessonOnce(const Params& params) {
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
    useGpu = gpu.usable && gpu.devices >= std::max(1, p.gpus);
    if (!gpu.usable)
      t.fallback = gpu.why + " Running on the simulator instead.";
    else if (!useGpu)  // the allreduce lesson on a machine with fewer GPUs than it asks for
      t.fallback = "This machine has " + std::to_string(gpu.devices) + " GPU" +
                   (gpu.devices == 1 ? "" : "s") + " and the run asks for " +
                   std::to_string(p.gpus) + ". Running on the simulator instead.";
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
  if (p.memory) {
    if (!variant.globalMemorySteps)
      t.notes.push_back("Memory transactions are counted where the steps work in global memory (" +
                        globalMemoryRunsText() +
                        "); this variant's steps work in shared memory or registers: its bank "
                        "conflicts are what its accesses cost.");
    else if (useGpu)
      t.notes.push_back(
          "Memory transactions are counted by the simulator, from the addresses it sees each "
          "lane touch; this run was on the GPU, so none are shown: run it with --backend sim.");
    else if (!trace || p.n > kMemoryTraceLimit)
      t.notes.push_back("Memory transactions are counted in runs of up to " +
                        std::to_string(std::min(kMemoryTraceLimit, lesson.traceLimit)) +
                        " elements.");
    else if (!t.memoryRecorded)
      t.notes.push_back(
          "Memory transactions could not be counted: the simulator watches memory on x86-64 "
          "Linux only.");
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
    t.notes.push_back(std::to_string(t.threadsOffTotal) + " of " + std::to_string(threads) +
                      " threads ended with a total other than their block's thread 0, whose "
                      "total the result is: the butterfly promised every thread the total.");
  }
  return t;
}

}  // namespace rlab
