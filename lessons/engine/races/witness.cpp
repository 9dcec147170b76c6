// [SECTION] Stall schedules and their size
// [SECTION] The search: a first wrong run, a stall that fails, shrinking, smaller sizes
// [SECTION] Describing the witness: the early read, the kernel lines, the delay
// [SECTION] Command lines

#include "lessons/engine/races/witness.hpp"

#include <algorithm>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/texts/kernel_body.hpp"
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

struct Cancelled {};

// Runs the lesson under one schedule after another and keeps count; reports progress as a
// fraction of the phase it is in, so that the bar moves through the whole search.
class Runner {
 public:
  Runner(const Params& base, const WitnessProgress& progress) : base_(base), progress_(progress) {}

  // Phase k of the search covers [low, high) of the bar.
  void phase(float low, float high) {
    low_ = low;
    high_ = high;
  }

  // False for a run whose result is wrong.
  bool right(const std::string& schedule, float within) {
    Params p = base_;
    p.schedule = schedule;
    p.trace = false;
    return count(runLesson(p).correct, within);
  }
  bool right(const StallSchedule& s, float within) { return right(s.str(), within); }

  std::shared_ptr<const Trace> traced(const Params& p, float within) {
    auto t = std::make_shared<const Trace>(runLesson(p));
    count(true, within);
    return t;
  }
  std::shared_ptr<const Trace> traced(const std::string& schedule, float within) {
    Params p = base_;
    p.schedule = schedule;
    p.trace = true;
    return traced(p, within);
  }

  int tried() const { return tried_; }
  // Reports progress (`within` the phase; below 0: where it was) and throws Cancelled when the
  // caller says stop. The GPU's runs (runRace's) come through here too.
  void tick(float within) {
    // Never backwards: the phases' own estimates restart as the search moves on.
    if (within >= 0) last_ = std::max(last_, low_ + (high_ - low_) * std::min(within, 1.f));
    if (progress_ && !progress_(tried_, last_)) throw Cancelled{};
  }

 private:
  bool count(bool value, float within) {
    ++tried_;
    tick(within);
    return value;
  }

  Params base_;
  const WitnessProgress& progress_;
  int tried_ = 0;
  float low_ = 0, high_ = 1, last_ = 0;
};

// The first read in step order that came too early: the neighbour's value before its own.
bool firstEarlyRead(const Trace& t, EarlyRead& out) {
  for (size_t k = 1; k < t.steps.size(); ++k)
    for (const CombineRead& c : t.steps[k].combines)
      for (const ValueRead* r : {&c.source, &c.target}) {
        if (!r->stale) continue;
        out.step = int(k);
        out.stepLabel = t.steps[k].label;
        out.reader = c.thread;
        out.element = r->element;
        out.target = c.target.element;
        out.value = r->value;
        out.valueStep = r->writtenAt;
        out.missed = r->missed;
        out.missedWriter = r->missedWriter;
        out.missedStep = r->missedStep;
        out.afterOverwrite = r->overwrittenBy >= 0;
        out.line = c.line;
        out.text = staleReadText(c, *r, t.params.type, t.steps[k].array);
        return true;
      }
  return false;
}

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

// ============================================================================================
// [SECTION] Describing the witness: the early read, the kernel lines, the delay
// ============================================================================================

// The combine that read too early (the line the kernel recorded) and the switchable barrier of
// the variant's kernel, as embedded. Where the lanes of a warp meet without a barrier, the
// __syncwarp() the read needed (switchableSyncwarp; the kernels share the last warp's code): a
// read too early needed the one after the writes, the first after the combine; a read too late
// (after an overwrite) the one between the reads and the writes, the last before it.
void findKernelLines(const Params& p, Witness& w) {
  const LessonInfo& lesson = lessonOrThrow(p.lesson);
  const VariantInfo* variant = lesson.findVariant(p.variant);
  const std::string* source = embeddedFile(lesson.kernelFile);
  if (!variant || !source) return;
  w.barrierOn = variant->warpSynchronous ? variant->syncwarpSwitch && p.syncwarp : p.barrier;
  std::istringstream lines(*source);
  KernelBody kernel(variant->kernelFunction);
  int number = 0;
  KernelLine warpBefore, warpAfter;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const size_t first = line.find_first_not_of(' ');
    const std::string text = first == std::string::npos ? "" : line.substr(first);
    if (w.readFound && number == w.read.line) w.combineLine = {lesson.kernelFile, number, text};
    if (variant->warpSynchronous && text.rfind("switchableSyncwarp(", 0) == 0) {
      if (!w.combineLine.line) warpBefore = {lesson.kernelFile, number, text};
      if (w.combineLine.line && !warpAfter.line) warpAfter = {lesson.kernelFile, number, text};
    }
    if (!kernel.take(line)) continue;
    if (!w.barrierLine.line && line.find("switchableBarrier(") != std::string::npos)
      w.barrierLine = {lesson.kernelFile, number, text};
  }
  if (variant->warpSynchronous)
    w.barrierLine = w.read.afterOverwrite || !warpAfter.line ? warpBefore : warpAfter;
}

