// A fast wrong kernel must score nothing, and a kernel must not be tuned to one input: every
// round draws a new seed, and every timed run's sum is checked against the host's. The times
// are the GPU's alone (a spin holds the GPU while the launches are queued), medians of many
// runs, as the lessons' own timings are, so that the learner's figure and fastest's compare.

#include "lessons/engine/exercise_runner/leaderboard.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/races/verify.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab::exercise {

namespace {

constexpr long long kLeaderboardN = 1LL << 24;
constexpr int kRounds = 5, kRunsPerRound = 5;
// Longer than the host takes to queue the most launches one reduction makes (a fold of 2^24
// elements: 24 launches of a few microseconds each).
constexpr long long kHoldNanoseconds = 1'000'000;

// Two events, created once.
struct Events {
  explicit Events(Gpu& gpu) : gpu(gpu) {
    gpu.d.check(gpu.d.cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    gpu.d.check(gpu.d.cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  }
  ~Events() {
    gpu.d.cuEventDestroy(start);
    gpu.d.cuEventDestroy(stop);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  Gpu& gpu;
  CUevent start = nullptr, stop = nullptr;
};

// One run, its launches queued behind a spin: the GPU's milliseconds.
double timedRunMs(WholeReduction& run, Gpu& gpu, Events& events) {
  run.prepare();
  waitForGpu(gpu);
  holdGpuFor(kHoldNanoseconds);
  gpu.d.check(gpu.d.cuEventRecord(events.start, nullptr), "cuEventRecord");
  run.queue();
  gpu.d.check(gpu.d.cuEventRecord(events.stop, nullptr), "cuEventRecord");
  if (const CUresult r = gpu.d.cuEventSynchronize(events.stop); r != CUDA_SUCCESS)
    throwLaunchFailure(gpu, r);
  float ms = 0;
  gpu.d.check(gpu.d.cuEventElapsedTime(&ms, events.start, events.stop), "cuEventElapsedTime");
  return ms;
}

// A round's case: n = 2^24 in blocks of 256 (or the variant's smallest block above it), the
// exercise's usual data for a sum of that size from a seed drawn now.
VerifyCase roundCase(const Exercise& e, uint64_t seed, const std::string& replayWith) {
  const LessonInfo& lesson = lessonOrThrow(e.lesson);
  const VariantInfo& variant = *lesson.findVariant(e.variant);
  const std::vector<int> blocks = verifyBlockSizes(lesson, variant, kLeaderboardN);
  const auto found = std::find(blocks.begin(), blocks.end(), 256);
  const int block = found != blocks.end() ? 256 : blocks.back();
  VerifyCase c = makeVerifyCase(lesson, variant, VerifyScope::Gpu, kLeaderboardN, block, e.op,
                                ElementType::Int, mainVerifyData(e.op, kLeaderboardN), seed);
  c.params.trace = false;
  c.subject = Message("verify.exercise", {{"exercise", e.id}});
  c.replayWith = replayWith;
  return c;
}

// One round: the kernel run kRunsPerRound + 1 times on one fresh input (the first a warm-up),
// every sum the same and right. Its times go into `ms`; the outcome is verify's.
VerifyOutcome runRound(const Exercise& e, Gpu& gpu, Events& events, const VerifyCase& c,
                       std::vector<double>& ms) {
  const KernelRunner runKernel = [&](const Params& p) -> double {
    const std::vector<double> input = makeInput(resolve(p));
    WholeReduction run(e, gpu, std::vector<int>(input.begin(), input.end()), p.block);
    int first = 0;
    for (int k = 0; k <= kRunsPerRound; ++k) {
      const double t = timedRunMs(run, gpu, events);
      const int sum = run.result();
      if (k == 0) first = sum;
      if (sum != first)
        throw GpuUnavailable(Message("runner.leaderboard-unsteady",
                                     {{"first", first}, {"other", sum}, {"run", k + 1}}));
      if (k > 0) ms.push_back(t);
    }
    return first;
  };
  return verify(c, runKernel);
}

// fastest's kernel and CUB on the last round's input, timed side by side by the lessons' GPU
// backend: their medians.
Timings referenceTimings(const Exercise& e, const Params& round) {
  Params p;
  p.lesson = "fastest";
  p.n = round.n;
  p.data = round.data;
  p.op = e.op;
  p.type = ElementType::Int;
  p.trace = false;
  p.backend = BackendChoice::Gpu;
  return runLesson(p).timings;
}

std::string number(double value) {
  return printedNumber("%.4f", value);
}

}  // namespace

void runLeaderboard(const Exercise& e, Gpu& gpu, const std::string& replayWith,
                    const ReportLine& report) {
  if (e.shape != ExerciseShape::AtomicResult && e.shape != ExerciseShape::BlockPartials &&
      e.shape != ExerciseShape::FoldStep) {
    report("@leaderboard-none\t" +
           encodeMessage(Message("runner.leaderboard-not-whole", {{"exercise", e.id}})));
    return;
  }
  // From here a hang or a crash is the leaderboard's, not the last case's.
  report("@leaderboard-start");
  try {
    Events events(gpu);
    std::random_device fresh;
    std::vector<double> ms;
    Params last;
    for (int round = 1; round <= kRounds; ++round) {
      const uint64_t seed = 1 + fresh() % 2'000'000'000u;
      const VerifyCase c = roundCase(e, seed, replayWith);
      const size_t before = ms.size();
      const VerifyOutcome o = runRound(e, gpu, events, c, ms);
      const std::vector<double> mine(ms.begin() + long(before), ms.end());
      const Message sentence =
          o.passed ? Message("runner.leaderboard-round", {{"round", round},
                                                          {"data", c.data},
                                                          {"ms", number(median(mine))},
                                                          {"runs", kRunsPerRound}})
                   : o.sentence;
      report("@leaderboard-round\t" + std::to_string(round) + "\t" + (o.passed ? "1" : "0") + "\t" +
             number(median(mine)) + "\t" + encodeMessage(sentence));
      if (!o.passed) return;  // a wrong kernel is not on the board, however fast
      last = c.params;
    }
    const double mine = median(ms);
    const Timings theirs = referenceTimings(e, last);
    const Message sentence("runner.leaderboard",
                           {{"mine", number(mine)},
                            {"runs", kRounds * kRunsPerRound},
                            {"rounds", kRounds},
                            {"fastest", number(theirs.kernelMs)},
                            {"cub", number(theirs.cubMs)},
                            {"vs-fastest", printedNumber("%.2f", theirs.kernelMs / mine)},
                            {"vs-cub", printedNumber("%.2f", theirs.cubMs / mine)}});
    report("@leaderboard\t" + number(mine) + "\t" + number(theirs.kernelMs) + "\t" +
           number(theirs.cubMs) + "\t" + encodeMessage(sentence));
  } catch (const std::exception& ex) {
    report("@leaderboard-none\t" +
           encodeMessage(Message("runner.leaderboard-not-measured", {{"why", messageOf(ex)}})));
  }
}

}  // namespace rlab::exercise
