// What the witness search (witness.cpp) and the description of the witness it found
// (witness_describe.cpp) share: the runner that runs the lesson under one schedule after
// another, and the first read of a trace that came too early.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "lessons/engine/races/witness.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab::witness_search {

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
bool firstEarlyRead(const Trace& t, EarlyRead& out);

// The witness run traced, its early read, the kernel's lines, the replay line, and the pause
// that forces the same read (on the GPU too where options.gpuRuns asks).
void describe(const Params& asked, const Params& base, const WitnessOptions& options, Runner& run,
              Witness& w);

}  // namespace rlab::witness_search
