// [SECTION] Stall schedules and their size
// [SECTION] The search: a first wrong run, a stall that fails, shrinking, smaller sizes
// [SECTION] Command lines
//
// The witness found is described (its early read, kernel lines and delay) in
// witness_describe.cpp.

#include "lessons/engine/races/witness.hpp"

#include <algorithm>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/races/witness_search.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"

namespace rlab {

// ============================================================================================
// [SECTION] Stall schedules and their size
// ============================================================================================

std::string StallSchedule::str() const {
  if (rounds == 0) return "lockstep";
  return (lane ? "lane:" : "stall:") + std::to_string(thread) + ":" + std::to_string(from) + ":" +
         std::to_string(rounds);
}

bool StallSchedule::smallerThan(const StallSchedule& other) const {
  if (rounds != other.rounds) return rounds < other.rounds;
  if (rounds == 0) return false;  // every lockstep is the same schedule
  return from < other.from;
}

std::vector<StallSchedule> StallSchedule::oneStepSmaller() const {
  std::vector<StallSchedule> smaller;
  if (rounds >= 2) {
    smaller.push_back({thread, from, rounds - 1, lane});      // the last round not sat out
    smaller.push_back({thread, from + 1, rounds - 1, lane});  // the first round not sat out
  }
  if (rounds >= 1 && from >= 2) smaller.push_back({thread, from - 1, rounds, lane});
  return smaller;
}

// ============================================================================================
// [SECTION] The search: a first wrong run, a stall that fails, shrinking, smaller sizes
// ============================================================================================

namespace {

using witness_search::Cancelled;
using witness_search::firstEarlyRead;
using witness_search::Runner;

// Rounds run so far toward a fraction that approaches 1: for phases of unknown length.
float approaching(int runs) {
  return 1.f - 1.f / (1.f + float(runs) / 8.f);
}

// Delta debugging on the rounds thread T sits out, kept as one stretch of rounds (a stall
// schedule can only say that): try each half of the stretch, then, finer and finer, each
// piece and the stretch less a piece at either end, until no single round can go. Returns a
// failing stall no larger than `start`.
StallSchedule shrink(StallSchedule s, Runner& run) {
  int runs = 0;
  auto fails = [&](const StallSchedule& c) { return !run.right(c, approaching(++runs)); };
  int pieces = 2;
  while (s.rounds >= 2) {
    const int piece = (s.rounds + pieces - 1) / pieces;
    bool reduced = false;
    for (int at = 0; at < s.rounds && !reduced; at += piece) {  // one piece alone
      const StallSchedule c{s.thread, s.from + at, std::min(piece, s.rounds - at), s.lane};
      if (c.rounds < s.rounds && fails(c)) {
        s = c;
        pieces = 2;
        reduced = true;
      }
    }
    if (!reduced && pieces > 2) {  // the stretch less its first or its last piece
      for (const StallSchedule& c :
           {StallSchedule{s.thread, s.from + piece, s.rounds - piece, s.lane},
            StallSchedule{s.thread, s.from, s.rounds - piece, s.lane}})
        if (!reduced && c.rounds >= 1 && fails(c)) {
          s = c;
          pieces = std::max(pieces - 1, 2);
          reduced = true;
        }
    }
    if (reduced) continue;
    if (pieces >= s.rounds) break;
    pieces = std::min(pieces * 2, s.rounds);
  }
  // Then step down while a schedule one step smaller still fails: what is left is a witness
  // none of whose one-step-smaller schedules fails.
  for (bool moved = true; moved;) {
    moved = false;
    for (const StallSchedule& c : s.oneStepSmaller())
      if (fails(c)) {
        s = c;
        moved = true;
        break;
      }
  }
  return s;
}

// The stall schedules of a smaller size than `s`, over every thread, in size order; the first
// that fails, or `s`. Rounds past the lockstep run's last change nothing and are left out.
StallSchedule smallestBelow(StallSchedule s, int threads, int lastRound, Runner& run, Witness& w,
                            int limit) {
  long long total = 0;
  for (int k = 1; k <= s.rounds; ++k)
    total += (long long)threads * (k < s.rounds ? lastRound : std::min(s.from - 1, lastRound));
  w.smallerTotal = total;
  if (total > limit) return s;
  int checked = 0;
  for (int k = 1; k <= s.rounds; ++k) {
    const int lastFrom = k < s.rounds ? lastRound : std::min(s.from - 1, lastRound);
    for (int from = 1; from <= lastFrom; ++from)
      for (int t = 0; t < threads; ++t) {
        const StallSchedule c{t, from, k, s.lane};
        ++checked;
        if (!run.right(c, float(checked) / float(std::max<long long>(total, 1)))) {
          // Every schedule before it in size order passed; those of its own size (the lower
          // threads) are not smaller than it.
          w.smallerChecked = w.smallerTotal = checked - 1 - t;
          w.smallest = true;
          return c;
        }
      }
  }
  w.smallerChecked = checked;
  w.smallest = true;
  return s;
}

// Of the witnesses of one size, one whose reader is in another warp than the thread it read too
// early from, where the block has several warps: pausing that thread on a GPU then cannot hold
// the reader back, whatever the GPU does with the rest of the paused thread's warp. The same
// stall, if none is.
StallSchedule acrossWarps(const StallSchedule& s, int threads, Runner& run) {
  if (threads <= 32 || s.rounds == 0 || s.lane) return s;  // a lane's race is within its warp
  auto crosses = [&](const StallSchedule& c) {
    EarlyRead r;
    return firstEarlyRead(*run.traced(c.str(), -1.f), r) && r.missedWriter >= 0 &&
           r.reader / 32 != r.missedWriter / 32;
  };
  if (crosses(s)) return s;
  for (int t = 0; t < threads; ++t) {
    const StallSchedule c{t, s.from, s.rounds, s.lane};
    if (t != s.thread && !run.right(c, float(t) / float(threads)) && crosses(c)) return c;
  }
  return s;
}

// The stall that makes the run fail, to start shrinking from: the thread whose write the wrong
// run missed first (or each thread in turn), late by as many rounds as the run has, from each
// round in turn.
bool firstFailingStall(Runner& run, const std::vector<int>& threads, int lastRound, bool lane,
                       StallSchedule& found) {
  int runs = 0;
  for (int t : threads)
    for (int from = 1; from <= lastRound; ++from) {
      const StallSchedule c{t, from, lastRound, lane};
      if (!run.right(c, approaching(++runs))) {
        found = c;
        return true;
      }
    }
  return false;
}

// What the search's phases share: the run as searched (on the simulator), the random schedules
// it draws from, and the threads and rounds a stall may name (known after the lockstep run).
struct Search {
  const Params& base;
  const WitnessOptions& options;
  Runner& run;
  Witness& w;
  float searchEnd = 1.f;  // where the search's part of the bar ends (the GPU's follows)
  bool lanes = false;
  std::string randomFamily;  // "random:" or "lanes-random:"
  int threads = 0, lastRound = 1;
  bool lockstepWrong = false, lockstepRan = false;
};

// 1. A first wrong run: the run's own schedule, lockstep, then random ones.
void searchFirstWrong(Search& s) {
  std::vector<std::string> schedules = {s.base.schedule};
  if (s.base.schedule != "lockstep") schedules.push_back("lockstep");
  for (int k = 1; k <= s.options.searchRuns; ++k)
    schedules.push_back(s.randomFamily + std::to_string(k));
  for (const std::string& schedule : schedules) {
    ++s.w.searched;
    const bool wrong = !s.run.right(schedule, float(s.w.searched) / float(schedules.size()));
    if (schedule == "lockstep") {
      s.lockstepWrong = wrong;
      s.lockstepRan = true;
    }
    if (wrong) {
      s.w.firstWrong = schedule;
      break;
    }
  }
}

// No wrong run: the runs, and the schedules they tried.
void sayNoneFound(Search& s) {
  Witness& w = s.w;
  w.tried = s.run.tried();
  const std::string first = s.randomFamily + "1",
                    last = s.randomFamily + std::to_string(s.options.searchRuns);
  w.why = s.lanes ? Message("witness.none-wrong-lanes", {{"tried", w.tried},
                                                         {"first", first},
                                                         {"last", last},
                                                         {"rounds", kLaneBoundRounds},
                                                         {"threads", s.threads},
                                                         {"steps", s.lastRound}})
                  : Message("witness.none-wrong",
                            {{"tried", w.tried}, {"first", first}, {"last", last}});
}

// How many rounds the run has (stalls after the last change nothing), from a lockstep run.
void countRounds(Search& s) {
  Params lockstep = s.base;
  lockstep.schedule = "lockstep";
  const auto lockstepRun = s.run.traced(lockstep, -1.f);
  // Lane schedules hold only threads that take warp steps, and only after one they take.
  if (s.lanes)
    s.threads = int(std::min<unsigned>(lockstepRun->timings.simWarpStepThreads, s.base.block));
  s.lastRound = int(std::max<unsigned long long>(
      s.lanes ? lockstepRun->timings.simWarpSteps : lockstepRun->timings.simRounds, 1));
}

// None at random: every lane late by 1 to kLaneBoundRounds rounds after each warp step, until
// one fails.
bool laneBoundStart(Search& s, StallSchedule& start) {
  s.run.phase(0.3f * s.searchEnd, 0.5f * s.searchEnd);
  const int total = s.threads * s.lastRound * kLaneBoundRounds;
  for (int k = 1; k <= kLaneBoundRounds; ++k)
    for (int from = 1; from <= s.lastRound; ++from)
      for (int t = 0; t < s.threads; ++t) {
        const StallSchedule c{t, from, k, true};
        ++s.w.laneBound;
        if (!s.run.right(c, float(s.w.laneBound) / float(std::max(total, 1)))) {
          start = c;
          s.w.firstWrong = c.str();
          return true;
        }
      }
  return false;
}

// 2. A stall schedule that fails: the first wrong run's own, where it is one of the kind
// searched; else one late thread found by trying them.
bool failingStall(Search& s, StallSchedule& start) {
  const sim::Schedule given = sim::Schedule::parse(s.w.firstWrong);
  const auto wanted = s.lanes ? sim::Schedule::Kind::Lane : sim::Schedule::Kind::Stall;
  if (given.kind == wanted && given.stallRounds > 0) {
    start = {int(given.stallThread), int(given.stallRound), int(given.stallRounds), s.lanes};
    return true;
  }
  // The thread whose write the wrong run missed first is the likely late one.
  std::vector<int> order;
  EarlyRead hint;
  if (firstEarlyRead(*s.run.traced(s.w.firstWrong, -1.f), hint) && hint.missedWriter >= 0 &&
      hint.missedWriter < s.threads)
    order.push_back(hint.missedWriter);
  if (firstFailingStall(s.run, order, s.lastRound, s.lanes, start)) return true;
  order.clear();
  for (int t = 0; t < s.threads; ++t)
    if (t != hint.missedWriter) order.push_back(t);
  return firstFailingStall(s.run, order, s.lastRound, s.lanes, start);
}

// 3. Shrink the failing stall; 4. rule out every smaller size; then, of the witnesses of its
// size, prefer one whose reader is in another warp.
void minimise(Search& s, const StallSchedule& start) {
  Witness& w = s.w;
  w.stall = shrink(start, s.run);
  w.oneStepSmaller = w.stall.oneStepSmaller();
  s.run.phase(0.5f * s.searchEnd, 0.8f * s.searchEnd);
  w.stall =
      smallestBelow(w.stall, s.threads, s.lastRound, s.run, w, std::max(s.options.smallerLimit, 0));
  s.run.phase(0.8f * s.searchEnd, 0.9f * s.searchEnd);
  w.stall = acrossWarps(w.stall, s.threads, s.run);
  w.oneStepSmaller = w.stall.oneStepSmaller();
}

}  // namespace

Witness findWitness(const Params& params, const WitnessOptions& options,
                    const WitnessProgress& progress) {
  Witness w;
  const Resolved resolved = resolve(params);
  w.params = resolved.params;
  Params base = resolved.params;  // the search: always the simulator, never timed
  base.backend = BackendChoice::Sim;
  base.timed = false;
  base.trace = false;
  const bool gpuToo = options.gpuRuns > 0 && params.backend != BackendChoice::Sim;
  const bool lanes = lessonOrThrow(base.lesson).laneSchedules;
  Runner run(base, progress);
  Search s{.base = base,
           .options = options,
           .run = run,
           .w = w,
           .searchEnd = gpuToo ? 0.8f : 1.f,
           .lanes = lanes,
           .randomFamily = lanes ? "lanes-random:" : "random:",
           .threads = base.block};
  try {
    run.phase(0, 0.3f * s.searchEnd);
    searchFirstWrong(s);
    if (w.firstWrong.empty() && !lanes) {
      sayNoneFound(s);
      return w;
    }
    countRounds(s);
    StallSchedule start;
    bool haveStart = false;
    if (w.firstWrong.empty() && lanes) haveStart = laneBoundStart(s, start);
    if (w.firstWrong.empty()) {
      sayNoneFound(s);
      return w;
    }
    if (!s.lockstepRan) s.lockstepWrong = !run.right("lockstep", 1.f);  // size 0: does it pass?

    // 2. A stall schedule that fails; 3. shrink it; 4. rule out every smaller size.
    run.phase(0.3f * s.searchEnd, 0.5f * s.searchEnd);
    if (s.lockstepWrong) {
      w.stall = {0, 1, 0};  // no thread need be late: lockstep itself is wrong (perturbed)
      w.smallest = true;
    } else {
      if (!haveStart) haveStart = failingStall(s, start);
      if (!haveStart) {
        w.tried = run.tried();
        w.why = Message(lanes ? "witness.no-single-late-lane" : "witness.no-single-late",
                        {{"schedule", w.firstWrong}});
        return w;
      }
      minimise(s, start);
    }
    w.found = true;
    run.phase(0.8f * s.searchEnd, s.searchEnd);
    witness_search::describe(params, base, options, run, w);
  } catch (const Cancelled&) {
    w.found = false;
    w.cancelled = true;
    w.why = Message("witness.cancelled", {{"runs", run.tried()}});
  }
  w.tried = run.tried();
  return w;
}

// ============================================================================================
// [SECTION] Command lines
// ============================================================================================

std::string rlabLine(const std::string& command, const Params& params) {
  Params p = params;
  p.timed = true;  // a replay needs no --no-timings: the simulator never times
  try {
    const LessonInfo& lesson = lessonOrThrow(p.lesson);
    const Resolved r = resolve(p);
    p = r.params;
    p.timed = true;
    Params chosen = p;
    chosen.block = 0;
    if (resolve(chosen).params.block == p.block) p.block = 0;
    if (p.variant == lesson.variants.front().id) p.variant.clear();
    if (!p.values.empty()) p.n = 0;
  } catch (const std::exception&) {
    // as given
  }
  const std::vector<std::string> args = runArguments(p);
  std::string line = "rlab " + command;
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    const std::string next = k + 1 < args.size() ? args[k + 1] : "";
    const bool isDefault = (a == "--op" && next == "sum") || (a == "--type" && next == "int") ||
                           (a == "--data" && next == "iota") ||
                           (a == "--schedule" && next == "lockstep") ||
                           (a == "--backend" && next == "sim");
    if (isDefault) {
      ++k;
      continue;
    }
    line += " " + a;
  }
  return line;
}

}  // namespace rlab
