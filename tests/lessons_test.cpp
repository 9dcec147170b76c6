// Every lesson kernel through the verification cases on the simulator, and the step-by-step
// figures the lessons teach with.
#include <doctest/doctest.h>

#include <set>
#include <utility>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/races/verify.hpp"

using namespace rlab;

namespace {

Params paramsFor(const std::string& lesson, const std::string& variant, int64_t n) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  return p;
}

std::vector<double> valuesOf(const Trace& t, size_t step) {
  return t.steps.at(step).values;
}

// ---- Every lesson kernel through the verification cases (lessons/engine/races/verify.hpp)
// -------- One test per variant, so that ctest runs them side by side; a failure's sentence names
// the case and the rlab run line that replays it.

// The variants that have their verification test: each RLAB_VERIFY_VARIANT line below adds its
// own when the test binary starts, so deleting a line takes its variant out of this list too.
std::set<std::pair<std::string, std::string>>& verifiedVariants() {
  static std::set<std::pair<std::string, std::string>> verified;
  return verified;
}

bool registerVerified(const char* lesson, const char* variant) {
  verifiedVariants().insert({lesson, variant});
  return true;
}

void verifyOnSimulator(const char* lessonId, const char* variantId) {
  const std::string lessonName = lessonId;  // g++ 14: no temporary string in the call
  const LessonInfo& lesson = lessonOrThrow(lessonName);
  const VariantInfo* variant = lesson.findVariant(variantId);
  REQUIRE(variant != nullptr);
  const auto cases = verificationCases(lesson, *variant, VerifyScope::Simulator);
  const VerifyReport report = verifyAll(cases, runLessonKernel, 5);
  CHECK_MESSAGE(report.passed(), english(report.summary()));
  CHECK(report.casesRun == int(cases.size()));
}

}  // namespace

#define RLAB_VERIFY_CONCAT_(a, b) a##b
#define RLAB_VERIFY_CONCAT(a, b) RLAB_VERIFY_CONCAT_(a, b)
#define RLAB_VERIFY_VARIANT(lesson, variant)                                                       \
  static const bool RLAB_VERIFY_CONCAT(registered_, __LINE__) = registerVerified(lesson, variant); \
  TEST_CASE("verification cases on the simulator: " lesson " " variant) {                          \
    verifyOnSimulator(lesson, variant);                                                            \
  }

RLAB_VERIFY_VARIANT("atomic", "default")
RLAB_VERIFY_VARIANT("folding", "default")
RLAB_VERIFY_VARIANT("folding", "double-buffer")
RLAB_VERIFY_VARIANT("barrier", "global")
RLAB_VERIFY_VARIANT("barrier", "shared")
RLAB_VERIFY_VARIANT("divergence", "interleaved")
RLAB_VERIFY_VARIANT("divergence", "interleaved-mask")
RLAB_VERIFY_VARIANT("divergence", "strided")
RLAB_VERIFY_VARIANT("divergence", "sequential")
RLAB_VERIFY_VARIANT("shared", "global")
RLAB_VERIFY_VARIANT("shared", "shared")
RLAB_VERIFY_VARIANT("shared", "multiblock")
RLAB_VERIFY_VARIANT("shared", "clusters")
RLAB_VERIFY_VARIANT("shared", "coarsened")
RLAB_VERIFY_VARIANT("lastwarp", "volatile")
RLAB_VERIFY_VARIANT("lastwarp", "plain")
RLAB_VERIFY_VARIANT("lastwarp", "syncwarp")
RLAB_VERIFY_VARIANT("lastwarp", "shuffle")
RLAB_VERIFY_VARIANT("butterfly", "shared")
RLAB_VERIFY_VARIANT("butterfly", "shuffle")
RLAB_VERIFY_VARIANT("fastest", "default")

TEST_CASE("every lesson variant has its verification test") {
  std::set<std::pair<std::string, std::string>> registered;
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants)
      // The verification cases reduce to one number; allreduce is checked rank by rank in
      // tests/allreduce_test.cpp.
      if (lesson.defaultGpus == 0) registered.insert({lesson.id, variant.id});
  CHECK(registered == verifiedVariants());
}

