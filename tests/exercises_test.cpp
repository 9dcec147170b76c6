// Exercises: every descriptor complete, the cases they promise, our solutions passing every
// check, every starting file compiling and failing, and the known-wrong solutions in
// tests/fixtures/exercises/ caught, each with the sentence a learner reads: the case, the
// thread and line where the simulator knows them, and the replay line. The learner's code
// runs in the exercise runner, a child process, as in rlab and the app.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <thread>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/probe.hpp"
#include "lessons/engine/registry.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;

namespace {

const std::string kFixtures = std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A case's time limit before it counts as a hang. Under AddressSanitizer the simulator runs
// 13 to 30 times slower, and a block of 1024 threads under a random schedule can pass 5 s.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kCaseSeconds = 120;
#else
constexpr double kCaseSeconds = 5;
#endif

ExerciseReport check(const std::string& id, const std::string& file,
                     double caseSeconds = kCaseSeconds) {
  ExerciseRequest request;
  request.file = file;
  request.caseSeconds = caseSeconds;
  return checkExercise(exerciseOrThrow(id), request);
}

ExerciseReport runOnce(const std::string& id, const std::string& file, Params options) {
  ExerciseRequest request;
  request.file = file;
  request.oneRun = true;
  request.options = std::move(options);
  return checkExercise(exerciseOrThrow(id), request);
}

// The first failure's sentence; fails the test when the fixture got through.
std::string caught(const std::string& id, const std::string& fixture,
                   double caseSeconds = kCaseSeconds) {
  const ExerciseReport r = check(id, kFixtures + fixture, caseSeconds);
  INFO(english(r.summary()) << " " << english(r.problem) << " " << r.compilerOutput);
  REQUIRE(r.verdict == ExerciseVerdict::Failed);
  REQUIRE_FALSE(r.failures.empty());
  const std::string sentence = english(withReplay(r.failures.front()));
  MESSAGE(sentence);
  return sentence;
}

}  // namespace

// ---- The exercises as data -------------------------------------------------------------------

TEST_CASE("every exercise has its lesson, files, statement, hints and signature") {
  std::set<std::string> ids, lessonsWithOne;
  for (const Exercise& e : exercises()) {
    CAPTURE(e.id);
    CHECK(ids.insert(e.id).second);
    const LessonInfo& lesson = lessonOrThrow(e.lesson);
    CHECK(lesson.findVariant(e.variant) != nullptr);
    lessonsWithOne.insert(e.lesson);
    CHECK(e.folder == "lessons/" + e.lesson + "/exercises/" + e.id);
    const ExerciseText text = exerciseText(e);
    CHECK(text.title == e.title);
    CHECK(text.title != e.id);
    CHECK(text.statement.size() > 200);
    CHECK(has(text.statement, e.signature().substr(11)));  // the kernel, less "__global__ "
    CHECK(text.hints.size() >= 2);
    for (const std::string& hint : text.hints) CHECK(hint.size() > 20);
    CHECK(has(startFile(e), e.signature()));
    CHECK(has(startFile(e), "TODO"));
    CHECK(has(solutionFile(e), e.signature()));
    CHECK_FALSE(has(solutionFile(e), "TODO"));
  }
  CHECK(exercises().size() >= 12);
  // allreduce (across GPUs) has no exercise yet: the exercise runner runs one GPU's kernel.
  for (const LessonInfo& lesson : lessons())
    if (lesson.defaultGpus == 0) CHECK(lessonsWithOne.count(lesson.id) == 1);
  CHECK_THROWS_WITH_AS(exerciseOrThrow("nope"), doctest::Contains("one-queue, largest-element"),
                       ParamError);
}

