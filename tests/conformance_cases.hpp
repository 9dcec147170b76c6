// The conformance suite: one small kernel per feature of the CUDA the simulator offers
// (tests/conformance/*.cu, each `__global__ void probe(const int* in, int n, int* out)`), and
// here the host's answer for each, written from CUDA's documentation and apart from the
// simulator. Where CUDA leaves a value undefined (a shuffle that reads a lane a partial warp
// does not have), the answer is kAnyValue: a GPU's value passes, and the simulator refuses the
// launch (readsMissingLanes). Used by tests/conformance_test.cpp (the simulator)
// and tests/gpu_test.cpp (the GPU, and the two backends against each other).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "lessons/engine/exercise/probe.hpp"

namespace rlab::conformance {

inline constexpr int kAnyValue = INT_MIN + 1;  // CUDA leaves it undefined: any value passes

// The input every probe reads: values from -100 to 100, each residue of 3 and 4 many times.
inline std::vector<int> probeInput(int n) {
  std::vector<int> in(size_t(std::max(n, 0)));
  for (int i = 0; i < n; ++i) in[size_t(i)] = (i * 37 + 11) % 201 - 100;
  return in;
}

// Awkward launches: one warp, partial warps (40 and 33 threads), three warps, a block of one,
// a large block, several blocks with n short of the threads.
inline std::vector<ProbeLaunch> probeLaunches(int columns, bool perBlock, int sharedPerThread) {
  struct Shape {
    unsigned grid, block;
    int n;
  };
  const Shape shapes[] = {{1, 32, 32}, {2, 40, 70},   {2, 33, 66}, {3, 96, 250},
                          {1, 1, 1},   {1, 256, 256}, {2, 64, 100}};
  std::vector<ProbeLaunch> launches;
  for (const Shape& s : shapes) {
    ProbeLaunch l;
    l.grid = s.grid;
    l.block = s.block;
    l.n = s.n;
    l.sharedBytes = size_t(sharedPerThread) * s.block;
    l.outCount = columns * int(perBlock ? s.grid : s.grid * s.block);
    launches.push_back(l);
  }
  return launches;
}

// Where a thread sits: its value, its lane, and its warp's lanes (a partial warp has fewer).
struct Threads {
  const std::vector<int>& in;
  const ProbeLaunch& l;
  int count() const { return int(l.grid * l.block); }
  int value(int t) const { return t < l.n ? in[size_t(t)] : 0; }
  int local(int t) const { return t % int(l.block); }
  int lane(int t) const { return local(t) % 32; }
  int warpFirst(int t) const { return t - lane(t); }  // global index of lane 0
  int warpLanes(int t) const { return std::min(32, int(l.block) - local(t) / 32 * 32); }
  unsigned existing(int t) const {
    return warpLanes(t) == 32 ? 0xffffffffu : (1u << warpLanes(t)) - 1;
  }
  bool laneExists(int t, int lane) const { return lane >= 0 && lane < warpLanes(t); }
  int valueOfLane(int t, int lane) const { return value(warpFirst(t) + lane); }
  // The mask of existing lanes of t's warp for which `pick(lane)` holds.
  unsigned lanesWhere(int t, const std::function<bool(int)>& pick) const {
    unsigned mask = 0;
    for (int lane = 0; lane < warpLanes(t); ++lane)
      if (pick(lane)) mask |= 1u << lane;
    return mask;
  }
};

inline int popcount(unsigned x) {
  return __builtin_popcount(x);
}

struct ConformanceCase {
  const char* name;  // tests/conformance/<name>.cu
  int columns;       // out values a thread (or a block)
  bool perBlock = false;
  int sharedPerThread = 0;  // dynamic shared memory the launch gives, bytes a thread
  std::function<std::vector<int>(const std::vector<int>& in, const ProbeLaunch& l)> answer;
  // Its shuffles read lanes that a block of a partial warp does not have (the PTX ISA leaves
  // such a value undefined): the simulator refuses those launches, a GPU runs them.
  bool readsMissingLanes = false;
};

// A block that is not a whole number of warps: its last warp lacks lanes.
inline bool hasPartialWarp(const ProbeLaunch& l) {
  return l.block % 32 != 0;
}

// The simulator's refusal of a read from a lane the block does not have, as the probe report
// words it.
inline bool refusedMissingLane(const std::string& failure) {
  return failure.find("which the block does not have") != std::string::npos;
}

// out[] as every probe starts it, sized for the launch.
inline std::vector<int> untouched(const ProbeLaunch& l) {
  return std::vector<int>(size_t(l.outCount), kProbeUntouched);
}

// ---- The answers ----------------------------------------------------------------------------

inline std::vector<int> warpVote(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(4 * t)];
    const auto positive = [&](int lane) { return th.valueOfLane(t, lane) > 0; };
    o[0] = int(th.lanesWhere(t, positive));
    o[1] = th.lanesWhere(t, positive) != 0;
    o[2] =
        th.lanesWhere(t, [&](int lane) { return th.valueOfLane(t, lane) > -90; }) == th.existing(t);
    if (th.lane(t) % 2 == 1)
      o[3] = int(th.lanesWhere(t, [&](int lane) { return lane % 2 == 1 && positive(lane); }));
  }
  return out;
}

