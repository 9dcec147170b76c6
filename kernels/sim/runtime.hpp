// The CPU SIMT simulator: launch a kernel's threads as fibers on one worker thread.
//
// Public surface for host code (lesson drivers, tests). Kernel code never includes this
// directly: it sees CUDA names through shim.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/sim/vector_types.hpp"

namespace rlab::sim {

// Which runnable thread advances next. Same schedule + same input = same run, every time.
//
// A warp step is where the lanes of a warp go on with no __syncthreads() between them: a warp
// operation (__syncwarp, a shuffle, a vote), or a place where warp-synchronous code would need a
// __syncwarp() and has none (the kernels mark it: switchableSyncwarp in kernels/common.cuh).
// The lane schedules act there and only there. lockstep and warps-random keep the lanes of
// every warp at the same step, as GPUs before Volta did; lane:T:S:K and lanes-random:SEED let
// them part, as Volta and every GPU since may.
struct Schedule {
  enum class Kind { Lockstep, Sequential, Reverse, Random, WarpsRandom, Stall, Lane, LanesRandom };
  Kind kind = Kind::Lockstep;
  uint64_t seed = 0;         // random, warps-random, lanes-random
  unsigned stallThread = 0;  // stall:T:R:K — thread T sits out K rounds from round R
  unsigned stallRound = 0;   // lane:T:S:K — thread T sits out K rounds from its warp step S
  unsigned stallRounds = 0;

