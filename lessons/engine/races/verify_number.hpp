// How the verification writes a value in its sentences and replay lines: the cases
// (verify_cases.cpp) and the check (verify.cpp) share it.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace rlab {

// "-3", "50.5": a whole number without a point, else nine significant digits.
inline std::string verifyNumber(double v) {
  char text[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(text, sizeof text, "%lld", (long long)v);
  else
    std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

}  // namespace rlab
