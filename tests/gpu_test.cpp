// The lessons on the CUDA device: a test binary of their own, which ctest reports as skipped
// (with the reason) where no device works. Run it on the GPU machine for every kernel change.
// Every lesson kernel runs the verification cases of the GPU scope
// (lessons/engine/races/verify.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/timeline.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/races/verify.hpp"
#include "lessons/engine/races/witness.hpp"
#include "tests/printf_lines.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "tests/coarsening_cases.hpp"
#include "tests/gpu_runs.hpp"

using namespace rlab;

namespace {

// A KernelRunner for the verification: the lesson's kernel, on the GPU and nowhere else.
double resultOnGpu(const Params& p) {
  const Trace t = runLesson(p);
  if (t.backend != BackendChoice::Gpu)
    throw std::runtime_error("the run was not on the GPU but on " + std::string(name(t.backend)));
  return t.result;
}

}  // namespace

TEST_CASE("gpu: every lesson variant passes its verification cases") {
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants) {
      if (lesson.defaultGpus > 0) continue;  // allreduce: its own tests below, rank by rank
      const std::string what = lesson.id + " " + variant.id;
      const auto cases = verificationCases(lesson, variant, VerifyScope::Gpu);
      // Harris's last warp races by design: how it fares here is a measurement, not a check.
      const VerifyReport report = verifyAll(cases, resultOnGpu, variant.needsLanesInStep() ? 0 : 5);
      if (variant.needsLanesInStep())
        MESSAGE(what << " (races by design): " << report.failed << " of " << report.casesRun
                     << " cases wrong on this GPU");
      else
        CHECK_MESSAGE(report.passed(), what << ": " << english(report.summary()));
      MESSAGE(what << ": " << report.casesRun << " cases");
    }
}

TEST_CASE("gpu: subtract gives every offering kernel the simulator's answer, and no verdict") {
  for (int64_t n : {8, 6, 1000, 4099})
    for (const auto& [lesson, variant] : subtractRuns()) {
      CAPTURE(n);
      CAPTURE(lesson + " " + variant);
      Params p = gpuParams(lesson, variant, n);
      p.op = Op::Subtract;
      p.data = "random:" + std::to_string(n);
      const Trace gpu = runLesson(p);
      REQUIRE(gpu.backend == BackendChoice::Gpu);
      CHECK_FALSE(gpu.singleAnswer);
      CHECK_FALSE(gpu.correct);
      p.backend = BackendChoice::Sim;
      const Trace sim = runLessonOnce(p);
      // Int subtraction wraps and the order of each kernel is fixed by its code, except the
      // atomics, whose order does not matter here: 0 - x - y = 0 - y - x.
      CHECK(gpu.result == sim.result);
      REQUIRE(gpu.otherKernels.size() == subtractRuns().size());
      for (const KernelAnswer& a : gpu.otherKernels) CHECK(a.notRun.empty());
    }
}

TEST_CASE("gpu: sums of 2^28 elements match the reference") {
  for (const LessonInfo& lesson : lessons()) {
    if (lesson.maxN < kMaxN || lesson.id == "atomic") continue;  // atomic: a queue of 2^28
    for (const VariantInfo& variant : lesson.variants)
      for (ElementType type : {ElementType::Int, ElementType::Float}) {
        if (variant.needsLanesInStep()) continue;  // races by design: measured below
        VerifyCase c;
        c.params = gpuParams(lesson.id, variant.id, kMaxN);
        c.params.type = type;
        c.params.data = "random:3";
        c.params.trace = false;
        const VerifyOutcome outcome = verify(c, resultOnGpu);
        CHECK_MESSAGE(outcome.passed, english(withReplay(outcome.sentence)));
      }
  }
}

TEST_CASE("gpu: race-free int traces equal the simulator's, step for step") {
  for (const LessonInfo& lesson : lessons()) {
    if (lesson.id == "atomic" || lesson.id == "fastest") continue;  // order / grid differ by design
    if (lesson.defaultGpus > 0) continue;  // allreduce: its own tests below, rank by rank
    for (const std::string& variant : lesson.variantList()) {
      if (lesson.findVariant(variant)->needsLanesInStep()) continue;  // races by design
      for (int64_t n : {7, 33, 257, 1000}) {
        if (n > lesson.maxN) continue;
        Params p = gpuParams(lesson.id, variant, n);
        const Trace gpu = runLesson(p);
        p.backend = BackendChoice::Sim;
        const Trace sim = runLesson(p);
        const std::string what = lesson.id + " " + variant + " n=" + std::to_string(n);
        CAPTURE(what);
        REQUIRE(gpu.steps.size() == sim.steps.size());
        for (size_t k = 0; k < gpu.steps.size(); ++k) {
          CHECK(gpu.steps[k].values == sim.steps[k].values);
          CHECK(gpu.steps[k].active == sim.steps[k].active);
        }
      }
    }
  }
}