  // Parses "lockstep", "sequential", "reverse", "random:SEED", "warps-random:SEED",
  // "stall:T:R:K", "lane:T:S:K", "lanes-random:SEED". Throws ScheduleError (below) with one
  // sentence saying what is allowed.
  static Schedule parse(std::string_view text);
  std::string str() const;
  // True for schedules that advance threads in rounds (lockstep, stall and the lane schedules).
  bool usesRounds() const {
    return kind == Kind::Lockstep || kind == Kind::Stall || kind == Kind::Lane ||
           kind == Kind::LanesRandom;
  }
};

inline constexpr const char* kScheduleHelp =
    "lockstep, sequential, reverse, random:SEED, warps-random:SEED, stall:T:R:K, lane:T:S:K or "
    "lanes-random:SEED";

// A schedule's name refused: what() in English, and why as a code, which the lessons' engine
// says in the learner's language.
struct ScheduleError : std::invalid_argument {
  enum class Why {
    NotASchedule,
    Fields,
    Malformed,
    ThreadPast1023,
    RoundRange,
    StepRange,
    TooManyRounds
  };
  ScheduleError(const std::string& sentence, Why why, std::string field)
      : std::invalid_argument(sentence), why(why), field(std::move(field)) {}
  Why why;
  std::string field;  // Malformed: "seed", "thread", "round", "warp step" or "round count"
};

// One atomic as it landed: who, where, what it saw.
struct AtomicEvent {
  unsigned block = 0;   // linear block index
  unsigned thread = 0;  // linear thread index in the block
  const void* address = nullptr;
  double old = 0;      // value before this atomic
  double operand = 0;  // value the thread brought (atomicCAS: the value it would store)
  double after = 0;    // value the address held after it
};

// The bytes of one __shared__ variable of the running block (the worker's copy).
struct SharedSpan {
  unsigned char* bytes = nullptr;
  size_t size = 0;
  std::string name;  // as the kernel's source spells it ("s"); empty when not known
};

// Global memory whose every load and store by the kernel's threads a launch records
// (LaunchOptions::watch): the real address each access touched, and the instruction that made
// it. The simulator takes the pages away from the process for the launch and gives them back
// for one instruction at each fault (x86-64 only), so each access costs two signals: for the
// traces of small runs, never for timing. Nothing else may live in these pages.
struct WatchedMemory {
  const void* begin = nullptr;  // page-aligned
  size_t bytes = 0;             // whole pages
  unsigned elementBytes = 4;    // how wide the kernel's accesses here are
  int buffer = 0;               // the caller's name for it (copied into each access)
};

// One global load or store of a watched buffer, or (buffer < 0) a step mark: the thread called
// StepRecorder::combine for `step`, so its accesses since its previous mark belong to that
// step of the lesson.
struct MemoryAccess {
  unsigned block = 0;    // linear block index
  unsigned thread = 0;   // linear thread index in the block
  int buffer = -1;       // WatchedMemory::buffer; -1: a step mark
  long long offset = 0;  // bytes from the buffer's start
  unsigned bytes = 0;
  bool write = false;
  uintptr_t instruction = 0;  // the faulting instruction's address: one per load or store site
  int step = -1;              // step marks only
};

// Whether this machine can watch memory (LaunchOptions::watch): x86-64 Linux.
bool canWatchMemory();

// One side of a race (LaunchOptions::detectRaces): a load, store or atomic by one thread.
struct RaceAccess {
  unsigned block = 0;   // linear block index
  unsigned thread = 0;  // linear thread index in the block
  bool write = false;
  bool atomic = false;
  unsigned epoch = 0;         // barriers its block had passed: the level of a tree, say
  uintptr_t instruction = 0;  // where the load or store is in the code (its caller's lines)
  unsigned bytes = 0;
  uint64_t value = 0;  // a read: the bits it got (a write: 0)
};

// Two accesses to the same bytes of shared or global memory by different threads, at least
// one a write, not both atomic, with nothing CUDA honours ordering them: no barrier of their
// block between them, no __syncwarp of their warp, no fence and atomic that one block's thread
// released and the other acquired. `earlier` ran first on the simulator; on a GPU either may.
struct Race {
  RaceAccess earlier, later;
  uintptr_t address = 0;  // of the bytes both touched
  bool shared = false;    // in a __shared__ variable of the block (else global memory)
  std::string variable;   // shared: the variable's name ("s"), where the symbols say
  size_t offset = 0;      // shared: bytes from the variable's start
  unsigned owner = 0;     // shared: the linear block whose shared memory (in a cluster, a
                          // neighbour's, reached through map_shared_rank)
};

// A read of __shared__ bytes no thread of the block has written (LaunchOptions::detectRaces):
// on a GPU it reads whatever the last block left there.
struct UninitialisedRead {
  RaceAccess read;
  uintptr_t address = 0;
  std::string variable;
  size_t offset = 0;
  unsigned owner = 0;  // the linear block whose shared memory, as Race's
};

// Whether this build's lesson kernels carry the race detector's hooks: the compiler places
// them (g++'s -fsanitize=thread, answered by the simulator), which a build under
// AddressSanitizer cannot also have.
bool lessonKernelsDetectRaces();

class LaunchError;

// A load or store of a kernel's thread (LaunchOptions::onAccess, LaunchStats::offLimits).
struct ThreadAccess {
  unsigned block = 0, thread = 0;  // linear indices, the thread's within its block
  uintptr_t address = 0;
  unsigned bytes = 0;
  bool write = false;
  bool atomic = false;
  uintptr_t instruction = 0;  // just after the access (a return address), as Race's are
  // In a __shared__ variable of the block: its name as the source spells it ("" where not
  // known) and the access's bytes from its start.
  bool shared = false;
  const std::string* sharedVariable = nullptr;
  size_t sharedOffset = 0;
};

struct LaunchOptions {
  Schedule schedule;
  // The thread block clusters the grid is made of, as cudaLaunchKernelEx's
  // cudaLaunchAttributeClusterDimension (or a kernel's __cluster_dims__) gives them: {1, 1, 1}
  // is a launch without clusters. A cluster of more than kPortableClusterBlocks blocks needs
  // nonPortableClusterSize (cudaFuncAttributeNonPortableClusterSizeAllowed), and then at most
  // kMaxClusterBlocks.
  dim3 cluster{1, 1, 1};
  bool nonPortableClusterSize = false;
  // Bytes of dynamic shared memory each block gets, the third value of <<<grid, block, bytes>>>:
  // the kernel's `extern __shared__` arrays all start there.
  size_t dynamicSharedBytes = 0;
  bool recordAtomics = false;
  // What the kernel's printf calls write goes into LaunchStats::printed, in the order the
  // schedule ran them, instead of to stdout.
  bool capturePrintf = false;
  std::vector<WatchedMemory> watch;  // record every access to these (empty: nothing, no cost)
  // Look for races and reads of unwritten shared memory (LaunchStats::races): in code the
  // compiler built with the detector's hooks (lessonKernelsDetectRaces; the exercise compiler's
  // kernels always), each load and store then costs a look-up.
  bool detectRaces = false;
  // With detectRaces: a launch that raced, or read shared memory no thread had written, ends
  // with a LaunchError naming the first such access (after its blocks have all run), with the
  // element and the lines as these two name them ("a[4]", "kernel.cu:5"); where they are
  // unset or give "", the variable's name and index, and the instruction's address.
  bool failOnRace = false;
  // With detectRaces and without failOnRace: called after a launch that raced, with the error
  // failOnRace would have ended it with (a replay of one run shows its result and its race).
  std::function<void(const LaunchError&)> onRace;
  std::function<std::string(uintptr_t address)> nameAddress;
  std::function<std::string(uintptr_t instruction)> nameInstruction;
  // Called on the worker each time a block's barrier opens (every thread has arrived, none has
  // gone on), with the linear block index and the kernel's __shared__ variables as they are
  // then: what a step of the kernel left, without any trace call in it.
  std::function<void(unsigned block, const std::vector<SharedSpan>& shared)> onBarrier;
  // With detectRaces: each load and store of a kernel's thread outside its own stack, as it is
  // made (the reads and writes a step of a learner's kernel draws).
  std::function<void(const ThreadAccess&)> onAccess;
  // With detectRaces: bytes that are mapped but belong to no buffer (between a fenced buffer's
  // last element and the page after it, where a fault cannot reach). The first access there is
  // kept in LaunchStats::offLimits, for the caller to refuse as it refuses a fault.
  std::vector<std::pair<uintptr_t, uintptr_t>> offLimits;  // [begin, end)
};

struct LaunchStats {
  uint64_t switches = 0;  // fiber resumes
  uint64_t rounds = 0;    // lockstep rounds, summed over blocks
  // The most warp steps (see Schedule) any one thread took: a lane schedule that holds a
  // thread from a later warp step than this changes nothing; and one past the highest thread of
  // a block that took any (0: none did), since holding a thread that takes none changes nothing.
  uint64_t warpSteps = 0;
  unsigned warpStepThreads = 0;
  // lane:T:S:K: the most warp steps thread T took in any block. Below S, the schedule held
  // nobody and the run was lockstep's.
  uint64_t laneThreadWarpSteps = 0;
  std::vector<AtomicEvent> atomics;
  std::string printed;      // capturePrintf: the kernel's printf output, at most kPrintedBytes
  bool printedCut = false;  // more was printed than kPrintedBytes: the rest was dropped
  std::vector<MemoryAccess> memory;  // in the order they ran, step marks among them
  // detectRaces: the first races found, one a pair of instructions, in the order they ran
  // (at most kRacesKept), and how many racing accesses there were in all.
  std::vector<Race> races;
  uint64_t racingAccesses = 0;
  std::vector<UninitialisedRead> uninitialisedReads;  // the first, one an instruction
  std::optional<ThreadAccess> offLimits;  // the first access to LaunchOptions::offLimits
};

inline constexpr size_t kRacesKept = 8;

// What a launch keeps of its printf output: CUDA's default printf buffer is 1 MiB too.
inline constexpr size_t kPrintedBytes = size_t(1) << 20;

// Why a launch could not finish, as data: `id` is a sentence the lessons' engine says in the
// learner's language (lessons/engine/texts/messages/*.txt, the "sim." ids; an id that names the
// block is for launches of several blocks, its pair without "-in-block" for one), `args` fill its
// placeholders (thread lists, lines, code and numbers: the same in every language), and
// `sites`, where a block is stuck at several places, are one sentence each (the "sites"
// placeholder).
struct LaunchFailure {
  std::string id;
  std::vector<std::pair<std::string, std::string>> args;
  std::vector<LaunchFailure> sites;

