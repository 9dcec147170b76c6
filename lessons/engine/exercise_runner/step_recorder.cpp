// StepRecorder (drivers.hpp): the steps of one run of the learner's kernel, who worked in each,
// and where the run's first race shows.

#include "lessons/engine/exercise_runner/drivers.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "lessons/engine/exercise_runner/fenced.hpp"

namespace rlab::exercise {

namespace {

int intAt(uintptr_t address) {
  int value = 0;
  std::memcpy(&value, reinterpret_cast<const void*>(address), sizeof value);
  return value;
}

}  // namespace

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
  sendStored();
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
  sendStored();
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
  ++launch_;
}

void StepRecorder::access(const sim::ThreadAccess& a) {
  if (accessSink_) {
    sendStored();  // the stores before this access are in memory now: no thread ran between
    keep(a);
    if (!a.write) sendStored();
  }
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

void StepRecorder::keepAccesses(AccessSink sink, size_t limit) {
  accessSink_ = std::move(sink);
  accessLimit_ = limit;
}

void StepRecorder::keep(const sim::ThreadAccess& a) {
  // The arrays are of ints: a narrower access (a __shared__ bool of the kernel's own) is no
  // element of theirs.
  if (a.bytes < sizeof(int)) return;
  std::string array;
  long long first = 0;
  if (a.shared) {
    array = a.sharedVariable && !a.sharedVariable->empty() ? *a.sharedVariable : "__shared__";
    first = (long long)(a.sharedOffset / sizeof(int));
  } else {
    const FenceHit hit = findFence(a.address);
    if (!hit.found || hit.index < 0 || size_t(hit.index) >= hit.count) return;
    array = hit.name;
    first = hit.index;
  }
  ++ticks_;
  const auto barriers = barriers_.find(a.block);
  for (unsigned k = 0; k < a.bytes / sizeof(int); ++k) {
    if (kept_.size() >= accessLimit_) {
      ++accessesLeft_;
      continue;
    }
    KeptAccess kept;
    MemoryAccess& m = kept.access;
    m.tick = ticks_;
    m.launch = launch_;
    m.block = a.block;
    m.thread = a.thread;
    m.phase = barriers == barriers_.end() ? 0 : barriers->second;
    m.kind = a.atomic  ? MemoryAccess::Kind::Atomic
             : a.write ? MemoryAccess::Kind::Write
                       : MemoryAccess::Kind::Read;
    m.array = array;
    m.shared = a.shared;
    m.element = first + k;
    kept.address = a.address + k * sizeof(int);
    kept.instruction = a.instruction;
    if (!a.write) {  // the race detector has read these bytes already: they are the kernel's
      m.value = intAt(kept.address);
      m.valueKnown = true;
    }
    kept_.push_back(std::move(kept));
  }
}

// A store's hook comes before the store; by the next hook, barrier or launch end its thread
// has made it (a thread runs on to its next access or synchronisation before another runs).
void StepRecorder::sendStored() {
  for (; unsent_ < kept_.size(); ++unsent_) {
    KeptAccess& kept = kept_[unsent_];
    if (!kept.access.valueKnown) {
      kept.access.value = intAt(kept.address);
      kept.access.valueKnown = true;
    }
    accessSink_(kept.access, kept.instruction);
  }
}

// The race's two accesses among those kept: the first access that matches its second (thread,
// instruction, bytes) with one that matches its first before it; of those, the latest.
void StepRecorder::findRaceTicks(const sim::Race& r) {
  auto matches = [&](const KeptAccess& k, const sim::RaceAccess& a) {
    return k.access.launch == launch_ && k.access.block == a.block && k.access.thread == a.thread &&
           k.instruction == a.instruction && r.address >= k.address &&
           r.address < k.address + sizeof(int);
  };
  for (const KeptAccess& later : kept_) {
    if (!matches(later, r.later)) continue;
    const KeptAccess* earlier = nullptr;
    for (const KeptAccess& k : kept_) {
      if (k.access.tick >= later.access.tick) break;
      if (matches(k, r.earlier)) earlier = &k;
    }
    if (earlier) {
      raceTicks_ = {earlier->access.tick, later.access.tick};
      return;
    }
  }
}

void StepRecorder::noteRace(const sim::LaunchStats& stats, const Shown& launchEnd) {
  if (stats.races.empty()) return;
  if (accessSink_ && !raceFound_) findRaceTicks(stats.races.front());
  raceFound_ = true;  // the run's first race is the launch's that had one first
  if (raceMark_) return;
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