TEST_CASE("folding n=9: [7,9,11,13,5] -> [20,14,11] -> [31,14] -> [45]") {
  const Trace t = runLesson(paramsFor("folding", "", 9));
  REQUIRE(t.steps.size() == 5);
  CHECK(valuesOf(t, 1) == std::vector<double>{7, 9, 11, 13, 5});
  CHECK(valuesOf(t, 2) == std::vector<double>{20, 14, 11});
  CHECK(valuesOf(t, 3) == std::vector<double>{31, 14});
  CHECK(valuesOf(t, 4) == std::vector<double>{45});
  CHECK(t.steps[1].active == std::vector<int>{0, 1, 2, 3});  // never a thread past `reduce`
}

TEST_CASE("butterfly n=8: every thread ends with 36") {
  const Trace t = runLesson(paramsFor("butterfly", "shared", 8));
  REQUIRE(t.steps.size() == 4);
  CHECK(valuesOf(t, 1) == std::vector<double>{6, 8, 10, 12, 6, 8, 10, 12});
  CHECK(valuesOf(t, 2) == std::vector<double>{16, 20, 16, 20, 16, 20, 16, 20});
  CHECK(valuesOf(t, 3) == std::vector<double>(8, 36));
  CHECK(t.steps[1].pairs[0] == std::pair<int, int>{4, 0});  // thread 0 reads its partner 0 ^ 4
}

TEST_CASE("barrier n=8 without the barrier, thread 4 stalled in round 2: 21, 15 short") {
  Params p = paramsFor("barrier", "global", 8);
  p.barrier = false;
  p.schedule = "stall:4:2:1";
  const Trace broken = runLesson(p);
  CHECK(broken.result == 21);
  CHECK(broken.expected == 36);
  CHECK_FALSE(broken.correct);
  p.barrier = true;
  for (const char* schedule : {"lockstep", "sequential", "reverse", "random:1", "random:2",
                               "warps-random:3", "stall:4:2:1", "stall:0:1:3"}) {
    CAPTURE(schedule);
    p.schedule = schedule;
    const Trace t = runLesson(p);
    CHECK(t.result == 36);
  }
}

TEST_CASE("barrier shared variant breaks too without its barrier") {
  Params p = paramsFor("barrier", "shared", 8);
  p.barrier = false;
  p.schedule = "sequential";
  CHECK_FALSE(runLesson(p).correct);
}

TEST_CASE("--delay T:L on the simulator: thread T sits out one round at level L") {
  Params p = paramsFor("barrier", "global", 8);
  p.barrier = false;
  p.delayThread = 4;
  p.delayLevel = 2;
  const Trace delayed = runLesson(p);
  CHECK(delayed.result == 21);
  CHECK(english(delayed.notes.front()) == "Thread 4 paused before level 2 (--delay 4:2).");
  p.barrier = true;
  CHECK(runLesson(p).correct);  // the barrier waits for it
  p.variant = "shared";
  CHECK(runLesson(p).correct);
  p.barrier = false;
  CHECK(runLesson(p).result == 21);
}

TEST_CASE("divergence n=64 block 64: interleaved touches both warps, the others one") {
  for (const char* variant : {"interleaved", "interleaved-mask", "strided", "sequential"}) {
    Params p = paramsFor("divergence", variant, 64);
    p.block = 64;
    const Trace t = runLesson(p);
    REQUIRE(t.steps.size() == 7);  // input + 6 levels
    CAPTURE(variant);
    for (size_t level = 1; level < t.steps.size(); ++level) {
      CAPTURE(level);
      const auto& warps = t.steps[level].activeWarps;
      if (std::string(variant).rfind("interleaved", 0) == 0)
        CHECK(warps.size() == (level < 6 ? 2u : 1u));
      else
        CHECK(warps.size() == 1u);
    }
  }
  // Strided index: lanes of a warp write 2*stride apart, so banks collide; sequential: never.
  Params strided = paramsFor("divergence", "strided", 256);
  strided.block = 256;
  const Trace s = runLesson(strided);
  CHECK(s.steps[1].bankConflictDegree == 2);
  CHECK(s.steps[2].bankConflictDegree == 4);
  Params sequential = paramsFor("divergence", "sequential", 256);
  sequential.block = 256;
  for (const auto& step : runLesson(sequential).steps)
    if (!step.active.empty()) CHECK(step.bankConflictDegree == 1);
}

