// CUDA's device functions in the global namespace, for the simulator (included by shim.hpp):
// min and max, the integer intrinsics, bit casts, fast math, __ldg and the clock. Each has
// CUDA's signature; cuda_surface.def lists them.
#pragma once

// ---- min and max, as CUDA overloads them (math_functions.hpp) ---------------------------------

#define RLAB_MIN_MAX(T, U, R)                                                             \
  inline R min(T a, U b) {                                                                \
    return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a); \
  }                                                                                       \
  inline R max(T a, U b) {                                                                \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a); \
  }
RLAB_MIN_MAX(int, int, int)
RLAB_MIN_MAX(unsigned, unsigned, unsigned)
RLAB_MIN_MAX(int, unsigned, unsigned)
RLAB_MIN_MAX(unsigned, int, unsigned)
RLAB_MIN_MAX(long, long, long)
RLAB_MIN_MAX(unsigned long, unsigned long, unsigned long)
RLAB_MIN_MAX(long, unsigned long, unsigned long)
RLAB_MIN_MAX(unsigned long, long, unsigned long)
RLAB_MIN_MAX(long long, long long, long long)
RLAB_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
RLAB_MIN_MAX(long long, unsigned long long, unsigned long long)
RLAB_MIN_MAX(unsigned long long, long long, unsigned long long)
#undef RLAB_MIN_MAX
inline float min(float a, float b) {
  return std::fmin(a, b);
}
inline float max(float a, float b) {
  return std::fmax(a, b);
}
inline double min(double a, double b) {
  return std::fmin(a, b);
}
inline double max(double a, double b) {
  return std::fmax(a, b);
}
inline double min(float a, double b) {
  return std::fmin(double(a), b);
}
inline double max(float a, double b) {
  return std::fmax(double(a), b);
}
inline double min(double a, float b) {
  return std::fmin(a, double(b));
}
inline double max(double a, float b) {
  return std::fmax(a, double(b));
}
inline unsigned umin(unsigned a, unsigned b) {
  return min(a, b);
}
inline unsigned umax(unsigned a, unsigned b) {
  return max(a, b);
}
inline long long llmin(long long a, long long b) {
  return min(a, b);
}
inline long long llmax(long long a, long long b) {
  return max(a, b);
}
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return min(a, b);
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return max(a, b);
}

// ---- Integer intrinsics -------------------------------------------------------------------------

inline int __popc(unsigned x) {
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
// Leading zeros: 32 (64) for 0, where the builtin would be undefined.
inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
// The lowest set bit, counted from 1; 0 for 0.
inline int __ffs(int x) {
  return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
// The position of the offset-th set bit of mask, counted from bit `base` up (offset > 0) or
// down (offset < 0); with offset 0, base itself if that bit is set; 0xffffffff if there is
// none (PTX's fns).
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return base < 32 && (mask >> base & 1u) ? base : 0xffffffffu;
  int count = (offset > 0 ? offset : -offset) - 1;
  const int step = offset > 0 ? 1 : -1;
  for (int pos = int(base); pos >= 0 && pos < 32; pos += step) {
    if (!(mask >> pos & 1u)) continue;
    if (count == 0) return unsigned(pos);
    --count;
  }
  return 0xffffffffu;
}

// ---- Bit casts ----------------------------------------------------------------------------------

inline int __float_as_int(float f) {
  return ::rlab::sim::detail::fromBits<int>(::rlab::sim::detail::toBits(f));
}
inline unsigned __float_as_uint(float f) {
  return ::rlab::sim::detail::fromBits<unsigned>(::rlab::sim::detail::toBits(f));
}
inline float __int_as_float(int i) {
  return ::rlab::sim::detail::fromBits<float>(::rlab::sim::detail::toBits(i));
}
inline float __uint_as_float(unsigned i) {
  return ::rlab::sim::detail::fromBits<float>(::rlab::sim::detail::toBits(i));
}
inline long long __double_as_longlong(double d) {
  return ::rlab::sim::detail::fromBits<long long>(::rlab::sim::detail::toBits(d));
}
inline double __longlong_as_double(long long i) {
  return ::rlab::sim::detail::fromBits<double>(::rlab::sim::detail::toBits(i));
}

// ---- Fast math ----------------------------------------------------------------------------------
// Differs: as exact as the functions they stand for, where a GPU's are faster and rougher. The C
// library declares most of these names (noexcept, in C++); these are their definitions.

#define RLAB_FAST_MATH(name, precise)   \
  inline float name(float x) noexcept { \
    return precise(x);                  \
  }
RLAB_FAST_MATH(__expf, std::exp)
RLAB_FAST_MATH(__logf, std::log)
RLAB_FAST_MATH(__log2f, std::log2)
RLAB_FAST_MATH(__log10f, std::log10)
RLAB_FAST_MATH(__sinf, std::sin)
RLAB_FAST_MATH(__cosf, std::cos)
RLAB_FAST_MATH(__tanf, std::tan)
#undef RLAB_FAST_MATH
inline float __exp10f(float x) noexcept {
  return std::pow(10.0f, x);
}
inline float __powf(float x, float y) noexcept {
  return std::pow(x, y);
}
inline void __sincosf(float x, float* s, float* c) noexcept {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float __fdividef(float x, float y) {
  return x / y;
}
// Clamped to [0, 1], NaN to 0.
inline float __saturatef(float x) {
  return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

// ---- Loads and the clock ------------------------------------------------------------------------

namespace rlab::sim::detail {
// The types CUDA's __ldg has overloads for: the arithmetic types and the vector types.
template <class T>
inline constexpr bool kLoadable = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
#define RLAB_LOADABLE(T) \
  template <>            \
  inline constexpr bool kLoadable<T> = true;
RLAB_LOADABLE(char2)
RLAB_LOADABLE(char4)
RLAB_LOADABLE(uchar2)
RLAB_LOADABLE(uchar4)
RLAB_LOADABLE(short2)
RLAB_LOADABLE(short4)
RLAB_LOADABLE(ushort2)
RLAB_LOADABLE(ushort4)
RLAB_LOADABLE(int2)
RLAB_LOADABLE(int4)
RLAB_LOADABLE(uint2)
RLAB_LOADABLE(uint4)
RLAB_LOADABLE(longlong2)
RLAB_LOADABLE(ulonglong2)
RLAB_LOADABLE(float2)
RLAB_LOADABLE(float4)
RLAB_LOADABLE(double2)
#undef RLAB_LOADABLE
}  // namespace rlab::sim::detail

// Differs: a plain load; CUDA's __ldg reads through the read-only cache.
template <class T>
requires ::rlab::sim::detail::kLoadable<T> T __ldg(const T* p) {
  return *p;
}

// Differs: the simulator's clock counts its readings: one thread runs at a time, so two readings
// never tie and their order is the order the schedule ran the threads in (exact, unlike a GPU's).
inline long long clock64() {
  return ++::rlab::sim::detail::g_logicalClock;
}
