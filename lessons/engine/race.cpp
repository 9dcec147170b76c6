#include "lessons/engine/race.hpp"

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run.hpp"

namespace rlab {

bool racyByDesign(const Params& params) {
  const LessonInfo* lesson = findLesson(params.lesson);
  const VariantInfo* variant =
      lesson ? lesson->findVariant(params.variant.empty() ? lesson->variants.front().id
                                                          : params.variant)
             : nullptr;
  return variant && variant->barrierSwitch && !params.barrier;
}

RaceResult runRace(const Params& params, int runs, size_t keepWrong,
                   const std::function<bool(int)>& done, RaceSchedules schedules) {
  if (!isAssociative(params.op))
    throw ParamError("A race is counted against one right answer, and --op " +
                     std::string(name(params.op)) +
                     " has none (it is a demonstration): use sum, max, min or product.");
  RaceResult race;
  const bool vary = schedules != RaceSchedules::AsGiven;
  const std::string kind = schedules == RaceSchedules::VaryWarps ? "warps-random:" : "random:";
  for (int k = 1; k <= runs; ++k) {
    Params p = params;
    if (vary) p.schedule = kind + std::to_string(k);  // the simulator's only; a GPU ignores it
    p.trace = race.wrongRuns.size() < keepWrong;
    p.timed = false;
    auto t = std::make_shared<const Trace>(runLesson(p));
    ++race.runs;
    ++race.histogram[t->result];
    race.params = t->params;
    race.backend = t->backend;
    race.device = t->backend == "sim" ? "the CPU SIMT simulator" : t->device;
    race.schedules =
        t->backend == "gpu" ? "The GPU scheduled every run itself."
        : vary              ? "Each run had a schedule of its own: " + kind + "1 to " + kind +
                     std::to_string(k) + "."
               : "Every run had the schedule " + p.schedule +
                     ": the simulator is deterministic, so every run gives the same result.";
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
