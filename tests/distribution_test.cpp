// Many runs as distributions: results binned by how far off, the share of wrong runs against
// block size, float sums in ulps from the exact sum.
#include <doctest/doctest.h>

#include <cmath>

#include "lessons/engine/races/distribution.hpp"

using namespace rlab;

namespace {

int runsIn(const OffsetHistogram& h) {
  int runs = 0;
  for (const OffsetBin& b : h.bins) runs += b.right + b.wrong;
  return runs;
}

const OffsetBin* binAt(const OffsetHistogram& h, double offset) {
  for (const OffsetBin& b : h.bins)
    if (offset >= b.centre - h.width / 2 && offset < b.centre + h.width / 2) return &b;
  return nullptr;
}

// Bins are adjacent, centred on multiples of the width, and 0 is one of the centres.
void checkShape(const OffsetHistogram& h, int maxBins) {
  REQUIRE_FALSE(h.bins.empty());
  CHECK(int(h.bins.size()) <= maxBins);
  for (size_t k = 1; k < h.bins.size(); ++k)
    CHECK(h.bins[k].centre == doctest::Approx(h.bins[k - 1].centre + h.width));
  for (const OffsetBin& b : h.bins)
    CHECK(std::fabs(b.centre / h.width - std::round(b.centre / h.width)) < 1e-9);
  CHECK(binAt(h, 0) != nullptr);
}

}  // namespace

TEST_CASE("binOffsets: whole-number offsets in bins of 1, 2 or 5 times a power of ten") {
  const std::vector<OffsetCount> offsets = {{-15, 3, false}, {-4, 2, false}, {0, 5, true}};
  const OffsetHistogram fine = binOffsets(offsets, 24);
  checkShape(fine, 24);
  CHECK(fine.width == 1);
  CHECK(fine.bins.size() == 16);  // -15 to 0
  CHECK(binAt(fine, 0)->right == 5);
  CHECK(binAt(fine, -15)->wrong == 3);
  CHECK(runsIn(fine) == 10);
  CHECK(fine.distinct == 3);
  CHECK(fine.smallest == -15);
  CHECK(fine.largest == 0);

  const OffsetHistogram coarse = binOffsets(offsets, 4);
  checkShape(coarse, 4);
  CHECK(coarse.width == 5);
  CHECK(binAt(coarse, -15)->wrong == 3);
  CHECK(binAt(coarse, -4)->wrong == 2);  // -5 +- 2.5
  CHECK(runsIn(coarse) == 10);

  // Far from right: the axis still reaches 0, so the chart says how far off.
  const OffsetHistogram far = binOffsets({{-24786, 7, false}, {-24801, 1, false}}, 30);
  checkShape(far, 30);
  CHECK(far.width == 1000);
  CHECK(runsIn(far) == 8);
  CHECK(binAt(far, 0)->right + binAt(far, 0)->wrong == 0);
}

TEST_CASE("binOffsets: fractions, a single value, and results off the axis") {
  const OffsetHistogram ulps = binOffsets({{-0.3, 4, true}, {0.7, 1, true}, {2.7, 2, true}});
  checkShape(ulps, 24);
  CHECK(runsIn(ulps) == 7);
  CHECK(ulps.width < 1);

  const OffsetHistogram one = binOffsets({{0, 9, true}});
  checkShape(one, 24);
  CHECK(one.bins.size() == 1);
  CHECK(one.bins[0].right == 9);

  const OffsetHistogram none = binOffsets({{NAN, 2, false}, {INFINITY, 1, false}, {-3, 4, false}});
  CHECK(none.notFinite == 3);
  CHECK(none.runs == 7);
  CHECK(runsIn(none) == 4);
  CHECK(binOffsets({{NAN, 2, false}}).bins.empty());
}

TEST_CASE("binRace: every run in one bin, the right runs at 0") {
  Params p;
  p.lesson = "barrier";
  p.n = 64;
  p.barrier = false;
  const RaceResult race = runRace(p, 40, 0);
  const OffsetHistogram h = binRace(race, 30);
  checkShape(h, 30);
  CHECK(runsIn(h) == race.runs);
  int wrong = 0;
  for (const OffsetBin& b : h.bins) wrong += b.wrong;
  CHECK(wrong == race.wrong);
  CHECK(binAt(h, 0)->right == race.runs - race.wrong);
  CHECK(h.smallest < 0);  // a lost addition makes the sum short
}

