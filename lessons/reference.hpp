// The CPU reference every run is checked against.
#pragma once

#include <string>
#include <vector>

#include "lessons/params.hpp"

namespace rlab {

struct Reference {
  double expected = 0;   // what a correct kernel of this type returns
  double tolerance = 0;  // 0 for int (exact), about n·ε·Σ|x| for float sums
  std::vector<std::string> notes;
};

// Ints: a 64-bit accumulator; where the 32-bit result wraps, expected is the wrapped value
// (what every correct 32-bit kernel returns) and a note gives the true one.
// Floats: accumulated in double, rounded to float.
Reference reference(Op op, ElementType type, const std::vector<double>& input);

bool matches(double result, const Reference& ref);

}  // namespace rlab