inline std::vector<int> warpMatchReduce(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(12 * t)];
    const int key = th.value(t) & 3;
    const unsigned same =
        th.lanesWhere(t, [&](int lane) { return (th.valueOfLane(t, lane) & 3) == key; });
    o[0] = int(same);
    o[1] = same == th.existing(t) ? int(th.existing(t)) : 0;
    o[2] = same == th.existing(t);
    o[3] = int(th.existing(t));
    o[4] = 1;
    unsigned sum = 0, bitAnd = 0xffffffffu, bitOr = 0, bitXor = 0, maxUnsigned = 0;
    int minimum = INT_MAX, firstTwentyMax = INT_MIN;
    for (int lane = 0; lane < th.warpLanes(t); ++lane) {
      const int v = th.valueOfLane(t, lane);
      sum += unsigned(v);
      minimum = std::min(minimum, v);
      maxUnsigned = std::max(maxUnsigned, unsigned(v));
      bitAnd &= unsigned(v);
      bitOr |= unsigned(v);
      bitXor ^= unsigned(v);
      if (lane < 20) firstTwentyMax = std::max(firstTwentyMax, v);
    }
    o[5] = int(sum);
    o[6] = minimum;
    o[7] = int(maxUnsigned);
    o[8] = int(bitAnd);
    o[9] = int(bitOr);
    o[10] = int(bitXor);
    if (th.lane(t) < 20) o[11] = firstTwentyMax;
  }
  return out;
}

inline std::vector<int> activeLanes(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    if (th.value(t) % 3 != 0) continue;
    const unsigned mask =
        th.lanesWhere(t, [&](int lane) { return th.valueOfLane(t, lane) % 3 == 0; });
    int* o = &out[size_t(5 * t)];
    o[0] = int(mask);
    o[1] = popcount(mask);
    o[2] = popcount(mask & ((1u << th.lane(t)) - 1));
    o[3] = th.valueOfLane(t, __builtin_ctz(mask));
    int sum = 0;
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1u) sum += th.valueOfLane(t, lane);
    o[4] = sum;
  }
  return out;
}

inline std::vector<int> shuffles(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(8 * t)];
    const int lane = th.lane(t), v = th.value(t);
    // A lane that exists gives its value; one a partial warp lacks gives anything.
    const auto from = [&](int source) {
      return th.laneExists(t, source) ? th.valueOfLane(t, source) : kAnyValue;
    };
    const int segment = lane & ~7;
    o[0] = from(5);
    o[1] = lane < 3 ? v : from(lane - 3);
    o[2] = lane + 3 >= 32 ? v : from(lane + 3);
    o[3] = from(lane ^ 9);
    o[4] = from(segment + 2);
    o[5] = (lane & 7) + 1 >= 8 ? v : from(lane + 1);
    o[6] = (lane & 7) < 2 ? v : from(lane - 2);
    o[7] = from(lane ^ 4);
  }
  return out;
}