// folding's double buffer at awkward n, int and float, every operator: the verification cases
// above (every variant of the registry); its steps: the step-for-step comparison below.
TEST_CASE("gpu: both folds record the same launches as on the simulator") {
  for (const char* variant : {"default", "double-buffer"})
    for (int64_t n : {13, 1000, 1 << 20}) {
      Params p = gpuParams("folding", variant, n);
      const Trace gpu = runLesson(p);
      p.backend = BackendChoice::Sim;
      const Trace sim = runLesson(p);
      CAPTURE(variant);
      CAPTURE(n);
      REQUIRE(gpu.backend == BackendChoice::Gpu);
      CHECK(launchTable(gpu).rows == launchTable(sim).rows);
      CHECK(!gpu.launches.empty());
    }
}

TEST_CASE(
    "gpu: memory asked of a GPU run is refused in a note, the simulator's watched run equals the "
    "GPU's") {
  // The coalescing view's sectors come from the simulator's addresses only. Watching memory
  // (faults, single steps) must not change what the simulator computes: its steps still equal
  // the GPU's.
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants) {
      if (!variant.globalMemorySteps) continue;
      for (int64_t n : {33, 64, 257}) {
        if (n > lesson.maxN) continue;
        Params p = gpuParams(lesson.id, variant.id, n);
        p.memory = true;
        const Trace gpu = runLesson(p);
        const std::string what = lesson.id + " " + variant.id + " n=" + std::to_string(n);
        CAPTURE(what);
        CHECK_FALSE(gpu.memoryRecorded);
        bool said = false;
        for (const auto& note : gpu.notes)
          said |= english(note).find("--backend sim") != std::string::npos;
        CHECK(said);
        p.backend = BackendChoice::Sim;
        const Trace sim = runLesson(p);
        CHECK(sim.memoryRecorded);
        REQUIRE(gpu.steps.size() == sim.steps.size());
        bool counted = false;
        for (size_t k = 0; k < gpu.steps.size(); ++k) {
          CHECK(gpu.steps[k].values == sim.steps[k].values);
          CHECK(gpu.steps[k].active == sim.steps[k].active);
          counted |= !sim.steps[k].memory.empty();
        }
        CHECK(counted);
        CHECK(gpu.result == sim.result);
      }
    }
}

TEST_CASE("gpu: without its barrier the perturbed tree is wrong in most runs, with it, never") {
  Params p = gpuParams("barrier", "global", 256);
  p.trace = false;
  p.perturb = true;
  int wrongWith = 0, wrongWithout = 0;
  for (int k = 0; k < 1000; ++k) {
    p.barrier = true;
    wrongWith += !runLesson(p).correct;
    p.barrier = false;
    wrongWithout += !runLesson(p).correct;
  }
  MESSAGE("barrier on: " << wrongWith << " of 1000 wrong; off: " << wrongWithout << " of 1000");
  CHECK(wrongWith == 0);
  CHECK(wrongWithout > 500);
}

TEST_CASE("gpu: --printf: every third thread's lines are caught and returned, none lost") {
  for (const char* variant : {"global", "shared"})
    for (int64_t n : {7, 33, 256, 1024}) {
      CAPTURE(variant);
      CAPTURE(n);
      Params p = gpuParams("barrier", variant, n);
      p.printing = true;
      const Trace t = runLesson(p);
      REQUIRE(t.backend == BackendChoice::Gpu);
      CHECK(t.correct);
      // The barrier is on, so each value is its level's own; the GPU's order is its own.
      std::vector<std::string> lines = t.kernelOutput, expected = expectedPrintfLines(p);
      std::sort(lines.begin(), lines.end());
      std::sort(expected.begin(), expected.end());
      CHECK(lines.size() == expected.size());
      CHECK(lines == expected);
      p.barrier = false;  // racing: the values may be stale, the count is the same
      CHECK(runLesson(p).kernelOutput.size() == expected.size());
    }
  Params quiet = gpuParams("barrier", "global", 64);
  CHECK(runLesson(quiet).kernelOutput.empty());
}

