// Many runs as distributions, for the race explorer to draw: results binned by how far off they
// are, the share of wrong runs against the block size, and float sums in ulps from the exact
// sum. Every number here comes from runs; the views only draw it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/races/race.hpp"

namespace rlab {

// ---- Binning by how far off -------------------------------------------------------------------

struct OffsetCount {
  double offset = 0;  // how far off (result - right value), in the result's units or in ulps
  int runs = 0;
  bool right = true;  // the runs' verdict
};

struct OffsetBin {
  double centre = 0;  // the bin is [centre - width/2, centre + width/2)
  int right = 0;      // runs in it that were right, and that were wrong
  int wrong = 0;
};

struct OffsetHistogram {
  double width = 1;             // of every bin: 1, 2 or 5 times a power of ten
  std::vector<OffsetBin> bins;  // adjacent, by increasing centre; empty without finite offsets
  int runs = 0;
  int notFinite = 0;                 // runs whose offset is NaN or infinite: off the axis
  int distinct = 0;                  // distinct offsets among the finite ones
  double smallest = 0, largest = 0;  // the finite offsets seen
};

// Bins centred on multiples of the width, so that 0 (the right value) is a bin's centre; the
// narrowest width (at least 1 where every offset is a whole number) that needs at most
// `maxBins` bins.
OffsetHistogram binOffsets(const std::vector<OffsetCount>& offsets, int maxBins = 24);

// A race's results by how far off they are: result - expected, right where within tolerance.
OffsetHistogram binRace(const RaceResult& race, int maxBins = 24);

// ---- The share of wrong runs against the block size -------------------------------------------

struct BlockRate {
  int block = 0;
  int runs = 0, wrong = 0;                    // without --perturb
  int runsPerturbed = 0, wrongPerturbed = 0;  // with it
};

struct RateByBlock {
  Params params;   // the lesson as asked; each point runs it with n = block
  Message device;  // "the CPU SIMT simulator" or the GPU's name
  bool onGpu = false;
  Message schedules;              // how the runs were scheduled, in one sentence
  std::vector<BlockRate> points;  // block 32, 64, ..., 1024, as far as it got
  bool cancelled = false;
};

inline constexpr int kRateBlocks[] = {32, 64, 128, 256, 512, 1024};

// The lesson as asked (barrier on or off, variant, type, data; its values dropped) over a full
// block of each size, `runs` times without and `runs` times with --perturb: on the GPU when the
// params ask for it, else on the simulator under warps-random:1 to warps-random:runs (a random
// warp's lanes advance together, as a GPU runs a warp). `progress(fraction)`
// returning false cancels. Throws ParamError for a lesson without --perturb.
RateByBlock wrongShareByBlock(const Params& params, int runs,
                              const std::function<bool(float)>& progress = {});

// ---- Float sums in ulps -----------------------------------------------------------------------

// The exact sum of `values` (Shewchuk's exact summation in double: every float is a double, and
// the partial sums carry no rounding), rounded to double.
double exactSum(const std::vector<double>& values);

// How many gaps between floats at the exact sum `value` is from it: (value - exact) / ulp,
// where ulp is the distance from the float nearest the exact sum to the next float away from 0.
double ulpsFrom(double value, const std::vector<double>& values);
double floatUlpAt(double x);

struct FloatSumSpread {
  Params params;  // the lesson as asked, as a float sum
  Message device, schedules;
  double exact = 0;  // the exact sum of the inputs as floats (rounded to double)
  double ulp = 0;    // the gap between floats there
  int runs = 0;
  std::vector<std::pair<double, int>> sums;  // the lesson: each distinct float sum, runs
  OffsetHistogram ulps;                      // the same, by ulps from the exact sum
  int fastestRuns = 0;
  std::vector<std::pair<double, int>> fastestSums;  // `fastest` on the same input
  std::vector<double> fastestUlps;                  // each of those, in ulps
  bool cancelled = false;
};

// The lesson as asked, summing floats `runs` times (on the simulator under random:1 to
// random:runs, which decide the order the atomics land in; a GPU orders them itself), then the
// `fastest` lesson as many times on the same input, whose order of additions is fixed.
FloatSumSpread floatSumSpread(const Params& params, int runs,
                              const std::function<bool(float)>& progress = {});

}  // namespace rlab
