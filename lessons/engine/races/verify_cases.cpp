// The verification cases: the data each case gets (and its words), and the sizes, block sizes,
// operators, types and schedules every kernel must pass.
//
// [SECTION] Data
// [SECTION] Cases

#include "lessons/engine/races/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/races/verify_number.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

namespace {

// ============================================================================================
// [SECTION] Data
// ============================================================================================
// Random data of our own (negative numbers, fractions) goes through Params::values, so its
// replay line lists every value: only up to kListedUpTo elements. Beyond, random data is the
// lessons' own random:SEED (digits 0 to 9), which a replay line names in a word.
// Every float input below keeps every partial result exact in any order of operations (sums of
// at most 257 quarters of at most 9.75 stay far below 2^24 quarters; products are of powers of
// two with at most 120 factors of 2 and 120 of 0.5, inside the float range 2^-126 to 2^127
// whatever the grouping), so a float case fails only when an element is lost or wrong, never
// for rounding.

constexpr int64_t kListedUpTo = 257;
// Single-element patterns (the extreme at index 0 or at the end): written as runs on a replay
// line, so they stay short; up to here.
constexpr int64_t kPatternsUpTo = 4097;

using DataKind = VerifyData;

struct Item {
  Op op;
  ElementType type;
  DataKind kind;
};

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Fills the case's data and says what it is.
void setData(VerifyCase& c, const Item& item, uint64_t seed) {
  Params& p = c.params;
  const bool isInt = item.type == ElementType::Int;
  const size_t n = size_t(p.n);
  switch (item.kind) {
    case DataKind::OwnRandom: {
      p.values.resize(n);
      static const double powersOfTwo[] = {-2, -1, -0.5, 0.5, 1, 2};
      int twos = 0, halves = 0;
      for (size_t i = 0; i < n; ++i) {
        const uint64_t r = splitmix(seed * 1000003u + i);
        double& v = p.values[i];
        if (item.op == Op::Product && isInt) {
          v = 2.0 * double(r % 8) - 7;  // odd: the product never wraps to 0
        } else if (item.op == Op::Product) {
          v = powersOfTwo[r % 6];
          int& count = std::fabs(v) == 2 ? twos : halves;
          if (std::fabs(v) != 1 && ++count > 120) v = v < 0 ? -1 : 1;
        } else {
          v = isInt ? double(r % 199) - 99 : (double(r % 79) - 39) / 4;
        }
      }
      c.data = Message(item.op == Op::Product
                           ? (isInt ? "verify.data-odd" : "verify.data-powers-of-two")
                           : (isInt ? "verify.data-integers" : "verify.data-quarters"),
                       {{"seed", seed}});
      break;
    }
    case DataKind::RandomDigits:
      p.data = "random:" + std::to_string(seed);
      c.data = Message("verify.data-digits", {{"data", p.data}});
      break;
    case DataKind::Iota:
      p.data = "iota";
      c.data = Message("verify.data-iota");
      break;
    case DataKind::Ones:
      p.data = "ones";
      c.data = verbatim("ones");
      break;
    case DataKind::ExtremeFirst:
    case DataKind::ExtremeLast: {
      // All of one sign, so that a kernel starting from 0 instead of the identity shows.
      const double sign = item.op == Op::Max ? -1 : 1;
      const double filler = sign * (isInt ? 50 : 50.5), extreme = sign * (isInt ? 3 : 3.25);
      const bool first = item.kind == DataKind::ExtremeFirst;
      p.values.assign(n, filler);
      p.values[first ? 0 : n - 1] = extreme;
      const std::vector<MessageArg> args = {{"extreme", verifyNumber(extreme)},
                                            {"filler", verifyNumber(filler)}};
      c.data =
          Message(item.op == Op::Max ? (first ? "verify.data-max-first" : "verify.data-max-last")
                                     : (first ? "verify.data-min-first" : "verify.data-min-last"),
                  args);
      break;
    }
    case DataKind::OneAtLast: {
      const double identity = item.op == Op::Product ? 1 : 0;
      const double single = item.op == Op::Product ? (isInt ? 3 : -2.5) : (isInt ? 7 : 7.5);
      p.values.assign(n, identity);
      p.values[n - 1] = single;
      c.data = Message("verify.data-one-at-last",
                       {{"single", verifyNumber(single)}, {"filler", verifyNumber(identity)}});
      break;
    }
  }
}

// ============================================================================================
// [SECTION] Cases
// ============================================================================================

constexpr int64_t kAwkwardSizes[] = {1, 2, 3, 7, 31, 32, 33, 255, 256, 257, 1000, 4097, 65537};
constexpr int64_t kGpuLargerSizes[] = {100003};
constexpr int64_t kGpuLargestSum = (int64_t(1) << 24) + 3;
// Barrier schedules: other threads overtake, lanes of a warp overtake other warps, and one
// thread (in the first warp, then in the second) is late for a round or two. Sizes of one,
// two and four blocks of 256 and more.
const char* const kSchedules[] = {"random:101", "random:202", "warps-random:303", "stall:3:1:2",
                                  "stall:40:2:1"};
// Where the lanes of a warp meet with no barrier (lastwarp): lanes out of step, at random and
// one lane late, and the lockstep warp of GPUs before Volta (warps-random keeps a warp's lanes
// together), which is all a kernel that needs its lanes in step is verified under.
const char* const kLaneSchedules[] = {"lanes-random:606", "lane:1:1:1", "lane:16:3:2",
                                      "warps-random:707"};

// The schedules a variant is verified under: the lane schedules where its races would be the
// lanes', and only those that keep each warp's lanes together where it needs them to be.
std::vector<std::string> schedulesFor(const LessonInfo& lesson, const VariantInfo& variant) {
  std::vector<std::string> schedules(std::begin(kSchedules), std::end(kSchedules));
  if (lesson.laneSchedules)
    schedules.insert(schedules.end(), std::begin(kLaneSchedules), std::end(kLaneSchedules));
  if (variant.needsLanesInStep())
    std::erase_if(schedules, [](const std::string& s) {
      const sim::Schedule::Kind kind = sim::Schedule::parse(s).kind;
      return kind != sim::Schedule::Kind::WarpsRandom && kind != sim::Schedule::Kind::Lockstep;
    });
  return schedules;
}
constexpr int64_t kScheduleSizes[] = {33, 257, 1000};

int64_t powerOfTwoCovering(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// 0 (the lesson's default) and every power of two from the variant's smallest block (32 for
// kernels without warp operations too: below that the default covers small n) to 1024; a
// one-block lesson only those that cover n.
std::vector<int> blockSizes(const LessonInfo& lesson, const VariantInfo& variant, int64_t n) {
  std::vector<int> blocks{0};
  int64_t smallest = std::max(variant.minBlock, 32);
  if (lesson.oneBlock) smallest = std::max(smallest, powerOfTwoCovering(n));
  for (int64_t b = powerOfTwoCovering(smallest); b <= 1024; b *= 2) blocks.push_back(int(b));
  return blocks;
}

// The data a size gets with each operator and type when it has no pattern of its own.
DataKind mainKind(Op op, int64_t n) {
  if (n <= kListedUpTo) return DataKind::OwnRandom;
  switch (op) {
    case Op::Sum:
      return DataKind::RandomDigits;
    case Op::Max:
    case Op::Min:
      return DataKind::Iota;
    case Op::Product:
    case Op::Subtract:  // not verified: it has no right answer
      break;
  }
  return DataKind::Ones;
}

std::vector<Item> itemsFor(int64_t n, VerifyScope scope) {
  const ElementType types[] = {ElementType::Int, ElementType::Float};
  std::vector<Item> items;
  if (n == kGpuLargestSum) {
    for (ElementType type : types) items.push_back({Op::Sum, type, DataKind::RandomDigits});
    return items;
  }
  if (scope == VerifyScope::Simulator && n > kPatternsUpTo) {
    // A few runs of tens of milliseconds each: lost elements, reads past n (the guard zone
    // breaks sums, maxima and products) and both types.
    return {{Op::Sum, ElementType::Int, DataKind::RandomDigits},
            {Op::Sum, ElementType::Float, DataKind::RandomDigits},
            {Op::Max, ElementType::Int, DataKind::Iota},
            {Op::Product, ElementType::Float, DataKind::Ones}};
  }
  for (ElementType type : types)
    for (Op op : {Op::Sum, Op::Max, Op::Min, Op::Product})
      items.push_back({op, type, mainKind(op, n)});
  if (n >= 2 && n <= kPatternsUpTo)
    for (ElementType type : types) {
      items.push_back({Op::Sum, type, DataKind::OneAtLast});
      items.push_back({Op::Max, type, DataKind::ExtremeFirst});
      items.push_back({Op::Max, type, DataKind::ExtremeLast});
      items.push_back({Op::Min, type, DataKind::ExtremeFirst});
      items.push_back({Op::Min, type, DataKind::ExtremeLast});
      items.push_back({Op::Product, type, DataKind::OneAtLast});
    }
  return items;
}

VerifyCase makeCase(const LessonInfo& lesson, const VariantInfo& variant, VerifyScope scope,
                    int64_t n, int block, const Item& item, uint64_t seed) {
  VerifyCase c;
  Params& p = c.params;
  p.lesson = lesson.id;
  p.variant = variant.id;
  p.n = n;
  p.block = block;
  p.op = item.op;
  p.type = item.type;
  p.trace = n <= kListedUpTo;  // traced and untraced runs both
  p.timed = false;
  p.backend = scope == VerifyScope::Gpu ? BackendChoice::Gpu : BackendChoice::Sim;
  setData(c, item, seed);
  return c;
}

}  // namespace

std::vector<VerifyCase> verificationCases(const LessonInfo& lesson, const VariantInfo& variant,
                                          VerifyScope scope) {
  std::vector<int64_t> sizes;
  for (int64_t n : kAwkwardSizes) sizes.push_back(n);
  if (scope == VerifyScope::Gpu) {
    for (int64_t n : kGpuLargerSizes) sizes.push_back(n);
    sizes.push_back(kGpuLargestSum);
  }
  std::vector<VerifyCase> cases;
  for (size_t s = 0; s < sizes.size(); ++s) {
    const int64_t n = sizes[s];
    if (n > lesson.maxN) continue;
    const std::vector<int> blocks = blockSizes(lesson, variant, n);
    const std::vector<Item> items = itemsFor(n, scope);
    for (size_t k = 0; k < items.size(); ++k) {
      const uint64_t seed = uint64_t(n) * 64 + k;
      if (scope == VerifyScope::Simulator) {
        // Items take the block sizes in turn, starting one further on at each size, so that
        // every size meets every block size and each operator and type meet many of them.
        cases.push_back(
            makeCase(lesson, variant, scope, n, blocks[(k + s) % blocks.size()], items[k], seed));
      } else if (n == kGpuLargestSum) {
        for (int block : {blocks.front(), blocks[1], blocks.back()})
          cases.push_back(makeCase(lesson, variant, scope, n, block, items[k], seed));
      } else {
        for (int block : blocks)
          cases.push_back(makeCase(lesson, variant, scope, n, block, items[k], seed));
      }
    }
  }

  // A missing barrier can give the right answer in lockstep and the wrong one in any other
  // order: the simulator runs sums under schedules that let threads overtake each other.
  if (scope == VerifyScope::Simulator) {
    int turn = 0;
    for (int64_t n : kScheduleSizes) {
      if (n > lesson.maxN) continue;
      std::vector<int> blocks = blockSizes(lesson, variant, n);
      // Races between warps need two of them: 128 threads and more where the lesson allows.
      const bool twoWarps = blocks.back() >= 128;
      std::erase_if(blocks, [&](int b) { return twoWarps && b != 0 && b < 128; });
      for (const std::string& schedule : schedulesFor(lesson, variant)) {
        const Item item{Op::Sum, turn % 2 ? ElementType::Float : ElementType::Int,
                        mainKind(Op::Sum, n)};
        VerifyCase c = makeCase(lesson, variant, scope, n, blocks[turn % blocks.size()], item,
                                uint64_t(n) * 64 + 40 + turn);
        c.params.schedule = schedule;
        cases.push_back(std::move(c));
        ++turn;
      }
    }
  }

  // --perturb (every third thread pauses each level) must not matter while the barrier is on,
  // nor in a last warp held together by __syncwarp() or shuffles.
  if (variant.perturbs && !variant.needsLanesInStep()) {
    int turn = 0;
    for (int64_t n : {int64_t(33), int64_t(257)}) {
      if (n > lesson.maxN) continue;
      const std::vector<int> blocks = blockSizes(lesson, variant, n);
      for (const char* schedule : {"lockstep", "random:404"}) {
        if (scope == VerifyScope::Gpu && std::string(schedule) != "lockstep") continue;
        const Item item{Op::Sum, ElementType::Int, mainKind(Op::Sum, n)};
        VerifyCase c = makeCase(lesson, variant, scope, n, blocks[turn % blocks.size()], item,
                                uint64_t(n) * 64 + 50 + turn);
        c.params.perturb = true;
        c.params.schedule = schedule;
        cases.push_back(std::move(c));
        ++turn;
      }
    }
  }
  return cases;
}

VerifyData mainVerifyData(Op op, int64_t n) {
  return mainKind(op, n);
}

std::vector<int> verifyBlockSizes(const LessonInfo& lesson, const VariantInfo& variant, int64_t n) {
  return blockSizes(lesson, variant, n);
}

VerifyCase makeVerifyCase(const LessonInfo& lesson, const VariantInfo& variant, VerifyScope scope,
                          int64_t n, int block, Op op, ElementType type, VerifyData data,
                          uint64_t seed) {
  return makeCase(lesson, variant, scope, n, block, {op, type, data}, seed);
}

}  // namespace rlab