TEST_CASE("gpu: how often the tree without its barrier is wrong: plain, perturbed, printing") {
  Params p = gpuParams("barrier", "global", 256);
  p.trace = false;
  p.barrier = false;
  const int runs = 1000;
  std::map<double, int> printingResults;
  int wrong[3] = {0, 0, 0};
  for (int k = 0; k < runs; ++k) {
    p.perturb = false;
    p.printing = false;
    wrong[0] += !runLesson(p).correct;
    p.perturb = true;
    wrong[1] += !runLesson(p).correct;
    p.perturb = false;
    p.printing = true;
    const Trace t = runLesson(p);
    wrong[2] += !t.correct;
    ++printingResults[t.result];
  }
  MESSAGE("n = 256, barrier off, "
          << runs << " runs each: wrong " << wrong[0] << " plain, " << wrong[1] << " perturbed, "
          << wrong[2] << " printing (" << printingResults.size() << " distinct results, the most "
          << "common "
          << std::max_element(printingResults.begin(), printingResults.end(),
                              [](auto& a, auto& b) { return a.second < b.second; })
                 ->first
          << ")");
  p.barrier = true;  // printing never breaks the tree while the barrier is on
  for (int k = 0; k < 100; ++k) CHECK(runLesson(p).correct);
}

TEST_CASE("gpu: a paused thread (--delay) never breaks the tree while the barrier is on") {
  for (const char* variant : {"global", "shared"}) {
    Params p = gpuParams("barrier", variant, 1024);
    p.trace = false;
    p.delayThread = 32;
    p.delayLevel = 5;
    int wrong = 0;
    for (int k = 0; k < 100; ++k) wrong += !runLesson(p).correct;
    CAPTURE(variant);
    CHECK(wrong == 0);
  }
}

TEST_CASE(
    "gpu: the timeline is measured with clock64: a read stamped before the write it "
    "missed, and none with the barrier on") {
  for (const char* variant : {"global", "shared"}) {
    CAPTURE(variant);
    Params p = gpuParams("barrier", variant, 8);
    p.barrier = false;
    p.delayThread = 4;  // thread 4 late before level 2, as stall:4:2:1 on the simulator
    p.delayLevel = 2;
    int wrong = 0, shown = 0;
    for (int k = 0; k < 20; ++k) {
      const Trace t = runLesson(p);
      const Timeline tl = buildTimeline(t);
      REQUIRE(tl.available);
      CHECK(tl.measured);
      if (t.correct) continue;
      ++wrong;
      for (const TimelineEarlyRead& e : tl.earlyReads)
        if (tl.rows[size_t(e.readerRow)].thread == 0 && e.value == 11 && e.missed == 26 &&
            e.readTick < e.writeTick)
          ++shown;
    }
    MESSAGE(variant << ", --delay 4:2, barrier off: " << wrong << " of 20 wrong, " << shown
                    << " of them with thread 0's read of 11 stamped before thread 4 wrote 26");
    CHECK(wrong > 0);
    CHECK(shown == wrong);
    p.barrier = true;
    for (int k = 0; k < 20; ++k) {
      const Trace t = runLesson(p);
      const Timeline tl = buildTimeline(t);
      REQUIRE(tl.available);
      CHECK(t.correct);
      CHECK(tl.readsBeforeTheirWrite == 0);
      CHECK(tl.earlyReads.empty());
    }
  }
}

// Measurements for the manual (race-witness.md): what the witness's pause does on this GPU, the
// share of wrong runs by block size, the atomic float sums. They check that each ran, and print the
// figures.
TEST_CASE("gpu: race witnesses forced on this GPU, with and without the pause") {
  for (const char* variant : {"global", "shared"})
    for (int64_t n : {8, 256, 1024}) {
      Params p = gpuParams("barrier", variant, n);
      p.barrier = false;
      WitnessOptions options;
      options.gpuRuns = 200;
      const Witness w = findWitness(p, options);
      REQUIRE(w.found);
      CHECK(w.gpu.ran);
      CHECK(w.gpu.runs == 200);
      MESSAGE(variant << " n=" << n << ": witness " << w.stall.str() << ", --delay "
                      << delayText(w.delayed) << " (reader thread " << w.read.reader
                      << "): wrong in " << w.gpu.wrongDelayed << " of 200 with the pause, "
                      << w.gpu.wrongPlain << " of 200 without");
    }
}

