// Schedules: which runnable thread of a block advances next. Parsing the names the user types
// ("lockstep", "random:SEED", "stall:T:R:K", "lane:T:S:K") and the one loop that picks threads by
// them (BlockRun::schedule), so that a schedule family is added in this file alone: a name in
// Schedule::parse and str, a Kind in runtime.hpp, and a case below.
// Same schedule + same input = same run, every time: no choice here depends on time or memory.

#include "kernels/sim/runtime.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/sim/detail/block_run.hpp"

namespace rlab::sim {

// ============================================================================================
// Names
// ============================================================================================

namespace {

[[noreturn]] void badSchedule(std::string_view text, const std::string& why,
                              ScheduleError::Why code, const char* field = "") {
  throw ScheduleError(
      "schedule '" + std::string(text) + "' " + why + "; use " + kScheduleHelp + ".", code, field);
}

uint64_t parseNumber(std::string_view whole, std::string_view part, const char* name) {
  if (part.empty() || part.size() > 19 ||
      !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
    badSchedule(whole, std::string("has a malformed ") + name + " (a whole number is expected)",
                ScheduleError::Why::Malformed, name);
  return std::stoull(std::string(part));
}

std::vector<std::string_view> splitColons(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) return parts;
    start = colon + 1;
  }
}

}  // namespace

Schedule Schedule::parse(std::string_view text) {
  auto parts = splitColons(text);
  Schedule s;
  const std::string_view name = parts[0];
  auto expectParts = [&](size_t count) {
    if (parts.size() != count)
      badSchedule(text, "has the wrong number of ':' fields", ScheduleError::Why::Fields);
  };
  if (name == "lockstep" || name == "sequential" || name == "reverse") {
    expectParts(1);
    s.kind = name == "lockstep"     ? Kind::Lockstep
             : name == "sequential" ? Kind::Sequential
                                    : Kind::Reverse;
  } else if (name == "random" || name == "warps-random" || name == "lanes-random") {
    expectParts(2);
    s.kind = name == "random"         ? Kind::Random
             : name == "warps-random" ? Kind::WarpsRandom
                                      : Kind::LanesRandom;
    s.seed = parseNumber(text, parts[1], "seed");
  } else if (name == "stall" || name == "lane") {
    expectParts(4);
    const bool lane = name == "lane";
    s.kind = lane ? Kind::Lane : Kind::Stall;
    const uint64_t thread = parseNumber(text, parts[1], "thread");
    const uint64_t round = parseNumber(text, parts[2], lane ? "warp step" : "round");
    const uint64_t rounds = parseNumber(text, parts[3], "round count");
    if (thread > 1023)
      badSchedule(text, "names a thread past 1023", ScheduleError::Why::ThreadPast1023);
    if (round < 1 || round > 1000000)
      badSchedule(text,
                  lane ? "needs a warp step from 1 to 1000000" : "needs a round from 1 to 1000000",
                  lane ? ScheduleError::Why::StepRange : ScheduleError::Why::RoundRange);
    if (rounds > 1000000)
      badSchedule(text, "sits out more than 1000000 rounds", ScheduleError::Why::TooManyRounds);
    s.stallThread = static_cast<unsigned>(thread);
    s.stallRound = static_cast<unsigned>(round);
    s.stallRounds = static_cast<unsigned>(rounds);
  } else {
    badSchedule(text, "is not a schedule", ScheduleError::Why::NotASchedule);
  }
  return s;
}

std::string Schedule::str() const {
  switch (kind) {
    case Kind::Lockstep:
      return "lockstep";
    case Kind::Sequential:
      return "sequential";
    case Kind::Reverse:
      return "reverse";
    case Kind::Random:
      return "random:" + std::to_string(seed);
    case Kind::WarpsRandom:
      return "warps-random:" + std::to_string(seed);
    case Kind::Stall:
    case Kind::Lane:
      return (kind == Kind::Stall ? "stall:" : "lane:") + std::to_string(stallThread) + ":" +
             std::to_string(stallRound) + ":" + std::to_string(stallRounds);
    case Kind::LanesRandom:
      return "lanes-random:" + std::to_string(seed);
  }
  return "lockstep";
}
// ============================================================================================
// Picking threads by the schedule
// ============================================================================================

