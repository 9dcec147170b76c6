// CUDA's atomics for the simulator (included by shim.hpp): each overload is one CUDA 13
// declares (device_atomic_functions.h, sm_20/32/60_atomic_functions.h, sm_70_rt.h, sm_90_rt.h),
// with its _block and _system forms where CUDA has them, and only those: a call CUDA refuses,
// such as atomicMax on a float or atomicAdd on a long long, does not compile here either.
// Not offered: the atomics on __half and __nv_bfloat16, whose types the simulator does not have.
// Differs: plain read-modify-writes (one thread runs at a time), in the order the schedule runs
// the threads; _block and _system are the same as the plain form.
#pragma once

// One atomic with its _block and _system forms.
#define RLAB_ATOMIC(name, T, expression)                                                      \
  inline T name(T* address, T value) {                                                        \
    return ::rlab::sim::detail::readModifyWrite<T>(address, value,                            \
                                                   [](T a, T b) -> T { return expression; }); \
  }                                                                                           \
  inline T name##_block(T* address, T value) {                                                \
    return name(address, value);                                                              \
  }                                                                                           \
  inline T name##_system(T* address, T value) {                                               \
    return name(address, value);                                                              \
  }

// The GPU's integer arithmetic wraps around; in C++ signed overflow would be undefined.
#define RLAB_WRAPPING(T, op) static_cast<T>(static_cast<unsigned>(a) op static_cast<unsigned>(b))

RLAB_ATOMIC(atomicAdd, int, RLAB_WRAPPING(int, +))
RLAB_ATOMIC(atomicAdd, unsigned, a + b)
RLAB_ATOMIC(atomicAdd, unsigned long long, a + b)
RLAB_ATOMIC(atomicAdd, float, a + b)
RLAB_ATOMIC(atomicAdd, double, a + b)
RLAB_ATOMIC(atomicAdd, float2, (float2{a.x + b.x, a.y + b.y}))
RLAB_ATOMIC(atomicAdd, float4, (float4{a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}))
RLAB_ATOMIC(atomicSub, int, RLAB_WRAPPING(int, -))
RLAB_ATOMIC(atomicSub, unsigned, a - b)
RLAB_ATOMIC(atomicExch, int, ((void)a, b))
RLAB_ATOMIC(atomicExch, unsigned, ((void)a, b))
RLAB_ATOMIC(atomicExch, unsigned long long, ((void)a, b))
RLAB_ATOMIC(atomicExch, float, ((void)a, b))
RLAB_ATOMIC(atomicMax, int, a < b ? b : a)
RLAB_ATOMIC(atomicMax, unsigned, a < b ? b : a)
RLAB_ATOMIC(atomicMax, long long, a < b ? b : a)
RLAB_ATOMIC(atomicMax, unsigned long long, a < b ? b : a)
RLAB_ATOMIC(atomicMin, int, b < a ? b : a)
RLAB_ATOMIC(atomicMin, unsigned, b < a ? b : a)
RLAB_ATOMIC(atomicMin, long long, b < a ? b : a)
RLAB_ATOMIC(atomicMin, unsigned long long, b < a ? b : a)
// atomicInc counts up to `value` and starts again at 0; atomicDec counts down from `value`.
RLAB_ATOMIC(atomicInc, unsigned, a >= b ? 0u : a + 1)
RLAB_ATOMIC(atomicDec, unsigned, (a == 0 || a > b) ? b : a - 1)
RLAB_ATOMIC(atomicAnd, int, a& b)
RLAB_ATOMIC(atomicAnd, unsigned, a& b)
RLAB_ATOMIC(atomicAnd, long long, a& b)
RLAB_ATOMIC(atomicAnd, unsigned long long, a& b)
RLAB_ATOMIC(atomicOr, int, a | b)
RLAB_ATOMIC(atomicOr, unsigned, a | b)
RLAB_ATOMIC(atomicOr, long long, a | b)
RLAB_ATOMIC(atomicOr, unsigned long long, a | b)
RLAB_ATOMIC(atomicXor, int, a ^ b)
RLAB_ATOMIC(atomicXor, unsigned, a ^ b)
RLAB_ATOMIC(atomicXor, long long, a ^ b)
RLAB_ATOMIC(atomicXor, unsigned long long, a ^ b)
#undef RLAB_WRAPPING
#undef RLAB_ATOMIC

#define RLAB_ATOMIC_CAS(T)                                               \
  inline T atomicCAS(T* address, T compare, T value) {                   \
    return ::rlab::sim::detail::compareAndSwap(address, compare, value); \
  }                                                                      \
  inline T atomicCAS_block(T* address, T compare, T value) {             \
    return atomicCAS(address, compare, value);                           \
  }                                                                      \
  inline T atomicCAS_system(T* address, T compare, T value) {            \
    return atomicCAS(address, compare, value);                           \
  }
RLAB_ATOMIC_CAS(int)
RLAB_ATOMIC_CAS(unsigned)
RLAB_ATOMIC_CAS(unsigned long long)
#undef RLAB_ATOMIC_CAS
// sm_70's 16-bit compare-and-swap, which CUDA has in the plain form only.
inline unsigned short atomicCAS(unsigned short* address, unsigned short compare,
                                unsigned short value) {
  return ::rlab::sim::detail::compareAndSwap(address, compare, value);
}

// sm_90's 16-byte atomicCAS and atomicExch: any trivially copyable type of 16 bytes aligned to
// 16, compared byte for byte.
template <class T>
concept RlabSixteenByteAtomic = sizeof(T) == 16 &&
                                alignof(T) >= 16 && std::is_trivially_copyable_v<T>;
template <RlabSixteenByteAtomic T>
T atomicCAS(T* address, T compare, T value) {
  const ::rlab::sim::detail::AtomicSpan span(address, 16);
  const T old = *address;
  uint64_t a[2], b[2];
  std::memcpy(a, &old, 16);
  std::memcpy(b, &compare, 16);
  if (a[0] == b[0] && a[1] == b[1]) *address = value;
  return old;
}
template <RlabSixteenByteAtomic T>
T atomicExch(T* address, T value) {
  const ::rlab::sim::detail::AtomicSpan span(address, 16);
  const T old = *address;
  *address = value;
  return old;
}
template <RlabSixteenByteAtomic T>
T atomicCAS_block(T* address, T compare, T value) {
  return atomicCAS(address, compare, value);
}
template <RlabSixteenByteAtomic T>
T atomicCAS_system(T* address, T compare, T value) {
  return atomicCAS(address, compare, value);
}
template <RlabSixteenByteAtomic T>
T atomicExch_block(T* address, T value) {
  return atomicExch(address, value);
}
template <RlabSixteenByteAtomic T>
T atomicExch_system(T* address, T value) {
  return atomicExch(address, value);
}