TEST_CASE("gpu: the share of wrong runs by block size, measured here") {
  Params p = gpuParams("barrier", "global", 0);
  p.barrier = false;
  const RateByBlock rate = wrongShareByBlock(p, 200);
  CHECK(rate.onGpu);
  REQUIRE(rate.points.size() == 6);
  for (const BlockRate& b : rate.points)
    MESSAGE("block " << b.block << ": " << b.wrong << " of " << b.runs << " wrong, perturbed "
                     << b.wrongPerturbed << " of " << b.runsPerturbed);
}

TEST_CASE("gpu: atomic float sums differ from run to run, fastest's does not") {
  Params p = gpuParams("atomic", "default", 1 << 20);
  p.type = ElementType::Float;
  p.data = "random:7";
  const FloatSumSpread s = floatSumSpread(p, 100);
  CHECK(s.runs == 100);
  CHECK(s.fastestSums.size() == 1);
  MESSAGE("atomic: " << s.sums.size() << " different sums in 100 runs, " << s.ulps.smallest
                     << " to " << s.ulps.largest << " ulps; fastest " << s.fastestUlps.front()
                     << " ulps");
}

TEST_CASE("gpu: the fastest float sum is the same on every run") {
  // Values that round at almost every addition, so another order of additions would show.
  for (int64_t n : {int64_t(1000003), int64_t(1 << 20)}) {
    Params p = gpuParams("fastest", "default", n);
    p.type = ElementType::Float;
    for (int64_t i = 0; i < n; ++i) p.values.push_back(1.0 / double(1 + i % 977));
    const double first = runLesson(p).result;
    int differ = 0;
    for (int k = 0; k < 50; ++k) differ += runLesson(p).result != first;
    CAPTURE(n);
    CHECK(differ == 0);
  }
}

TEST_CASE("gpu: timings are measured and compared with CUB") {
  Params p = gpuParams("fastest", "default", 1 << 24);
  p.timed = true;
  p.data = "ones";
  const Trace t = runLesson(p);
  CHECK(t.correct);
  CHECK(t.timings.measured);
  CHECK(t.timings.kernelMs > 0);
  CHECK(t.timings.cubMs > 0);
  MESSAGE("fastest 2^24 int: " << t.timings.kernelMs << " ms, " << t.timings.gbPerSecond
                               << " GB/s, " << t.timings.cubRatio << "x CUB");
}

TEST_CASE("gpu: coarsened, every elements per thread with and without the load add") {
  testing::checkCoarsenedSweep(BackendChoice::Gpu);
}

TEST_CASE("gpu: coarsened records the reads the simulator records: the grid-stride elements") {
  const auto gpu = testing::gatherCases(BackendChoice::Gpu);
  const auto sim = testing::gatherCases(BackendChoice::Sim);
  REQUIRE(gpu.size() == sim.size());
  for (size_t k = 0; k < gpu.size(); ++k) {
    CAPTURE(gpu[k].n);
    CAPTURE(gpu[k].block);
    CAPTURE(gpu[k].perThread);
    REQUIRE(gpu[k].trace.backend == BackendChoice::Gpu);
    testing::checkGatherAgainstHost(gpu[k]);
    REQUIRE(gpu[k].trace.steps.size() >= 2);
    REQUIRE(sim[k].trace.steps.size() >= 2);
    const auto& onGpu = gpu[k].trace.steps[1].gathers;
    const auto& onSim = sim[k].trace.steps[1].gathers;
    REQUIRE(onGpu.size() == onSim.size());
    for (size_t thread = 0; thread < onGpu.size(); ++thread) {
      CAPTURE(thread);
      CHECK(onGpu[thread].elements == onSim[thread].elements);
      CHECK(onGpu[thread].values == onSim[thread].values);
    }
  }
}