  // The argument's text, "" where there is none.
  std::string arg(std::string_view name) const {
    for (const auto& [key, text] : args)
      if (key == name) return text;
    return "";
  }
};

// A launch that could not finish: a barrier some threads never reach, a warp operation with
// lanes missing, a thread that failed an assertion, misused cooperative groups or freed what no
// malloc gave. what() is the sentence in English (logs, the C++ exception); failure() is the
// same sentence as data, for screens in the learner's language.
class LaunchError : public std::runtime_error {
 public:
  LaunchError(const std::string& english, LaunchFailure failure)
      : std::runtime_error(english), failure_(std::move(failure)) {}
  const LaunchFailure& failure() const { return failure_; }

 private:
  LaunchFailure failure_;
};

// The first race of `stats`, or else its first read of unwritten shared memory, as the error a
// launch with failOnRace ends with, named as `options` name addresses and instructions.
// `stats` must hold one.
LaunchError raceError(const LaunchStats& stats, const LaunchOptions& options, bool severalBlocks);

// Runs `body` once per thread of the grid, with threadIdx/blockIdx/blockDim/gridDim set.
// Blocks run one after another on the simulator's worker thread; the caller waits.
// Launches from several threads are serialised (shared memory is per process).
// At the start of every block the __shared__ variables of `kernel` (a __global__ function,
// found through the symbol table of the module that holds it) are filled with
// kSharedPoisonByte; nothing else is. A null `kernel` poisons nothing.
LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options, const void* kernel,
                   const std::function<void()>& body);

