// [SECTION] Helpers
// [SECTION] The rules
// [SECTION] One driver per shape

#include "lessons/engine/exercise_runner/drivers.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"
#include "lessons/engine/run/reference.hpp"

namespace rlab::exercise {

// ============================================================================================
// [SECTION] Helpers
// ============================================================================================

namespace {

using ResultKernel = void (*)(const int*, long long, int*);
using FoldKernel = void (*)(int*, long long);
using OneBlockKernel = void (*)(int*, int);

// A broken rule: its sentence, and what() the English.
class RuleBroken : public std::runtime_error, public MessageCarrier {
 public:
  explicit RuleBroken(Message m) : std::runtime_error(english(m)), MessageCarrier(std::move(m)) {}
};

std::string text(double v) {
  return formatValue(v, ElementType::Int);
}

Message threadName(long long thread, long long block) {
  return Message("check.thread-of-block", {{"thread", thread}, {"block", block}});
}

long long blocksFor(long long threads, long long block) {
  return (threads + block - 1) / block;
}

// An int whose bytes are all the simulator's poison: a __shared__ cell never written.
int poisonInt() {
  int v;
  std::memset(&v, sim::kSharedPoisonByte, sizeof v);
  return v;
}

// What the runner calls an instruction of the learner's library ("@pc:OFFSET"), or "".
std::string instructionName(uintptr_t instruction) {
  return g_instructionName ? g_instructionName(instruction) : std::string();
}

// A load or store between a buffer's last element and its fence page, in the sentence a fault
// past the page gets.
Message offLimitsSentence(const sim::ThreadAccess& a) {
  const FenceHit hit = findFence(a.address);
  Message who = threadName(a.thread, a.block);
  if (const std::string line = instructionName(a.instruction); !line.empty())
    who = Message("check.who-at", {{"who", who}, {"line", line}});
  const long long count = (long long)hit.count;
  return Message(a.write || a.atomic ? "check.wrote-past" : "check.read-past",
                 {{"who", who},
                  {"element", std::string(hit.name) + "[" + std::to_string(hit.index) + "]"},
                  {"buffer", hit.name},
                  {"count", count},
                  {"last", count - 1}});
}

// sim::launch on the live fenced buffers. An access between a buffer's last element and its
// fence page cannot fault; the race detector's hooks see it, and it is refused as the fault
// past the page would be.
template <class Kernel, class... Args>
sim::LaunchStats launchFenced(dim3 grid, dim3 block, sim::LaunchOptions options, Kernel kernel,
                              Args... args) {
  options.offLimits = unguardedEnds();
  const sim::LaunchStats stats = sim::launch(grid, block, options, kernel, args...);
  g_laneThreadWarpSteps = std::max(g_laneThreadWarpSteps, stats.laneThreadWarpSteps);
  if (stats.offLimits) throw RuleBroken(offLimitsSentence(*stats.offLimits));
  return stats;
}

std::unique_ptr<FencedBuffer> inputBuffer(const std::vector<double>& input) {
  auto in = std::make_unique<FencedBuffer>("in", input.size());
  for (size_t k = 0; k < input.size(); ++k) in->data()[k] = int(input[k]);
  return in;
}

// ============================================================================================
// [SECTION] The rules
// ============================================================================================

// *result may change only through atomics: each atomic on it must find what the one before it
// left (the first: the identity the host stored), and the last must leave what the host reads.
// On the simulator one thread runs at a time, so `*result += v` gives the right total there;
// on a GPU threads read the same old value at once and lose each other's additions. A plain
// store of a block's total (`*result = s[0]`) breaks the chain the same way.
void checkAtomicsOnly(const sim::LaunchStats& stats, const int* result, int identity,
                      int finalValue, long long& count) {
  double value = identity;
  const sim::AtomicEvent* previous = nullptr;
  count = 0;
  for (const sim::AtomicEvent& a : stats.atomics) {
    if (a.address != result) continue;
    if (a.old != value) {
      const Message before = previous
                                 ? Message("rule.left-by-atomic",
                                           {{"value", text(value)},
                                            {"who", threadName(previous->thread, previous->block)}})
                                 : Message("rule.left-by-host", {{"value", text(value)}});
      throw RuleBroken(Message(
          "rule.atomic-found",
          {{"who", threadName(a.thread, a.block)}, {"found", text(a.old)}, {"before", before}}));
    }
    value = a.after;
    previous = &a;
    ++count;
  }
  if (finalValue != value)
    throw RuleBroken(previous
                         ? Message("rule.ended-after-atomics",
                                   {{"final", text(finalValue)}, {"left", text(value)}})
                         : Message("rule.ended-without-atomics", {{"final", text(finalValue)}}));
}

void checkAtomicCount(const Exercise& e, long long atomics, long long blocks, int block) {
  if (e.atomics == AtomicLimit::Any) return;
  const bool perWarp = e.atomics == AtomicLimit::OnePerWarp;
  const long long allowed = blocks * (perWarp ? blocksFor(block, 32) : 1);
  if (atomics <= allowed) return;
  throw RuleBroken(
      Message(perWarp ? "rule.atomics-per-warp" : "rule.atomics-per-block",
              {{"atomics", atomics}, {"blocks", blocks}, {"block", block}, {"allowed", allowed}}));
}

// Sequential addressing, seen from the barriers: after the tree's first level the first half
// of the block's shared array holds x[t] + x[t + blockDim.x / 2], where x is what the block
// loaded (0 past the end). An interleaved tree (x[t] + x[t + 1] at even t) or a strided one
// reaches the same total, and never that state. Blocks of fewer than four threads have one
// level, the same in every tree.
class SequentialAddressingWatch {
 public:
  SequentialAddressingWatch(const int* source, long long len, int block, long long blocks)
      : source_(source), len_(len), block_(block), seen_(size_t(blocks), 0) {}