TEST_CASE("every exercise has its statement and hints in every language, the hints matching") {
  for (const Exercise& e : exercises()) {
    CAPTURE(e.id);
    const ExerciseText english = exerciseText(e, Language::En);
    for (Language language : kLanguages) {
      CAPTURE(code(language));
      const std::string file = e.folder + "/" + code(language) + ".md";
      REQUIRE_MESSAGE(embeddedFile(file) != nullptr, file << " is missing");
      const ExerciseText text = exerciseText(e, language);
      CHECK(text.language == language);
      CHECK(text.title != e.id);  // the file opens with its heading
      CHECK(text.hints.size() == english.hints.size());
      CHECK(text.statement.size() > 150);
      // The kernel's signature is the same code block in every language.
      CHECK(has(text.statement, e.signature().substr(11)));
      for (const std::string& hint : text.hints) CHECK(hint.size() > 20);
      if (language == Language::En) continue;
      // Written in the language: not the English left in place, and in its own script.
      CHECK(text.title != english.title);
      CHECK(text.statement != english.statement);
      const std::string word = language == Language::Ja ? "スレッド" : "线程";
      const std::string all = text.statement + text.hints.front() + text.hints.back();
      const bool saysIt = has(all, word);
      CHECK_MESSAGE(saysIt, file << " never says " << word);
    }
  }
}

TEST_CASE("an exercise's text falls back to English only where its language's file is missing") {
  Exercise madeUp = exerciseOrThrow("one-queue");
  madeUp.folder = "lessons/atomic/exercises/no-such-exercise";
  const ExerciseText none = exerciseText(madeUp, Language::Ja);
  CHECK(none.title == madeUp.id);  // no file in any language
  CHECK(none.hints.empty());
  const ExerciseText ja = exerciseText(exerciseOrThrow("one-queue"), Language::Ja);
  CHECK(ja.language == Language::Ja);
  CHECK(ja.title == "どのスレッドも自分の要素を足す");
  CHECK(ja.hints.size() == 3);
  CHECK(has(ja.hints[1], "atomicAdd(result, in[i])"));
  const ExerciseText zh = exerciseText(exerciseOrThrow("fold-any-length"), Language::Zh);
  CHECK(zh.title == "任意长度的折叠");
  CHECK(has(zh.hints[0], "reduce = len / 2"));
}

TEST_CASE("exercise cases: awkward sizes, every block size, adversarial data, many schedules") {
  for (const Exercise& e : exercises()) {
    CAPTURE(e.id);
    const LessonInfo& lesson = lessonOrThrow(e.lesson);
    const auto cases = exerciseCases(e, "rlab exercise run " + e.id + " k.cu");
    const auto again = exerciseCases(e, "rlab exercise run " + e.id + " k.cu");
    REQUIRE(cases.size() == again.size());
    std::set<int64_t> sizes;
    std::set<std::pair<int64_t, int>> sizeAndBlock;
    std::set<std::string> schedules, data;
    for (size_t k = 0; k < cases.size(); ++k) {
      const Params& p = cases[k].params;
      CHECK(p.values == again[k].params.values);
      CHECK_NOTHROW(resolve(p));
      CHECK(p.op == e.op);
      CHECK(p.type == ElementType::Int);
      sizes.insert(p.n);
      sizeAndBlock.insert({p.n, p.block});
      schedules.insert(p.schedule);
      data.insert(english(cases[k].data).substr(0, 12));
      CHECK(has(replayCommand(cases[k]), "rlab exercise run " + e.id + " k.cu "));
      CHECK(has(english(describeCase(cases[k])), "exercise " + e.id + ": n = "));
    }
    for (int64_t n : {1, 2, 31, 33, 1000, 4097, 100003})
      if (n <= lesson.maxN) CHECK(sizes.count(n) == 1);
    for (int block = 32; block <= 1024; block *= 2)
      if (block >= lesson.findVariant(e.variant)->minBlock && (!lesson.oneBlock || block >= 1000))
        CHECK(sizeAndBlock.count({1000, block}) == 1);
    CHECK(schedules.size() >= 12);
    CHECK(schedules.count("random:101") == 1);
    CHECK(schedules.count("stall:40:2:1") == 1);
    if (e.op == Op::Max) {
      CHECK(data.count("the maximum ") == 1);
    } else {
      CHECK(data.count("one 7 at the") == 1);
    }
    CHECK(data.count("random integ") == 1);  // negative numbers too
  }
}