TEST_CASE("divergence: the mask changes how a thread tests, not the tree: interleaved's steps") {
  for (const int64_t n : {64, 100, 1000}) {
    CAPTURE(n);
    const Trace modulo = runLesson(paramsFor("divergence", "interleaved", n));
    const Trace mask = runLesson(paramsFor("divergence", "interleaved-mask", n));
    REQUIRE(mask.steps.size() == modulo.steps.size());
    for (size_t k = 0; k < mask.steps.size(); ++k) {
      CAPTURE(k);
      CHECK(mask.steps[k].values == modulo.steps[k].values);
      CHECK(mask.steps[k].active == modulo.steps[k].active);
    }
    CHECK(mask.result == modulo.result);
  }
}

TEST_CASE("atomic: one landing per thread, in a consistent order") {
  Params p = paramsFor("atomic", "", 16);
  p.schedule = "random:3";
  const Trace t = runLesson(p);
  REQUIRE(t.atomicOrder.size() == 16);
  double total = 0;
  for (const auto& a : t.atomicOrder) {
    CHECK(a.before == total);
    total += a.value;
  }
  CHECK(total == 136);
  CHECK(t.steps.back().values == std::vector<double>{136});
}

TEST_CASE("shared: per-block partials") {
  Params p = paramsFor("shared", "multiblock", 1000);
  p.block = 256;
  const Trace t = runLesson(p);
  REQUIRE(t.blockPartials.size() == 4);
  double sum = 0;
  for (double v : t.blockPartials) sum += v;
  CHECK(sum == 500500);
}

TEST_CASE("int sums that overflow 32 bits are said, and the wrapped value is expected") {
  Params p = paramsFor("fastest", "", 100000);
  const Trace t = runLesson(p);
  CHECK(t.correct);
  CHECK(t.expected == double(int32_t(uint32_t(5000050000ull))));
  bool said = false;
  for (const auto& note : t.notes)
    said |= english(note).find("overflows 32 bits") != std::string::npos;
  CHECK(said);
}

TEST_CASE("bad parameters are refused with one sentence") {
  auto refused = [](Params p, const char* needle) {
    try {
      resolve(p);
      return std::string("accepted");
    } catch (const ParamError& e) {
      const std::string what = e.what();
      return what.find(needle) != std::string::npos ? std::string("ok") : what;
    }
  };
  Params p = paramsFor("folding", "", 10);
  CHECK(refused(paramsFor("nope", "", 1), "choose one of atomic") == "ok");
  CHECK(refused(paramsFor("folding", "fast", 1), "variant") == "ok");
  CHECK(refused(paramsFor("folding", "", -1), "1 to 268435456") == "ok");
  CHECK(refused(paramsFor("barrier", "", 2000), "1 to 1024") == "ok");
  p.block = 48;
  CHECK(refused(p, "power of two") == "ok");
  p.block = 0;
  p.barrier = false;
  CHECK(refused(p, "only for kernels with a barrier to switch off") == "ok");
  Params b = paramsFor("barrier", "", 64);
  b.block = 32;
  CHECK(refused(b, "at least n") == "ok");
  Params w = paramsFor("butterfly", "shuffle", 8);
  w.block = 16;
  CHECK(refused(w, "warp operations") == "ok");
  Params s = paramsFor("barrier", "", 8);
  s.schedule = "stall:1";
  CHECK(refused(s, "--schedule") == "ok");
  // A stall schedule's thread must be one the blocks have: n = 8 is one block of threads 0 to 7.
  s.schedule = "stall:9:2:1";
  CHECK(refused(s, "--schedule stall:9:2:1 stalls thread 9, but the block has threads 0 to 7.") ==
        "ok");
  s.schedule = "stall:7:2:1";
  CHECK(refused(s, "") == "accepted");
  Params many = paramsFor("shared", "multiblock", 1000);
  many.block = 64;
  many.schedule = "stall:64:1:1";
  CHECK(refused(many, "stalls thread 64, but each block has threads 0 to 63.") == "ok");
  many.schedule = "stall:63:1:1";
  CHECK(refused(many, "") == "accepted");
  // So must a lane schedule's late thread.
  Params lanes = paramsFor("lastwarp", "volatile", 64);
  lanes.block = 64;
  lanes.schedule = "lane:99:1:1";
  CHECK(refused(lanes,
                "--schedule lane:99:1:1 makes thread 99 late at its warp steps, but each "
                "block has threads 0 to 63.") == "ok");
  lanes.schedule = "lane:33:1:1";
  CHECK(refused(lanes, "") == "accepted");
  Params d = paramsFor("folding", "", 8);
  d.data = "random:";
  CHECK(refused(d, "random:SEED") == "ok");
  Params v = paramsFor("folding", "", 0);
  v.values = {1.5, 2};
  CHECK(refused(v, "32-bit integer") == "ok");
  CHECK_THROWS_AS(parseValues("1,,2"), ParamError);
  CHECK(parseValues("3,1,4,1,5") == std::vector<double>{3, 1, 4, 1, 5});
}

