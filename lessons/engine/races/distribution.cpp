#include "lessons/engine/races/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lessons/engine/run/reference.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

// ---- Binning by how far off -------------------------------------------------------------------

OffsetHistogram binOffsets(const std::vector<OffsetCount>& offsets, int maxBins) {
  OffsetHistogram h;
  maxBins = std::max(maxBins, 1);
  bool whole = true, any = false;
  // The axis always reaches 0, the right value, so that every chart shows how far off it is.
  double low = 0, high = 0;
  for (const OffsetCount& o : offsets) {
    h.runs += o.runs;
    if (!std::isfinite(o.offset)) {
      h.notFinite += o.runs;
      continue;
    }
    if (!any) h.smallest = h.largest = o.offset;
    any = true;
    ++h.distinct;
    whole = whole && o.offset == std::floor(o.offset);
    low = std::min(low, o.offset);
    high = std::max(high, o.offset);
    h.smallest = std::min(h.smallest, o.offset);
    h.largest = std::max(h.largest, o.offset);
  }
  if (!any) return h;

  // Bin k is centred on k * width: k = floor(offset / width + 1/2).
  auto index = [](double offset, double width) {
    return (long long)std::floor(offset / width + 0.5);
  };
  auto binsFor = [&](double width) { return index(high, width) - index(low, width) + 1; };
  const double range = high - low;
  int decade = range > 0 ? int(std::floor(std::log10(range / maxBins))) : 0;
  if (whole) decade = std::max(decade, 0);
  const double mantissas[] = {1, 2, 5};
  int m = 0;
  double width = std::pow(10.0, decade);
  while (binsFor(width) > maxBins) {
    if (++m == 3) {
      m = 0;
      ++decade;
    }
    width = mantissas[m] * std::pow(10.0, decade);
  }
  h.width = width;
  const long long first = index(low, width), last = index(high, width);
  for (long long k = first; k <= last; ++k) h.bins.push_back({double(k) * width, 0, 0});
  for (const OffsetCount& o : offsets) {
    if (!std::isfinite(o.offset)) continue;
    OffsetBin& bin = h.bins[size_t(index(o.offset, width) - first)];
    (o.right ? bin.right : bin.wrong) += o.runs;
  }
  return h;
}

OffsetHistogram binRace(const RaceResult& race, int maxBins) {
  std::vector<OffsetCount> offsets;
  Reference ref;
  ref.expected = race.expected;
  ref.tolerance = race.tolerance;
  for (const auto& [result, runs] : race.histogram)
    offsets.push_back({result - race.expected, runs, matches(result, ref)});
  return binOffsets(offsets, maxBins);
}

// ---- The share of wrong runs against the block size -------------------------------------------

RateByBlock wrongShareByBlock(const Params& params, int runs,
                              const std::function<bool(float)>& progress) {
  const LessonInfo& lesson = lessonOrThrow(params.lesson);
  if (!lesson.switchableBarrier) throw ParamError(Message("params.by-block-barrier-only"));
  RateByBlock rate;
  rate.params = resolve(params).params;
  runs = std::max(runs, 1);
  // Progress by work: a run of a block of 1024 threads costs 32 of a block of 32.
  double total = 0, done = 0;
  for (int block : kRateBlocks)
    if (block <= lesson.maxN) total += 2.0 * runs * block;
  bool cancelled = false;
  for (int block : kRateBlocks) {
    if (block > lesson.maxN || cancelled) continue;
    BlockRate point;
    point.block = block;
    for (bool perturb : {false, true}) {
      Params p = rate.params;
      p.values.clear();
      p.n = block;
      p.block = block;
      p.perturb = perturb;
      p.delayThread = -1;
      // On the simulator a warp's lanes move together, as on a GPU: a block of one warp then
      // races only where perturb holds some lanes back.
      const RaceResult race = runRace(
          p, runs, 0,
          [&](int) {
            done += block;
            cancelled = progress && !progress(float(done / total));
            return !cancelled;
          },
          RaceSchedules::VaryWarps);
      (perturb ? point.runsPerturbed : point.runs) = race.runs;
      (perturb ? point.wrongPerturbed : point.wrong) = race.wrong;
      rate.device = race.device;
      rate.onGpu = race.backend == BackendChoice::Gpu;
      rate.schedules = race.schedules;
      if (cancelled) break;
    }
    if (!cancelled) rate.points.push_back(point);
  }
  rate.cancelled = cancelled;
  return rate;
}

// ---- Float sums in ulps -----------------------------------------------------------------------

namespace {

// Shewchuk's partials: non-overlapping doubles whose exact sum is the exact sum of `values`.
std::vector<double> exactPartials(const std::vector<double>& values) {
  std::vector<double> partials;
  for (double x : values) {
    size_t kept = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double high = x + y;
      const double low = y - (high - x);
      if (low != 0) partials[kept++] = low;
      x = high;
    }
    partials.resize(kept);
    partials.push_back(x);
  }
  return partials;
}

double roundedSum(const std::vector<double>& partials) {
  double total = 0;  // largest last: the rounding is that of the final addition alone
  for (auto p = partials.begin(); p != partials.end(); ++p) total += *p;
  return total;
}

}  // namespace

double exactSum(const std::vector<double>& values) {
  return roundedSum(exactPartials(values));
}

double floatUlpAt(double x) {
  const float nearest = std::fabs(float(x));
  if (std::isinf(nearest)) return std::numeric_limits<double>::infinity();
  return double(std::nextafter(nearest, std::numeric_limits<float>::infinity())) - nearest;
}

double ulpsFrom(double value, const std::vector<double>& values) {
  std::vector<double> withValue = values;
  withValue.push_back(-value);
  const double off = -exactSum(withValue);  // value - exact, rounded once
  return off / floatUlpAt(exactSum(values));
}

FloatSumSpread floatSumSpread(const Params& params, int runs,
                              const std::function<bool(float)>& progress) {
  FloatSumSpread s;
  Params p = params;
  p.type = ElementType::Float;
  p.op = Op::Sum;
  const Resolved r = resolve(p);
  s.params = r.params;
  std::vector<double> floats;  // what the kernel adds: the input as floats
  for (double v : makeInput(r)) floats.push_back(double(float(v)));
  s.exact = exactSum(floats);
  s.ulp = floatUlpAt(s.exact);
  runs = std::max(runs, 1);
  bool cancelled = false;
  int done = 0;
  auto tick = [&](int) {
    cancelled = progress && !progress(float(++done) / float(2 * runs));
    return !cancelled;
  };
  const RaceResult lesson = runRace(s.params, runs, 0, tick);
  s.device = lesson.device;
  s.schedules = lesson.schedules;
  s.runs = lesson.runs;
  std::vector<OffsetCount> offsets;
  Reference ref;
  ref.expected = lesson.expected;
  ref.tolerance = lesson.tolerance;
  for (const auto& [sum, count] : lesson.histogram) {
    s.sums.emplace_back(sum, count);
    offsets.push_back({ulpsFrom(sum, floats), count, matches(sum, ref)});
  }
  s.ulps = binOffsets(offsets);
  if (!cancelled) {
    Params fastest = s.params;
    fastest.lesson = "fastest";
    fastest.variant.clear();
    fastest.block = 0;
    const RaceResult fixed = runRace(fastest, runs, 0, tick);
    s.fastestRuns = fixed.runs;
    for (const auto& [sum, count] : fixed.histogram) {
      s.fastestSums.emplace_back(sum, count);
      s.fastestUlps.push_back(ulpsFrom(sum, floats));
    }
  }
  s.cancelled = cancelled;
  return s;
}

}  // namespace rlab
