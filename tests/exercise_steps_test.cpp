// A run of the learner's own kernel (rlab exercise run, Run once in the app), drawn as the
// lessons are: a step at each barrier of each block and after each launch, who read and wrote
// the step's array and what each write read, the first race marked where it shows (after a
// block's last barrier too), and a read of the few bytes between a buffer's end and its fence
// page, which no fault catches, refused with the thread, the line and the element; and the
// run's loads and stores as they ran (the learner's timeline).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/access_timeline.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr double kCaseSeconds = 120;  // the simulator runs 13 to 30 times slower there
#else
constexpr double kCaseSeconds = 5;
#endif

ExerciseReport runOnce(const std::string& id, const std::string& file, Params options) {
  ExerciseRequest request;
  request.file = file;
  request.oneRun = true;
  request.caseSeconds = kCaseSeconds;
  request.options = std::move(options);
  return checkExercise(exerciseOrThrow(id), request);
}

// One run over the numbers 1 to n in blocks of `block`.
Params iota(long long n, int block) {
  Params p;
  p.n = n;
  p.block = block;
  p.data = "iota";
  return p;
}

// The tree's levels with no barrier between them: thread 0 reads s[2] at the second level
// while thread 2 may not have added s[6] into it yet. Only the load has a barrier.
const char* const kLevelsWithoutBarriers =
    "__global__ void reduce(const int* in, long long n, int* out) {\n"
    "  __shared__ int s[1024];\n"
    "  const unsigned t = threadIdx.x;\n"
    "  const long long i = (long long)blockIdx.x * blockDim.x + t;\n"
    "  s[t] = i < n ? in[i] : 0;\n"
    "  __syncthreads();\n"
    "  for (unsigned k = blockDim.x / 2; k > 0; k /= 2)\n"
    "    if (t < k) s[t] += s[t + k];\n"
    "  if (t == 0) out[blockIdx.x] = s[0];\n"
    "}\n";

std::string firstFailure(const ExerciseReport& r) {
  INFO(english(r.summary()) << " " << english(r.problem) << " " << r.compilerOutput);
  REQUIRE_FALSE(r.failures.empty());
  const std::string sentence = english(r.failures.front());
  MESSAGE(sentence);
  return sentence;
}

}  // namespace