void forceOnGpu(const Params& asked, Witness& w, int runs, Runner& run) {
  GpuForcing& g = w.gpu;
  g.runs = runs;
  if (w.delayed.delayThread < 0) {
    g.why = Message("witness.nothing-to-force");
    return;
  }
  if (asked.backend == BackendChoice::Auto) {
    const GpuProbe probe = probeGpu();
    if (!probe.usable) {
      g.why = probe.why;
      return;
    }
  }
  Params delayed = w.delayed, plain = asked;
  delayed.backend = plain.backend = BackendChoice::Gpu;
  plain.delayThread = -1;
  try {
    int done = 0;
    auto tick = [&](int) {
      run.tick(float(++done) / float(2 * runs));
      return true;
    };
    const RaceResult with = runRace(delayed, runs, 0, tick);
    const RaceResult without = runRace(plain, runs, 0, tick);
    g.ran = true;
    g.device = with.device;
    g.wrongDelayed = with.wrong;
    g.wrongPlain = without.wrong;
  } catch (const GpuUnavailable& e) {
    g.why = e.message();
  }
}

void describe(const Params& asked, const Params& base, const WitnessOptions& options, Runner& run,
              Witness& w) {
  w.trace = run.traced(w.stall.str(), 0.5f);
  w.readFound = firstEarlyRead(*w.trace, w.read);
  findKernelLines(base, w);
  Params replay = base;
  replay.schedule = w.stall.str();
  w.replay = rlabLine("run", replay);

  // The pause that forces the same read on hardware: the thread whose write was missed, before
  // the level it wrote in. The barrier and lastwarp lessons have such a pause (--delay).
  w.delayed = base;
  w.delayed.schedule = "lockstep";
  w.delayed.delayThread = -1;
  const VariantInfo* variant = lessonOrThrow(base.lesson).findVariant(base.variant);
  if (w.readFound && w.read.missedWriter >= 0 && w.read.missedStep >= 1 && variant &&
      variant->delays) {
    w.delayed.delayThread = w.read.missedWriter;
    w.delayed.delayLevel = w.read.missedStep;
    try {
      resolve(w.delayed);
      const auto t = run.traced(w.delayed, 0.9f);
      w.delayWrongOnSimulator = !t->correct;
      w.delayResultOnSimulator = t->result;
      Params onGpu = w.delayed;
      onGpu.backend = BackendChoice::Gpu;
      w.delayCommand = rlabLine("race", onGpu);
    } catch (const ParamError&) {
      w.delayed.delayThread = -1;
    }
  }
  if (options.gpuRuns > 0 && asked.backend != BackendChoice::Sim) {
    run.phase(0.8f, 1.f);
    forceOnGpu(asked, w, options.gpuRuns, run);
  }
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
  const float searchEnd = gpuToo ? 0.8f : 1.f;
  const bool lanes = lessonOrThrow(base.lesson).laneSchedules;
  const std::string randomFamily = lanes ? "lanes-random:" : "random:";
  Runner run(base, progress);
  try {
    // 1. A first wrong run: the run's own schedule, lockstep, then random ones.
    run.phase(0, 0.3f * searchEnd);
    std::vector<std::string> schedules = {base.schedule};
    if (base.schedule != "lockstep") schedules.push_back("lockstep");
    for (int k = 1; k <= options.searchRuns; ++k)
      schedules.push_back(randomFamily + std::to_string(k));
    bool lockstepWrong = false, lockstepRan = false;
    for (const std::string& s : schedules) {
      ++w.searched;
      const bool wrong = !run.right(s, float(w.searched) / float(schedules.size()));
      if (s == "lockstep") {
        lockstepWrong = wrong;
        lockstepRan = true;
      }
      if (wrong) {
        w.firstWrong = s;
        break;
      }
    }
    int threads = base.block, lastRound = 1;
    auto noneFound = [&] {
      w.tried = run.tried();
      const std::string first = randomFamily + "1",
                        last = randomFamily + std::to_string(options.searchRuns);
      w.why = lanes ? Message("witness.none-wrong-lanes", {{"tried", w.tried},
                                                           {"first", first},
                                                           {"last", last},
                                                           {"rounds", kLaneBoundRounds},
                                                           {"threads", threads},
                                                           {"steps", lastRound}})
                    : Message("witness.none-wrong",
                              {{"tried", w.tried}, {"first", first}, {"last", last}});
      return w;
    };
    if (w.firstWrong.empty() && !lanes) return noneFound();
    Params lockstep = base;  // how many rounds the run has: stalls after the last change nothing
    lockstep.schedule = "lockstep";
    const auto lockstepRun = run.traced(lockstep, -1.f);
    // Lane schedules hold only threads that take warp steps, and only after one they take.
    if (lanes)
      threads = int(std::min<unsigned>(lockstepRun->timings.simWarpStepThreads, base.block));
    lastRound = int(std::max<unsigned long long>(
        lanes ? lockstepRun->timings.simWarpSteps : lockstepRun->timings.simRounds, 1));
    StallSchedule start;
    bool haveStart = false;
    if (w.firstWrong.empty() && lanes) {
      // None at random: every lane late by 1 to kLaneBoundRounds rounds after each warp step.
      run.phase(0.3f * searchEnd, 0.5f * searchEnd);
      const int total = threads * lastRound * kLaneBoundRounds;
      for (int k = 1; k <= kLaneBoundRounds && !haveStart; ++k)
        for (int from = 1; from <= lastRound && !haveStart; ++from)
          for (int t = 0; t < threads && !haveStart; ++t) {
            const StallSchedule c{t, from, k, true};
            ++w.laneBound;
            if (!run.right(c, float(w.laneBound) / float(std::max(total, 1)))) {
              start = c;
              haveStart = true;
              w.firstWrong = c.str();
            }
          }
    }
    if (w.firstWrong.empty()) return noneFound();
    if (!lockstepRan) lockstepWrong = !run.right("lockstep", 1.f);  // size 0: does it pass?

    // 2. A stall schedule that fails; 3. shrink it; 4. rule out every smaller size.
    run.phase(0.3f * searchEnd, 0.5f * searchEnd);
    if (lockstepWrong) {
      w.stall = {0, 1, 0};  // no thread need be late: lockstep itself is wrong (perturbed)
      w.smallest = true;
    } else {
      const sim::Schedule given = sim::Schedule::parse(w.firstWrong);
      const auto wanted = lanes ? sim::Schedule::Kind::Lane : sim::Schedule::Kind::Stall;
      if (!haveStart && given.kind == wanted && given.stallRounds > 0) {
        start = {int(given.stallThread), int(given.stallRound), int(given.stallRounds), lanes};
        haveStart = true;
      }
      if (!haveStart) {
        // The thread whose write the wrong run missed first is the likely late one.
        std::vector<int> order;
        EarlyRead hint;
        if (firstEarlyRead(*run.traced(w.firstWrong, -1.f), hint) && hint.missedWriter >= 0 &&
            hint.missedWriter < threads)
          order.push_back(hint.missedWriter);
        haveStart = firstFailingStall(run, order, lastRound, lanes, start);
        if (!haveStart) {
          order.clear();
          for (int t = 0; t < threads; ++t)
            if (t != hint.missedWriter) order.push_back(t);
          haveStart = firstFailingStall(run, order, lastRound, lanes, start);
        }
      }
      if (!haveStart) {
        w.tried = run.tried();
        w.why = Message(lanes ? "witness.no-single-late-lane" : "witness.no-single-late",
                        {{"schedule", w.firstWrong}});
        return w;
      }
      w.stall = shrink(start, run);
      w.oneStepSmaller = w.stall.oneStepSmaller();
      run.phase(0.5f * searchEnd, 0.8f * searchEnd);
      w.stall =
          smallestBelow(w.stall, threads, lastRound, run, w, std::max(options.smallerLimit, 0));
      run.phase(0.8f * searchEnd, 0.9f * searchEnd);
      w.stall = acrossWarps(w.stall, threads, run);
      w.oneStepSmaller = w.stall.oneStepSmaller();
    }
    w.found = true;
    run.phase(0.8f * searchEnd, searchEnd);
    describe(params, base, options, run, w);
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
