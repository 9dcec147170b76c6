// What a run produced. Views (GUI panels, CLI text, JSON) read this and never compute it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/texts/messages.hpp"
#include "lessons/engine/run/params.hpp"

namespace rlab {

// One value a thread read in a combine, checked against the array when the step began.
struct ValueRead {
  int element = -1;       // -1: none (a thread's own value)
  double value = 0;       // what the thread really read
  int writtenAt = 0;      // the step whose write it read (0: the input); -1: none before this step
  bool stale = false;     // the element held another value when the step began: a race
  double missed = 0;      // stale: the value it should have read ...
  int missedWriter = -1;  // ... written by this thread (-1: the input) ...
  int missedStep = 0;     // ... in this step
  // The value came from a write of the same step, by this thread: it read too late, after its
  // partner had overwritten the element (write after read). -1: not so.
  int overwrittenBy = -1;
};

// One thread's combine: target = target ⊕ source, with what it read and wrote.
struct CombineRead {
  int thread = 0;
  ValueRead target, source;
  double wrote = 0;
  // When it read and when it had written, where the kernel stamps them (-1: not stamped):
  // the simulator's logical clock (exact order) or a GPU's clock64() (measured, per SM).
  long long readClock = -1, wroteClock = -1;
  int line = 0;  // the kernel line of the combine (StepRecorder::combine's call)
};

// allreduce: one copy between GPUs in a step: `count` elements from rank `from`'s buffer to rank
// `to`, landing at [begin, end) of the receiver's buffer, either combined into it (reduce) or
// written over it (gather).
struct Transfer {
  int from = 0, to = 0;
  long long begin = 0, end = 0;  // element range, the same in sender and receiver
  long long bytes = 0;
  bool combined = false;  // true: receiver applies the operator; false: it overwrites
};

// Coalescing: one warp's global load or store instruction in a step, from the addresses the
// simulator saw its lanes touch (nothing computed from the kernel's indices).
struct LaneAddress {
  int lane = 0;
  long long offset = 0;  // bytes from the buffer's start (buffers start on a page)
  int bytes = 0;
  long long sector = 0;  // offset / 32: the 32-byte sector it falls in
};
struct WarpMemoryRequest {
  int block = 0, warp = 0;
  int buffer = 0;  // which of the kernel's pointer arguments (0: its first)
  bool write = false;
  std::vector<LaneAddress> lanes;  // the active lanes, in lane order
  int sectors = 0;                 // distinct 32-byte sectors touched
  int lines = 0;                   // distinct 128-byte lines touched
  long long usefulBytes = 0;       // distinct bytes the lanes asked for
  int minSectors = 0;              // the fewest sectors those bytes fit in: ceil(useful / 32)
};
// usefulBytes / (32 · sectors), in percent.
double sectorEfficiency(const WarpMemoryRequest& r);

// A step's requests summed: what the views print per step.
struct MemoryStepSummary {
  int requests = 0;
  long long sectors = 0, minSectors = 0, usefulBytes = 0;
  double efficiency = 0;  // usefulBytes / (32 · sectors), in percent; 0 without requests
};
MemoryStepSummary summarizeMemory(const std::vector<WarpMemoryRequest>& requests);

// What the cells of a step stand for: the array's elements, or a phase that holds something
// else, which the views label as such and never draw as the array.
enum class CellKind {
  Elements,        // element i of the array (or of a block's shared copy of it)
  Threads,         // one value per thread: what thread i holds
  WarpTotals,      // one per warp, warp w's total
  BlockTotals,     // one per block
  LaneWarpTotals,  // per thread, lane l of each warp holding warp l's total (the second butterfly)
};

// A gather step (coarsening): the elements one thread read, in the order it read them, and
// what it read there, as the kernel recorded each read (StepRecorder::gather).
struct ThreadGather {
  std::vector<int> elements;
  std::vector<double> values;
};

struct StepSnapshot {
  Message label;            // "level 2: a[tid] += a[tid + 2] where ..."
  std::string array = "a";  // what the kernel calls the array: a, or shared s
  CellKind cells = CellKind::Elements;
  // Cells from here on hold no input: threads or lanes past n, holding the operator's identity
  // because a warp or a block works whole. -1: none.
  long long paddingFrom = -1;
  std::vector<double> values;              // the live part of the array after this step
  std::vector<int> active;                 // threads that did work in this step
  std::vector<std::pair<int, int>> pairs;  // (source, target) elements combined
  std::vector<CombineRead> combines;       // where the array is replayed: what each read
  // A learner's kernel (rlab exercise run): the element of this step's array that the run's
  // first race touched, in the step where its second access was (a race after a block's last
  // barrier: the block's last step); marked where the step is drawn (the race's sentence is a
  // note of the run). -1: none.
  int racedElement = -1;
  // A gather step: what each thread read, thread t at [t]; values holds the input it read from.
  std::vector<ThreadGather> gathers;
  // divergence: warps with active lanes, and the worst shared-memory bank conflict
  std::vector<int> activeWarps;
  int bankConflictDegree = 0;  // 0: not measured
  // allreduce: values holds the G ranks' buffers one after the other (rank r at r * n);
  // contains[r][c]: bit q set when chunk c of rank r's buffer already holds rank q's input.
  std::vector<std::vector<unsigned>> contains;
  std::vector<Transfer> transfers;  // the copies of this step
  // coalescing (--memory, simulator): every warp's global loads and stores in this step
  std::vector<WarpMemoryRequest> memory;
  // ... and, on a launch's last step, those its threads made after their last combine (a
  // block's total written out, an element copied across): in no step, but the launch's
  // (the profile's prediction counts them)
  std::vector<WarpMemoryRequest> memoryAfter;
};

// One kernel launch of a run, as the host code made it: the grid and block it asked for, and
// the values the driver named for it (folding: len, reduce, remain), in the driver's order.
struct LaunchRecord {
  long long grid = 0, block = 0;
  std::vector<std::pair<std::string, long long>> values;
};

// The launches a backend made while on (runOnBackend turns it on for the run it traces, not
// for the timing runs after it). Both backends hold one and add to it in launch().
class LaunchLog {
 public:
  static constexpr size_t kLimit = 4096;  // the app and rlab list them; no lesson makes more
  void start() {
    on_ = true;
    launches_.clear();
  }
  std::vector<LaunchRecord> stop() {
    on_ = false;
    return std::move(launches_);
  }
  void launched(long long grid, long long block) {
    if (on_ && launches_.size() < kLimit) launches_.push_back({grid, block, {}});
  }
  // The driver names values of the launch it just made.
  void note(std::vector<std::pair<std::string, long long>> values) {
    if (on_ && !launches_.empty()) launches_.back().values = std::move(values);
  }

