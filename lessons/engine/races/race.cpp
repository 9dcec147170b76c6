#include "lessons/engine/races/race.hpp"

#include <algorithm>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab {

RaceResult runRace(const Params& params, int runs, size_t keepWrong,
                   const std::function<bool(int)>& done, RaceSchedules schedules) {
  if (!isAssociative(params.op))
    throw ParamError(Message("race.no-right-answer", {{"op", name(params.op)}}));
  RaceResult race;
  const bool vary = schedules != RaceSchedules::AsGiven;
  const bool lanes = lessonOrThrow(params.lesson).laneSchedules;
  const std::string kind = schedules == RaceSchedules::VaryWarps ? "warps-random:"
                           : lanes                               ? "lanes-random:"
                                                                 : "random:";
  for (int k = 1; k <= runs; ++k) {
    Params p = params;
    if (vary) p.schedule = kind + std::to_string(k);  // the simulator's only; a GPU ignores it
    p.trace = race.wrongRuns.size() < keepWrong;
    p.timed = false;
    p.detectRaces = true;
    auto t = std::make_shared<const Trace>(runLesson(p));
    ++race.runs;
    if (t->racesLooked) race.raced = std::max(race.raced, 0) + (t->racingAccesses > 0 ? 1 : 0);
    ++race.histogram[t->result];
    race.params = t->params;
    race.backend = t->backend;
    race.device = t->backend == BackendChoice::Sim ? Message("race.simulator") : t->device;
    race.schedules = t->backend == BackendChoice::Gpu ? Message("race.gpu-schedules")
                     : vary                           ? Message("race.schedules-varied",
                                                                {{"first", kind + "1"}, {"last", kind + std::to_string(k)}})
                            : Message("race.schedule-given", {{"schedule", p.schedule}});
    race.expected = t->expected;
    race.tolerance = t->tolerance;
    if (!t->correct) {
      ++race.wrong;
      if (t->traced && race.wrongRuns.size() < keepWrong) race.wrongRuns.push_back(std::move(t));
    }
    if (done && !done(k)) break;
  }
  return race;
}

}  // namespace rlab