inline std::vector<int> blockVotes(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (unsigned b = 0; b < l.grid; ++b) {
    int positive = 0;
    bool allAbove = true, anyAbove = false;
    for (unsigned k = 0; k < l.block; ++k) {
      const int v = th.value(int(b * l.block + k));
      positive += v > 0;
      allAbove &= v > -95;
      anyAbove |= v > 97;
    }
    for (unsigned k = 0; k < l.block; ++k) {
      int* o = &out[size_t(3 * (b * l.block + k))];
      o[0] = positive;
      o[1] = allAbove;
      o[2] = anyAbove;
    }
  }
  return out;
}

// PTX's fns, as its documentation gives it.
inline unsigned findNthSet(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return (mask >> base & 1u) ? base : 0xffffffffu;
  int remaining = std::abs(offset) - 1;
  for (int pos = int(base); pos >= 0 && pos<32; pos += offset> 0 ? 1 : -1)
    if (mask >> pos & 1u) {
      if (remaining == 0) return unsigned(pos);
      --remaining;
    }
  return 0xffffffffu;
}

inline unsigned reverseBits(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

inline std::vector<int> integerIntrinsics(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    const int v = th.value(t);
    const long long wide = (long long)v * 1000003;
    const unsigned long long bits = (unsigned long long)wide;
    int* o = &out[size_t(10 * t)];
    o[0] = __builtin_popcount(unsigned(v));
    o[1] = __builtin_popcountll(bits);
    o[2] = v == 0 ? 32 : __builtin_clz(unsigned(v));
    o[3] = wide == 0 ? 64 : __builtin_clzll(bits);
    o[4] = __builtin_ffs(v);
    o[5] = __builtin_ffsll((long long)(bits << 20));
    o[6] = int(reverseBits(unsigned(v)));
    o[7] = int(reverseBits(unsigned(bits)));  // the high word of the reversed 64 bits
    o[8] = int(findNthSet(unsigned(v), unsigned(th.lane(t)), 2));
    o[9] = int(findNthSet(unsigned(v), unsigned(th.lane(t)), -1));
  }
  return out;
}

inline std::vector<int> atomics(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (unsigned b = 0; b < l.grid; ++b) {
    int sum = 0, maximum = INT_MIN, minimum = INT_MAX;
    unsigned bitAnd = 0xffffffffu, bitOr = 0, bitXor = 0, inc = 0, dec = 0, usum = 0, umax = 0,
             umin = 0xffffffffu;
    unsigned long long wideSum = 0, wideXor = 0;
    long long wideMax = LLONG_MIN, wideMin = LLONG_MAX;
    int exchanged = 0;
    for (unsigned k = 0; k < l.block; ++k) {
      const int v = th.value(int(b * l.block + k));
      sum = int(unsigned(sum) + unsigned(v));
      maximum = std::max(maximum, v);
      minimum = std::min(minimum, v);
      bitAnd &= unsigned(v) | 0x80000000u;
      bitOr |= unsigned(v) & 0x00ff00ffu;
      bitXor ^= unsigned(v);
      inc = inc >= 6u ? 0u : inc + 1;               // atomicInc(…, 6)
      dec = (dec == 0 || dec > 6u) ? 6u : dec - 1;  // atomicDec(…, 6)
      usum += unsigned(v);
      umax = std::max(umax, unsigned(v));
      umin = std::min(umin, unsigned(v));
      wideSum += (unsigned long long)(v + 1000);
      wideXor ^= ((unsigned long long)unsigned(v) << 32) | unsigned(v);
      wideMax = std::max(wideMax, (long long)v * 100000);
      wideMin = std::min(wideMin, (long long)v * 100000);
      exchanged += int(k) + 1;
    }
    int* o = &out[size_t(32 * b)];
    o[0] = sum;
    o[1] = int(0u - unsigned(sum));
    o[2] = maximum;
    o[3] = minimum;
    o[4] = int(bitAnd);
    o[5] = int(bitOr);
    o[6] = int(bitXor);
    o[7] = int(inc);
    o[8] = int(dec);
    o[9] = int(usum);
    o[10] = int(umax);
    o[11] = int(umin);
    o[12] = int(wideSum & 0xffffffffu);
    o[13] = int(wideSum >> 32);
    o[14] = int(wideXor >> 32);
    o[15] = int(wideMax / 100000);
    o[16] = int(wideMin / 100000);
    o[17] = sum;
    o[18] = sum;
    o[19] = sum + 1000 * 2 * sum;
    o[20] = exchanged;
    o[21] = 1;
    o[22] = 11;
    o[23] = 1 + 10 * 2 + 100 * 3 + 1000 * 4;
    for (int k = 24; k < 32; ++k) o[k] = 0;
  }
  return out;
}

