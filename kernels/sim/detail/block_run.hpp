// The simulator's own: one block's run, shared by the files that make it up.
//   block_run.cpp  the threads' lives, barriers, and the diagnostics of a block that is stuck
//   warp_ops.cpp   warp operations: when a warp's lanes meet, and what each lane gets
//   schedule.cpp   which runnable thread advances next (BlockRun::schedule)
//   hooks.cpp      what kernel code calls (shim.hpp), which arrives here
// A block's threads run as fibers on the worker thread, one at a time; a thread runs until a
// yield point (a barrier, a warp operation, printf, __nanosleep) and then hands control to the
// next thread of a round, or back to the scheduler.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/sim/detail/fibers.hpp"
#include "kernels/sim/detail/hooks.hpp"
#include "kernels/sim/detail/shared_memory.hpp"
#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

// One byte per thread, in an array of its own: the scheduler scans it every round.
// AtClusterBarrier: at cluster.sync(), which only the cluster's run (cluster.cpp) opens.
enum class State : uint8_t { Runnable, AtBarrier, AtWarpOp, Done, AtClusterBarrier };

struct WarpRequest {
  WarpOp op = WarpOp::Sync;
  unsigned mask = 0;
  uint64_t bits = 0;
  int arg = 0;
  int width = 32;
  const char* file = "";
  int line = 0;
};

struct Site {  // a barrier's place in the source
  const char* file = "";
  int line = 0;
};

// The warp operation a waiting thread waits at, and what it gets when the warp meets.
struct Waiting {
  WarpRequest warp;
  uint64_t warpResult = 0;
};

// Thrown inside a fiber to end a thread that cannot go on (a failed assertion, __trap,
// cooperative groups misused, a bad free); caught at the fiber's top, which names the thread:
// `id` for a launch of one block, `idInBlock` for several, `args` besides thread and block,
// `english` what follows "thread T" in what().
struct KernelFailure {
  const char* id;
  const char* idInBlock;
  std::vector<std::pair<std::string, std::string>> args;
  std::string english;
};

// Ends the running thread with `failure`, "at file:line" before its sentence (line 0: none),
// which the fiber's top names the thread in; outside a kernel, a logic error of the program's.
[[noreturn]] void failThread(KernelFailure failure, const char* file, int line);

// Thrown inside a suspended fiber when its launch has failed elsewhere, so that its frames
// unwind and the fiber is free for the next block; caught at the fiber's top.
struct Unwind {};

constexpr unsigned kNoThread = ~0u;

// "shim.hpp:42": where a diagnostic points, the file without its folders.
std::string where(const char* file, int line);
// "kernel stopped: " and the sentence: what() of a launch that could not finish.
std::string stopped(const std::string& english);

// Whether two barriers are the same line of the same file.
inline bool sameSite(const char* fileA, int lineA, const char* fileB, int lineB) {
  return lineA == lineB && (fileA == fileB || std::strcmp(fileA, fileB) == 0);
}

// Where every fiber starts: it runs the running block's threads, one per block, forever.
void fiberMain(fc::transfer_t start);

// One block of a cluster at a time (a launch without clusters: clusters of one block): made once
// per launch, on fibers of its own (from `firstFiber`); the cluster's run (cluster.cpp) calls
// begin() for each block, then resume() until it returns true, pausing whenever every thread of
// the block that has not exited waits at cluster.sync().
class BlockRun {
 public:
  BlockRun(const std::function<void()>& body, const LaunchOptions& options, FiberPool& fibers,
           LaunchStats& stats, const std::vector<ByteRange>* shared, unsigned firstFiber = 0)
      : body_(body),
        options_(options),
        fibers_(fibers),
        stats_(stats),
        shared_(shared),
        firstFiber_(firstFiber) {}

  void begin(unsigned blockLinear);
  // Runs the block until every thread has exited (true) or waits at cluster.sync() (false).
  // A failure unwinds this block's threads and throws; the caller unwinds the other blocks'
  // (abandon).
  bool resume();
  void abandon();  // unwinds the threads of a block that will not go on
  // cluster.sync() opened: its waiting threads go on, as after a barrier of their own block.
  void openClusterBarrier();
  bool exited() const { return count(State::Done) == total_; }
  void arriveAtClusterBarrier(const char* file, int line) {
    atWarpStep_[current_] = 0;
    moveTo(current_, State::AtClusterBarrier);
    barrierSite_[current_] = {file, line};
  }
  void runThread();                              // on fiber current(): the thread's whole life
  unsigned current() const { return current_; }  // kNoThread between threads
  unsigned blockLinear() const { return blockLinear_; }
  const Stack& stack(unsigned thread) const { return stacks_[thread]; }

