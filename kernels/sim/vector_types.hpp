// CUDA's built-in vector types for host compilers (the simulator), with CUDA 13's alignment
// (vector_types.h): a 2- or 4-element type is aligned to its whole size up to 16 bytes, so that
// an int4 or float4 load is one 16-byte access, as on a GPU; a 3-element type to its element.
// The 4-element 8-byte types come in CUDA 13's _16a and _32a forms, and the old names (long4,
// double4, ...) are the 16-byte ones. nvcc has its own.
#pragma once

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// RLAB_VECTOR1..4(name, element, alignment): the type and its make_ function.
#define RLAB_VECTOR1(name, T, align) \
  struct alignas(align) name {       \
    T x;                             \
  };                                 \
  inline name make_##name(T x) {     \
    return {x};                      \
  }
#define RLAB_VECTOR2(name, T, align)  \
  struct alignas(align) name {        \
    T x, y;                           \
  };                                  \
  inline name make_##name(T x, T y) { \
    return {x, y};                    \
  }
#define RLAB_VECTOR3(name, T, align)       \
  struct alignas(align) name {             \
    T x, y, z;                             \
  };                                       \
  inline name make_##name(T x, T y, T z) { \
    return {x, y, z};                      \
  }
#define RLAB_VECTOR4(name, T, align)            \
  struct alignas(align) name {                  \
    T x, y, z, w;                               \
  };                                            \
  inline name make_##name(T x, T y, T z, T w) { \
    return {x, y, z, w};                        \
  }

// clang-format off
RLAB_VECTOR1(char1, signed char, 1)        RLAB_VECTOR1(uchar1, unsigned char, 1)
RLAB_VECTOR2(char2, signed char, 2)        RLAB_VECTOR2(uchar2, unsigned char, 2)
RLAB_VECTOR3(char3, signed char, 1)        RLAB_VECTOR3(uchar3, unsigned char, 1)
RLAB_VECTOR4(char4, signed char, 4)        RLAB_VECTOR4(uchar4, unsigned char, 4)
RLAB_VECTOR1(short1, short, 2)             RLAB_VECTOR1(ushort1, unsigned short, 2)
RLAB_VECTOR2(short2, short, 4)             RLAB_VECTOR2(ushort2, unsigned short, 4)
RLAB_VECTOR3(short3, short, 2)             RLAB_VECTOR3(ushort3, unsigned short, 2)
RLAB_VECTOR4(short4, short, 8)             RLAB_VECTOR4(ushort4, unsigned short, 8)
RLAB_VECTOR1(int1, int, 4)                 RLAB_VECTOR1(uint1, unsigned, 4)
RLAB_VECTOR2(int2, int, 8)                 RLAB_VECTOR2(uint2, unsigned, 8)
RLAB_VECTOR3(int3, int, 4)
RLAB_VECTOR4(int4, int, 16)                RLAB_VECTOR4(uint4, unsigned, 16)
RLAB_VECTOR1(long1, long, 8)               RLAB_VECTOR1(ulong1, unsigned long, 8)
RLAB_VECTOR2(long2, long, 16)              RLAB_VECTOR2(ulong2, unsigned long, 16)
RLAB_VECTOR3(long3, long, 8)               RLAB_VECTOR3(ulong3, unsigned long, 8)
RLAB_VECTOR4(long4, long, 16)              RLAB_VECTOR4(ulong4, unsigned long, 16)
RLAB_VECTOR4(long4_16a, long, 16)          RLAB_VECTOR4(ulong4_16a, unsigned long, 16)
RLAB_VECTOR4(long4_32a, long, 32)          RLAB_VECTOR4(ulong4_32a, unsigned long, 32)
RLAB_VECTOR1(longlong1, long long, 8)      RLAB_VECTOR1(ulonglong1, unsigned long long, 8)
RLAB_VECTOR2(longlong2, long long, 16)     RLAB_VECTOR2(ulonglong2, unsigned long long, 16)
RLAB_VECTOR3(longlong3, long long, 8)      RLAB_VECTOR3(ulonglong3, unsigned long long, 8)
RLAB_VECTOR4(longlong4, long long, 16)     RLAB_VECTOR4(ulonglong4, unsigned long long, 16)
RLAB_VECTOR4(longlong4_16a, long long, 16) RLAB_VECTOR4(ulonglong4_16a, unsigned long long, 16)
RLAB_VECTOR4(longlong4_32a, long long, 32) RLAB_VECTOR4(ulonglong4_32a, unsigned long long, 32)
RLAB_VECTOR1(float1, float, 4)             RLAB_VECTOR2(float2, float, 8)
RLAB_VECTOR3(float3, float, 4)             RLAB_VECTOR4(float4, float, 16)
RLAB_VECTOR1(double1, double, 8)           RLAB_VECTOR2(double2, double, 16)
RLAB_VECTOR3(double3, double, 8)           RLAB_VECTOR4(double4, double, 16)
RLAB_VECTOR4(double4_16a, double, 16)      RLAB_VECTOR4(double4_32a, double, 32)
    // clang-format on

    // uint3 is the coordinates' type above; its make_ function, as CUDA's.
    inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) {
  return {x, y, z};
}

#undef RLAB_VECTOR1
#undef RLAB_VECTOR2
#undef RLAB_VECTOR3
#undef RLAB_VECTOR4
