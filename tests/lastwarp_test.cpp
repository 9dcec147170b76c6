// The last warp on the simulator: the lane schedules (lane:T:S:K, lanes-random:SEED), Harris's
// last warp right under the lockstep warp and broken when a lane falls behind, its fixes right
// under every lane schedule up to a bound, the witness, the race explorer and the timeline on
// them, and the switches and data this lesson brought (--no-syncwarp, --perturb, --delay in a
// warp level, mixed magnitudes for the atomic lesson's floats).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/timeline.hpp"
#include "lessons/engine/races/witness.hpp"

using namespace rlab;

namespace {

Params lastWarp(const std::string& variant, const std::string& schedule, int64_t n = 64) {
  Params p;
  p.lesson = "lastwarp";
  p.variant = variant;
  p.n = n;
  p.schedule = schedule;
  return p;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("lane schedules parse, print back, and bad ones are refused with what is allowed") {
  for (const char* text : {"lane:16:1:1", "lane:0:12:3", "lanes-random:7"})
    CHECK(sim::Schedule::parse(text).str() == text);
  const sim::Schedule s = sim::Schedule::parse("lane:16:2:3");
  CHECK(s.kind == sim::Schedule::Kind::Lane);
  CHECK(s.stallThread == 16);
  CHECK(s.stallRound == 2);
  CHECK(s.stallRounds == 3);
  CHECK(s.usesRounds());
  for (const char* text : {"lane", "lane:1:1", "lane:1:0:1", "lane:1024:1:1", "lanes-random",
                           "lanes-random:x", "lane:a:1:1"}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(sim::Schedule::parse(text),
                         doctest::Contains("lane:T:S:K or lanes-random:SEED"),
                         std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(sim::Schedule::parse("lane:1:0:1"),
                       doctest::Contains("needs a warp step from 1"), std::invalid_argument);
}

TEST_CASE(
    "lastwarp n=64: right under the lockstep warp, and 49 short with lane 16 one round late") {
  const Trace right = runLesson(lastWarp("volatile", "lockstep"));
  CHECK(right.correct);
  CHECK(right.result == 2080);
  REQUIRE(right.steps.size() == 7);  // the input and strides 32, 16, 8, 4, 2, 1
  CHECK(english(right.steps[1].label) == "last warp, stride 32");
  CHECK(right.steps[1].active.size() == 32);  // every lane at every step, as Harris's code
  CHECK(right.timings.simWarpSteps == 12);    // a missing __syncwarp after the reads, the writes
  CHECK(right.timings.simWarpStepThreads == 32);

  const Trace late = runLesson(lastWarp("volatile", "lane:16:1:1"));
  CHECK_FALSE(late.correct);
  CHECK(late.result == 2031);  // 49 short: s[48] = 49, which lane 16 added at stride 32
  const auto reads = staleReads(late.steps[2], late.params.type);
  REQUIRE(reads.size() == 1);
  CHECK(english(reads[0]) ==
        "thread 0 read s[16] = 17 (the input) too early: thread 16 wrote 66 there in step 1");
}

TEST_CASE("lastwarp: plain races on the simulator exactly as volatile does") {
  for (const char* schedule : {"lockstep", "lane:16:1:1", "lane:1:1:1", "lanes-random:3"}) {
    CAPTURE(schedule);
    CHECK(runLesson(lastWarp("plain", schedule)).result ==
          runLesson(lastWarp("volatile", schedule)).result);
  }
}

TEST_CASE("lastwarp: __syncwarp and shuffles are right under every lane schedule tried") {
  for (const char* variant : {"syncwarp", "shuffle"})
    for (int64_t n : {64, 1000}) {
      CAPTURE(variant);
      CAPTURE(n);
      for (int k = 1; k <= 3; ++k)
        for (int step = 1; step <= 12; ++step)
          for (int lane : {0, 1, 15, 16, 31}) {
            const std::string schedule = "lane:" + std::to_string(lane) + ":" +
                                         std::to_string(step) + ":" + std::to_string(k);
            CAPTURE(schedule);
            CHECK(runLesson(lastWarp(variant, schedule, n)).correct);
          }
      for (int seed = 1; seed <= 50; ++seed)
        CHECK(runLesson(lastWarp(variant, "lanes-random:" + std::to_string(seed), n)).correct);
    }
  // Without its __syncwarp() the fix races again, as Harris's code does.
  Params off = lastWarp("syncwarp", "lane:16:1:1");
  off.syncwarp = false;
  const Trace t = runLesson(off);
  CHECK(t.result == 2031);
  bool offSaid = false, raced = false;
  for (const auto& note : t.notes) {
    offSaid |= has(english(note), "__syncwarp() is off");
    raced |= note.id == "note.race";  // and the race detector names the race
  }
  CHECK(offSaid);
  if (rlab::sim::lessonKernelsDetectRaces()) CHECK(raced);
}

TEST_CASE("lane schedules change nothing where no lanes meet without a barrier") {
  Params p;
  p.lesson = "barrier";
  p.n = 64;
  p.barrier = false;
  p.schedule = "lockstep";
  const Trace lockstep = runLesson(p);
  CHECK(lockstep.timings.simWarpSteps == 0);
  p.schedule = "lane:4:1:1";
  const Trace lane = runLesson(p);
  CHECK(lane.result == lockstep.result);
  // ... and the run says so, rather than let the schedule seem to have acted.
  bool said = false;
  for (const Message& note : lane.notes)
    said |= english(note) ==
            "Thread 4 took at most 0 warp steps in each block of this run and never reached warp "
            "step 1, so --schedule lane:4:1:1 held no thread back: the run is the same as "
            "lockstep's.";
  CHECK(said);
}

TEST_CASE("a lane schedule is said to have held nobody only where its thread fell short") {
  auto heldNobody = [](const Trace& t) {
    for (const Message& note : t.notes)
      if (note.id == "note.lane-never-held") return true;
    return false;
  };
  // Lane 16 of the volatile last warp takes twelve warp steps (a read and a write in each of
  // its six lines); thread 40 takes none.
  CHECK_FALSE(heldNobody(runLesson(lastWarp("volatile", "lane:16:2:3"))));
  CHECK_FALSE(heldNobody(runLesson(lastWarp("volatile", "lane:16:12:3"))));
  CHECK(heldNobody(runLesson(lastWarp("volatile", "lane:16:13:3"))));
  CHECK(heldNobody(runLesson(lastWarp("volatile", "lane:40:1:3"))));
  CHECK_FALSE(heldNobody(runLesson(lastWarp("volatile", "lockstep"))));
}

TEST_CASE("lastwarp witness: the smallest lane schedule, its read, and the __syncwarp it needed") {
  const Witness w = findWitness(lastWarp("volatile", "lockstep"));
  REQUIRE(w.found);
  CHECK(w.stall.lane);
  CHECK(w.stall.rounds == 1);
  CHECK(w.stall.from == 1);
  CHECK(w.smallest);
  CHECK(w.stall.str().rfind("lane:", 0) == 0);
  CHECK(w.firstWrong.rfind("lanes-random:", 0) == 0);
  REQUIRE(w.readFound);
  CHECK(w.read.missedWriter == w.stall.thread);
  CHECK(w.read.reader < 32);
  CHECK(has(w.combineLine.text, "trace.combine("));
  CHECK(has(w.barrierLine.text, "switchableSyncwarp(syncwarpOn)"));
  CHECK(has(w.barrierLine.text, "every lane has written"));  // a read too early: after the writes
  CHECK_FALSE(w.barrierOn);
  CHECK(has(w.replay, "rlab run lastwarp "));
  CHECK(has(w.replay, "--schedule " + w.stall.str()));
  // The same failure as a pause of the lane whose write was missed.
  CHECK(w.delayed.delayThread == w.stall.thread);
  CHECK(w.delayWrongOnSimulator);
}

TEST_CASE("lastwarp witness: none for __syncwarp or shuffles, and the bound is said") {
  for (const char* variant : {"syncwarp", "shuffle"}) {
    CAPTURE(variant);
    WitnessOptions options;
    options.searchRuns = 20;
    const Witness w = findWitness(lastWarp(variant, "lockstep"), options);
    CHECK_FALSE(w.found);
    // Every lane of the warp, late by 1 to 3 rounds after each of its warp steps.
    const int steps = std::string(variant) == "syncwarp" ? 12 : 5;
    CHECK(w.laneBound == 32 * steps * kLaneBoundRounds);
    CHECK(has(english(w.why), "lanes-random:1 to lanes-random:20"));
    CHECK(has(english(w.why), "every lane:T:S:K with K from 1 to 3"));
    CHECK(has(english(w.why), "each of its " + std::to_string(steps) + " warp steps"));
    CHECK(has(english(w.why), "No schedule of the " + std::to_string(w.tried) + " tried"));
  }
}

TEST_CASE("lastwarp race explorer: runs under lanes-random, the fixes are never wrong") {
  const RaceResult classic = runRace(lastWarp("volatile", "lockstep"), 20, 1);
  CHECK(english(classic.schedules) ==
        "Each run had a schedule of its own: lanes-random:1 to "
        "lanes-random:20.");
  CHECK(classic.wrong > 0);
  REQUIRE(classic.wrongRuns.size() == 1);
  for (const char* variant : {"syncwarp", "shuffle"})
    CHECK(runRace(lastWarp(variant, "lockstep"), 20, 0).wrong == 0);
}

TEST_CASE("lastwarp timeline: one row per lane, lane 16's late write and the read before it") {
  const Timeline tl = buildTimeline(runLesson(lastWarp("volatile", "lane:16:1:1")));
  REQUIRE(tl.available);
  CHECK_FALSE(tl.measured);
  CHECK(tl.rows.size() == 32);
  CHECK(tl.columns.size() == 6);
  bool shown = false;
  for (const TimelineEarlyRead& e : tl.earlyReads)
    shown |= tl.rows[size_t(e.readerRow)].thread == 0 && e.element == 16 && e.value == 17 &&
             e.missed == 66 && e.readTick < e.writeTick;
  CHECK(shown);
  // With __syncwarp() the same late lane makes every read wait for its write.
  const Timeline fixed = buildTimeline(runLesson(lastWarp("syncwarp", "lane:16:1:1")));
  CHECK(fixed.readsBeforeTheirWrite == 0);
  CHECK(fixed.earlyReads.empty());
}

TEST_CASE("switches: --no-syncwarp, --perturb and --delay where the variant has them") {
  Params p = lastWarp("volatile", "lockstep");
  p.syncwarp = false;
  CHECK_THROWS_WITH_AS(resolve(p),
                       "--no-syncwarp is only for kernels with __syncwarp() to take out "
                       "(lastwarp syncwarp); lastwarp volatile has none.",
                       ParamError);
  p.syncwarp = true;
  p.perturb = true;  // lanes 0, 3, 6, ... pause at each level and fall behind the others
  CHECK_FALSE(runLesson(p).correct);
  p.variant = "shuffle";
  CHECK(runLesson(p).correct);
  // --delay in a level of the last warp: lane 16 pauses before stride 32, as lane:16:1:1.
  Params delayed = lastWarp("volatile", "lockstep");
  delayed.delayThread = 16;
  delayed.delayLevel = 1;
  CHECK(runLesson(delayed).result == 2031);
  delayed.delayLevel = 7;
  CHECK_THROWS_WITH_AS(resolve(delayed), "--delay names level 7, but this tree has levels 1 to 6.",
                       ParamError);
  // The butterfly's shared variant takes --perturb: harmless with its barrier, not without.
  Params butterfly;
  butterfly.lesson = "butterfly";
  butterfly.variant = "shared";
  butterfly.n = 64;
  butterfly.perturb = true;
  CHECK(runLesson(butterfly).correct);
  butterfly.barrier = false;
  CHECK_FALSE(runLesson(butterfly).correct);
  butterfly.variant = "shuffle";
  butterfly.barrier = true;
  CHECK_THROWS_WITH_AS(resolve(butterfly),
                       doctest::Contains("--perturb is only for barrier global, barrier shared"),
                       ParamError);
}

TEST_CASE("atomic floats: the lesson's own data has mixed magnitudes, whose sum moves with order") {
  Params p;
  p.lesson = "atomic";
  p.n = 1000;
  p.type = ElementType::Float;
  const Resolved r = resolve(p);
  CHECK(r.params.data == "mixed:1");
  const std::vector<double> input = makeInput(r);
  double smallest = 1e30, largest = 0;
  for (double v : input) {
    CHECK(double(float(v)) == v);  // every value exact as a float
    smallest = std::min(smallest, std::fabs(v));
    largest = std::max(largest, std::fabs(v));
  }
  CHECK(largest / smallest > 1e8);
  const FloatSumSpread s = floatSumSpread(p, 20);
  CHECK(s.sums.size() > 1);  // the schedules put the atomics in other orders
  p.type = ElementType::Int;
  CHECK(resolve(p).params.data == "iota");  // ints: every order gives one sum
  p.data = "mixed:2";
  for (double v : makeInput(resolve(p))) CHECK(v == std::floor(v));
}