inline std::vector<int> dynamicShared(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  const int block = int(l.block);
  for (int t = 0; t < th.count(); ++t) {
    const int base = t - th.local(t), k = th.local(t);
    out[size_t(2 * t)] = th.value(base + block - 1 - k) + 2 * th.value(base + (k + 1) % block);
    out[size_t(2 * t + 1)] = 1;
  }
  return out;
}

inline std::vector<int> alignment(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(16 * t)];
    const int fixed[] = {8, 16, 8, 16, 8, 4, 412, 1616, 16, 2, 0};
    std::copy(std::begin(fixed), std::end(fixed), o);
    o[11] = 10 * t;
    if (4 * t + 3 < l.n) {
      o[12] =
          in[size_t(4 * t)] + in[size_t(4 * t + 1)] + in[size_t(4 * t + 2)] + in[size_t(4 * t + 3)];
      o[13] = in[size_t(4 * t + 3)];
    }
    o[14] = 10;
    o[15] = 1616;
  }
  return out;
}

inline std::vector<int> cgBlock(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  const int block = int(l.block);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(9 * t)];
    const int k = th.local(t);
    o[0] = k;
    o[1] = block;
    o[2] = block;
    o[3] = t / block;
    o[4] = k;
    o[5] = block + 10000 * block;
    o[6] = th.value(t - k + (k + 1) % block);
    o[7] = k;
    o[8] = block;
  }
  return out;
}

inline std::vector<int> cgTiles(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  const int block = int(l.block);
  for (int t = 0; t < th.count(); ++t) {
    const int r = th.local(t), v = th.value(t), base = t - r;
    const auto exists = [&](int rank) { return rank >= 0 && rank < block; };
    const auto from = [&](int rank) { return exists(rank) ? th.value(base + rank) : kAnyValue; };
    int* o = &out[size_t(74 * t)];
    int column = 0;
    for (int size : {1, 2, 4, 8, 16, 32}) {
      int* c = o + column;
      column += 12;
      const int first = r & ~(size - 1), rank = r & (size - 1);
      c[0] = rank;
      c[1] = r / size;
      c[2] = (block + size - 1) / size;
      c[3] = size + 100 * size;
      c[4] = from(first);
      c[5] = rank + 1 >= size ? v : from(r + 1);
      c[6] = rank < 1 ? v : from(r - 1);
      c[7] = from(r ^ (size > 1 ? 1 : 0));
      unsigned ballot = 0, sameParity = 0, present = 0;
      bool anyAbove = false, allAbove = true;
      for (int k = 0; k < size; ++k) {
        if (!exists(first + k)) continue;
        const int w = th.value(base + first + k);
        present |= 1u << k;
        if (w > 0) ballot |= 1u << k;
        if ((w & 1) == (v & 1)) sameParity |= 1u << k;
        anyAbove |= w > 50;
        allAbove &= w > -90;
      }
      // A tile a partial warp cuts short keeps its lanes in its mask: all() compares the vote
      // with the whole mask (false), and match_all over lanes that do not exist is undefined.
      const bool whole = present == (size == 32 ? 0xffffffffu : (1u << size) - 1);
      c[8] = int(ballot);
      c[9] = anyAbove + 10 * (allAbove && whole);
      c[10] = int(sameParity);
      c[11] = whole ? int(present) + 1000 : kAnyValue;
    }
    o[72] = (r & 31) / 4 + 100 * 8;
    o[73] = from((r & ~3) + 3);
  }
  return out;
}