TEST_CASE("gpu: rlab bench's speed-up table, with the CPU loop and a sweep of K") {
  BenchRequest request;
  request.sizes = {1 << 20};
  request.kernels = {{"shared", "multiblock"}, {"shared", "coarsened"}};
  request.perThread = {1, 8, 32};
  request.reps = 5;
  std::string device;
  const std::vector<BenchRow> rows = benchGpu(request, nullptr, device);
  int lessonRows = 0;
  for (const BenchRow& r : rows) {
    CAPTURE(r.kernel);
    CHECK(r.ms > 0);
    CHECK(r.cpuRatio > 0);  // every row of one GPU has the CPU loop of its n
    if (r.role != BenchRole::Lesson) continue;
    CHECK((lessonRows == 0 ? r.previousRatio == 0 : r.previousRatio > 0));
    ++lessonRows;
    MESSAGE(r.kernel << " 2^20: " << r.ms << " ms, " << r.cpuRatio << "x the CPU loop, "
                     << r.previousRatio << "x the previous");
  }
  CHECK(lessonRows == 4);  // multiblock, coarsened K=1, K=8, K=32
}

// ---- Exercises on the GPU: NVRTC compiles the learner's file, the driver API runs it ------------

TEST_CASE("gpu: every exercise's solution passes its checks on the GPU") {
  for (const Exercise& e : exercises()) {
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/" + e.folder + "/solution.cu";
    const ExerciseReport r = checkOnGpu(e.id, file);
    CHECK_MESSAGE(r.passed(),
                  e.id << ": " << english(r.summary()) << " " << english(r.problem) << " "
                       << (r.failures.empty() ? "" : english(withReplay(r.failures.front()))));
    MESSAGE(e.id << ": " << english(r.summary()) << " in " << r.runSeconds << " s");
    for (const Message& note : r.notes) MESSAGE(english(note));  // beat-coarsened: the speed
  }
}

TEST_CASE("gpu: known-wrong exercise solutions are caught on the GPU too") {
  // Wrong on any schedule: a dropped element, one block's total, 99% scaled up, a lost tile.
  for (const auto& [id, fixture] : std::vector<std::pair<std::string, std::string>>{
           {"fold-any-length", "drops_tail.cu"},
           {"one-atomic-per-block", "single_block.cu"},
           {"one-atomic-per-block", "sums_most.cu"},
           {"coarsen-by-four", "coarsened_drops_tail.cu"},
           {"sequential-addressing", "race_lockstep_hides.cu"}}) {
    const ExerciseReport r = checkOnGpu(id, kExerciseFixtures + fixture);
    CAPTURE(fixture);
    if (fixture == "race_lockstep_hides.cu") {  // a race: the GPU may or may not show it
      MESSAGE("a warp barrier where the block needs one, on the GPU: " << english(r.summary()));
      continue;
    }
    CHECK(r.verdict == ExerciseVerdict::Failed);
    if (!r.failures.empty()) MESSAGE(english(withReplay(r.failures.front())));
  }
  // Reading past n: a GPU reads whatever follows, or faults; the simulator names the read.
  MESSAGE("one-queue reading past n, on the GPU: "
          << english(checkOnGpu("one-queue", kExerciseFixtures + "reads_past_n.cu").summary()));
}

TEST_CASE("gpu: NVRTC's errors come back at the learner's lines, another signature is named") {
  const ExerciseReport error = checkOnGpu("one-queue", kExerciseFixtures + "compile_error.cu");
  REQUIRE(error.verdict == ExerciseVerdict::CompileError);
  REQUIRE_FALSE(error.diagnostics.empty());
  CHECK(error.diagnostics.front().line == 5);
  const ExerciseReport signature =
      checkOnGpu("one-queue", kExerciseFixtures + "wrong_signature.cu");
  REQUIRE(signature.verdict == ExerciseVerdict::CompileError);
  CHECK(signature.diagnostics.front().message.find("reduce(int*, int const*, long long)") !=
        std::string::npos);
}

// ---- allreduce across GPUs ---------------------------------------------------------------------

namespace {

// The allreduce tests need two GPUs; with one they say so and pass nothing.
bool twoGpus() {
  const GpuProbe gpu = probeGpu();
  if (gpu.devices >= 2) return true;
  MESSAGE("skipped: this machine has " << gpu.devices << " GPU; allreduce needs two");
  return false;
}

Params allReduceOnGpus(const std::string& variant, long long n, ElementType type, Op op) {
  Params p = gpuParams("allreduce", variant, n);
  p.gpus = 2;
  p.type = type;
  p.op = op;
  p.data = type == ElementType::Int ? "iota" : "random:11";  // floats: every sum exact
  return p;
}

// Element j: input[r * n + j] over the ranks, 64-bit then wrapped for ints, double for floats.
std::vector<double> hostAllReduce(const std::vector<double>& input, int gpus, long long n,
                                  ElementType type, Op op) {
  std::vector<double> expected(static_cast<size_t>(n));
  for (long long j = 0; j < n; ++j) {
    double acc = input[size_t(j)];
    for (int r = 1; r < gpus; ++r) {
      const double v = input[size_t(r * n + j)];
      acc = op == Op::Max ? std::max(acc, v) : acc + v;
    }
    expected[size_t(j)] = type == ElementType::Int
                              ? double(int32_t(uint32_t(uint64_t(int64_t(acc)))))
                              : double(float(acc));
  }
  return expected;
}

}  // namespace

