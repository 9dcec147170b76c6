// The CPU reference every run is checked against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"

namespace rlab {

struct Reference {
  double expected = 0;   // what a correct kernel of this type returns
  double tolerance = 0;  // 0 where every correct order of operations gives the same value
  std::vector<Message> notes;
};

// Ints: a 64-bit accumulator; where the 32-bit result wraps, expected is the wrapped value
// (what every correct 32-bit kernel returns) and a note gives the true one.
// Floats: accumulated in double, rounded to float. Sums and products are exact where every
// partial result is (whole numbers whose magnitudes add or multiply up to at most 2^24: then
// one lost operation is always wrong); else the tolerance is the rounding error a kernel can
// make whose longest chain of dependent operations is `depth` long: depth · ε · Σ|x| for sums
// (a tree of n elements: log2 n; n atomics on one address: n). depth 0: n.
// Subtract: the host's loop, a[0] - a[1] - ... - a[n-1], one answer of many (no tolerance).
Reference reference(Op op, ElementType type, const std::vector<double>& input, int64_t depth = 0);

bool matches(double result, const Reference& ref);

}  // namespace rlab