  // In the header: every thread of every block calls it at every barrier.
  void arriveAtBarrier(const char* file, int line, bool predicate = false) {
    atWarpStep_[current_] = 0;
    moveTo(current_, State::AtBarrier);
    barrierSite_[current_] = {file, line};
    pendingTrue_ += predicate;  // counted as threads arrive: none arrives twice before it opens
    if (count(State::AtBarrier) == 1) {
      barrierFile_ = file;
      barrierLine_ = line;
    } else if (!sameSite(file, line, barrierFile_, barrierLine_)) {
      barrierSplit_ = true;
    }
  }
  void arriveAtWarpOp(const WarpRequest& request);  // warp_ops.cpp
  uint64_t warpResult() const { return waiting_[current_].warpResult; }
  // A yield that is no warp step (a switched-off barrier, __nanosleep, printf), or one that is
  // (warp-synchronous code without its __syncwarp): the lane schedules hold lanes only there.
  void arriveAtYield() { atWarpStep_[current_] = 0; }
  void arriveAtWarpStep() { countWarpStep(current_); }
  // What the last barrier to open hands back: __syncthreads_count, _and, _or.
  int barrierVoteResult(BarrierVote vote) const {
    switch (vote) {
      case BarrierVote::Count:
        return int(barrierTrue_);
      case BarrierVote::And:
        return barrierTrue_ == barrierArrived_;
      case BarrierVote::Or:
        return barrierTrue_ > 0;
      case BarrierVote::None:
        break;
    }
    return 0;
  }

  // Called from the running fiber at a yield point: in a round, hand control straight to the
  // next thread of the round; else, or at the round's end, to the scheduler. `idle`: the fiber's
  // thread has ended, and whichever block resumes the fiber next (perhaps of a later launch)
  // finds it in fiberMain: nothing of this block is touched after the jump.
  void suspend(bool idle = false) {
    const unsigned self = current_;
    const unsigned next = !inRound_ ? kNoThread : ordered_ ? nextOrdered() : nextInRound(self + 1);
    if (next != kNoThread) {
      enter(next);
      // The thread after it most likely runs next: start fetching its saved registers now.
      // Its stack sits 64 KiB from this one, too far for the hardware to guess (measured:
      // about a tenth more elements a second).
      if (next + 1 < total_) {
        const char* after = static_cast<const char*>(contexts_[next + 1]);
        __builtin_prefetch(after);
        __builtin_prefetch(after + 64);
      }
      jumpTo(contexts_[next], stacks_[next], &contexts_[self], stacks_[self]);
    } else {
      current_ = kNoThread;
      jumpTo(fibers_.home(), fibers_.homeStack(), &contexts_[self], stacks_[self]);
    }
    if (!idle && unwinding_) throw Unwind{};
  }