namespace detail {

bool BlockRun::schedule() {
  const Schedule& s = options_.schedule;
  constexpr uint64_t kRoundLimit = 100'000'000;  // a kernel that spins forever, not a hang
  uint64_t rounds = 0;
  std::vector<unsigned> runnable;
  runnable.reserve(total_);

  for (;;) {
    // Every thread has exited, or waits at cluster.sync(), which the cluster's run opens.
    if (count(State::AtClusterBarrier) + count(State::Done) == total_) break;
    if (count(State::Runnable) == 0) {
      if (!releaseWaiters()) stuck();
      continue;
    }
    if (++rounds > kRoundLimit)
      fail((blockName().empty() ? "the block" : "block " + std::to_string(blockLinear_)) +
               " made no progress in " + std::to_string(kRoundLimit) +
               " scheduling rounds; does a thread wait forever?",
           failure("sim.no-progress", "sim.no-progress-in-block",
                   {{"rounds", std::to_string(kRoundLimit)}}));
    if (s.usesRounds()) {
      // One round: every runnable thread, in thread order, runs to its next yield point.
      // Nothing becomes runnable during a round: waiters are released after it.
      const bool stalling = s.kind == Schedule::Kind::Stall && rounds >= s.stallRound &&
                            rounds < uint64_t(s.stallRound) + s.stallRounds;
      roundSkips_ = stalling ? s.stallThread : kNoThread;
      // lane:T:S:K: thread T sits out the rounds after its warp step S (countWarpStep).
      if (laneHeld_ > 0 && s.stallThread < total_ && state_[s.stallThread] == State::Runnable) {
        roundSkips_ = s.stallThread;
        --laneHeld_;
      }
      ordered_ = s.kind == Schedule::Kind::LanesRandom;
      if (ordered_) orderLanesAtRandom();
      const unsigned first = ordered_ ? nextOrdered() : nextInRound(0);
      if (first != kNoThread) {
        inRound_ = true;  // the threads hand over to each other; the last one returns here
        advance(first);
        inRound_ = false;
      }
      ordered_ = false;
    } else {
      runnable.clear();
      for (unsigned i = 0; i < total_; ++i)
        if (state_[i] == State::Runnable) runnable.push_back(i);
      switch (s.kind) {
        case Schedule::Kind::Sequential: {
          // The lowest runnable thread runs until it has to wait.
          const unsigned t = runnable.front();
          while (state_[t] == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Reverse: {
          const unsigned t = runnable.back();
          while (state_[t] == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Random:
          advance(runnable[nextRandom() % runnable.size()]);
          break;
        case Schedule::Kind::WarpsRandom: {
          // Lanes of a warp stay together: pick a warp, advance all its runnable lanes.
          std::vector<unsigned> warps;
          for (unsigned id : runnable)
            if (warps.empty() || warps.back() != id / 32) warps.push_back(id / 32);
          const unsigned w = warps[nextRandom() % warps.size()];
          for (unsigned id : runnable)
            if (id / 32 == w) advance(id);
          break;
        }
        default:
          break;
      }
    }
    if (count(State::Runnable) == 0 || count(State::AtWarpOp) > 0) releaseWaiters();
  }
  stats_.rounds += s.usesRounds() ? rounds : 0;
  return count(State::Done) == total_;
}

// lanes-random: warp after warp, the lanes of each warp in a random order, and every lane that
// stands at a warp step sits this round out with odds of one in four. Lanes part at warp steps
// only; everywhere else the round is lockstep's.
void BlockRun::orderLanesAtRandom() {
  roundOrder_.clear();
  roundAt_ = 0;
  for (unsigned warpStart = 0; warpStart < total_; warpStart += 32) {
    const size_t first = roundOrder_.size();
    for (unsigned t = warpStart; t < std::min(total_, warpStart + 32); ++t)
      if (state_[t] == State::Runnable && !(atWarpStep_[t] && nextRandom() % 4 == 0))
        roundOrder_.push_back(t);
    for (size_t k = roundOrder_.size(); k > first + 1; --k)  // Fisher-Yates
      std::swap(roundOrder_[k - 1], roundOrder_[first + nextRandom() % (k - first)]);
  }
}

}  // namespace detail

}  // namespace rlab::sim
