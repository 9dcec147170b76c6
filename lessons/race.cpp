#include "lessons/race.hpp"

#include "lessons/run.hpp"

namespace rlab {

RaceResult runRace(const Params& params, int runs, size_t keepWrong,
                   const std::function<bool(int)>& done) {
  RaceResult race;
  for (int k = 1; k <= runs; ++k) {
    Params p = params;
    if (p.backend != BackendChoice::Gpu && p.schedule == "lockstep")
      p.schedule = "random:" + std::to_string(k);  // a different interleaving each run
    p.trace = race.wrongRuns.size() < keepWrong;
    p.timed = false;
    auto t = std::make_shared<const Trace>(runLesson(p));
    ++race.runs;
    ++race.histogram[t->result];
    race.params = t->params;
    race.backend = t->backend;
    race.device = t->device;
    race.expected = t->expected;
    if (!t->correct) {
      ++race.wrong;
      if (t->traced && race.wrongRuns.size() < keepWrong) race.wrongRuns.push_back(std::move(t));
    }
    if (done && !done(k)) break;
  }
  return race;
}

}  // namespace rlab