inline std::vector<int> cgReduce(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  const int block = int(l.block);
  for (int t = 0; t < th.count(); ++t) {
    const int r = th.local(t), base = t - r;
    // The tile of `size` around r: its values (those that exist), and whether it is whole.
    const auto tile = [&](int size, bool& whole) {
      std::vector<int> values;
      whole = true;
      for (int k = r & ~(size - 1); k < (r & ~(size - 1)) + size; ++k) {
        if (k < block)
          values.push_back(th.value(base + k));
        else
          whole = false;
      }
      return values;
    };
    bool whole = false;
    const std::vector<int> warp = tile(32, whole);
    const bool warpWhole = whole;
    const std::vector<int> half = tile(16, whole);
    const std::vector<int> four = tile(4, whole);
    const bool fourWhole = whole;
    int* o = &out[size_t(14 * t)];
    unsigned sum = 0, bitAnd = 0xffffffffu, bitOr = 0, bitXor = 0;
    int minimum = INT_MAX, maximum = INT_MIN;
    for (int w : warp) {
      sum += unsigned(w);
      bitAnd &= unsigned(w);
      bitOr |= unsigned(w);
      bitXor ^= unsigned(w);
      minimum = std::min(minimum, w);
      maximum = std::max(maximum, w);
    }
    // __reduce_*_sync over the tile's existing lanes (int and unsigned, tiles of 16 and 32);
    // elsewhere a butterfly of shuffles, which in a partial tile reads lanes that do not exist.
    o[0] = int(sum);
    o[1] = minimum;
    o[2] = maximum;
    o[3] = int(bitAnd);
    o[4] = int(bitOr);
    o[5] = int(bitXor);
    unsigned halfSum = 0, halfMin = 0xffffffffu;
    for (int w : half) {
      halfSum += unsigned(w);
      halfMin = std::min(halfMin, unsigned(w));
    }
    o[6] = int(halfSum);
    int fourMax = INT_MIN, fourXor = 0;
    long long fourSum = 0;
    for (int w : four) {
      fourMax = std::max(fourMax, w);
      fourXor ^= w;
      fourSum += w;
    }
    o[7] = fourWhole ? fourMax : kAnyValue;
    o[8] = th.value(t);
    o[9] = warpWhole ? int(sum) : kAnyValue;
    o[10] = fourWhole ? int(fourSum) : kAnyValue;
    o[11] = warpWhole ? maximum : kAnyValue;
    o[12] = int(halfMin);
    o[13] = fourWhole ? fourXor : kAnyValue;
  }
  return out;
}

inline std::vector<int> cgGrid(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(6 * t)];
    const int b = t / int(l.block);
    o[0] = t;
    o[1] = th.count();
    o[2] = 0;
    o[3] = b;
    o[4] = int(l.grid);
    o[5] = int(l.grid) + 10000 * b;
  }
  return out;
}