 private:
  bool on_ = false;
  std::vector<LaunchRecord> launches_;
};

struct AtomicLanding {
  int thread = 0;
  double before = 0;  // the total the atomic found
  double value = 0;   // what the thread brought
};

struct Timings {
  bool measured = false;
  int repetitions = 0;
  double kernelMs = 0;      // CUDA events around the kernels only, median
  double withCopiesMs = 0;  // including host-to-device and device-to-host copies
  double gbPerSecond = 0;   // input bytes read / kernel time
  double copyFraction = 0;  // of the measured device-to-device copy bandwidth
  double cpuMs = 0;         // a plain loop on the host
  double cubMs = 0;         // cub::DeviceReduce on the same input, same run
  double cubRatio = 0;      // cubMs / kernelMs: above 1 means faster than CUB
  double simSeconds = 0;    // simulator: wall time of the run (not a GPU time)
  // Simulator, round-based schedules: scheduling rounds, summed over blocks and launches. A
  // stall that starts later than this changes nothing (the race witness search stops there).
  unsigned long long simRounds = 0;
  // Simulator: the most warp steps one thread took (a lane:T:S:K from a later step changes
  // nothing), and one past the highest thread of a block that took any.
  unsigned long long simWarpSteps = 0;
  unsigned simWarpStepThreads = 0;
  unsigned long long simLaneThreadWarpSteps = 0;  // lane:T:S:K: the most thread T took
  // allreduce on GPUs: kernelMs is the whole all-reduce (events on rank 0 around it),
  // gbPerSecond the algorithm bandwidth n · size / t, copyFraction busGBs / peerCopyGBs.
  double busGBs = 0;       // nccl-tests' bus bandwidth: algorithm bandwidth · 2 (G - 1) / G
  double peerCopyGBs = 0;  // one cudaMemcpyPeerAsync of the same bytes, GPU 0 to GPU 1
};

// A learner's run (exercise run --timeline): one load or store of an element of an array the
// kernel was handed or of a __shared__ variable, as the simulator ran it. A 16-byte load is one
// access to each of its four elements, with one tick.
struct MemoryAccess {
  enum class Kind { Read, Write, Atomic };
  long long tick = 0;  // the order the simulator ran them in, from 1
  int launch = 1;
  unsigned block = 0, thread = 0;  // the thread's index within its block
  int phase = 0;                   // the barriers its block had opened in the launch before it
  Kind kind = Kind::Read;
  std::string array;    // "in", "s"
  bool shared = false;  // a __shared__ variable of the block
  long long element = 0;
  bool valueKnown = false;
  long long value = 0;  // a read: what it got; a write or an atomic: what the element then held
  std::string line;     // "kernel.cu:5" (the runner sends "@pc:OFFSET"); empty: not known
};

// "read", "write", "atomic": how the runner's report, the JSON and the protocol spell a kind.
const char* name(MemoryAccess::Kind kind);

// --op subtract: what one kernel gave for the run's data, or why it did not run.
struct KernelAnswer {
  std::string lesson, variant;
  double result = 0;
  Message notRun{};  // empty: it ran; else why not
};

struct Trace {
  Params params;  // resolved: every default filled in
  std::string dataLabel;
  BackendChoice backend = BackendChoice::Sim;  // the one that ran (Sim or Gpu, never Auto)
  Message device;        // GPU name, capability and memory, or the simulator and its schedule
  Message fallback;      // --backend auto found no usable GPU: why (the simulator ran instead)
  std::string exercise;  // the learner's kernel of this exercise ran, not the lesson's
  bool traced = false;   // false: steps were not recorded (n too large)
  // The simulator's race detector looked at this run (traced runs, Params::detectRaces, a
  // build whose lesson kernels carry its hooks), and how many racing accesses it found; the
  // first race is a note.
  bool racesLooked = false;
  uint64_t racingAccesses = 0;
  // The simulator recorded each step's global loads and stores (StepSnapshot::memory).
  bool memoryRecorded = false;
  std::vector<StepSnapshot> steps;  // steps[0] is the input
  double result = 0;
  double expected = 0;
  double tolerance = 0;
  bool correct = false;
  // false: the operator is not associative (--op subtract), so there is no right answer to
  // judge by; expected holds the host's loop, a[0] - a[1] - ... - a[n-1], and correct is false
  bool singleAnswer = true;
  // --op subtract: the same data through every kernel that offers it, this run's among them
  std::vector<KernelAnswer> otherKernels;
  std::vector<AtomicLanding> atomicOrder;  // atomic: in the order they landed
  std::vector<double> blockPartials;       // shared: one per block
  int clusterBlocks = 0;  // shared clusters: blocks a cluster, whose totals meet on the chip
  // butterfly: threads that ended with a total other than their block's thread 0's (the result
  // takes thread 0's); any makes the run wrong, as the lesson promises every thread the total
  long long threadsOffTotal = 0;
  std::vector<Message> notes;
  std::vector<LaunchRecord> launches;  // every launch of the run (not of its timing runs)
  // What the kernel printed (printf), line by line: on the simulator in the exact order the
  // schedule ran the calls, on a GPU in the order the device's printf buffer returned them.
  std::vector<std::string> kernelOutput;
  // A learner's run on the simulator, recorded with its steps: its loads and stores in the order
  // they ran (the runner's first 32768), how many more there were, and the ticks of
  // the two accesses of its first race (-1: none, or not among those kept).
  std::vector<MemoryAccess> accesses;
  long long accessesLeft = 0;
  long long raceFirstTick = -1, raceSecondTick = -1;
  Timings timings;
  // allreduce: the G GPUs (ranks), the chunk bounds (chunk c spans [chunkStarts[c],
  // chunkStarts[c + 1]) of every rank's buffer), each rank's buffer at the end, and whether each
  // equals the host reference elementwise. Other lessons: gpus = 0 and all empty.
  int gpus = 0;
  std::vector<long long> chunkStarts;
  std::vector<std::vector<double>> rankResults;
  std::vector<long long> rankWrongElements;  // per rank: elements off the reference
};

// A kernel's printf output as lines, without their line ends (a last line without one too).
std::vector<std::string> outputLines(const std::string& text);

// "thread 0 read a[4] = 11 (step 1's value) too early: thread 4 wrote 26 there in step 2";
// `array` names the array as the kernel does (s[4] in shared memory).
Message staleReadText(const CombineRead& c, const ValueRead& r, ElementType type,
                      const std::string& array);
// Every stale read of a step, as such sentences.
std::vector<Message> staleReads(const StepSnapshot& s, ElementType type);

// A write that landed after a thread of a later step had already read the element: the step's
// picture shows the element holding it, but the reader took the value from before it.
struct LateWrite {
  int element = -1;
  int writer = -1;   // the thread that wrote it late
  double value = 0;  // what it wrote
  int reader = -1;   // the first thread that read the element before the write landed
  int readStep = 0;  // the step that thread read it in
};
// The late writes of step `step`, one per element, from the stale reads of the steps after it.
std::vector<LateWrite> lateWrites(const Trace& t, int step);

// How far a wrong sum is from the expected one: "15 short", "3 over"; empty when the run is
// correct, not a sum, or not finite. Every view says it this way.
Message howFarOff(const Trace& t);

// The run's result against the expected value, "result 21   expected 36", its verdict, "correct"
// or "WRONG", and for an operator with no single answer "result 5   host loop, left to right -3".
Message resultLine(const Trace& t);
Message verdictWord(const Trace& t);
// What the run took, a line each: the GPU's timings (kernel, bandwidth, against the CPU loop and
// CUB; the all-reduce's bandwidths), or the simulator's own time, which is no GPU's.
std::vector<Message> timingLines(const Trace& t);

// folding: one step as the fold picture draws it, taken from the run's recorded combines (not
// computed from n): the strip before the step, an arc from each back-half element onto the
// front-half element it was added to, and the element no arc touched (len odd: the middle one).
struct FoldArc {
  int from = 0, to = 0;  // source element (i + remain) and target (i)
  double fromValue = 0, toValue = 0, result = 0;
};
struct FoldPicture {
  bool valid = false;          // false: step 0, or a step that does not exist
  long long len = 0;           // elements live before the step
  long long remain = 0;        // ... and after it
  std::vector<double> before;  // the strip before the step (len values)
  std::vector<FoldArc> arcs;   // one per combine, by target
  long long waiting = -1;      // the element without a partner; -1: none
};
FoldPicture foldPicture(const Trace& t, int step);

// The run's launches as a table, the same in the app and in rlab run --launches: launch k, grid
// x block, threads, then every value a driver named (folding: len, reduce, remain), in order.
struct LaunchTable {
  std::vector<Message> columns;  // the words, then the driver's names (verbatim)
  std::vector<std::vector<std::string>> rows;
};
LaunchTable launchTable(const Trace& t);

// allreduce: the ranks a chunk-contains bitmask names, "0+1+2", or "all" when it holds every one
// of `gpus` ranks' inputs; with more than 4 GPUs runs of three or more as "0-4" ("0-2+6+7"), so
// that eight GPUs' labels stay short.
std::string ranksText(unsigned mask, int gpus);

}  // namespace rlab