TEST_CASE("exercise cases on the GPU: no schedules, sums of 2^24 + 3, replays on the GPU") {
  for (const Exercise& e : exercises()) {
    CAPTURE(e.id);
    const LessonInfo& lesson = lessonOrThrow(e.lesson);
    std::set<int64_t> sizes;
    for (const VerifyCase& c :
         exerciseCases(e, "rlab exercise run " + e.id + " k.cu", VerifyScope::Gpu)) {
      CHECK(c.params.schedule == "lockstep");
      CHECK(c.params.backend == BackendChoice::Gpu);
      CHECK(has(replayCommand(c), " --backend gpu"));
      sizes.insert(c.params.n);
    }
    CHECK(sizes.count((int64_t(1) << 24) + 3) == (lesson.maxN > (int64_t(1) << 24) ? 1 : 0));
    CHECK(sizes.count(100003) == (lesson.maxN >= 100003 ? 1 : 0));
  }
}

// ---- Our solutions pass, the starting files compile and fail ------------------------------------

TEST_CASE("every exercise's solution passes every check on the simulator") {
  for (const Exercise& e : exercises()) {
    TextFile file("rlab-solution-" + e.id + ".cu", solutionFile(e));
    const ExerciseReport r = check(e.id, file.path);
    CHECK_MESSAGE(
        r.passed(),
        e.id << ": " << english(r.summary()) << " " << english(r.problem) << " "
             << (r.failures.empty() ? r.compilerOutput : english(withReplay(r.failures.front()))));
    CHECK(r.casesRun == r.casesTotal);
    CHECK(r.casesTotal > 60);
    CHECK(r.diagnostics.empty());
  }
}

TEST_CASE("every exercise's solution, written with cooperative groups, passes every check") {
  for (const Exercise& e : exercises()) {
    const std::string& text = groupsSolutionFile(e);
    CHECK_MESSAGE(text.find("#include <cooperative_groups.h>") != std::string::npos, e.id);
    TextFile file("rlab-groups-" + e.id + ".cu", text);
    const ExerciseReport r = check(e.id, file.path);
    CHECK_MESSAGE(r.passed(),
                  e.id << ": " << english(r.summary()) << " " << english(r.problem) << " "
                       << (r.failures.empty() ? r.compilerOutput : english(r.failures.front())));
    CHECK(r.casesRun == r.casesTotal);
  }
}

TEST_CASE(
    "every solution compiles with NVRTC as the GPU path compiles it, with or without groups") {
  for (const Exercise& e : exercises())
    for (const std::string* text : {&solutionFile(e), &groupsSolutionFile(e)}) {
      TextFile file("rlab-nvrtc-" + e.id + ".cu", *text);
      const ProbeReport r = compileWithNvrtc(e, file.path);
      if (r.problem.find("NVRTC (") != std::string::npos ||
          r.problem.find("no GPU path") != std::string::npos) {
        MESSAGE("skipped: " << r.problem);
        return;
      }
      std::string errors;
      for (const auto& d : r.diagnostics) errors += d.text(e.id) + "\n";
      CHECK_MESSAGE(r.problem.empty(), e.id << ": " << r.problem << "\n" << errors);
    }
}

TEST_CASE("every starting file compiles without a warning, and fails the check") {
  for (const Exercise& e : exercises()) {
    TextFile file("rlab-start-" + e.id + ".cu", startFile(e));
    const ExerciseReport r = check(e.id, file.path);
    CHECK_MESSAGE(r.verdict == ExerciseVerdict::Failed,
                  e.id << ": " << english(r.summary()) << " " << r.compilerOutput);
    // Our own file gives the learner nothing to read before their first line of code.
    CHECK_MESSAGE(r.diagnostics.empty(), e.id << ": " << r.compilerOutput);
  }
}

// ---- Known-wrong solutions are caught
// -------------------------------------------------------------