  void atBarrier(unsigned b, const std::vector<sim::SharedSpan>& shared) {
    if (block_ < 4 || b >= seen_.size() || seen_[b]) return;
    const sim::SharedSpan* tree = nullptr;  // the largest shared variable: the tree's array
    for (const auto& span : shared)
      if (span.size >= size_t(block_) * sizeof(int) && (!tree || span.size > tree->size))
        tree = &span;
    if (!tree) return;
    const int* s = reinterpret_cast<const int*>(tree->bytes);
    const long long base = (long long)b * block_, half = block_ / 2;
    for (long long t = 0; t < half; ++t) {
      const unsigned x = element(base + t), y = element(base + t + half);
      if (s[t] != int(x + y)) return;
    }
    seen_[b] = 1;
  }

  void check(int pass) const {
    if (block_ < 4) return;
    for (size_t b = 0; b < seen_.size(); ++b) {
      if (seen_[b]) continue;
      const std::string x = pass == 1 ? "in" : "x";
      const std::string half = std::to_string(block_ / 2);
      const std::vector<MessageArg> args = {
          {"block", b},
          {"pass", pass},
          {"holds", "s[t] = " + x + "[base + t] + " + x + "[base + t + " + half + "]"},
          {"half", half}};
      throw RuleBroken(
          Message(pass == 1 ? "rule.not-sequential" : "rule.not-sequential-pass", args));
    }
  }