// ---- Folding: the double buffer, the fold picture's data, the launches -----------------------

TEST_CASE("folding double-buffer: awkward n, int and float, every operator, as the host says") {
  for (int64_t n : {1, 2, 3, 7, 31, 1000, 65539})
    for (ElementType type : {ElementType::Int, ElementType::Float})
      for (Op op : {Op::Sum, Op::Max, Op::Min, Op::Product}) {
        Params p = paramsFor("folding", "double-buffer", n);
        p.type = type;
        p.op = op;
        // Products of many values: ones stay exact; the rest: digits 0 to 9.
        p.data = op == Op::Product && n > 7 ? "ones" : "random:" + std::to_string(n);
        const Trace t = runLesson(p);
        CAPTURE(n);
        CAPTURE(name(op));
        CAPTURE(name(type));
        CHECK(t.correct);
        CHECK(t.result == t.expected);  // digits and ones: every partial sum is exact
        // The same folds as in place, step for step: only where the halves live differs.
        p.variant = "default";
        const Trace inPlace = runLesson(p);
        REQUIRE(t.steps.size() == inPlace.steps.size());
        for (size_t k = 0; k < t.steps.size(); ++k)
          CHECK(t.steps[k].values == inPlace.steps[k].values);
      }
}

TEST_CASE("fold picture: one arc per addition (reduce), the middle element waits when len is odd") {
  for (const char* variant : {"default", "double-buffer"})
    for (int64_t n : {7, 8, 13, 1000}) {
      const Trace t = runLesson(paramsFor("folding", variant, n));
      CAPTURE(variant);
      CAPTURE(n);
      CHECK_FALSE(foldPicture(t, 0).valid);  // the input: no fold yet
      long long len = n;
      for (int step = 1; step < int(t.steps.size()); ++step) {
        const FoldPicture f = foldPicture(t, step);
        const long long reduce = len / 2, remain = len - reduce;
        CAPTURE(len);
        REQUIRE(f.valid);
        CHECK(f.len == len);
        CHECK(f.remain == remain);
        CHECK((long long)f.arcs.size() == reduce);
        CHECK(f.waiting == (len % 2 ? reduce : -1));
        for (size_t k = 0; k < f.arcs.size(); ++k) {
          const FoldArc& a = f.arcs[k];
          CHECK(a.to == int(k));
          CHECK(a.from == a.to + remain);
          CHECK(a.fromValue == f.before[size_t(a.from)]);
          CHECK(a.result == t.steps[size_t(step)].values[size_t(a.to)]);
        }
        len = remain;
      }
      CHECK(len == 1);
    }
  // The arcs are the recorded combines, not a formula of n: a combine the run did not record
  // is an arc the picture does not draw.
  Trace t = runLesson(paramsFor("folding", "", 13));
  t.steps[1].combines.pop_back();
  CHECK(foldPicture(t, 1).arcs.size() == 5);
}

TEST_CASE("launch table: folding n = 13 launches for len 13, 7, 4, 2, on either buffer scheme") {
  Params p = paramsFor("folding", "", 13);
  p.block = 4;
  const Trace t = runLesson(p);
  const LaunchTable table = launchTable(t);
  CHECK(english(table.columns) ==
        std::vector<std::string>{"launch", "grid x block", "threads", "len", "reduce", "remain"});
  using Row = std::vector<std::string>;
  CHECK(table.rows == std::vector<Row>{{"1", "2 x 4", "8", "13", "6", "7"},
                                       {"2", "1 x 4", "4", "7", "3", "4"},
                                       {"3", "1 x 4", "4", "4", "2", "2"},
                                       {"4", "1 x 4", "4", "2", "1", "1"}});
  // The double buffer launches a thread for the middle element too: remain threads.
  p.variant = "double-buffer";
  const Trace db = runLesson(p);
  REQUIRE(db.launches.size() == 4);
  CHECK(db.launches[0].grid == 2);  // 7 threads
  CHECK(db.launches[1].grid == 1);  // 4 threads
  // Large runs record their launches too (not their steps): 2^20 folds 20 times.
  p.n = 1 << 20;
  p.variant = "default";
  CHECK(runLesson(p).launches.size() == 20);
}
