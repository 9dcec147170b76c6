// The host side of an exercise on the simulator: one driver per ExerciseShape runs the
// learner's kernel (found in their shared object) on fenced buffers, as a lesson driver runs
// a lesson kernel, and checks the rules the exercise adds to the result: *result changed by
// atomics only, how many atomics, every thread's all-reduce value. Used inside the exercise
// runner only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/probe.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab::exercise {

// The two multiprocessors of the simulator (SimBackend's), with an H100's thread slots: the
// grid of a grid-stride exercise.
inline constexpr long long kSimMultiprocessors = 2;
inline constexpr long long kThreadSlotsPerMultiprocessor = 2048;
// A run recorded step by step (n up to kExerciseStepLimit) keeps its first loads and stores this
// many, one per element, for the timeline (a tree over 4096 elements makes about 12000).
inline constexpr size_t kAccessesKept = size_t(1) << 15;

// The steps of one run of the learner's kernel, taken without a trace call in it: each time a
// block's barrier opens, the kernel's largest __shared__ array as it then is (a kernel without
// shared memory: the global array it works in), and after each launch the array the host reads.
// Each step also says who worked in it, from the loads and stores the race detector's hooks
// see: the threads that read or wrote the step's array since their block's last step, and for
// each element a thread wrote, the elements it read there (the pairs the array view draws).
class StepRecorder {
 public:
  // Steps go to `sink` as they are taken (a run that crashes still shows how far it got).
  using Sink = std::function<void(const StepSnapshot&)>;
  explicit StepRecorder(Sink sink, size_t limit = 300) : sink_(std::move(sink)), limit_(limit) {}
  // What a step shows, so that a race can be marked there: the array's name in the kernel and
  // either a block's __shared__ variable or the global buffer whose first int is `global`.
  struct Shown {
    std::string name;
    bool shared = false;
    const int* global = nullptr;
  };
  void add(const Message& label, const int* values, size_t count);
  // A barrier of `block` opened: the how-manieth of the block's in this launch, for the label.
  int nextBarrier(unsigned block);
  // add() for the step where `block`'s barrier `barrier` of this launch opened.
  void addAtBarrier(const Message& label, const int* values, size_t count, unsigned block,
                    int barrier, const Shown& shown);
  // A launch of `blockThreads` threads a block starts: its steps count barriers afresh.
  void newLaunch(int blockThreads);
  // A load or store of the launch's threads (LaunchOptions::onAccess), kept for its block's
  // next step.
  void access(const sim::ThreadAccess& a);
  // add() for the launch's last step, which shows the array the host reads (`shown`).
  void addAtLaunchEnd(const Message& label, const int* values, size_t count, const Shown& shown);
  size_t taken() const { return taken_; }
  long long left() const { return left_; }  // steps past the limit, not kept

  // The run's first race, marked in the step that shows the state after its second access:
  // that block's next barrier step of the launch, or else the launch's last step (`launchEnd`,
  // taken next), or, for a block's shared array after its last barrier, the block's last step.
  // Called after each launch, before its last step; only the first race counts.
  void noteRace(const sim::LaunchStats& stats, const Shown& launchEnd);
  struct RaceMark {
    size_t step = 0;        // the step's index in the run (0: the input)
    long long element = 0;  // the element of its array
    std::string array;      // the array's name there
  };
  const std::optional<RaceMark>& raceMark() const { return raceMark_; }

  // The run's loads and stores of its arrays' elements, each to `sink` once its value is known
  // (a store's after the store), in the order they ran; at most `limit`, the rest counted.
  using AccessSink = std::function<void(const MemoryAccess&, uintptr_t instruction)>;
  void keepAccesses(AccessSink sink, size_t limit);
  long long accessesLeft() const { return accessesLeft_; }
  // The ticks of the first race's two accesses among those kept (noteRace finds them).
  std::optional<std::pair<long long, long long>> raceTicks() const { return raceTicks_; }

