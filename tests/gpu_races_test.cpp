// The races the course teaches, made visible on a GPU: Harris's last warp and its fixes (wrong
// runs of 1000 as they run, perturbed and with a lane paused; the witness forced; racecheck and
// synccheck), the butterfly's shared variant perturbed, the atomic lesson's float sums of mixed
// magnitudes, and a GPU exercise check that also runs the simulator's schedules. They check
// what must hold (the fixes are never wrong) and print the figures the texts quote.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/races/witness.hpp"
#include "tests/gpu_runs.hpp"

using namespace rlab;

// The last warp: how often each variant is wrong on this GPU, as it runs, with every third lane
// pausing at each level (--perturb), and with lane 16 paused before the first level of the last
// warp (--delay 16:L, the simulator's lane:16:1:1 as a pause). 1000 runs each, at one block
// (n = 64) and at 2^20 elements (4096 blocks of 256 threads).
TEST_CASE("gpu: lastwarp, wrong runs of 1000 per variant: as it runs, perturbed, lane 16 paused") {
  struct Setting {
    const char* variant;
    bool syncwarp;
  };
  const Setting settings[] = {{"volatile", true},
                              {"plain", true},
                              {"syncwarp", true},
                              {"syncwarp", false},
                              {"shuffle", true}};
  for (int64_t n : {int64_t(64), int64_t(1) << 20})
    for (const Setting& s : settings) {
      Params p = gpuParams("lastwarp", s.variant, n);
      p.trace = false;
      p.syncwarp = s.syncwarp;
      const int block = resolve(p).params.block;
      int firstWarpLevel = 1;  // stride 32's level, counting from 1
      for (int stride = block / 2; stride > 32; stride /= 2) ++firstWarpLevel;
      int wrong[3] = {0, 0, 0};
      std::map<double, int> results;
      for (int k = 0; k < 1000; ++k) {
        p.perturb = false;
        p.delayThread = -1;
        const Trace t = runLesson(p);
        wrong[0] += !t.correct;
        ++results[t.result];
        p.perturb = true;
        wrong[1] += !runLesson(p).correct;
        p.perturb = false;
        p.delayThread = 16;
        p.delayLevel = firstWarpLevel;
        wrong[2] += !runLesson(p).correct;
      }
      MESSAGE("lastwarp " << std::string(s.variant) << std::string(s.syncwarp ? "" : " --no-syncwarp") << ", n = " << n
                          << ", block " << block << ", 1000 runs each: wrong " << wrong[0]
                          << " as it runs (" << results.size() << " distinct results), " << wrong[1]
                          << " perturbed, " << wrong[2] << " with --delay 16:" << firstWarpLevel);
      const bool heldTogether = std::string(s.variant) == "shuffle" ||
                                (std::string(s.variant) == "syncwarp" && s.syncwarp);
      if (heldTogether) {
        CHECK(wrong[0] == 0);
        CHECK(wrong[1] == 0);
        CHECK(wrong[2] == 0);
      }
    }
}

TEST_CASE("gpu: lastwarp witnesses forced on this GPU, with and without the pause") {
  for (const char* variant : {"volatile", "plain"})
    for (int64_t n : {64, 1024}) {
      Params p = gpuParams("lastwarp", variant, n);
      WitnessOptions options;
      options.gpuRuns = 200;
      const Witness w = findWitness(p, options);
      REQUIRE(w.found);
      CHECK(w.gpu.ran);
      MESSAGE("lastwarp " << std::string(variant) << " n=" << n << ": witness " << w.stall.str() << ", --delay "
                          << delayText(w.delayed) << " (reader thread " << w.read.reader
                          << "): wrong in " << w.gpu.wrongDelayed << " of 200 with the pause, "
                          << w.gpu.wrongPlain << " of 200 without");
    }
}