 private:
  void moveTo(unsigned thread, State next) {
    --count_[static_cast<int>(state_[thread])];
    ++count_[static_cast<int>(next)];
    state_[thread] = next;
  }
  unsigned count(State s) const { return count_[static_cast<int>(s)]; }
  void enter(unsigned thread) {
    current_ = thread;
    g_threadIdx = idx_[thread];
    ++switches_;
  }
  unsigned nextInRound(unsigned from) const {
    if (failure_) return kNoThread;  // the scheduler reports it
    for (unsigned i = from; i < total_; ++i)
      if (state_[i] == State::Runnable && i != roundSkips_) return i;
    return kNoThread;
  }
  // A round in the order roundOrder_ gives (lanes-random), instead of thread order.
  unsigned nextOrdered() {
    if (failure_) return kNoThread;
    while (roundAt_ < roundOrder_.size()) {
      const unsigned t = roundOrder_[roundAt_++];
      if (state_[t] == State::Runnable) return t;
    }
    return kNoThread;
  }
  // The thread has come to a warp step: a warp operation or a missing __syncwarp. lane:T:S:K
  // starts holding thread T at its warp step S.
  void countWarpStep(unsigned thread) {
    atWarpStep_[thread] = 1;
    const Schedule& s = options_.schedule;
    if (++warpSteps_[thread] == s.stallRound && s.kind == Schedule::Kind::Lane &&
        thread == s.stallThread)
      laneHeld_ = s.stallRounds;
  }
  // The scheduler's side: run `thread` to its next yield point (or on through a round).
  void advance(unsigned thread) {
    enter(thread);
    jumpTo(contexts_[thread], stacks_[thread], &fibers_.home(), fibers_.homeStack());
    current_ = kNoThread;
    if (failure_) throw *failure_;
  }
  bool schedule();            // schedule.cpp: resume()'s loop
  void orderLanesAtRandom();  // schedule.cpp: the next round of lanes-random
  void unwindSuspended();
  bool releaseWaiters();
  bool releaseWarps();  // warp_ops.cpp
  [[noreturn]] void barrierMismatch();
  [[noreturn]] void barrierAfterExit();  // threads wait at a barrier that others exited past
  [[noreturn]] void stuck();
  // Stops the launch: "kernel stopped: " and `english`, with the same sentence as data.
  [[noreturn]] void fail(const std::string& english, LaunchFailure failure) const;
  std::string blockName() const;  // " of block 3" where the launch has several, else ""
  // The sentence `id`, or `idInBlock` with the block's number where the launch has several.
  LaunchFailure failure(const char* id, const char* idInBlock,
                        std::vector<std::pair<std::string, std::string>> args) const;
  using WarpLanes = std::array<Waiting*, 32>;
  static uint64_t computeWarpResult(const WarpLanes& lanes, unsigned lane, unsigned groupMask);
  void refuseReadFromAbsentLane(const WarpLanes& lanes, unsigned warpStart, unsigned lane,
                                unsigned group, unsigned exited) const;
  static uint64_t reduceLanes(const WarpLanes& lanes, WarpOp op, bool isSigned, unsigned groupMask);
  bool releaseActiveMasks(unsigned warpStart, unsigned lanesHere);

  const std::function<void()>& body_;
  const LaunchOptions& options_;
  FiberPool& fibers_;
  unsigned blockLinear_ = 0;
  LaunchStats& stats_;
  const std::vector<ByteRange>* shared_;  // the kernel's __shared__ variables
  unsigned firstFiber_ = 0;
  unsigned total_ = 0;
  fc::fcontext_t* contexts_ = nullptr;  // fiber i runs thread i
  Stack* stacks_ = nullptr;
  std::vector<State> state_;
  std::vector<uint8_t> started_;
  std::vector<uint3> idx_;
  std::vector<Site> barrierSite_;
  std::vector<Waiting> waiting_;
  std::vector<uint32_t> warpSteps_;  // each thread's warp steps so far
  std::vector<uint8_t> atWarpStep_;  // the thread's last yield was a warp step
  unsigned laneHeld_ = 0;            // lane:T:S:K: rounds thread T still sits out
  bool ordered_ = false;             // lanes-random: rounds follow roundOrder_
  std::vector<unsigned> roundOrder_;
  size_t roundAt_ = 0;
  std::array<unsigned, 5> count_{};  // threads in each State
  const char* barrierFile_ = "";     // where the first thread to wait at the barrier waits
  int barrierLine_ = 0;
  bool barrierSplit_ = false;                      // a waiting thread waits at another barrier
  unsigned barrierArrived_ = 0, barrierTrue_ = 0;  // the last barrier to open: its predicates
  unsigned pendingTrue_ = 0;  // threads waiting at the barrier that brought a true predicate
  unsigned current_ = kNoThread;
  bool inRound_ = false;             // lockstep and stall: threads hand over to each other
  unsigned roundSkips_ = kNoThread;  // the stalled thread, while it sits out
  bool unwinding_ = false;
  uint64_t switches_ = 0;
  std::optional<LaunchError> failure_;  // a thread's, which the scheduler throws
  uint64_t rng_ = 0;

  uint64_t nextRandom() {  // splitmix64: the same numbers on every platform
    uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

}  // namespace rlab::sim::detail
