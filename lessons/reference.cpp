#include "lessons/reference.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>

namespace rlab {

namespace {

int32_t wrap32(int64_t v) {
  return int32_t(uint32_t(uint64_t(v)));
}

}  // namespace

Reference reference(Op op, ElementType type, const std::vector<double>& input) {
  Reference r;
  const size_t n = input.size();
  if (type == ElementType::Int) {
    int64_t acc = op == Op::Sum ? 0 : op == Op::Product ? 1 : int64_t(input.front());
    uint32_t product = 1;
    for (double d : input) {
      const int64_t v = int64_t(d);
      switch (op) {
        case Op::Sum:
          acc += v;
          break;
        case Op::Max:
          acc = std::max(acc, v);
          break;
        case Op::Min:
          acc = std::min(acc, v);
          break;
        case Op::Product:
          product *= uint32_t(int32_t(v));
          break;  // wraps, like the GPU
      }
    }
    if (op == Op::Product) {
      r.expected = double(int32_t(product));
    } else {
      r.expected = double(wrap32(acc));
      if (acc != wrap32(acc))
        r.notes.push_back("The int sum overflows 32 bits: the true sum is " + std::to_string(acc) +
                          "; a 32-bit kernel wraps around to " + std::to_string(wrap32(acc)) +
                          ". Use --type float or smaller data.");
    }
    return r;
  }
  double acc = op == Op::Sum ? 0 : op == Op::Product ? 1 : input.front();
  double magnitude = 0;
  for (double v : input) {
    magnitude += std::fabs(v);
    switch (op) {
      case Op::Sum:
        acc += v;
        break;
      case Op::Max:
        acc = std::max(acc, v);
        break;
      case Op::Min:
        acc = std::min(acc, v);
        break;
      case Op::Product:
        acc *= v;
        break;
    }
  }
  r.expected = double(float(acc));
  if (op == Op::Sum) r.tolerance = double(n) * FLT_EPSILON * magnitude;
  if (op == Op::Product) r.tolerance = double(n) * FLT_EPSILON * std::fabs(r.expected);
  if (std::isinf(r.expected)) r.notes.push_back("The float result overflows to infinity.");
  return r;
}

bool matches(double result, const Reference& ref) {
  if (std::isnan(result)) return false;
  if (std::isinf(ref.expected) || std::isinf(result)) return result == ref.expected;
  return std::fabs(result - ref.expected) <= ref.tolerance;
}

}  // namespace rlab
