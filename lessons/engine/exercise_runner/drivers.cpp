// [SECTION] Helpers
// [SECTION] One driver per shape
// The rules the drivers check are in rules.cpp, StepRecorder's steps in step_recorder.cpp.

#include "lessons/engine/exercise_runner/drivers.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"
#include "lessons/engine/exercise_runner/rules.hpp"
#include "lessons/engine/run/reference.hpp"

namespace rlab::exercise {

// ============================================================================================
// [SECTION] Helpers
// ============================================================================================

namespace {

using ResultKernel = void (*)(const int*, long long, int*);
using FoldKernel = void (*)(int*, long long);
using OneBlockKernel = void (*)(int*, int);

// An int whose bytes are all the simulator's poison: a __shared__ cell never written.
int poisonInt() {
  int v;
  std::memset(&v, sim::kSharedPoisonByte, sizeof v);
  return v;
}

// sim::launch on the live fenced buffers. An access between a buffer's last element and its
// fence page cannot fault; the race detector's hooks see it, and it is refused as the fault
// past the page would be.
template <class Kernel, class... Args>
sim::LaunchStats launchFenced(dim3 grid, dim3 block, sim::LaunchOptions options, Kernel kernel,
                              Args... args) {
  options.offLimits = unguardedEnds();
  const sim::LaunchStats stats = sim::launch(grid, block, options, kernel, args...);
  g_laneThreadWarpSteps = std::max(g_laneThreadWarpSteps, stats.laneThreadWarpSteps);
  if (stats.offLimits) throw RuleBroken(offLimitsSentence(*stats.offLimits));
  return stats;
}

std::unique_ptr<FencedBuffer> inputBuffer(const std::vector<double>& input) {
  auto in = std::make_unique<FencedBuffer>("in", input.size());
  for (size_t k = 0; k < input.size(); ++k) in->data()[k] = int(input[k]);
  return in;
}

// ============================================================================================
// [SECTION] One driver per shape
// ============================================================================================

// What runs each time a block's barrier opens: the exercise's `rule` (may be empty) and, with
// `steps`, the step: block b's largest __shared__ array, or, for a kernel without one, `global`
// (its first `count` ints).
using BarrierHook = std::function<void(unsigned, const std::vector<sim::SharedSpan>&)>;
void atBarriers(sim::LaunchOptions& options, const BarrierHook& rule, StepRecorder* steps,
                int launch, const int* global, long long count, const std::string& globalName,
                int blockThreads) {
  options.onBarrier = rule;
  if (!steps) return;
  steps->newLaunch(blockThreads);
  options.onAccess = [steps](const sim::ThreadAccess& a) { steps->access(a); };
  options.onBarrier = [=](unsigned b, const std::vector<sim::SharedSpan>& shared) {
    if (rule) rule(b, shared);
    const sim::SharedSpan* largest = nullptr;
    for (const auto& span : shared)
      if (span.size >= sizeof(int) && (!largest || span.size > largest->size)) largest = &span;
    const int barrier = steps->nextBarrier(b);
    if (largest) {
      // Cells at the end that no thread has written yet (a kernel declares s[1024] and uses
      // blockDim.x of them) are left out.
      const int* cells = reinterpret_cast<const int*>(largest->bytes);
      size_t written = largest->size / sizeof(int);
      while (written > 1 && cells[written - 1] == poisonInt()) --written;
      const std::string name = largest->name.empty() ? "array" : largest->name;
      steps->addAtBarrier(Message("step.exercise.shared", {{"launch", launch},
                                                           {"block", b},
                                                           {"barrier", barrier},
                                                           {"array", "__shared__ " + name + "[]"}}),
                          cells, written, b, barrier, {largest->name, true, nullptr});
    } else {
      steps->addAtBarrier(Message("step.exercise.global", {{"launch", launch},
                                                           {"block", b},
                                                           {"barrier", barrier},
                                                           {"array", globalName + "[]"}}),
                          global, size_t(count), b, barrier, {globalName, false, global});
    }
  };
}

// The launch's last step, after its first race (if it had one) is marked.
void recordLaunchEnd(StepRecorder* steps, const sim::LaunchStats& stats, int launch,
                     const int* values, long long count, const std::string& name) {
  if (!steps) return;
  const StepRecorder::Shown shown{name, false, values};
  steps->noteRace(stats, shown);
  steps->addAtLaunchEnd(
      Message("step.exercise.after-launch", {{"launch", launch}, {"array", name + "[]"}}), values,
      size_t(count), shown);
}

double runAtomicResult(const Exercise& e, const void* kernel, const Params& p,
                       const std::vector<double>& input, sim::LaunchOptions options,
                       StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  auto in = inputBuffer(input);
  FencedBuffer result("result", 1);
  const int identity = identityOf(e.op);
  result.data()[0] = identity;
  const long long n = p.n;
  long long blocks = blocksFor(n, (long long)p.block * e.perThread);
  if (e.gridStride)
    blocks = std::min(blocks, kSimMultiprocessors * kThreadSlotsPerMultiprocessor / p.block);
  options.recordAtomics = true;
  atBarriers(options, {}, steps, 1, in->data(), n, "in", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(unsigned(blocks)), dim3(unsigned(p.block)), options, run,
                   (const int*)in->data(), n, result.data());
  long long atomics = 0;
  recordLaunchEnd(steps, stats, 1, result.data(), 1, "result");
  checkAtomicsOnly(stats, result.data(), identity, result.data()[0], atomics);
  checkAtomicCount(e, atomics, blocks, p.block);
  return result.data()[0];
}

// Passes over the block totals until one is left, as the lessons' runTreePasses.
double runBlockPartials(const Exercise& e, const void* kernel, const Params& p,
                        const std::vector<double>& input, sim::LaunchOptions options,
                        StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  std::unique_ptr<FencedBuffer> source = inputBuffer(input);
  long long len = p.n;
  for (int pass = 1;; ++pass) {
    const long long blocks = blocksFor(len, p.block);
    auto out = std::make_unique<FencedBuffer>("out", size_t(blocks));
    SequentialAddressingWatch watch(source->data(), len, p.block, blocks);
    BarrierHook rule;
    if (e.sequentialAddressing)
      rule = [&watch](unsigned b, const std::vector<sim::SharedSpan>& shared) {
        watch.atBarrier(b, shared);
      };
    atBarriers(options, rule, steps, pass, source->data(), len, pass == 1 ? "in" : "x", p.block);
    const sim::LaunchStats stats =
        launchFenced(dim3(unsigned(blocks)), dim3(unsigned(p.block)), options, run,
                     (const int*)source->data(), len, out->data());
    recordLaunchEnd(steps, stats, pass, out->data(), blocks, "out");
    if (e.sequentialAddressing) watch.check(pass);
    if (blocks == 1) return out->data()[0];
    out->rename("in (the block totals of pass " + std::to_string(pass) + ")");
    source = std::move(out);
    len = blocks;
  }
}

double runFoldSteps(const void* kernel, const Params& p, const std::vector<double>& input,
                    sim::LaunchOptions options, StepRecorder* steps) {
  const auto run = reinterpret_cast<FoldKernel>(kernel);
  auto a = inputBuffer(input);
  a->rename("a");
  int launch = 1;
  for (long long len = p.n; len > 1; len -= len / 2, ++launch) {
    const long long threads = len - len / 2;
    atBarriers(options, {}, steps, launch, a->data(), len, "a", p.block);
    const sim::LaunchStats stats =
        launchFenced(dim3(unsigned(blocksFor(threads, p.block))), dim3(unsigned(p.block)), options,
                     run, a->data(), len);
    recordLaunchEnd(steps, stats, launch, a->data(), len - len / 2, "a");
  }
  return a->data()[0];
}

double runOneBlock(const void* kernel, const Params& p, const std::vector<double>& input,
                   sim::LaunchOptions options, StepRecorder* steps) {
  const auto run = reinterpret_cast<OneBlockKernel>(kernel);
  auto a = inputBuffer(input);
  a->rename("a");
  atBarriers(options, {}, steps, 1, a->data(), p.n, "a", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(1), dim3(unsigned(p.block)), options, run, a->data(), int(p.n));
  recordLaunchEnd(steps, stats, 1, a->data(), p.n, "a");
  return a->data()[0];
}

// Every thread i < n must end with its group's total; the result is the groups' totals
// combined.
double runAllReduce(const Exercise& e, const void* kernel, const Params& p,
                    const std::vector<double>& input, sim::LaunchOptions options,
                    StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  auto in = inputBuffer(input);
  FencedBuffer out("out", input.size());
  const int poison = poisonInt();
  std::fill(out.data(), out.data() + out.count(), poison);
  atBarriers(options, {}, steps, 1, out.data(), p.n, "out", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(unsigned(blocksFor(p.n, p.block))), dim3(unsigned(p.block)), options, run,
                   (const int*)in->data(), (long long)p.n, out.data());
  recordLaunchEnd(steps, stats, 1, out.data(), p.n, "out");
  return allReduceResult(e, input, out.data(), p.block, poison);
}

}  // namespace

std::function<std::string(uintptr_t)> g_instructionName;
bool g_detectRaces = true;
uint64_t g_laneThreadWarpSteps = 0;
std::function<void(const sim::LaunchError&)> g_onRace;

double runExerciseKernel(const Exercise& e, const void* kernel, const Params& p,
                         StepRecorder* steps) {
  const std::vector<double> input = makeInput(resolve(p));
  g_laneThreadWarpSteps = 0;
  if (steps) {
    const std::vector<int> ints(input.begin(), input.end());
    steps->add(Message("step.input"), ints.data(), ints.size());
  }
  sim::LaunchOptions options;
  options.schedule = sim::Schedule::parse(p.schedule);
  options.dynamicSharedBytes = size_t(e.dynamicSharedPerThread) * size_t(p.block);
  // Every run looks for races: a kernel whose sums came out right can still have one.
  options.detectRaces = g_detectRaces;
  options.failOnRace = !g_onRace;
  options.onRace = g_onRace;
  options.nameAddress = [](uintptr_t address) -> std::string {
    const FenceHit hit = findFence(address);
    if (!hit.found || hit.index < 0 || size_t(hit.index) >= hit.count) return "";
    return std::string(hit.name) + "[" + std::to_string(hit.index) + "]";
  };
  options.nameInstruction = g_instructionName;
  switch (e.shape) {
    case ExerciseShape::AtomicResult:
      return runAtomicResult(e, kernel, p, input, options, steps);
    case ExerciseShape::BlockPartials:
      return runBlockPartials(e, kernel, p, input, options, steps);
    case ExerciseShape::FoldStep:
      return runFoldSteps(kernel, p, input, options, steps);
    case ExerciseShape::OneBlock:
      return runOneBlock(kernel, p, input, options, steps);
    case ExerciseShape::AllReduce:
      return runAllReduce(e, kernel, p, input, options, steps);
    case ExerciseShape::Probe:
      break;  // runProbesOnSimulator
  }
  throw std::logic_error("a probe runs through runProbesOnSimulator");
}

void runProbesOnSimulator(const void* kernel, const std::vector<int>& input,
                          const std::vector<ProbeLaunch>& launches,
                          const std::function<void(int)>& beforeLaunch,
                          const std::function<void(const std::string&)>& report) {
  using ProbeKernel = void (*)(const int*, int, int*);
  const auto run = reinterpret_cast<ProbeKernel>(kernel);
  for (size_t k = 0; k < launches.size(); ++k) {
    const ProbeLaunch& l = launches[k];
    beforeLaunch(int(k));
    FencedBuffer in("in", std::max<size_t>(input.size(), 1)),
        out("out", size_t(std::max(l.outCount, 1)));
    std::copy(input.begin(), input.end(), in.data());
    std::fill(out.data(), out.data() + out.count(), kProbeUntouched);
    sim::LaunchOptions options;
    options.schedule = sim::Schedule::parse(l.schedule);
    options.dynamicSharedBytes = l.sharedBytes;
    try {
      sim::launch(dim3(l.grid), dim3(l.block), options, run, (const int*)in.data(), l.n,
                  out.data());
    } catch (const std::exception& ex) {
      std::string sentence = ex.what();
      for (char& c : sentence)
        if (c == '\n' || c == '\t') c = ' ';
      report("@probe-failed\t" + std::to_string(k) + "\t" + sentence);
      continue;
    }
    std::string values;
    for (int i = 0; i < l.outCount; ++i) values += (i ? "," : "") + std::to_string(out.data()[i]);
    report("@probe\t" + std::to_string(k) + "\t" + values);
  }
}

}  // namespace rlab::exercise
