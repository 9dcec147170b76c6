// StepRecorder (drivers.hpp): the steps of one run of the learner's kernel, who worked in each,
// and where the run's first race shows.

#include "lessons/engine/exercise_runner/drivers.hpp"

#include <algorithm>
#include <climits>

#include "lessons/engine/exercise_runner/fenced.hpp"

namespace rlab::exercise {

void StepRecorder::take(StepSnapshot step) {
  if (taken_ >= limit_) {
    ++left_;
    return;
  }
  ++taken_;
  sink_(step);
}

// A step showing `count` ints from `values`, who worked in it not yet said.
StepSnapshot StepRecorder::snapshot(const Message& label, const int* values, size_t count) {
  StepSnapshot step;
  step.label = label;
  step.values.assign(values, values + count);
  return step;
}

void StepRecorder::add(const Message& label, const int* values, size_t count) {
  take(snapshot(label, values, count));
}

int StepRecorder::nextBarrier(unsigned block) {
  return ++barriers_[block];
}

void StepRecorder::addAtBarrier(const Message& label, const int* values, size_t count,
                                unsigned block, int barrier, const Shown& shown) {
  if (taken_ < limit_) barrierSteps_[{block, barrier}] = {taken_, shown};
  StepSnapshot step = snapshot(label, values, count);
  if (const auto made = pending_.find(block); made != pending_.end()) {
    addWork(step, made->second, shown.shared ? values : shown.global, count, shown.shared);
    pendingCount_ -= made->second.size();
    pending_.erase(made);
  }
  take(std::move(step));
}

void StepRecorder::addAtLaunchEnd(const Message& label, const int* values, size_t count,
                                  const Shown& shown) {
  StepSnapshot step = snapshot(label, values, count);
  std::vector<sim::ThreadAccess> made;
  for (auto& [block, accesses] : pending_)
    made.insert(made.end(), accesses.begin(), accesses.end());
  addWork(step, made, values, count, shown.shared);
  pending_.clear();
  pendingCount_ = 0;
  take(std::move(step));
}

void StepRecorder::newLaunch(int blockThreads) {
  barriers_.clear();
  barrierSteps_.clear();
  pending_.clear();
  pendingCount_ = 0;
  blockThreads_ = std::max(1, blockThreads);
}

void StepRecorder::access(const sim::ThreadAccess& a) {
  if (pendingCount_ >= kAccessesKept) return;
  pending_[a.block].push_back(a);
  ++pendingCount_;
}

void StepRecorder::addWork(StepSnapshot& step, const std::vector<sim::ThreadAccess>& made,
                           const int* first, size_t count, bool shared) const {
  if (!first || count == 0) return;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(first), end = begin + count * sizeof(int);
  // Per thread, the elements it read and wrote, in the order it first touched them.
  struct Touched {
    std::vector<int> read, written;
  };
  std::map<long long, Touched> threads;
  auto note = [](std::vector<int>& list, int element) {
    if (std::find(list.begin(), list.end(), element) == list.end()) list.push_back(element);
  };
  for (const sim::ThreadAccess& a : made) {
    if (a.address < begin || a.address >= end) continue;
    const int element = int((a.address - begin) / sizeof(int));
    const long long thread =
        shared ? (long long)a.thread : (long long)a.block * blockThreads_ + a.thread;
    Touched& t = threads[thread];
    // An atomic reads and writes its element: a write, with no pair of its own.
    note(a.write || a.atomic ? t.written : t.read, element);
  }
  // A thread that reads a long stretch (a loop over the array) would draw a fan of arcs: the
  // pairs of its first few reads stand for them; the step's pairs stay few enough to draw.
  constexpr size_t kReadsPaired = 8, kPairsKept = 4096;
  for (const auto& [thread, t] : threads) {
    if (thread <= INT_MAX) step.active.push_back(int(thread));
    for (int target : t.written)
      for (size_t k = 0; k < t.read.size() && k < kReadsPaired; ++k)
        if (t.read[k] != target && step.pairs.size() < kPairsKept)
          step.pairs.emplace_back(t.read[k], target);
  }
}

void StepRecorder::noteRace(const sim::LaunchStats& stats, const Shown& launchEnd) {
  if (raceMark_ || stats.races.empty()) return;
  const sim::Race& r = stats.races.front();
  // Where the race's element is in what a step shows, if that step shows its array.
  auto elementIn = [&r](const Shown& shown) -> std::optional<long long> {
    if (r.shared) {
      if (!shown.shared || r.variable.empty() || r.variable != shown.name) return std::nullopt;
      return (long long)(r.offset / std::max(r.later.bytes, 1u));
    }
    const FenceHit hit = findFence(r.address);
    if (shown.shared || !hit.found || hit.index < 0) return std::nullopt;
    const int* first = reinterpret_cast<const int*>(r.address) - hit.index;
    if (first != shown.global) return std::nullopt;
    return hit.index;
  };
  // The second access was made after the block's `epoch`-th barrier: the state after it is in
  // the step of its next barrier, or, where it passed no more, the launch's last step.
  const auto next = barrierSteps_.find({r.later.block, int(r.later.epoch) + 1});
  if (next != barrierSteps_.end()) {
    if (const std::optional<long long> e = elementIn(next->second.second))
      raceMark_ = RaceMark{next->second.first, *e, next->second.second.name};
    return;
  }
  if (taken_ < limit_)
    if (const std::optional<long long> e = elementIn(launchEnd)) {
      raceMark_ = RaceMark{taken_, *e, launchEnd.name};
      return;
    }
  // A race in a block's shared memory after its last barrier: no step shows the array after
  // it, so the block's last step that shows it carries the mark.
  const auto last = barrierSteps_.find({r.later.block, int(r.later.epoch)});
  if (last != barrierSteps_.end())
    if (const std::optional<long long> e = elementIn(last->second.second))
      raceMark_ = RaceMark{last->second.first, *e, last->second.second.name};
}

}  // namespace rlab::exercise
