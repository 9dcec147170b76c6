// Races, counted: one lesson run many times (on the simulator, under a different random
// schedule each time unless one was chosen), the distinct results and the wrong runs.
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// Results in increasing order, NaN after every number and all NaNs as one result. With
// std::less a NaN key is "equivalent" to every key, so NaN runs were counted under whichever
// result the map compared them with.
struct ResultOrder {
  bool operator()(double a, double b) const { return std::isnan(b) ? !std::isnan(a) : a < b; }
};

struct RaceResult {
  Params params;                               // as resolved by the runs
  BackendChoice backend = BackendChoice::Sim;  // the one that ran
  Message device;     // "the CPU SIMT simulator", or the GPU's name, capability and memory
  Message schedules;  // how the runs were scheduled, in one sentence
  int runs = 0;       // fewer than asked when cancelled
  int wrong = 0;
  // Runs in which the simulator's race detector found a race, whatever their sum (-1: it did
  // not look: a GPU, or a build whose lesson kernels lack its hooks).
  int raced = -1;
  double expected = 0;
  double tolerance = 0;  // a result this close to `expected` is right (floats; 0 for ints)
  std::map<double, int, ResultOrder> histogram;         // result -> how many runs gave it
  std::vector<std::shared_ptr<const Trace>> wrongRuns;  // the first few, traced
};

// On the simulator a run is fully determined by its schedule: Vary gives run k the schedule
// random:k (lanes-random:k where the lesson's races are between the lanes of a warp, so that
// the lanes part only where they meet with no barrier), VaryWarps warps-random:k (a random warp's
// lanes advance together, as a GPU's warp runs its lanes), AsGiven repeats the params' schedule
// (every run then gives the same result). A GPU schedules its threads itself.
enum class RaceSchedules { Vary, VaryWarps, AsGiven };

// `done(k)` is called after run k (1-based); returning false cancels. Throws as runLesson does.
RaceResult runRace(const Params& params, int runs, size_t keepWrong,
                   const std::function<bool(int)>& done = {},
                   RaceSchedules schedules = RaceSchedules::Vary);

}  // namespace rlab
