// Subtract, the demonstration: a non-associative operator gives each kernel's order of operations
// an answer of its own, so no run of it is judged, and the kernels that offer it are compared.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <set>

#include "lessons/engine/races/race.hpp"
#include "lessons/engine/run/reference.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

using namespace rlab;

namespace {

Params subtractRun(const std::string& lesson, const std::string& variant,
                   std::vector<double> values) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.op = Op::Subtract;
  p.values = std::move(values);
  p.backend = BackendChoice::Sim;
  return p;
}

const std::vector<double> kEight = {8, 1, 6, 3, 5, 2, 7, 4};

double answerOf(const Trace& t, const std::string& lesson, const std::string& variant) {
  for (const KernelAnswer& a : t.otherKernels)
    if (a.lesson == lesson && a.variant == variant) {
      REQUIRE(a.notRun.empty());
      return a.result;
    }
  FAIL("no answer of " << lesson << " " << variant);
  return 0;
}

}  // namespace

TEST_CASE("subtract: the host's loop is a[0] - a[1] - ... - a[n-1], for ints and floats") {
  CHECK(reference(Op::Subtract, ElementType::Int, {10, 1, 2, 3}).expected == 4);
  CHECK(reference(Op::Subtract, ElementType::Float, {2.5, 0.5, 1}).expected == 1);
  CHECK(reference(Op::Subtract, ElementType::Int, {7}).expected == 7);
  CHECK(reference(Op::Subtract, ElementType::Int, {10, 1, 2, 3}).tolerance == 0);
  CHECK(parseOp("subtract") == Op::Subtract);
  CHECK_FALSE(isAssociative(Op::Subtract));
  for (Op op : {Op::Sum, Op::Max, Op::Min, Op::Product}) CHECK(isAssociative(op));
}

TEST_CASE("subtract: no verdict, and the kernels that offer it give different answers") {
  const Trace t = runLesson(subtractRun("folding", "", kEight));
  CHECK_FALSE(t.singleAnswer);
  CHECK_FALSE(t.correct);
  CHECK(t.expected == 8 - 1 - 6 - 3 - 5 - 2 - 7 - 4);
  REQUIRE(t.otherKernels.size() == subtractRuns().size());
  CHECK(answerOf(t, "folding", "default") == t.result);
  // Atomics start from the identity on one address: 0 - a[0] - ... - a[7], in any order.
  CHECK(answerOf(t, "atomic", "default") == -36);
  // Both trees of 8 subtract each element once per time it is a right operand: as often as its
  // index has 1 bits, so its sign is the parity of that count.
  double bySign = 0;
  for (unsigned i = 0; i < kEight.size(); ++i)
    bySign += (std::popcount(i) % 2 ? -1 : 1) * kEight[i];
  CHECK(t.result == bySign);
  CHECK(answerOf(t, "divergence", "interleaved") == bySign);
  std::set<double> answers = {t.expected};
  for (const KernelAnswer& a : t.otherKernels) answers.insert(a.result);
  CHECK(answers.size() >= 3);
}

TEST_CASE("subtract: folding and the interleaved tree disagree where n is not a power of two") {
  const Trace t = runLesson(subtractRun("folding", "", {8, 1, 6, 3, 5, 2}));
  CHECK(answerOf(t, "folding", "default") != answerOf(t, "divergence", "interleaved"));
}

TEST_CASE("subtract: offered where the registry says, refused elsewhere with the list") {
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants) {
      CAPTURE(lesson.id);
      CAPTURE(variant.id);
      Params p = subtractRun(lesson.id, variant.id, {});
      p.trace = false;
      if (variant.offersSubtract) {
        const Trace t = runLessonOnce(p);
        CHECK_FALSE(t.singleAnswer);
        CHECK(std::isfinite(t.result));
        continue;
      }
      try {
        resolve(p);
        FAIL("subtract was not refused");
      } catch (const ParamError& e) {
        const std::string what = e.what();
        CHECK(what.find("--op subtract is a demonstration offered by atomic, folding") == 0);
        CHECK(what.find(lesson.id + " " + variant.id + " does not offer it") != std::string::npos);
      }
    }
}

TEST_CASE("subtract: a race has no right answer to count wrong runs against") {
  Params p = subtractRun("atomic", "", kEight);
  CHECK_THROWS_WITH_AS(runRace(p, 3, 0), doctest::Contains("has none (it is a demonstration)"),
                       ParamError);
  CHECK_THROWS_WITH_AS(parseOp("divide"), doctest::Contains("or subtract, a demonstration"),
                       ParamError);
}

TEST_CASE("subtract: large runs are not compared, and say up to which n they are") {
  Params p = subtractRun("fastest", "", {});
  p.n = 100000;
  p.data = "ones";
  const Trace t = runLesson(p);
  CHECK(t.otherKernels.empty());
  bool said = false;
  for (const std::string& note : rlab::english(t.notes))
    said |= note.find("up to n = 65536") != std::string::npos;
  CHECK(said);
}