TEST_CASE("caught: a race that lockstep hides (a warp barrier where the block needs one)") {
  // Lockstep, on a case that needs two warps: the sum comes out right, and the race detector
  // names the race all the same, with both lines.
  Params lockstep;
  lockstep.n = 1000;
  lockstep.block = 256;
  lockstep.data = "random:5";
  const ExerciseReport hidden =
      runOnce("tree-in-shared", kFixtures + "race_lockstep_hides.cu", lockstep);
  CHECK_MESSAGE(hidden.passed(), english(hidden.summary()));  // the replay shows the sum...
  std::string race;                                           // ... and the race beside it
  for (const Message& m : hidden.trace ? hidden.trace->notes : hidden.notes)
    if (m.id == "note.race-right") race = english(m);
  MESSAGE(race);
  CHECK(has(race, "kernel raced on s["));
  CHECK(has(race, " at race_lockstep_hides.cu:11, then thread "));
  CHECK(has(race, "with no __syncthreads() between them"));
  // The check: the race, in its first case, lockstep or not, with the line that replays it.
  const std::string sentence = caught("tree-in-shared", "race_lockstep_hides.cu");
  CHECK(has(sentence, "kernel raced on s["));
  CHECK(has(sentence, "Replay: rlab exercise run tree-in-shared "));
}

TEST_CASE("caught: a fold that drops the odd element") {
  const std::string sentence = caught("fold-any-length", "drops_tail.cu");
  CHECK(has(sentence, "exercise fold-any-length: n = 3, "));
  CHECK(has(sentence, ", expected "));
}

TEST_CASE("caught: coarsening that drops the last, partial tile") {
  CHECK(has(caught("coarsen-by-four", "coarsened_drops_tail.cu"), "result 0, expected "));
}

TEST_CASE("caught: a kernel that reads past n, named with its thread, buffer and line") {
  const std::string sentence = caught("one-queue", "reads_past_n.cu");
  CHECK(has(sentence, "the kernel crashed: thread "));
  CHECK(has(sentence, " at reads_past_n.cu:4 read in["));
  CHECK(has(sentence, "], past the end of in ("));
  CHECK(has(sentence, "Replay: rlab exercise run one-queue "));
}

TEST_CASE("caught: a kernel that works for one block only") {
  const std::string sentence = caught("one-atomic-per-block", "single_block.cu");
  CHECK(has(sentence, "*result was changed without an atomic"));
}

TEST_CASE("caught: a kernel that sums 99% of the data and scales up") {
  CHECK(has(caught("one-atomic-per-block", "sums_most.cu"), ", expected "));
}

TEST_CASE("caught: one atomic per element where the exercise allows one per block") {
  CHECK(has(caught("one-atomic-per-block", "too_many_atomics.cu"),
            "atomics landed on *result from "));
}

TEST_CASE("caught: a plain read-modify-write of *result, right only on the simulator") {
  CHECK(has(caught("one-queue", "plain_add.cu"), "*result was changed without an atomic"));
}

TEST_CASE("caught: a tree moved nowhere (no __shared__ array)") {
  const ExerciseReport r = check("tree-in-shared", kFixtures + "no_shared.cu");
  REQUIRE(r.verdict == ExerciseVerdict::Failed);
  CHECK(r.casesRun == 0);
  CHECK(has(english(r.failures.front()), "reduce declares no __shared__ array in its own body"));
}

TEST_CASE("caught: the interleaved tree where sequential addressing is asked for") {
  CHECK(has(caught("sequential-addressing", "interleaved.cu"),
            "found the first level of sequential addressing in its __shared__ array"));
}

TEST_CASE("caught: one barrier a step in the butterfly") {
  // Right in lockstep and wrong when a lane is late; the race detector names it in every run.
  const std::string sentence = caught("shared-butterfly", "butterfly_one_barrier.cu");
  CHECK(has(sentence, "kernel raced on s["));
  CHECK(has(sentence, " at butterfly_one_barrier.cu:10"));
}