inline std::vector<int> cgPartitions(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) {
    int* o = &out[size_t(5 * t)];
    o[0] = th.lane(t) & 7;
    o[1] = std::min(8, int(l.block) - th.local(t) / 8 * 8);  // the block's last tile: what is left
    if (th.value(t) <= 0) continue;
    const unsigned positive =
        th.lanesWhere(t, [&](int lane) { return th.valueOfLane(t, lane) > 0; });
    const int rank = popcount(positive & ((1u << th.lane(t)) - 1)), size = popcount(positive);
    o[2] = size <= 4 ? rank : rank % 4;
    o[3] = size <= 4 ? size : std::min(4, size - rank / 4 * 4);
    o[4] = size <= 4 ? 0 : rank / 4;
  }
  return out;
}

inline std::vector<int> deviceHeap(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  for (int t = 0; t < th.count(); ++t) out[size_t(t)] = 3 * th.value(t) + 1;
  return out;
}

inline std::vector<int> misc(const std::vector<int>& in, const ProbeLaunch& l) {
  const Threads th{in, l};
  std::vector<int> out = untouched(l);
  const int table[] = {5, 7, 11, 13};
  for (int t = 0; t < th.count(); ++t) {
    const int v = th.value(t);
    int* o = &out[size_t(9 * t)];
    o[0] = std::max(v, 3) + std::min(v, -3);
    o[1] = int(std::max(unsigned(v), 5u));
    o[2] = int(std::min(unsigned(v), 77u)) + std::max(v, 9);
    o[3] = int(std::min(float(v), 2.5f) * 2.0f);
    o[4] = v;
    o[5] = v;
    o[6] = table[(v & 0x7fffffff) % 4];
    o[7] = 1;
    o[8] = 127;
  }
  return out;
}

inline const std::vector<ConformanceCase>& conformanceCases() {
  static const std::vector<ConformanceCase> cases = {
      {"warp_vote", 4, false, 0, warpVote},
      {"warp_match_reduce", 12, false, 0, warpMatchReduce},
      {"active_lanes", 5, false, 0, activeLanes},
      {"shuffles", 8, false, 0, shuffles, true},
      {"block_votes", 3, false, 0, blockVotes},
      {"integer_intrinsics", 10, false, 0, integerIntrinsics},
      {"atomics", 32, true, 0, atomics},
      {"dynamic_shared", 2, false, 8, dynamicShared},
      {"alignment", 16, false, 0, alignment},
      {"cg_block", 9, false, 0, cgBlock},
      {"cg_tiles", 74, false, 0, cgTiles, true},
      {"cg_reduce", 14, false, 0, cgReduce, true},
      {"cg_grid", 6, false, 0, cgGrid},
      {"cg_partitions", 5, false, 0, cgPartitions},
      {"device_heap", 1, false, 0, deviceHeap},
      {"misc", 9, false, 0, misc},
  };
  return cases;
}

inline const ConformanceCase& conformanceCase(const std::string& name) {
  for (const ConformanceCase& c : conformanceCases())
    if (name == c.name) return c;
  throw std::invalid_argument("no conformance case " + name);
}

// The first place `got` differs from `expected` (kAnyValue matches anything): "" when none.
inline std::string firstDifference(const std::vector<int>& got, const std::vector<int>& expected,
                                   int columns) {
  if (got.size() != expected.size())
    return "out has " + std::to_string(got.size()) + " values, not " +
           std::to_string(expected.size());
  for (size_t k = 0; k < got.size(); ++k)
    if (expected[k] != kAnyValue && got[k] != expected[k])
      return "out[" + std::to_string(k) + "] (thread or block " +
             std::to_string(k / size_t(columns)) + ", column " +
             std::to_string(k % size_t(columns)) + ") is " + std::to_string(got[k]) +
             ", expected " + std::to_string(expected[k]);
  return "";
}

inline std::string conformanceFile(const ConformanceCase& c) {
  return std::string(RLAB_SOURCE_DIR) + "/tests/conformance/" + c.name + ".cu";
}

}  // namespace rlab::conformance