TEST_CASE("gpu: lastwarp under compute-sanitizer: racecheck's and synccheck's verdicts") {
  struct Setting {
    const char* variant;
    bool syncwarp;
  };
  for (const Setting& s :
       {Setting{"volatile", true}, Setting{"plain", true}, Setting{"syncwarp", true},
        Setting{"syncwarp", false}, Setting{"shuffle", true}})
    for (SanitizerTool tool : {SanitizerTool::Racecheck, SanitizerTool::Synccheck}) {
      Params p = gpuParams("lastwarp", s.variant, 256);
      p.syncwarp = s.syncwarp;
      const SanitizerReport r = runSanitizer(p, tool);
      CHECK(r.runError.empty());
      MESSAGE("lastwarp " << std::string(s.variant) << std::string(s.syncwarp ? "" : " --no-syncwarp") << ", n = 256, "
                          << std::string(name(tool)) << ": " << std::string(r.clean ? "clean" : "hazards") << ", "
                          << r.summary << (r.hazards.empty() ? "" : "; first: " + r.hazards[0].kind)
                          << (r.hazards.empty() || r.hazards[0].line == 0
                                  ? ""
                                  : " at " + r.hazards[0].file + ":" +
                                        std::to_string(r.hazards[0].line)));
      const bool heldTogether = std::string(s.variant) == "shuffle" ||
                                (std::string(s.variant) == "syncwarp" && s.syncwarp);
      if (heldTogether) CHECK(r.clean);
    }
}

TEST_CASE(
    "gpu: butterfly shared, barrier off: how often perturbed runs are wrong; barrier on, never") {
  Params p = gpuParams("butterfly", "shared", 256);
  p.trace = false;
  p.perturb = true;
  int wrongWith = 0, wrongWithout = 0, wrongPlain = 0;
  for (int k = 0; k < 1000; ++k) {
    p.barrier = true;
    wrongWith += !runLesson(p).correct;
    p.barrier = false;
    wrongWithout += !runLesson(p).correct;
    p.perturb = false;
    wrongPlain += !runLesson(p).correct;
    p.perturb = true;
  }
  MESSAGE("butterfly shared, n = 256, 1000 runs each: barrier on and perturbed "
          << wrongWith << " wrong; barrier off: " << wrongPlain << " wrong as it runs, "
          << wrongWithout << " perturbed");
  CHECK(wrongWith == 0);
}

TEST_CASE("gpu: atomic float sums of the lesson's own data (mixed magnitudes) change run to run") {
  for (int64_t n : {int64_t(1000), int64_t(1) << 20}) {
    Params p = gpuParams("atomic", "default", n);
    p.type = ElementType::Float;  // no data given: the lesson's mixed:1
    const FloatSumSpread s = floatSumSpread(p, 200);
    CHECK(s.runs == 200);
    MESSAGE("atomic float, n = " << n << ", " << resolve(p).params.data << ": " << s.sums.size()
                                 << " different sums in 200 runs, " << s.ulps.smallest << " to "
                                 << s.ulps.largest << " ulps from the exact sum; fastest "
                                 << s.fastestSums.size() << " sum(s), " << s.fastestUlps.front()
                                 << " ulps");
  }
}

// Races on the learner's own card: the classic kernel 5 (the exercise's starting file) and a
// shuffle whose lanes past n return before a full-mask shuffle may pass every GPU case; the
// simulator's schedules, run on the same file, must fail them, and the verdict says both.
TEST_CASE("gpu: a race the GPU hides fails the check, which says what each backend found") {
  for (const auto& [id, file] : std::vector<std::pair<std::string, std::string>>{
           {"fix-the-last-warp", std::string(RLAB_SOURCE_DIR) +
                                     "/lessons/lastwarp/exercises/fix-the-last-warp/start.cu"},
           {"fix-the-last-warp", kExerciseFixtures + "last_warp_one_syncwarp.cu"},
           {"warp-shuffle-reduce", kExerciseFixtures + "shuffle_lanes_return.cu"}}) {
    CAPTURE(file);
    const ExerciseReport r = checkOnGpu(id, file);
    CHECK(r.verdict == ExerciseVerdict::Failed);
    CHECK(r.simulator.ran);
    CHECK(r.simulator.failures > 0);
    MESSAGE(id << ", " << file.substr(file.find_last_of('/') + 1) << ": " << r.summary());
    if (!r.failures.empty()) MESSAGE(r.failures.front());
  }
}