TEST_CASE("wrongShareByBlock: 32 to 1024 threads, with and without perturb, on the simulator") {
  Params p;
  p.lesson = "barrier";
  p.barrier = false;
  float last = 0;
  const RateByBlock off = wrongShareByBlock(p, 3, [&](float f) {
    CHECK(f >= last);
    last = f;
    return true;
  });
  CHECK(last == doctest::Approx(1));
  CHECK_FALSE(off.onGpu);
  CHECK_FALSE(off.cancelled);
  CHECK(rlab::english(off.schedules).find("warps-random:1 to warps-random:3") != std::string::npos);
  REQUIRE(off.points.size() == 6);
  for (size_t k = 0; k < off.points.size(); ++k) {
    const BlockRate& b = off.points[k];
    CHECK(b.block == kRateBlocks[k]);
    CHECK(b.runs == 3);
    CHECK(b.runsPerturbed == 3);
    CHECK(b.wrongPerturbed == 3);  // every third lane held back: the level below is unfinished
  }
  // One warp whose lanes move together finishes each level before the next; many warps in a
  // random order do not.
  CHECK(off.points.front().wrong == 0);
  CHECK(off.points.back().wrong == 3);
  p.barrier = true;
  const RateByBlock on = wrongShareByBlock(p, 2);
  REQUIRE(on.points.size() == 6);
  for (const BlockRate& b : on.points) CHECK(b.wrong + b.wrongPerturbed == 0);

  int calls = 0;
  const RateByBlock cancelled = wrongShareByBlock(p, 2, [&](float) { return ++calls < 5; });
  CHECK(cancelled.cancelled);
  CHECK(cancelled.points.size() == 1);  // 32 threads, both halves; 64 was under way

  Params folding;
  folding.lesson = "folding";
  CHECK_THROWS_AS(wrongShareByBlock(folding, 2), ParamError);
}

TEST_CASE("exactSum and ulps: exact where a double sum is not") {
  CHECK(exactSum({1e30, 1, -1e30}) == 1);
  CHECK(0.1 + 0.2 - 0.3 == std::ldexp(1.0, -54));             // in double: two roundings
  CHECK(exactSum({0.1, 0.2, -0.3}) == std::ldexp(1.0, -55));  // the doubles' exact sum
  CHECK(floatUlpAt(1.0) == std::ldexp(1.0, -23));
  CHECK(floatUlpAt(200010000.0) == 16);
  CHECK(ulpsFrom(1.0 + std::ldexp(1.0, -23), {1.0}) == 1);
  CHECK(ulpsFrom(200009984, {200000000, 10000}) == -1);
}

TEST_CASE("floatSumSpread: the atomic lesson's float sums vary with the order, fastest's do not") {
  Params p;
  p.lesson = "atomic";
  p.n = 20000;  // iota: partial sums pass 2^24, where floats are 2 and more apart
  p.type = ElementType::Float;
  p.data = "iota";  // not the lesson's float default (mixed magnitudes): the exact sum is known
  const FloatSumSpread s = floatSumSpread(p, 12);
  CHECK(s.exact == 200010000);
  CHECK(s.ulp == 16);
  CHECK(s.runs == 12);
  CHECK(s.sums.size() > 1);
  CHECK(s.ulps.runs == 12);
  int inBins = 0;
  for (const OffsetBin& b : s.ulps.bins) inBins += b.right + b.wrong;
  CHECK(inBins == 12);
  CHECK(s.fastestRuns == 12);
  REQUIRE(s.fastestSums.size() == 1);
  CHECK(s.fastestSums[0].second == 12);
  CHECK(std::fabs(s.fastestUlps[0]) < 1e3);
  // The exact sum is a float here, so every sum is a whole number of ulps from it.
  std::vector<double> input;
  for (int i = 1; i <= 20000; ++i) input.push_back(i);
  for (const auto& [sum, runs] : s.sums) {
    CHECK(ulpsFrom(sum, input) == (sum - s.exact) / s.ulp);
    CHECK(ulpsFrom(sum, input) == std::round(ulpsFrom(sum, input)));
  }
  CHECK(rlab::english(s.schedules).find("random:1 to random:12") != std::string::npos);
}