TEST_CASE("a run of the learner's kernel has its steps: each barrier of each block, each launch") {
  Params p;
  p.n = 8;
  p.block = 8;
  p.data = "iota";
  auto valuesOf = [](const ExerciseReport& r) {
    std::vector<std::vector<double>> values;
    for (const StepSnapshot& s : r.trace->steps) values.push_back(s.values);
    return values;
  };
  using V = std::vector<std::vector<double>>;
  auto solution = [](const std::string& id) {
    return std::make_shared<TextFile>("rlab-steps-" + id + ".cu",
                                      solutionFile(exerciseOrThrow(id)));
  };
  SUBCASE("a tree in __shared__ memory: the block's s[] at each barrier, then out[]") {
    const ExerciseReport r = runOnce("tree-in-shared", solution("tree-in-shared")->path, p);
    REQUIRE(r.trace);
    CHECK(r.trace->exercise == "tree-in-shared");
    CHECK(valuesOf(r) == V{{1, 2, 3, 4, 5, 6, 7, 8},
                           {1, 2, 3, 4, 5, 6, 7, 8},
                           {6, 8, 10, 12, 5, 6, 7, 8},
                           {16, 20, 10, 12, 5, 6, 7, 8},
                           {36, 20, 10, 12, 5, 6, 7, 8},
                           {36}});
    CHECK(rlab::english(r.trace->steps[1].label) ==
          "launch 1, block 0, barrier 1: __shared__ s[] of block 0");
    CHECK(rlab::english(r.trace->steps[5].label) == "after launch 1: out[]");
    // Who worked: the load writes every s[t]; each level's threads add the element stride on.
    using Pairs = std::vector<std::pair<int, int>>;
    CHECK(r.trace->steps[0].active.empty());
    CHECK(r.trace->steps[1].active == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(r.trace->steps[1].pairs.empty());
    CHECK(r.trace->steps[2].active == std::vector<int>{0, 1, 2, 3});
    CHECK(r.trace->steps[2].pairs == Pairs{{4, 0}, {5, 1}, {6, 2}, {7, 3}});
    CHECK(r.trace->steps[3].pairs == Pairs{{2, 0}, {3, 1}});
    CHECK(r.trace->steps[4].pairs == Pairs{{1, 0}});
    CHECK(r.trace->steps[5].active == std::vector<int>{0});  // thread 0 writes out[0]
  }
  SUBCASE("a tree in global memory: a[] at each barrier") {
    const ExerciseReport r =
        runOnce("put-the-barrier-back", solution("put-the-barrier-back")->path, p);
    REQUIRE(r.trace);
    CHECK(valuesOf(r) == V{{1, 2, 3, 4, 5, 6, 7, 8},
                           {3, 2, 7, 4, 11, 6, 15, 8},
                           {10, 2, 7, 4, 26, 6, 15, 8},
                           {36, 2, 7, 4, 26, 6, 15, 8},
                           {36, 2, 7, 4, 26, 6, 15, 8}});
    CHECK(rlab::english(r.trace->steps[1].label) == "launch 1, block 0, barrier 1: a[]");
    using Pairs = std::vector<std::pair<int, int>>;
    CHECK(r.trace->steps[1].pairs == Pairs{{1, 0}, {3, 2}, {5, 4}, {7, 6}});
    CHECK(r.trace->steps[2].pairs == Pairs{{2, 0}, {6, 4}});
  }
  SUBCASE("two blocks: each block's barriers, counted per block") {
    p.n = 12;
    p.block = 4;
    const ExerciseReport r = runOnce("tree-in-shared", solution("tree-in-shared")->path, p);
    REQUIRE(r.trace);
    // input, 3 blocks x 3 barriers, out[] of pass 1; then pass 2 over 3 totals in one block.
    CHECK(rlab::english(r.trace->steps[4].label) ==
          "launch 1, block 1, barrier 1: __shared__ s[] of block 1");
    CHECK(r.trace->steps[4].values == std::vector<double>{5, 6, 7, 8});
    CHECK(r.trace->steps[10].values == std::vector<double>{10, 26, 42});
    CHECK(r.result == 78);
  }
  SUBCASE("cooperative groups: block.sync() is the barrier a step is taken at") {
    // groups-tree: each tile's total in tileTotals[], the block's sync, the first tile's sum.
    const ExerciseReport r = runOnce("groups-tree", solution("groups-tree")->path, p);
    REQUIRE(r.trace);
    REQUIRE(r.trace->steps.size() == 3);
    CHECK(english(r.trace->steps[1].label) ==
          "launch 1, block 0, barrier 1: __shared__ tileTotals[] of block 0");
    CHECK(r.trace->steps[1].values == std::vector<double>{36});
    CHECK(r.result == 36);
  }
  SUBCASE("extern __shared__: the launch's dynamic shared memory is a step, by its name") {
    TextFile dynamic("dynamic.cu",
                     "__global__ void reduce(const int* in, long long n, int* out) {\n"
                     "  extern __shared__ int s[];\n"
                     "  const unsigned t = threadIdx.x;\n"
                     "  const long long i = (long long)blockIdx.x * blockDim.x + t;\n"
                     "  s[t] = i < n ? in[i] : 0;\n"
                     "  __syncthreads();\n"
                     "  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {\n"
                     "    if (t < k) s[t] += s[t + k];\n"
                     "    __syncthreads();\n"
                     "  }\n"
                     "  if (t == 0) out[blockIdx.x] = s[0];\n"
                     "}\n");
    const ExerciseReport r = runOnce("tree-in-shared", dynamic.path, p);
    REQUIRE(r.trace);
    CHECK(english(r.trace->steps[1].label) ==
          "launch 1, block 0, barrier 1: __shared__ s[] of block 0");
    CHECK(r.trace->steps[1].values == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
    CHECK(r.result == 36);
  }
  SUBCASE("a run over the step limit has a result and no steps") {
    p.n = 4097;
    const ExerciseReport r = runOnce("tree-in-shared", solution("tree-in-shared")->path, p);
    CHECK(r.hasResult);
    CHECK_FALSE(r.trace);
  }
}

TEST_CASE("a race after a block's last barrier is marked in the block's last step") {
  TextFile file("late-race.cu", kLevelsWithoutBarriers);
  const ExerciseReport r = runOnce("tree-in-shared", file.path, iota(8, 8));
  REQUIRE(r.trace);
  REQUIRE(r.trace->steps.size() == 3);  // the input, the load's barrier, out[]
  const StepSnapshot& load = r.trace->steps[1];
  CHECK(load.racedElement >= 0);
  CHECK(size_t(load.racedElement) < load.values.size());
  CHECK(r.trace->steps[2].racedElement == -1);
}

TEST_CASE("caught: a read of in[n] that lands before the fence page, at its line") {
  // n = 5 ints end 12 bytes short of the fence page (buffers keep 16-byte alignment), so the
  // read of in[5] faults nowhere; the race detector's hooks see it.
  TextFile file("reads-in-n.cu",
                "__global__ void reduce(const int* in, long long n, int* result) {\n"
                "  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
                "  if (i <= n) atomicAdd(result, in[i]);\n"
                "}\n");
  const std::string sentence = firstFailure(runOnce("one-queue", file.path, iota(5, 8)));
  CHECK(has(sentence, "thread 5 of block 0 at reads-in-n.cu:3 read in[5], past the end of in"));
}

TEST_CASE("exercise run: a lane schedule whose thread never reaches its warp step says so") {
  TextFile file("last-warp.cu", solutionFile(exerciseOrThrow("fix-the-last-warp")));
  auto heldNobody = [&](const std::string& schedule) {
    Params p = iota(64, 64);
    p.schedule = schedule;
    const ExerciseReport r = runOnce("fix-the-last-warp", file.path, p);
    INFO(english(r.summary()));
    CHECK(r.passed());
    for (const Message& note : r.notes)
      if (note.id == "note.lane-never-held") return true;
    return false;
  };
  CHECK_FALSE(heldNobody("lane:16:1:1"));  // lane 16 of warp 0 takes the warp's steps
  CHECK(heldNobody("lane:40:1:1"));        // thread 40 leaves the last warp's work to warp 0
}

namespace {

// Replays a run's accesses in their order: each read must find what the last write to its
// element left (or the input, or nothing known yet in __shared__ memory); the values then came
// from the run as it ran, not from the array after it.
void checkReadsSeeTheLastWrite(const Trace& t, const std::vector<double>& input) {
  std::map<std::tuple<std::string, unsigned, long long>, long long> held;  // array, block, element
  long long lastTick = 0;
  for (const MemoryAccess& a : t.accesses) {
    CAPTURE(a.tick);
    CHECK(a.tick >= lastTick);  // in the order they ran
    lastTick = a.tick;
    REQUIRE(a.valueKnown);
    const auto key = std::make_tuple(a.array, a.shared ? a.block : 0u, a.element);
    if (a.kind == MemoryAccess::Kind::Read) {
      if (const auto found = held.find(key); found != held.end())
        CHECK(a.value == found->second);
      else if (!a.shared && a.array == "in")
        CHECK(double(a.value) == input.at(size_t(a.element)));
    } else {
      held[key] = a.value;
    }
  }
}

}  // namespace

TEST_CASE("the learner's timeline: every load and store in the order it ran, the race joined") {
  SUBCASE("the levels without their barrier: the race's two accesses, at their line") {
    TextFile file("late-race.cu", kLevelsWithoutBarriers);
    const ExerciseReport r = runOnce("tree-in-shared", file.path, iota(8, 8));
    REQUIRE(r.trace);
    const Trace& t = *r.trace;
    // 8 loads of in[] and stores to s[]; levels of 4, 2 and 1 threads, two reads and a write
    // each; out[0]'s read of s[0] and its store.
    CHECK(t.accesses.size() == 16 + 7 * 3 + 2);
    CHECK(t.accessesLeft == 0);
    checkReadsSeeTheLastWrite(t, {1, 2, 3, 4, 5, 6, 7, 8});
    REQUIRE(t.raceFirstTick > 0);
    REQUIRE(t.raceSecondTick > t.raceFirstTick);
    const MemoryAccess *first = nullptr, *second = nullptr;
    for (const MemoryAccess& a : t.accesses) {
      if (a.tick == t.raceFirstTick && !first) first = &a;
      if (a.tick == t.raceSecondTick && !second) second = &a;
    }
    REQUIRE(first);
    REQUIRE(second);
    CHECK(first->array == "s");
    CHECK(second->array == "s");
    CHECK(first->element == second->element);
    CHECK(first->thread != second->thread);
    CHECK((first->kind != MemoryAccess::Kind::Read || second->kind != MemoryAccess::Kind::Read));
    CHECK(first->line == "late-race.cu:8");
    CHECK(second->line == "late-race.cu:8");
    CHECK(first->phase == 1);  // after the load's barrier

    const AccessTimeline tl = buildAccessTimeline(t);
    REQUIRE(tl.available);
    REQUIRE(tl.columns.size() == 2);
    CHECK(english(tl.columns[0].title) == "before the first barrier");
    CHECK(english(tl.columns[1].title) == "after barrier 1");
    CHECK(tl.rows.size() == 8);
    CHECK(english(tl.rows[3].name) == "thread 3");
    CHECK(tl.rows[5].cells[1].empty());  // thread 5 adds at no level
    REQUIRE(tl.raceFirst.row >= 0);
    CHECK(english(tl.race).starts_with("The first race: thread "));
    CHECK(has(english(tl.race), "(late-race.cu:8)"));
    CHECK(english(accessText(t.accesses.front())) == "#1 read in[0] = 1 (late-race.cu:5)");
  }
  SUBCASE("our tree: five stretches, no race, the sum where the levels leave it") {
    TextFile file("tree.cu", solutionFile(exerciseOrThrow("tree-in-shared")));
    const ExerciseReport r = runOnce("tree-in-shared", file.path, iota(8, 8));
    REQUIRE(r.trace);
    const Trace& t = *r.trace;
    checkReadsSeeTheLastWrite(t, {1, 2, 3, 4, 5, 6, 7, 8});
    CHECK(t.raceFirstTick == -1);
    const AccessTimeline tl = buildAccessTimeline(t);
    CHECK(tl.columns.size() == 5);  // the load, one stretch after each barrier: 3 levels, out[]
    CHECK(tl.race.empty());
    const MemoryAccess& last = t.accesses.back();
    CHECK(last.array == "out");
    CHECK(last.kind == MemoryAccess::Kind::Write);
    CHECK(last.value == 36);
  }
  SUBCASE("several blocks and atomics: rows named by block, the atomics' totals in turn") {
    TextFile file("queue.cu", solutionFile(exerciseOrThrow("one-queue")));
    const ExerciseReport r = runOnce("one-queue", file.path, iota(6, 4));
    REQUIRE(r.trace);
    const AccessTimeline tl = buildAccessTimeline(*r.trace);
    REQUIRE(tl.rows.size() == 6);
    CHECK(english(tl.rows[4].name) == "block 1, thread 0");
    long long atomics = 0, lastTotal = 0;
    for (const MemoryAccess& a : r.trace->accesses)
      if (a.kind == MemoryAccess::Kind::Atomic) {
        ++atomics;
        CHECK(a.value > lastTotal);
        lastTotal = a.value;
      }
    CHECK(atomics == 6);
    CHECK(lastTotal == 21);
  }
}
