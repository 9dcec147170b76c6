// CUDA's warp functions for the simulator (included by shim.hpp): shuffles, vote, match and
// reduce, each overload one CUDA 13 declares (sm_30_intrinsics.h, sm_70_rt.h, sm_80_rt.h). Each
// is a warp operation of the runtime (kernels/sim/warp_ops.cpp): the lanes its mask names wait
// for each other, and a lane named in the mask that has exited or waits elsewhere stops the
// launch with the line.
// A shuffle that reads a lane that has exited, that its mask leaves out or that the block does
// not have stops the launch too (the value is undefined in CUDA); a source past the width gives
// the lane its own value, as CUDA defines. Differs: the shuffles of __half and __half2 are not
// offered (no such types here).
#pragma once

namespace rlab::sim::detail {
inline uint64_t warpBits(WarpOp op, unsigned mask, uint64_t bits, int arg, const char* file,
                         int line) {
  return warpCollective(op, mask, bits, arg, 32, file, line);
}
}  // namespace rlab::sim::detail

// ---- Shuffles: int, unsigned, long, unsigned long, long long, unsigned long long, float,
// double ----------------------------------------------------------------------------------------

#define RLAB_SHUFFLES(T)                                                                         \
  inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,                  \
                       const char* file = __builtin_FILE(), int line = __builtin_LINE()) {       \
    return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::Shfl, mask, var, srcLane, \
                                          width, file, line);                                    \
  }                                                                                              \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,            \
                          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {    \
    return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflUp, mask, var,        \
                                          static_cast<int>(delta), width, file, line);           \
  }                                                                                              \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,          \
                            const char* file = __builtin_FILE(), int line = __builtin_LINE()) {  \
    return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflDown, mask, var,      \
                                          static_cast<int>(delta), width, file, line);           \
  }                                                                                              \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,             \
                           const char* file = __builtin_FILE(), int line = __builtin_LINE()) {   \
    return ::rlab::sim::detail::warpValue(::rlab::sim::detail::WarpOp::ShflXor, mask, var,       \
                                          laneMask, width, file, line);                          \
  }
RLAB_SHUFFLES(int)
RLAB_SHUFFLES(unsigned)
RLAB_SHUFFLES(long)
RLAB_SHUFFLES(unsigned long)
RLAB_SHUFFLES(long long)
RLAB_SHUFFLES(unsigned long long)
RLAB_SHUFFLES(float)
RLAB_SHUFFLES(double)
#undef RLAB_SHUFFLES

// ---- Vote ---------------------------------------------------------------------------------------

inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
  return static_cast<unsigned>(::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::Ballot,
                                                             mask, predicate != 0, 0, file, line));
}
inline int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::Any, mask,
                                                        predicate != 0, 0, file, line));
}
inline int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::All, mask,
                                                        predicate != 0, 0, file, line));
}
// The lanes of the warp that are active here. Differs: the lanes that reach this line before
// their next synchronisation (a GPU may report fewer: those that happen to run together); it
// waits for them, so it is a yield point.
inline unsigned __activemask(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return static_cast<unsigned>(::rlab::sim::detail::warpBits(
      ::rlab::sim::detail::WarpOp::ActiveMask, 0xffffffffu, 0, 0, file, line));
}

// ---- Match: the lanes of the mask whose value equals mine (any), or all of them if every lane
// brought the same value (all) -------------------------------------------------------------------

#define RLAB_MATCH(T)                                                                           \
  inline unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(), \
                                   int line = __builtin_LINE()) {                               \
    return static_cast<unsigned>(                                                               \
        ::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::MatchAny, mask,              \
                                      ::rlab::sim::detail::toBits(value), 0, file, line));      \
  }                                                                                             \
  inline unsigned __match_all_sync(unsigned mask, T value, int* pred,                           \
                                   const char* file = __builtin_FILE(),                         \
                                   int line = __builtin_LINE()) {                               \
    const unsigned all = static_cast<unsigned>(                                                 \
        ::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::MatchAll, mask,              \
                                      ::rlab::sim::detail::toBits(value), 0, file, line));      \
    *pred = all != 0;                                                                           \
    return all;                                                                                 \
  }
RLAB_MATCH(unsigned)
RLAB_MATCH(int)
RLAB_MATCH(unsigned long)
RLAB_MATCH(long)
RLAB_MATCH(unsigned long long)
RLAB_MATCH(long long)
RLAB_MATCH(float)
RLAB_MATCH(double)
#undef RLAB_MATCH

// ---- Reduce (sm_80): add, min and max of int and unsigned; and, or, xor of unsigned
// --------------

#define RLAB_REDUCE(name, op, T, isSigned)                                                   \
  inline T name(unsigned mask, T value, const char* file = __builtin_FILE(),                 \
                int line = __builtin_LINE()) {                                               \
    return static_cast<T>(static_cast<uint32_t>(                                             \
        ::rlab::sim::detail::warpBits(::rlab::sim::detail::WarpOp::op, mask,                 \
                                      static_cast<uint32_t>(value), isSigned, file, line))); \
  }
RLAB_REDUCE(__reduce_add_sync, ReduceAdd, unsigned, 0)
RLAB_REDUCE(__reduce_add_sync, ReduceAdd, int, 1)
RLAB_REDUCE(__reduce_min_sync, ReduceMin, unsigned, 0)
RLAB_REDUCE(__reduce_min_sync, ReduceMin, int, 1)
RLAB_REDUCE(__reduce_max_sync, ReduceMax, unsigned, 0)
RLAB_REDUCE(__reduce_max_sync, ReduceMax, int, 1)
RLAB_REDUCE(__reduce_and_sync, ReduceAnd, unsigned, 0)
RLAB_REDUCE(__reduce_or_sync, ReduceOr, unsigned, 0)
RLAB_REDUCE(__reduce_xor_sync, ReduceXor, unsigned, 0)
#undef RLAB_REDUCE