TEST_CASE("a failure points to the hint about its kind, and a run marks where its race shows") {
  // The check: the hint each exercise has about the failure found first.
  CHECK(check("shared-butterfly", kFixtures + "butterfly_one_barrier.cu").hint == 2);
  CHECK(check("put-the-barrier-back", kFixtures + "barrier_inside_if.cu").hint == 2);
  CHECK(check("one-queue", kFixtures + "reads_past_n.cu").hint == 3);
  CHECK(check("warp-shuffle-reduce", kFixtures + "shuffle_lanes_return.cu").hint == 2);
  CHECK(check("fold-any-length", kFixtures + "drops_tail.cu").hint == 0);  // no hint is about it
  CHECK(check("tree-in-shared", kFixtures + "race_lockstep_hides.cu").hint == 3);

  Params p;
  p.n = 8;
  p.block = 8;
  p.data = "iota";
  SUBCASE("a race in __shared__ memory: the element, in the step of the barrier after it") {
    const ExerciseReport r = runOnce("shared-butterfly", kFixtures + "butterfly_one_barrier.cu", p);
    REQUIRE(r.trace);
    int marked = 0;
    for (const StepSnapshot& s : r.trace->steps)
      if (s.racedElement >= 0) {
        ++marked;
        CHECK(s.array == "s");
        CHECK(size_t(s.racedElement) < s.values.size());
        CHECK(has(english(s.label), "__shared__ s[]"));
      }
    CHECK(marked == 1);
    CHECK(r.hint == 2);
  }
  SUBCASE("a race in global memory, in a kernel without barriers: the launch's last step") {
    const TextFile start("rlab-start-barrier.cu",
                         startFile(exerciseOrThrow("put-the-barrier-back")));
    const ExerciseReport r = runOnce("put-the-barrier-back", start.path, p);
    REQUIRE(r.trace);
    REQUIRE(r.trace->steps.size() == 2);  // the input, after the launch
    const StepSnapshot& last = r.trace->steps.back();
    CHECK(last.array == "a");
    std::string race;
    for (const Message& m : r.trace->notes)
      if (m.id == "note.race" || m.id == "note.race-right") race = english(m);
    CHECK(has(race, "kernel raced on a[" + std::to_string(last.racedElement) + "]"));
    CHECK(r.hint == 1);
  }
  SUBCASE("a right kernel has nothing marked and no hint") {
    const TextFile ours("rlab-ours.cu", solutionFile(exerciseOrThrow("shared-butterfly")));
    const ExerciseReport r = runOnce("shared-butterfly", ours.path, p);
    REQUIRE(r.trace);
    for (const StepSnapshot& s : r.trace->steps) CHECK(s.racedElement == -1);
    CHECK(r.hint == 0);
  }
}

TEST_CASE("failure kinds: read from a sentence's own id or from the sentences inside it") {
  const Message race("sim.race-in-warp", {{"element", "a[2]"}});
  CHECK(failureKind(race) == FailureKind::Race);
  CHECK(failureKind(Message("verify.run-failed", {{"why", race}})) == FailureKind::Race);
  CHECK(failureKind(Message("sim.barrier-after-exit")) == FailureKind::Barrier);
  CHECK(failureKind(Message(
            "sim.stuck", {{"sites", std::vector<Message>{Message("sim.waiting-at-warp-op")}}})) ==
        FailureKind::Lanes);
  CHECK(failureKind(Message(
            "sim.stuck", {{"sites", std::vector<Message>{Message("sim.waiting-at-warp-op"),
                                                         Message("sim.waiting-at-barrier")}}})) ==
        FailureKind::Barrier);
  CHECK(failureKind(Message("sim.read-exited-lane-in-block")) == FailureKind::Lanes);
  CHECK(failureKind(Message(
            "check.case-fault",
            {{"what", Message("check.crashed", {{"what", Message("check.read-past")}})}})) ==
        FailureKind::Bounds);
  CHECK_FALSE(failureKind(Message("verify.wrong")).has_value());
  CHECK_FALSE(failureKind(verbatim("a compiler's words")).has_value());
}

