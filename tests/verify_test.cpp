// The verification (lessons/engine/races/verify.hpp) against kernels known to be wrong: each
// fixture in tests/fixtures/wrong_kernels.cuh runs on the simulator through the driver helpers the
// lessons use, and the same cases that every lesson kernel passes must catch it. Also: the
// cases themselves (valid, deterministic, covering what they promise) and their sentences.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

// The fixtures are CUDA, compiled through the shim, as the lesson kernels are.
#include "kernels/sim/shim.hpp"
#include "kernels/sim/runtime.hpp"  // the host side: launch, options, errors
#include "lessons/engine/run/reference.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/drivers.hpp"
#include "lessons/engine/backends/sim/backend.hpp"
#include "lessons/engine/run/tree_passes.hpp"
#include "lessons/engine/races/verify.hpp"
#include "tests/fixtures/wrong_kernels.cuh"

using namespace rlab;

namespace {

// ---- Running a fixture as the lessons run their kernels --------------------------------------

// A KernelRunner for a fixture: the case's input uploaded as its type, one SimBackend with the
// case's schedule, and the fixture's driver, exactly as runOnSimulator does for a lesson.
template <template <class, class> class Fixture>
KernelRunner fixtureRunner() {
  return [](const Params& p) {
    const std::vector<double> input = makeInput(resolve(p));
    sim::LaunchOptions options;
    options.schedule = sim::Schedule::parse(p.schedule);
    SimBackend backend(options);
    Trace out;
    withTypeAndOp(p, [&](auto type, auto op) {
      using T = decltype(type);
      using O = decltype(op);
      const std::vector<T> host(input.begin(), input.end());
      auto buffer = backend.template alloc<T>(host.size());
      backend.upload(buffer, host.data(), host.size());
      Fixture<T, O>::drive(backend, p, buffer, out);
    });
    return out.result;
  };
}

// Fixtures shaped like treeInShared go through runTreePasses, like multiBlock through
// runOneLaunch.
#define RLAB_TREE_FIXTURE(Name, kernel)                                                           \
  template <class T, class O>                                                                     \
  struct Name {                                                                                   \
    static void drive(SimBackend& b, const Params& p, SimBackend::Buffer<T>& in, Trace& out) {    \
      runTreePasses<SimBackend, T>(b, p, in, false, kernel<T, O>, StrideOrder::Down, false, out); \
    }                                                                                             \
  };
#define RLAB_ONE_LAUNCH_FIXTURE(Name, kernel)                                                  \
  template <class T, class O>                                                                  \
  struct Name {                                                                                \
    static void drive(SimBackend& b, const Params& p, SimBackend::Buffer<T>& in, Trace& out) { \
      runOneLaunch<SimBackend, T, O>(b, p, in, false, kernel<T, O>, 1, out);                   \
    }                                                                                          \
  };

RLAB_TREE_FIXTURE(SkipsLastElement, skipsLastElement)
RLAB_TREE_FIXTURE(ReadsPastN, readsPastN)
RLAB_ONE_LAUNCH_FIXTURE(OneBlockOnly, oneBlockOnly)
RLAB_ONE_LAUNCH_FIXTURE(PrefixScaledUp, prefixScaledUp)
RLAB_TREE_FIXTURE(WarpBarrierOnly, warpBarrierOnly)
RLAB_TREE_FIXTURE(WritesPastEnd, writesPastEnd)
// The lesson kernel the tree fixtures imitate, through the same runner: the control.
RLAB_TREE_FIXTURE(TreeInShared, treeInShared)

// The verification cases of the lesson variant a fixture imitates.
std::vector<VerifyCase> casesOf(const char* lessonId, const char* variantId) {
  const std::string lessonName = lessonId;  // g++ 14: no temporary string in the call
  const LessonInfo& lesson = lessonOrThrow(lessonName);
  return verificationCases(lesson, *lesson.findVariant(variantId), VerifyScope::Simulator);
}

// The first failure's sentence; fails the test when the fixture got through.
std::string caughtWith(const std::vector<VerifyCase>& cases, const KernelRunner& runner) {
  const VerifyReport report = verifyAll(cases, runner, 1);
  REQUIRE_FALSE(report.passed());
  REQUIRE(report.failures.size() == 1);
  const std::string sentence = english(withReplay(report.failures.front().sentence));
  MESSAGE(sentence);
  CHECK(sentence.find(" Replay: rlab run ") != std::string::npos);
  return sentence;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

// ---- The control: the lesson kernel through the fixtures' runner -------------------------------

TEST_CASE("the fixtures' runner passes every case with the lesson kernel they imitate") {
  const VerifyReport report = verifyAll(casesOf("shared", "shared"), fixtureRunner<TreeInShared>());
  CHECK_MESSAGE(report.passed(), english(report.summary()));
}

// ---- Each known-wrong kernel is caught -------------------------------------------------------

TEST_CASE("known-wrong kernel caught: skips the last element") {
  const std::string sentence =
      caughtWith(casesOf("shared", "shared"), fixtureRunner<SkipsLastElement>());
  CHECK(has(sentence, "shared shared: n = "));
}

TEST_CASE("known-wrong kernel caught: reads past n (the guard zone's poison)") {
  const std::string sentence = caughtWith(casesOf("shared", "shared"), fixtureRunner<ReadsPastN>());
  CHECK(has(sentence, "result "));
  // Where n is the block there is nothing past n to read: those cases pass.
  std::vector<VerifyCase> whole;
  for (VerifyCase c : casesOf("shared", "shared")) {
    if (c.params.n != 32 && c.params.n != 256) continue;
    c.params.block = int(c.params.n);
    whole.push_back(c);
  }
  REQUIRE(whole.size() >= 40);
  const VerifyReport report = verifyAll(whole, fixtureRunner<ReadsPastN>());
  CHECK_MESSAGE(report.passed(), english(report.summary()));
}

TEST_CASE("known-wrong kernel caught: works for one block only") {
  const std::string sentence =
      caughtWith(casesOf("shared", "multiblock"), fixtureRunner<OneBlockOnly>());
  CHECK(has(sentence, "shared multiblock: n = "));
}

TEST_CASE("known-wrong kernel caught: sums 99% of the data and scales up") {
  const std::string sentence =
      caughtWith(casesOf("shared", "multiblock"), fixtureRunner<PrefixScaledUp>());
  CHECK(has(sentence, "expected"));
}

TEST_CASE("known-wrong kernel caught: a warp barrier where the block needs one") {
  const std::vector<VerifyCase> cases = casesOf("shared", "shared");
  // Lockstep, the default schedule, hides the race: every case in it passes.
  std::vector<VerifyCase> lockstep;
  for (const VerifyCase& c : cases)
    if (c.params.schedule == "lockstep") lockstep.push_back(c);
  REQUIRE(lockstep.size() < cases.size());
  const VerifyReport hidden = verifyAll(lockstep, fixtureRunner<WarpBarrierOnly>());
  CHECK_MESSAGE(hidden.passed(), english(hidden.summary()));
  // The schedules among the cases reveal it.
  const std::string sentence = caughtWith(cases, fixtureRunner<WarpBarrierOnly>());
  CHECK(has(sentence, ", schedule "));
  CHECK(has(sentence, " --schedule "));
}

TEST_CASE("known-wrong kernel caught: writes past the end of its output") {
  const std::string sentence =
      caughtWith(casesOf("shared", "shared"), fixtureRunner<WritesPastEnd>());
  CHECK(has(sentence, "the run failed: "));
  CHECK(has(sentence, "wrote past the end of a buffer of 1 int (indices 0 to 0): element 1 is"));
}

// ---- The cases themselves ----------------------------------------------------------------------

TEST_CASE("verification cases: valid, fixed, and covering what they promise") {
  for (VerifyScope scope : {VerifyScope::Simulator, VerifyScope::Gpu}) {
    for (const LessonInfo& lesson : lessons()) {
      // allreduce is checked rank by rank in tests/allreduce_test.cpp, not by these cases.
      if (lesson.defaultGpus > 0) continue;
      for (const VariantInfo& variant : lesson.variants) {
        const std::string what = lesson.id + " " + variant.id;
        CAPTURE(what);
        const std::vector<VerifyCase> cases = verificationCases(lesson, variant, scope);
        const std::vector<VerifyCase> again = verificationCases(lesson, variant, scope);
        REQUIRE(cases.size() == again.size());
        std::set<int64_t> sizes;
        std::set<std::pair<int64_t, int>> sizeAndBlock;
        std::set<std::string> schedules, dataKinds;
        std::set<std::pair<int, int>> opAndType;
        bool negative = false, fraction = false;
        for (size_t k = 0; k < cases.size(); ++k) {
          const Params& p = cases[k].params;
          CHECK(p.values == again[k].params.values);
          CHECK(p.data == again[k].params.data);
          CHECK(p.block == again[k].params.block);
          CHECK_NOTHROW(resolve(p));
          CHECK(p.backend == (scope == VerifyScope::Gpu ? BackendChoice::Gpu : BackendChoice::Sim));
          CHECK(p.n <= lesson.maxN);
          CHECK(p.values.size() <= (size_t(1) << 20));
          sizes.insert(p.n);
          sizeAndBlock.insert({p.n, p.block});
          schedules.insert(p.schedule);
          dataKinds.insert(english(cases[k].data).substr(0, 12));
          opAndType.insert({int(p.op), int(p.type)});
          for (double v : p.values) {
            negative |= v < 0;
            fraction |= v != double(int64_t(v));
          }
        }
        CHECK(opAndType.size() == 8);
        CHECK(negative);
        CHECK(fraction);
        for (int64_t n : {1, 7, 31, 32, 33, 255, 256, 257, 1000}) CHECK(sizes.count(n) == 1);
        CHECK(sizes.count(65537) == (lesson.maxN >= 65537 ? 1 : 0));
        CHECK(sizes.count(100003) == (scope == VerifyScope::Gpu && lesson.maxN >= 100003 ? 1 : 0));
        // Every size meets every block size from 32 (or the variant's smallest) to 1024 that
        // can take it, and the default.
        for (int64_t n : {33, 257, 1000}) {
          CAPTURE(n);
          CHECK(sizeAndBlock.count({n, 0}) == 1);
          for (int block = std::max(32, variant.minBlock); block <= 1024; block *= 2)
            if (!lesson.oneBlock || block >= n) CHECK(sizeAndBlock.count({n, block}) == 1);
        }
        CHECK(schedules.count("lockstep") == 1);
        if (scope == VerifyScope::Simulator && variant.needsLanesInStep()) {
          // Harris's last warp: only schedules that keep a warp's lanes together.
          CHECK(schedules.count("warps-random:303") == 1);
          CHECK(schedules.count("random:101") == 0);
          CHECK(schedules.count("lane:1:1:1") == 0);
        } else if (scope == VerifyScope::Simulator) {
          CHECK(schedules.count("random:101") == 1);
          CHECK(schedules.count("stall:40:2:1") == 1);
          CHECK(schedules.count("lane:1:1:1") == (lesson.laneSchedules ? 1 : 0));
        } else {
          CHECK(schedules.size() == 1);
        }
        CHECK(dataKinds.count("the maximum ") == 1);
        CHECK(dataKinds.count("the minimum ") == 1);
        CHECK(dataKinds.count("one 7 at the") == 1);
        CHECK(dataKinds.count("one 3 at the") == 1);
      }
    }
  }
}

TEST_CASE("adversarial data: the extreme at index 0 and at the end, one element off the identity") {
  const std::string lessonId = "fastest";
  const LessonInfo& lesson = lessonOrThrow(lessonId);
  int first = 0, last = 0, single = 0;
  for (const VerifyCase& c :
       verificationCases(lesson, lesson.variants.front(), VerifyScope::Simulator)) {
    const std::vector<double>& v = c.params.values;
    if (v.size() < 3 || !has(english(c.data), "elsewhere")) continue;
    const double filler = v[v.size() / 2];
    const size_t odd = v.front() != filler ? 0 : v.size() - 1;
    CHECK(std::count(v.begin(), v.end(), filler) == std::ptrdiff_t(v.size() - 1));
    if (c.params.op == Op::Max) CHECK(v[odd] > filler);
    if (c.params.op == Op::Min) CHECK(v[odd] < filler);
    if (c.params.op == Op::Sum) CHECK(filler == 0);
    if (c.params.op == Op::Product) CHECK(filler == 1);
    (odd == 0 ? first : last) += 1;
    single += c.params.op == Op::Sum || c.params.op == Op::Product;
  }
  CHECK(first >= 20);
  CHECK(last >= 40);
  CHECK(single >= 40);
}

// ---- Sentences and replay lines
// ------------------------------------------------------------------

TEST_CASE("a failure names the case and the rlab run line that replays its input") {
  VerifyCase c;
  c.params.lesson = "shared";
  c.params.variant = "multiblock";
  c.params.block = 32;
  c.params.op = Op::Max;
  c.params.values = {-50, -50, -50, -50, -50, -3};
  c.data = verbatim("the maximum -3 at the last index, -50 elsewhere");
  c.params.schedule = "stall:4:2:1";
  const VerifyOutcome wrong = verify(c, [](const Params&) { return -50.0; });
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.expected == -3);
  CHECK(english(withReplay(wrong.sentence)) ==
        "shared multiblock: n = 6, block 32, max of int, data the maximum -3 at the last index, "
        "-50 elsewhere, schedule stall:4:2:1: result -50, expected -3. Replay: rlab run shared "
        "--variant multiblock --block 32 --op max --type int "
        "--values=\"$(printf -- '-50,%.0s' $(seq 5))-3\" --schedule stall:4:2:1 --backend sim");

  c.params.block = 0;
  c.params.values = {};
  c.params.n = 1000;
  c.params.data = "random:5";
  c.data = Message();
  c.params.schedule = "lockstep";
  c.params.backend = BackendChoice::Gpu;
  CHECK(replayCommand(c) ==
        "rlab run shared --variant multiblock --n 1000 --data random:5 --block 256 --op max "
        "--type int --backend gpu --no-timings");
  CHECK(english(describeCase(c)) ==
        "shared multiblock: n = 1000, block 256 (the default), max of int, data random:5, "
        "backend gpu");

  const VerifyOutcome thrown =
      verify(c, [](const Params&) -> double { throw std::runtime_error("no GPU here"); });
  CHECK_FALSE(thrown.passed);
  CHECK(has(english(withReplay(thrown.sentence)),
            ": the run failed: no GPU here. Replay: rlab run shared"));
}

TEST_CASE("a float case passes within the reference's tolerance and fails outside it") {
  VerifyCase c;
  c.params.lesson = "fastest";
  c.params.type = ElementType::Float;
  c.params.values = {0.1, 0.2, 0.3};
  const Reference ref = reference(Op::Sum, ElementType::Float, c.params.values);
  CHECK(verify(c, [&](const Params&) { return ref.expected; }).passed);
  const VerifyOutcome off = verify(c, [&](const Params&) { return ref.expected + 0.01; });
  CHECK_FALSE(off.passed);
  CHECK(has(english(off.sentence), "(within "));
  CHECK(verify(c, runLessonKernel).passed);
}

TEST_CASE("verifyAll stops after the failures asked for and says how many ran") {
  const std::string lessonId = "folding";
  const LessonInfo& lesson = lessonOrThrow(lessonId);
  const auto cases = verificationCases(lesson, lesson.variants.front(), VerifyScope::Simulator);
  const VerifyReport report = verifyAll(
      cases, [](const Params&) { return 12345.0; }, 2);
  CHECK(report.failed == 2);
  CHECK(report.failures.size() == 2);
  CHECK(report.casesRun >= 2);
  CHECK(report.casesRun < int(cases.size()));
  CHECK(has(english(report.summary()), "2 of the "));
}