 private:
  Sink sink_;
  size_t limit_, taken_ = 0;
  long long left_ = 0;
  std::map<unsigned, int> barriers_;
  std::map<std::pair<unsigned, int>, std::pair<size_t, Shown>> barrierSteps_;  // this launch's
  std::optional<RaceMark> raceMark_;
  // The launch's loads and stores by block, not yet in a step; at most kAccessesKept in all.
  static constexpr size_t kAccessesKept = size_t(1) << 18;
  std::map<unsigned, std::vector<sim::ThreadAccess>> pending_;
  size_t pendingCount_ = 0;
  int blockThreads_ = 1;
  // The accesses kept for the timeline: each one's address and instruction beside it (a race
  // names its two accesses by those), the stores whose value is not yet in memory.
  struct KeptAccess {
    MemoryAccess access;
    uintptr_t address = 0, instruction = 0;
  };
  AccessSink accessSink_;
  size_t accessLimit_ = 0;
  long long accessesLeft_ = 0, ticks_ = 0;
  int launch_ = 0;
  std::vector<KeptAccess> kept_;
  size_t unsent_ = 0;  // kept_[unsent_...] wait for their store
  std::optional<std::pair<long long, long long>> raceTicks_;
  bool raceFound_ = false;
  void keep(const sim::ThreadAccess& a);
  void sendStored();
  void findRaceTicks(const sim::Race& r);

  static StepSnapshot snapshot(const Message& label, const int* values, size_t count);
  void take(StepSnapshot step);
  // step.active and step.pairs from `made`, those of its accesses that fall in the step's
  // array (`count` ints from `first`). Threads are numbered within their block where the array
  // is a block's shared one, else across the grid.
  void addWork(StepSnapshot& step, const std::vector<sim::ThreadAccess>& made, const int* first,
               size_t count, bool shared) const;
};

// How a race's sentence names an instruction of the learner's kernel ("@pc:OFFSET", which the
// core turns into the learner's line): runner.cpp sets it once the library is loaded.
extern std::function<std::string(uintptr_t instruction)> g_instructionName;
// Whether each run looks for races (the runner's --no-race-detector turns it off, for the
// benchmark that measures what the detector costs).
extern bool g_detectRaces;
// The most warp steps the thread of a lane schedule (lane:T:S:K) took in any block of the
// run's launches so far (LaunchStats::laneThreadWarpSteps): below S, the schedule held nobody.
extern uint64_t g_laneThreadWarpSteps;
// Set: a race does not end the run but is handed here (the runner's --one, which shows the
// run's result and its race); unset: a race fails the case.
extern std::function<void(const sim::LaunchError&)> g_onRace;

// Runs `kernel` (a function of e.pointerType()) on the case's input and launch and returns the
// result. Throws with one sentence when the run cannot finish (sim::LaunchError) or breaks one
// of the exercise's rules. With `steps`, records the run's steps there.
double runExerciseKernel(const Exercise& e, const void* kernel, const Params& p,
                         StepRecorder* steps = nullptr);

// Before any case: the exercise's rule on __shared__ memory. Empty when the kernel keeps it,
// else one sentence.
Message sharedMemoryRuleBroken(const Exercise& e, const void* kernel);
// The same rule for a kernel that declares `bytes` of __shared__ memory (the GPU's count), and
// extern __shared__ arrays where `dynamic`.
Message sharedMemoryRuleBroken(const Exercise& e, size_t bytes, bool dynamic);

// The conformance suite's probe on the simulator: each launch on fenced buffers, in[] =
// `input`, out[] set to kProbeUntouched; `report` gets "@probe K values" or "@probe-failed K
// sentence" for each. `beforeLaunch(k)` runs first (the runner's timer and case number).
void runProbesOnSimulator(const void* kernel, const std::vector<int>& input,
                          const std::vector<ProbeLaunch>& launches,
                          const std::function<void(int)>& beforeLaunch,
                          const std::function<void(const std::string&)>& report);

// What the host stores in *result before the launch: the operator's identity.
int identityOf(Op op);

// AllReduce, on any backend: every out[i] (i < n) must be the total of its group, its warp or
// its block; the result is the groups' totals combined. Throws one sentence naming the first
// thread that ended with something else (`untouched`: what out held before the launch).
double allReduceResult(const Exercise& e, const std::vector<double>& input, const int* out,
                       int block, int untouched);

}  // namespace rlab::exercise
