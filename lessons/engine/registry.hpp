// One descriptor per lesson and per variant: every fact about a lesson lives here, and views
// and both backends read it. Ids are fixed: tests, texts and the CLI use them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/gpu_tools/counters.hpp"
#include "lessons/engine/texts/messages.hpp"

namespace rlab {

struct Params;

// A stop of the guided tour (rlab tour): the run to show and what to look at. The lesson's
// chapter narrates exactly this run, step by step, in every language (a test checks).
struct TourStop {
  std::string variant;
  int64_t n = 0;
  int block = 0;  // 0: the default
  bool barrier = true;
  std::string schedule = "lockstep";
  Message why;   // one sentence: what this run shows
  int gpus = 0;  // allreduce: the GPUs; 0: the default
};

// What the app's lesson view draws for it.
enum class LessonPicture {
  AtomicQueue,
  Fold,
  Barrier,
  WarpGrid,
  BlockPartials,
  Butterfly,
  Pipeline,
  Ranks  // allreduce: G buffers, chunks coloured by the ranks they hold, the transfers
};

// The longest chain of dependent combines from one element to the result, in the kernel's
// own order (a tree: its depth; atomics on one address: how many land there). It bounds the
// rounding error a correct float kernel can make, so a lost addition is never "correct".
using ChainLength = int64_t (*)(int64_t n, int block);

// Each variant's host driver: the key of the drivers' table (run/drivers.hpp), which each
// backend compiles for itself, so the registry names a variant's driver and the table holds it.
enum class DriverId {
  Atomic,
  Folding,
  FoldingDoubleBuffer,
  BarrierGlobal,
  BarrierShared,
  DivergenceInterleaved,
  DivergenceInterleavedMask,
  DivergenceStrided,
  DivergenceSequential,
  TreeInGlobal,
  TreeInShared,
  MultiBlock,
  Clusters,
  Coarsened,
  LastWarpVolatile,
  LastWarpPlain,
  LastWarpSyncwarp,
  LastWarpShuffle,
  ButterflyShared,
  ButterflyShuffle,
  Fastest,
  AllReduceButterfly,
  AllReduceRing,
  AllReduceNccl,
};

struct VariantInfo {
  std::string id;
  DriverId driver = DriverId::Atomic;  // its host driver
  std::string kernelFunction;  // the __global__ function of the lesson's kernel file it runs
  // (allreduce nccl: on the simulator, the model of NCCL's ring runs it)
  int minBlock = 1;      // 32 where the kernel uses warp operations; 2 where each pass must halve
  bool inPlace = false;  // reduces its input in place: timing restores it before each run
  ChainLength longestChain = nullptr;
  // Folds into a second buffer (out[i] = in[i] + in[i + remain]) and copies the odd middle
  // element across, instead of folding in place.
  bool doubleBuffer = false;
  bool barrierSwitch = false;  // its kernel has a barrier --no-barrier switches off
  // Its kernel has __syncwarp() calls --no-syncwarp takes out (the warp's barrier).
  bool syncwarpSwitch = false;
  // It has a warp-synchronous step: lanes of a warp that go on with no barrier between them, as
  // warp-synchronous code does. The app shows the syncwarp switch for it (checked only where
  // syncwarpSwitch), and its races are searched with the lane schedules.
  bool warpSynchronous = false;
  // Takes --perturb (every third thread pauses at each level) and --delay T:L (thread T pauses
  // before level L): ways to make a race show on a GPU.
  bool perturbs = false;
  bool delays = false;
  // Its steps load and store global memory (the coalescing view); else they work in shared
  // memory or registers, after one load of each element.
  bool globalMemorySteps = false;
  // Elements per thread by default where the run may choose them (--per-thread, --no-load-add);
  // 0: one element per thread, or the kernel's own loop, not adjustable.
  int defaultPerThread = 0;
  // The __global__ function that runs without the add during the load (--no-load-add).
  std::string noLoadAddKernelFunction{};
  // Runs --op subtract, the demonstration that a reduction needs an associative operator: set
  // from kSubtractRuns below.
  bool offersSubtract = false;