 private:
  unsigned element(long long i) const { return i < len_ ? unsigned(source_[i]) : 0u; }
  const int* source_;
  long long len_;
  int block_;
  std::vector<char> seen_;
};

}  // namespace

int identityOf(Op op) {
  switch (op) {
    case Op::Max:
      return INT_MIN;
    case Op::Min:
      return INT_MAX;
    case Op::Product:
      return 1;
    case Op::Sum:
    case Op::Subtract:
      break;
  }
  return 0;
}

Message sharedMemoryRuleBroken(const Exercise& e, const void* kernel) {
  return e.shared == SharedUse::Any ? Message()
                                    : sharedMemoryRuleBroken(e, sim::sharedMemoryBytes(kernel),
                                                             sim::usesDynamicSharedMemory(kernel));
}

Message sharedMemoryRuleBroken(const Exercise& e, size_t bytes, bool dynamic) {
  if (e.shared == SharedUse::Required && bytes == 0 && !dynamic)
    return Message("rule.no-shared", {{"kernel", e.kernel}});
  if (e.shared == SharedUse::Forbidden && (bytes > 0 || dynamic))
    return dynamic ? Message("rule.dynamic-shared-forbidden", {{"kernel", e.kernel}})
                   : Message("rule.shared-forbidden", {{"kernel", e.kernel}, {"bytes", bytes}});
  return {};
}

// ============================================================================================
// [SECTION] One driver per shape
// ============================================================================================

namespace {

// What runs each time a block's barrier opens: the exercise's `rule` (may be empty) and, with
// `steps`, the step: block b's largest __shared__ array, or, for a kernel without one, `global`
// (its first `count` ints).
using BarrierHook = std::function<void(unsigned, const std::vector<sim::SharedSpan>&)>;
void atBarriers(sim::LaunchOptions& options, const BarrierHook& rule, StepRecorder* steps,
                int launch, const int* global, long long count, const std::string& globalName,
                int blockThreads) {
  options.onBarrier = rule;
  if (!steps) return;
  steps->newLaunch(blockThreads);
  options.onAccess = [steps](const sim::ThreadAccess& a) { steps->access(a); };
  options.onBarrier = [=](unsigned b, const std::vector<sim::SharedSpan>& shared) {
    if (rule) rule(b, shared);
    const sim::SharedSpan* largest = nullptr;
    for (const auto& span : shared)
      if (span.size >= sizeof(int) && (!largest || span.size > largest->size)) largest = &span;
    const int barrier = steps->nextBarrier(b);
    if (largest) {
      // Cells at the end that no thread has written yet (a kernel declares s[1024] and uses
      // blockDim.x of them) are left out.
      const int* cells = reinterpret_cast<const int*>(largest->bytes);
      size_t written = largest->size / sizeof(int);
      while (written > 1 && cells[written - 1] == poisonInt()) --written;
      const std::string name = largest->name.empty() ? "array" : largest->name;
      steps->addAtBarrier(Message("step.exercise.shared", {{"launch", launch},
                                                           {"block", b},
                                                           {"barrier", barrier},
                                                           {"array", "__shared__ " + name + "[]"}}),
                          cells, written, b, barrier, {largest->name, true, nullptr});
    } else {
      steps->addAtBarrier(Message("step.exercise.global", {{"launch", launch},
                                                           {"block", b},
                                                           {"barrier", barrier},
                                                           {"array", globalName + "[]"}}),
                          global, size_t(count), b, barrier, {globalName, false, global});
    }
  };
}

// The launch's last step, after its first race (if it had one) is marked.
void recordLaunchEnd(StepRecorder* steps, const sim::LaunchStats& stats, int launch,
                     const int* values, long long count, const std::string& name) {
  if (!steps) return;
  const StepRecorder::Shown shown{name, false, values};
  steps->noteRace(stats, shown);
  steps->addAtLaunchEnd(
      Message("step.exercise.after-launch", {{"launch", launch}, {"array", name + "[]"}}), values,
      size_t(count), shown);
}

double runAtomicResult(const Exercise& e, const void* kernel, const Params& p,
                       const std::vector<double>& input, sim::LaunchOptions options,
                       StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  auto in = inputBuffer(input);
  FencedBuffer result("result", 1);
  const int identity = identityOf(e.op);
  result.data()[0] = identity;
  const long long n = p.n;
  long long blocks = blocksFor(n, (long long)p.block * e.perThread);
  if (e.gridStride)
    blocks = std::min(blocks, kSimMultiprocessors * kThreadSlotsPerMultiprocessor / p.block);
  options.recordAtomics = true;
  atBarriers(options, {}, steps, 1, in->data(), n, "in", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(unsigned(blocks)), dim3(unsigned(p.block)), options, run,
                   (const int*)in->data(), n, result.data());
  long long atomics = 0;
  recordLaunchEnd(steps, stats, 1, result.data(), 1, "result");
  checkAtomicsOnly(stats, result.data(), identity, result.data()[0], atomics);
  checkAtomicCount(e, atomics, blocks, p.block);
  return result.data()[0];
}

// Passes over the block totals until one is left, as the lessons' runTreePasses.
double runBlockPartials(const Exercise& e, const void* kernel, const Params& p,
                        const std::vector<double>& input, sim::LaunchOptions options,
                        StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  std::unique_ptr<FencedBuffer> source = inputBuffer(input);
  long long len = p.n;
  for (int pass = 1;; ++pass) {
    const long long blocks = blocksFor(len, p.block);
    auto out = std::make_unique<FencedBuffer>("out", size_t(blocks));
    SequentialAddressingWatch watch(source->data(), len, p.block, blocks);
    BarrierHook rule;
    if (e.sequentialAddressing)
      rule = [&watch](unsigned b, const std::vector<sim::SharedSpan>& shared) {
        watch.atBarrier(b, shared);
      };
    atBarriers(options, rule, steps, pass, source->data(), len, pass == 1 ? "in" : "x", p.block);
    const sim::LaunchStats stats =
        launchFenced(dim3(unsigned(blocks)), dim3(unsigned(p.block)), options, run,
                     (const int*)source->data(), len, out->data());
    recordLaunchEnd(steps, stats, pass, out->data(), blocks, "out");
    if (e.sequentialAddressing) watch.check(pass);
    if (blocks == 1) return out->data()[0];
    out->rename("in (the block totals of pass " + std::to_string(pass) + ")");
    source = std::move(out);
    len = blocks;
  }
}

double runFoldSteps(const void* kernel, const Params& p, const std::vector<double>& input,
                    sim::LaunchOptions options, StepRecorder* steps) {
  const auto run = reinterpret_cast<FoldKernel>(kernel);
  auto a = inputBuffer(input);
  a->rename("a");
  int launch = 1;
  for (long long len = p.n; len > 1; len -= len / 2, ++launch) {
    const long long threads = len - len / 2;
    atBarriers(options, {}, steps, launch, a->data(), len, "a", p.block);
    const sim::LaunchStats stats =
        launchFenced(dim3(unsigned(blocksFor(threads, p.block))), dim3(unsigned(p.block)), options,
                     run, a->data(), len);
    recordLaunchEnd(steps, stats, launch, a->data(), len - len / 2, "a");
  }
  return a->data()[0];
}

double runOneBlock(const void* kernel, const Params& p, const std::vector<double>& input,
                   sim::LaunchOptions options, StepRecorder* steps) {
  const auto run = reinterpret_cast<OneBlockKernel>(kernel);
  auto a = inputBuffer(input);
  a->rename("a");
  atBarriers(options, {}, steps, 1, a->data(), p.n, "a", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(1), dim3(unsigned(p.block)), options, run, a->data(), int(p.n));
  recordLaunchEnd(steps, stats, 1, a->data(), p.n, "a");
  return a->data()[0];
}

// Every thread i < n must end with its group's total; the result is the groups' totals
// combined.
double runAllReduce(const Exercise& e, const void* kernel, const Params& p,
                    const std::vector<double>& input, sim::LaunchOptions options,
                    StepRecorder* steps) {
  const auto run = reinterpret_cast<ResultKernel>(kernel);
  auto in = inputBuffer(input);
  FencedBuffer out("out", input.size());
  const int poison = poisonInt();
  std::fill(out.data(), out.data() + out.count(), poison);
  atBarriers(options, {}, steps, 1, out.data(), p.n, "out", p.block);
  const sim::LaunchStats stats =
      launchFenced(dim3(unsigned(blocksFor(p.n, p.block))), dim3(unsigned(p.block)), options, run,
                   (const int*)in->data(), (long long)p.n, out.data());
  recordLaunchEnd(steps, stats, 1, out.data(), p.n, "out");
  return allReduceResult(e, input, out.data(), p.block, poison);
}

}  // namespace

double allReduceResult(const Exercise& e, const std::vector<double>& input, const int* out,
                       int blockSize, int untouched) {
  const long long n = (long long)input.size(), block = blockSize;
  const long long group = e.warpGroups ? std::min<long long>(32, block) : block;
  std::vector<double> totals;
  for (long long first = 0; first < n; first += group) {
    const long long last = std::min(n, first + group) - 1;
    const std::vector<double> elements(input.begin() + first, input.begin() + last + 1);
    const double total = reference(e.op, ElementType::Int, elements).expected;
    for (long long i = first; i <= last; ++i) {
      const int got = out[i];
      if (got == total) continue;
      const Message who = threadName(i % block, i / block);
      const std::string cell = "out[" + std::to_string(i) + "]";
      if (got == untouched)
        throw RuleBroken(Message("rule.out-untouched",
                                 {{"cell", cell}, {"value", text(untouched)}, {"who", who}}));
      throw RuleBroken(
          Message(e.warpGroups ? "rule.out-not-warp-total" : "rule.out-not-block-total",
                  {{"who", who},
                   {"got", text(got)},
                   {"cell", cell},
                   {"first", first},
                   {"last", last},
                   {"total", text(total)}}));
    }
    totals.push_back(total);
  }
  return reference(e.op, ElementType::Int, totals).expected;
}

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

std::function<std::string(uintptr_t)> g_instructionName;
bool g_detectRaces = true;
uint64_t g_laneThreadWarpSteps = 0;
std::function<void(const sim::LaunchError&)> g_onRace;

double runExerciseKernel(const Exercise& e, const void* kernel, const Params& p,
                         StepRecorder* steps) {
  const std::vector<double> input = makeInput(resolve(p));
  g_laneThreadWarpSteps = 0;
  if (steps) {
    const std::vector<int> ints(input.begin(), input.end());
    steps->add(Message("step.input"), ints.data(), ints.size());
  }
  sim::LaunchOptions options;
  options.schedule = sim::Schedule::parse(p.schedule);
  options.dynamicSharedBytes = size_t(e.dynamicSharedPerThread) * size_t(p.block);
  // Every run looks for races: a kernel whose sums came out right can still have one.
  options.detectRaces = g_detectRaces;
  options.failOnRace = !g_onRace;
  options.onRace = g_onRace;
  options.nameAddress = [](uintptr_t address) -> std::string {
    const FenceHit hit = findFence(address);
    if (!hit.found || hit.index < 0 || size_t(hit.index) >= hit.count) return "";
    return std::string(hit.name) + "[" + std::to_string(hit.index) + "]";
  };
  options.nameInstruction = g_instructionName;
  switch (e.shape) {
    case ExerciseShape::AtomicResult:
      return runAtomicResult(e, kernel, p, input, options, steps);
    case ExerciseShape::BlockPartials:
      return runBlockPartials(e, kernel, p, input, options, steps);
    case ExerciseShape::FoldStep:
      return runFoldSteps(kernel, p, input, options, steps);
    case ExerciseShape::OneBlock:
      return runOneBlock(kernel, p, input, options, steps);
    case ExerciseShape::AllReduce:
      return runAllReduce(e, kernel, p, input, options, steps);
    case ExerciseShape::Probe:
      break;  // runProbesOnSimulator
  }
  throw std::logic_error("a probe runs through runProbesOnSimulator");
}

void runProbesOnSimulator(const void* kernel, const std::vector<int>& input,
                          const std::vector<ProbeLaunch>& launches,
                          const std::function<void(int)>& beforeLaunch,
                          const std::function<void(const std::string&)>& report) {
  using ProbeKernel = void (*)(const int*, int, int*);
  const auto run = reinterpret_cast<ProbeKernel>(kernel);
  for (size_t k = 0; k < launches.size(); ++k) {
    const ProbeLaunch& l = launches[k];
    beforeLaunch(int(k));
    FencedBuffer in("in", std::max<size_t>(input.size(), 1)),
        out("out", size_t(std::max(l.outCount, 1)));
    std::copy(input.begin(), input.end(), in.data());
    std::fill(out.data(), out.data() + out.count(), kProbeUntouched);
    sim::LaunchOptions options;
    options.schedule = sim::Schedule::parse(l.schedule);
    options.dynamicSharedBytes = l.sharedBytes;
    try {
      sim::launch(dim3(l.grid), dim3(l.block), options, run, (const int*)in.data(), l.n,
                  out.data());
    } catch (const std::exception& ex) {
      std::string sentence = ex.what();
      for (char& c : sentence)
        if (c == '\n' || c == '\t') c = ' ';
      report("@probe-failed\t" + std::to_string(k) + "\t" + sentence);
      continue;
    }
    std::string values;
    for (int i = 0; i < l.outCount; ++i) values += (i ? "," : "") + std::to_string(out.data()[i]);
    report("@probe\t" + std::to_string(k) + "\t" + values);
  }
}

}  // namespace rlab::exercise