TEST_CASE("caught: the classic last warp, and one __syncwarp a step where it needs two") {
  // Harris's kernel 5, as the exercise starts: its lanes run uninterrupted from one warp
  // operation to the next, so lane 0 has done all six steps before lane 16 does its first.
  const std::string classic = caught("fix-the-last-warp",
                                     "../../../lessons/lastwarp/exercises/"
                                     "fix-the-last-warp/start.cu");
  CHECK(has(classic, "exercise fix-the-last-warp: n = "));
  // One __syncwarp a step: right in lockstep, wrong when lane 16 writes before lane 0 reads.
  Params lockstep;
  lockstep.n = 257;
  lockstep.block = 64;
  const ExerciseReport hidden =
      runOnce("fix-the-last-warp", kFixtures + "last_warp_one_syncwarp.cu", lockstep);
  CHECK_MESSAGE(hidden.passed(), hidden.summary());
  // The check names the race in its first case, lockstep or not: lane 0 reads what lane 16
  // writes in the same step, with no __syncwarp() between.
  const std::string sentence = caught("fix-the-last-warp", "last_warp_one_syncwarp.cu");
  CHECK(has(sentence, "kernel raced on s["));
  CHECK(has(sentence, " at last_warp_one_syncwarp.cu:7"));
  CHECK(has(sentence, "with no __syncwarp() or __syncthreads() between them"));
}

TEST_CASE("caught: lanes that return before a full-mask shuffle, named with the lane") {
  CHECK(has(caught("warp-shuffle-reduce", "shuffle_lanes_return.cu"),
            "which has already exited; the value a shuffle reads from such a lane is undefined "
            "in CUDA"));
}

TEST_CASE("caught: the barrier inside the if, which only the working threads reach") {
  const std::string inGlobal = caught("put-the-barrier-back", "barrier_inside_if.cu");
  CHECK(has(inGlobal, "at the barrier at barrier_inside_if.cu:10, but "));
  CHECK(has(inGlobal,
            "already exited without reaching it; CUDA allows __syncthreads() in "
            "conditional code only where the condition is the same for the whole "
            "block"));
  const std::string inShared = caught("tree-in-shared", "tree_barrier_inside_if.cu");
  CHECK(has(inShared, "at the barrier at tree_barrier_inside_if.cu:13, but "));
}

TEST_CASE("caught: working and idle threads waiting at different barriers") {
  const std::string sentence = caught("put-the-barrier-back", "two_barriers.cu");
  CHECK(has(sentence, "the run failed: kernel stopped: "));
  CHECK(has(sentence, "two_barriers.cu:8"));
  CHECK(has(sentence, "two_barriers.cu:10"));
}

// ---- Crashes, hangs, compile errors: the parent goes on, the learner reads where
// -------------------

TEST_CASE("a null pointer ends the runner, not the caller, with the thread and the line") {
  const std::string sentence = caught("one-queue", "null_pointer.cu");
  CHECK(has(sentence,
            "the kernel crashed: thread 3 of block 0 at null_pointer.cu:5 used a null pointer"));
}

TEST_CASE("a kernel that never ends is stopped after the case's time limit, at its line") {
  const std::string sentence = caught("fold-any-length", "never_ends.cu", 1);
  CHECK(has(sentence,
            "the kernel was still running after 1 s (thread 0 of block 0 was at "
            "never_ends.cu:7)"));
}

