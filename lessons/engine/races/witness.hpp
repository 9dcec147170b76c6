// Race witnesses: the smallest schedule that makes a run wrong, the read it spoils, and the
// same failure forced on a GPU.
//
// On the simulator a run is fully determined by its schedule, so a wrong run can be replayed
// and made smaller. findWitness() looks for a schedule under which the run as on screen goes
// wrong, then shrinks it (delta debugging) to a stall schedule `stall:T:R:K`: lockstep, but
// thread T sits out K rounds from round R. Where the lesson's races are between the lanes of a
// warp (lastwarp), the same search runs on lane schedules: lanes-random:SEED to find a wrong
// run, and `lane:T:S:K` (thread T sits out K rounds after its warp step S) as the witness; when
// no random one is wrong it runs every lane:T:S:K up to a bound, and says so.
//
// The size of a stall schedule is (K, R), compared K first: fewer rounds late is smaller, and
// of two that are equally late, the one that starts earlier is smaller (fewer rounds run before
// the read goes wrong). lockstep is stall:T:R:0, size (0, 0). One step smaller than stall:T:R:K
// is stall:T:R:K-1 or stall:T:R+1:K-1 (one round fewer, from either end) or stall:T:R-1:K (the
// same rounds, one earlier). A witness is found when no schedule one step smaller fails, and is
// the smallest when no stall schedule of a smaller size fails for any thread (the search runs
// them all, up to a limit, and says whether it did). Of the witnesses of the smallest size, it
// prefers one whose reader is in another warp than the late thread, where the block has several
// warps: pausing the late thread on a GPU then cannot hold the reader back.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

struct StallSchedule {
  int thread = 0;
  int from = 1;    // the first round sat out, counting from 1 (lane: the warp step after which)
  int rounds = 0;  // 0: lockstep
  // lane:T:S:K instead: thread T sits out K rounds after its warp step S (a lesson whose races
  // are between the lanes of a warp); its size is (K, S) as a stall's is (K, R).
  bool lane = false;

  std::string str() const;  // "stall:4:1:1", "lane:1:1:1", or "lockstep" for 0 rounds
  // Size order: rounds first, then the first round (the thread breaks no tie).
  bool smallerThan(const StallSchedule& other) const;
  // The schedules one step smaller (see above) that are stall schedules at all: rounds >= 1,
  // from >= 1. One round fewer than one is lockstep, which the search runs first.
  std::vector<StallSchedule> oneStepSmaller() const;
};

// The read that came too early: in step `step`, thread `reader` read a[element] = value (the
// value of step valueStep), but thread missedWriter had written `missed` there in missedStep.
struct EarlyRead {
  int step = 0;  // of the trace (the level, for the barrier lesson)
  Message stepLabel;
  int reader = -1;
  int element = -1;  // the cell read too early
  int target = -1;   // the cell the reader wrote
  double value = 0;
  int valueStep = 0;  // 0: the input; -1: a value the cell never held
  double missed = 0;
  int missedWriter = -1;  // -1: the input
  int missedStep = 0;
  // It read too late rather than too early: another thread of the same step had already
  // overwritten the element (a write after read, as in the butterfly without its first barrier).
  bool afterOverwrite = false;
  int line = 0;  // the kernel line of the reader's combine, as the kernel recorded it
  Message text;  // as `rlab run` says it: "thread 0 read a[4] = 11 (step 1's value) ..."
};

// A line of the kernel file that ran (as embedded): file, line number from 1, its text.
struct KernelLine {
  std::string file;
  int line = 0;  // 0: not found
  std::string text;
};

// The witness forced on a GPU: the late thread paused (--delay) before the level whose write
// was missed, `runs` times, against as many runs without the pause.
struct GpuForcing {
  bool ran = false;
  Message why;  // not run: why, in one sentence
  Message device;
  int runs = 0;
  int wrongDelayed = 0;
  int wrongPlain = 0;
};

struct Witness {
  Params params;  // the run as asked, resolved
  bool found = false;
  bool cancelled = false;
  int tried = 0;     // runs in all: search, shrinking, smaller sizes, the delay on the simulator
  int searched = 0;  // of them, looking for a first wrong run
  std::string firstWrong;  // the schedule of the first wrong run found ("random:3")
  Message why;             // not found: why, in one sentence

  StallSchedule stall;         // the witness
  bool smallest = false;       // every stall schedule of a smaller size was run; none failed
  int smallerChecked = 0;      // how many that was
  long long smallerTotal = 0;  // how many there are (more than the limit: none was run)
  std::vector<StallSchedule> oneStepSmaller;  // run after shrinking: none failed
  // Lane schedules, none wrong among the random ones: every lane:T:S:K with K up to
  // kLaneBoundRounds, for every thread that takes a warp step and every warp step it takes, was
  // run too (laneBound of them); the sentence in `why` says so.
  int laneBound = 0;

  bool readFound = false;  // the witness run has a stale read
  EarlyRead read;
  // The combine whose read came too early, and the barrier that would have held it (the
  // switchable barrier, or where the lanes of a warp meet, the switchable __syncwarp), and
  // whether the run had that barrier on.
  KernelLine combineLine, barrierLine;
  bool barrierOn = true;
  std::shared_ptr<const Trace> trace;  // the witness run, traced
  std::string replay;  // "rlab run barrier --n 8 --no-barrier --schedule stall:4:1:1"

  // The same failure as a pause: the thread whose write was missed, before that level.
  Params delayed;            // the run with --delay (delayThread -1: nothing to delay)
  std::string delayCommand;  // "rlab race barrier --n 8 --no-barrier --delay 4:2 --backend gpu"
  bool delayWrongOnSimulator = false;  // lockstep with the pause: wrong, as the witness is
  double delayResultOnSimulator = 0;
  GpuForcing gpu;
};

// The bound of the exhaustive lane search: a lane late by 1 to this many rounds.
inline constexpr int kLaneBoundRounds = 3;

struct WitnessOptions {
  int searchRuns = 100;      // random schedules tried for a first wrong run (after the run's own)
  int smallerLimit = 20000;  // stall schedules of a smaller size run at most, to prove minimality
  int gpuRuns = 0;           // > 0 and a GPU asked for: force the witness on it, that many runs
};

// Called after every run with the runs so far and the estimated fraction done; false cancels.
using WitnessProgress = std::function<bool(int tried, float fraction)>;

// The search runs on the simulator whatever the params' backend; the GPU is used only to force
// the witness (options.gpuRuns, params.backend gpu or auto). Throws ParamError for bad params,
// sim::LaunchError when a run cannot finish.
Witness findWitness(const Params& params, const WitnessOptions& options = {},
                    const WitnessProgress& progress = {});

// `rlab COMMAND ...` with only what differs from the defaults: "rlab run barrier --n 8
// --no-barrier --schedule stall:4:2:1".
std::string rlabLine(const std::string& command, const Params& params);

}  // namespace rlab