TEST_CASE("gpu: allreduce on two GPUs, every rank equals the host reference") {
  if (!twoGpus()) return;
  const GpuProbe gpu = probeGpu();
  for (const char* variant : {"butterfly", "ring", "nccl"})
    for (ElementType type : {ElementType::Int, ElementType::Float})
      for (Op op : {Op::Sum, Op::Max})
        for (long long n : {1LL, 3LL, 1000LL, (1LL << 20) + 7}) {
          const Params p = allReduceOnGpus(variant, n, type, op);
          CAPTURE(variant);
          CAPTURE(name(type));
          CAPTURE(name(op));
          CAPTURE(n);
          Trace t;
          try {
            t = runLesson(p);
          } catch (const GpuUnavailable& e) {
            // Without NCCL the nccl variant says why in one sentence; the others must run.
            MESSAGE(e.what());
            CHECK(std::string(variant) == "nccl");
            CHECK(std::string(e.what()).find("libnccl.so.2") != std::string::npos);
            continue;
          }
          REQUIRE(t.backend == BackendChoice::Gpu);
          REQUIRE(t.rankResults.size() == 2);
          const auto expected = hostAllReduce(makeInput(resolve(p)), 2, n, type, op);
          for (int r = 0; r < 2; ++r) CHECK(t.rankResults[r] == expected);
          CHECK(t.correct);
        }
}

// Two GPUs: every element is a + b on one rank and b + a on the other, for our ring, our
// butterfly and NCCL's ring alike, and IEEE addition commutes: the float results must agree
// bit for bit even where the sums round (iota floats above 2^24). With more GPUs the orders
// differ (our ring starts each chunk at another rank, NCCL splits over channels and may use a
// tree), so only the reference's bound holds there.
TEST_CASE("gpu: allreduce float, our ring equals NCCL on two GPUs") {
  if (!twoGpus()) return;
  for (long long n : {1000LL, (1LL << 20) + 7}) {
    Params ring = allReduceOnGpus("ring", n, ElementType::Float, Op::Sum);
    ring.data = "iota";
    Params nccl = ring;
    nccl.variant = "nccl";
    const Trace ours = runLesson(ring);
    Trace theirs;
    try {
      theirs = runLesson(nccl);
    } catch (const GpuUnavailable& e) {
      MESSAGE("NCCL missing, ring vs NCCL not compared: " << e.what());
      return;
    }
    CHECK(ours.rankResults == theirs.rankResults);
  }
}

TEST_CASE("gpu: allreduce timings are measured and bus bandwidth follows nccl-tests") {
  if (!twoGpus()) return;
  Params p = allReduceOnGpus("ring", 1 << 20, ElementType::Float, Op::Sum);
  p.timed = true;
  const Trace t = runLesson(p);
  REQUIRE(t.timings.measured);
  CHECK(t.timings.kernelMs > 0);
  CHECK(t.timings.busGBs == doctest::Approx(t.timings.gbPerSecond));  // 2 (G - 1) / G = 1
  CHECK(t.timings.peerCopyGBs > 0);
  MESSAGE("ring, 4 MiB per GPU: " << t.timings.kernelMs << " ms, bus " << t.timings.busGBs
                                  << " GB/s, peer copy " << t.timings.peerCopyGBs << " GB/s");
}

int main(int argc, char** argv) {
  const GpuProbe gpu = probeGpu();
  if (!gpu.usable) {
    std::printf("GPU tests skipped: %s\n", english(gpu.why).c_str());
    return 77;  // ctest's SKIP_RETURN_CODE for this binary
  }
  std::printf("GPU tests on %s\n", english(gpu.device).c_str());
  doctest::Context context(argc, argv);
  return context.run();
}