TEST_CASE("a compile error comes back at the learner's line") {
  const ExerciseReport r = check("one-queue", kFixtures + "compile_error.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics.front().line == 5);
  CHECK(r.diagnostics.front().severity == "error");
  CHECK(has(r.diagnostics.front().message, "offset"));
  CHECK(english(r.summary()) == "1 compile error");
}

TEST_CASE("an atomic CUDA does not have is refused, as NVRTC refuses it") {
  // atomicMax has no float overload in CUDA: a kernel that uses one must not pass here and then
  // fail on a GPU.
  const ExerciseReport r = check("largest-element", kFixtures + "atomic_max_float.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics.front().line == 8);
  CHECK(r.diagnostics.front().severity == "error");
  CHECK(has(r.diagnostics.front().message, "atomicMax"));
}

TEST_CASE("a kernel with another signature: the error says which one the exercise runs") {
  const ExerciseReport r = check("one-queue", kFixtures + "wrong_signature.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics.front().line == 0);
  CHECK(has(r.diagnostics.front().message,
            "the exercise runs __global__ void reduce(const int* in, long long n, int* result)"));
}

TEST_CASE("shared memory is poisoned in the first block of the first launch of a loaded kernel") {
  Params p;
  p.n = 1;
  p.data = "ones";
  const ExerciseReport r = runOnce("one-queue", kFixtures + "reads_shared_first.cu", p);
  REQUIRE(r.hasResult);
  CHECK(r.result == 2139062143);
}

TEST_CASE("what the kernel prints reaches the report, a file that is not there is refused") {
  const ExerciseReport r = check("one-queue", kFixtures + "prints.cu");
  CHECK(r.passed());
  CHECK(has(r.printed, "hello from thread 0, n = "));
  CHECK_THROWS_AS(check("one-queue", kFixtures + "missing.cu"), ParamError);
}

TEST_CASE("a check can be cancelled while it runs") {
  ExerciseRequest request;
  request.file = kFixtures + "never_ends.cu";
  int calls = 0;
  request.progress = [&](const std::string& stage, int, int) {
    return stage == "compiling" || ++calls < 5;
  };
  const ExerciseReport r = checkExercise(exerciseOrThrow("fold-any-length"), request);
  CHECK(r.verdict == ExerciseVerdict::Cancelled);
}

TEST_CASE("the compiler's output is read into the learner's lines") {
  const std::string eId = "shuffle-butterfly";
  const Exercise& e = exerciseOrThrow(eId);
  const std::string output =
      "In file included from /s/entry.cpp:2:\n"
      "/k/mine.cu: In function 'void allReduce(const int*, long long int, int*)':\n"
      "/k/mine.cu:3:26: error: no matching function for call to '__shfl_xor_sync(int)'\n"
      "/inc/kernels/sim/shim.hpp:144:3: note: candidate: 'template<class T> T "
      "__shfl_xor_sync(unsigned int, T, int, int, const char*, int)'\n"
      "/k/mine.cu:9:11:   required from here\n"
      "/inc/kernels/sim/shim.hpp:60:5: error: static assertion failed: warp operations move "
      "values of at most 8 bytes\n"
      "/k/mine.cu:4:7: warning: unused variable 'x' [-Wunused-variable]\n"
      "/s/entry.cpp:5:19: error: 'allReduce' was not declared in this scope\n";
  const auto d = parseCompilerOutput(output, "/k/mine.cu", "/s/entry.cpp", e);
  REQUIRE(d.size() == 4);
  CHECK(d[0].line == 3);
  CHECK(d[0].column == 26);
  // A static assertion in the shim (a refusal) is its own sentence, at the learner's line that
  // required it.
  CHECK(d[1].line == 9);
  CHECK(d[1].message == "warp operations move values of at most 8 bytes");
  CHECK(d[1].refusal);
  CHECK(d[2].severity == "warning");
  CHECK(d[2].line == 4);
  CHECK(d[3].line == 0);
  CHECK(has(d[3].message, "the exercise runs __global__ void allReduce(const int* in"));
  CHECK(d[0].text("mine.cu") ==
        "mine.cu:3:26: error: no matching function for call to '__shfl_xor_sync(int)'");
}

TEST_CASE(
    "a shuffle that reads a lane a partial warp lacks is refused, and sized to the lanes it runs") {
  // The tree with __shfl_down_sync at every block size: at a block of 2 the warp has two lanes.
  const std::string sized = kFixtures + "groups_tree_without_groups.cu";
  CHECK(check("tree-in-shared", sized).passed());
  std::ifstream in(sized);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t at; (at = text.find("offset, lanes)")) != std::string::npos;)
    text.replace(at, 14, "offset)");  // the shuffles' width back to 32: lanes that are not there
  TextFile file("rlab-unsized-shuffle.cu", text);
  const ExerciseReport r = check("tree-in-shared", file.path);
  CHECK_FALSE(r.passed());
  REQUIRE_FALSE(r.failures.empty());
  const std::string said = english(r.failures.front());
  CAPTURE(said);
  CHECK(said.find("reads lane 16 in the shuffle at rlab-unsized-shuffle.cu:") != std::string::npos);
  CHECK(said.find("which the block does not have (its last warp has 2 lanes)") !=
        std::string::npos);
}
