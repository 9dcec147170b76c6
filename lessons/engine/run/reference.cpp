#include "lessons/engine/run/reference.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>

namespace rlab {

namespace {

int32_t wrap32(int64_t v) {
  return int32_t(uint32_t(uint64_t(v)));
}

// The operator applied left to right. Subtract starts from the first element, as a loop
// over the array would (a[0] - a[1] - ... - a[n-1]).
template <class T, class Multiply>
T foldLeft(Op op, const std::vector<double>& input, Multiply multiply) {
  T acc = op == Op::Sum ? T(0) : op == Op::Product ? T(1) : T(input.front());
  for (size_t i = op == Op::Subtract ? 1 : 0; i < input.size(); ++i) {
    const T v = T(input[i]);
    switch (op) {
      case Op::Subtract:
        acc -= v;
        break;
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
        acc = multiply(acc, v);
        break;
    }
  }
  return acc;
}

// Every partial sum or product of these values is a whole number of magnitude at most 2^24,
// which a float holds exactly, in any order the kernel takes.
bool exactInFloat(Op op, const std::vector<double>& input) {
  const double limit = 16777216.0;  // 2^24
  double total = op == Op::Product ? 1 : 0;
  for (double v : input) {
    if (v != std::floor(v)) return false;
    if (op == Op::Product) {
      if (v == 0) return true;  // every order ends at exactly 0 (no infinities: total <= 2^24)
      total *= std::fabs(v);
    } else {
      total += std::fabs(v);
    }
    if (total > limit) return false;
  }
  return true;
}

}  // namespace

Reference reference(Op op, ElementType type, const std::vector<double>& input, int64_t depth) {
  Reference r;
  const size_t n = input.size();
  if (type == ElementType::Int) {
    // 64 bits, except products, which wrap in 32 bits as on the GPU (exact modulo 2^32).
    const int64_t acc = foldLeft<int64_t>(op, input, [](int64_t a, int64_t b) {
      return int64_t(int32_t(uint32_t(int32_t(a)) * uint32_t(int32_t(b))));
    });
    r.expected = double(wrap32(acc));
    if (acc != wrap32(acc))
      r.notes.push_back(
          Message("note.reference.int-overflow",
                  {{"truth", std::to_string(acc)}, {"wrapped", std::to_string(wrap32(acc))}}));
    return r;
  }
  const double acc = foldLeft<double>(op, input, [](double a, double b) { return a * b; });
  double magnitude = 0;
  for (double v : input) magnitude += std::fabs(v);
  r.expected = double(float(acc));
  const double chain = double(depth > 0 ? depth : int64_t(n));
  if (op == Op::Sum && !exactInFloat(op, input)) r.tolerance = chain * FLT_EPSILON * magnitude;
  if (op == Op::Product && !exactInFloat(op, input))
    r.tolerance = chain * FLT_EPSILON * std::fabs(r.expected);
  if (std::isinf(r.expected)) r.notes.push_back(Message("note.reference.float-overflow"));
  return r;
}

bool matches(double result, const Reference& ref) {
  if (std::isnan(result)) return false;
  if (std::isinf(ref.expected) || std::isinf(result)) return result == ref.expected;
  return std::fabs(result - ref.expected) <= ref.tolerance;
}

}  // namespace rlab