// A body that is no __global__ function (a test's lambda): no shared memory is poisoned.
LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options,
                   const std::function<void()>& body);

// Launches `kernel(args...)`, as kernel<<<grid, block>>>(args...) would.
template <class... Params, class... Args>
LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options, void (*kernel)(Params...),
                   Args... args) {
  return launch(grid, block, options, reinterpret_cast<const void*>(kernel),
                [&] { kernel(args...); });
}

// Bytes of __shared__ variables the kernel declares (in its own body), as the simulator
// poisons them at each block start.
size_t sharedMemoryBytes(const void* kernel);
// Whether the kernel's module declares `extern __shared__` arrays (dynamic shared memory).
bool usesDynamicSharedMemory(const void* kernel);

// Blocks in a cluster: what CUDA guarantees every GPU with clusters can run, and what an
// H100 or H200 runs once the kernel opts in to non-portable sizes.
inline constexpr unsigned kPortableClusterBlocks = 8;
inline constexpr unsigned kMaxClusterBlocks = 16;

// Shared memory a block may have, static and dynamic together: CUDA's 48 KiB, which a kernel
// may pass only after cudaFuncSetAttribute (a host call no exercise makes).
inline constexpr size_t kSharedMemoryPerBlock = 48 * 1024;
// The thread-local buffer behind `extern __shared__` in a module that declares any: the
// exercise compiler defines it (kSharedMemoryPerBlock bytes) and makes every extern __shared__
// array an alias of it.
inline constexpr const char* kDynamicSharedSymbol = "rlab_dynamic_shared";

// The simulated thread that runs on the calling thread at this moment, if any. Plain reads and
// nothing else, so a signal handler may call it (a crash or a time limit inside a kernel).
struct RunningThread {
  bool running = false;
  unsigned block = 0;   // linear block index
  unsigned thread = 0;  // linear thread index in the block
};
RunningThread runningThread() noexcept;

// CUDA's device heap, which malloc, free, new and delete in a kernel use: CUDA's default
// cudaLimitMallocHeapSize.
inline constexpr size_t kDeviceHeapBytes = size_t(8) << 20;
// How many of the kernels' mallocs (and news) got a null pointer because CUDA's device heap was
// full: a plain read, for a signal handler that explains a null pointer.
size_t deviceHeapRefusals() noexcept;

// Runs `job` on the thread every kernel runs on (not on a fiber), and waits: for set-up that
// belongs to that thread, such as a signal stack or a signal mask.
void runOnWorkerThread(const std::function<void()>& job);

// Byte written over every __shared__ variable at the start of each block.
inline constexpr unsigned char kSharedPoisonByte = 0x7f;  // int 2139062143, float 3.39e38

}  // namespace rlab::sim
