// Races, counted: one lesson run many times (on the simulator, under a different random
// schedule each time unless one was chosen), the distinct results and the wrong runs.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lessons/params.hpp"
#include "lessons/trace.hpp"

namespace rlab {

struct RaceResult {
  Params params;  // as resolved by the runs
  std::string backend, device;
  int runs = 0;  // fewer than asked when cancelled
  int wrong = 0;
  double expected = 0;
  std::map<double, int> histogram;                      // result -> how many runs gave it
  std::vector<std::shared_ptr<const Trace>> wrongRuns;  // the first few, traced
};

// `done(k)` is called after run k (1-based); returning false cancels. Throws as runLesson does.
RaceResult runRace(const Params& params, int runs, size_t keepWrong,
                   const std::function<bool(int)>& done = {});

}  // namespace rlab