  // Warp-synchronous code with no __syncwarp() (Harris's last warp): right only while the
  // lanes of each warp run in step, as before Volta; a race wherever they need not.
  bool needsLanesInStep() const { return warpSynchronous && !syncwarpSwitch; }
  // The hardware counters that prove the lesson's point for this kernel (rlab profile and the
  // Profile tab lead with them; the texts quote them).
  std::vector<Counter> proofCounters{};
  // Its tree combines in shared memory at the word of each element's place in its block
  // (s[element mod block]): two loads and a store a combine, all at words the trace records, so
  // the simulator's run predicts the hardware's bank conflicts.
  bool sharedTree = false;
  // Launches in thread block clusters: on a GPU, compute capability 9.0 or later.
  bool needsClusters = false;
};

// The variants that run --op subtract: a few kernels with different orders of operations, so
// their answers differ. A list the compiler can read, because the drivers' table compiles the
// kernels for subtract only where it is offered (drivers.hpp).
inline constexpr DriverId kSubtractRuns[] = {
    DriverId::Atomic,
    DriverId::Folding,
    DriverId::DivergenceInterleaved,
    DriverId::DivergenceSequential,
    DriverId::MultiBlock,
    DriverId::Fastest,
};
constexpr bool offersSubtract(DriverId driver) {
  for (DriverId run : kSubtractRuns)
    if (run == driver) return true;
  return false;
}

// The longest chain of combines of this run: the variant's, with the run's elements per thread.
int64_t longestChainOf(const VariantInfo& variant, const Params& p);

struct LessonInfo {
  std::string id;
  std::vector<VariantInfo> variants;  // the first is the default
  int64_t maxN = 0;                   // the lesson's own limit on n
  int64_t defaultN = 0;
  int64_t traceLimit = 65536;      // steps are recorded up to this n
  bool switchableBarrier = false;  // the barrier lesson: takes --printf
  bool oneBlock = false;           // the block must cover n
  bool timed = true;               // GPU runs are timed and rlab bench measures it
  bool timeline = false;           // its kernels stamp when each combine read and wrote
  // Its races are between the lanes of one warp: the race explorer and the witness search use
  // the lane schedules (lane:T:S:K, lanes-random:SEED) instead of stall and random.
  bool laneSchedules = false;
  // A GPU run's steps are the same every time (the chapter's narration may follow them);
  // false where the order of its atomics changes from run to run.
  bool gpuStepsRepeat = true;
  // Runs across GPUs (--gpus): n elements on each; 0: one GPU. The default number of GPUs.
  int defaultGpus = 0;
  // The data a float run gets where none is asked for (--data): where the lesson is about the
  // order of the additions, values whose float sum changes with that order. Empty: iota.
  std::string defaultFloatData;
  std::string kernelFile;      // kernels/<id>.cuh
  std::string textFolder;      // lessons/<id>: en.md (ja.md, zh.md)
  std::string hostFile;        // lessons/<id>/driver.hpp: the host code that launches it
  std::vector<TourStop> tour;  // at least one stop
  LessonPicture picture = LessonPicture::Pipeline;

  // The variant of that id; the empty id is the default (the first): the one place that rule
  // lives. nullptr for an id the lesson does not have.
  const VariantInfo* findVariant(const std::string& id) const;
  std::vector<std::string> variantList() const;  // the variants' ids
  std::string variantIds() const;                // "global, shared" for messages
};

// The run races by what was asked of it: its barrier or its __syncwarp() switched off, or a
// last warp that counts on its lanes staying in step. Such a run may come out right or wrong.
bool runMayRace(const Params& p);

// Runs that record their global loads and stores (Params::memory) go up to this n: each access
// costs the simulator two signals.
inline constexpr int64_t kMemoryTraceLimit = 1024;
// Whether a run asks for its memory accesses to be recorded and can have them: a variant whose
// steps work in global memory, traced, on the simulator, n up to kMemoryTraceLimit.
bool recordsMemory(const Params& p);

// The chapter before the lessons: text only, no run (lessons/basics/).
inline constexpr const char* kBasicsChapter = "basics";
// The run the app opens on, and returns to on File › Reset: the barrier lesson's eight
// elements, few enough to read every step.
Params openingRun();

const std::vector<LessonInfo>& lessons();
const LessonInfo* findLesson(const std::string& id);
// The lesson, or ParamError naming the ids there are.
const LessonInfo& lessonOrThrow(const std::string& id);
// The variant a run names (its default where it names none), or nullptr where the lesson or the
// variant is unknown: what resolve() would refuse.
const VariantInfo* variantOf(const Params& p);
std::string lessonIds();  // "atomic, folding, ..." for messages
// A run's name in the bench's tables: "shared coarsened"; a variant named "default" is left
// out ("folding").
std::string runName(const std::string& lesson, const std::string& variant);
// Whether a lesson has a variant whose elements per thread a run may choose (--per-thread).
bool hasCoarsenedVariant(const std::string& lesson);
// The lesson and variant of every run that offers --op subtract, in the lessons' order.
std::vector<std::pair<std::string, std::string>> subtractRuns();
std::string subtractRunsText();  // "atomic, folding default, ..." for messages
// The variants whose steps work in global memory (the memory view counts their sectors):
// "folding default, folding double-buffer, barrier global, shared global".
std::string globalMemoryRunsText();
// The variants that have `field`, for messages: "barrier global, barrier shared, butterfly
// shared" (a lesson of one variant by its id alone).
std::string variantsWith(bool VariantInfo::*field);

}  // namespace rlab
