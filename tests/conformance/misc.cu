// The rest a reduction learner reaches for: min and max on mixed types, umin and llmax, bit
// casts, the fences and __syncwarp over part of a warp, __nanosleep, clock64 counting up, and a
// __constant__ table. Nine columns.
__constant__ int kTable[4] = {5, 7, 11, 13};

__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 9 * t;
  const long long before = clock64();
  o[0] = max(v, 3) + min(v, -3);
  o[1] = int(max(unsigned(v), 5u));
  o[2] = int(umin(unsigned(v), 77u)) + int(llmax((long long)v, 9LL));
  o[3] = int(min(float(v), 2.5f) * 2.0f);
  o[4] = __float_as_int(__int_as_float(v));
  o[5] = int(__double_as_longlong(__longlong_as_double((long long)v)));
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  if (threadIdx.x % 32 < 16) __syncwarp(0x0000ffffu);
  __nanosleep(10);
  o[6] = kTable[(v & 0x7fffffff) % 4];
  o[7] = clock64() > before;
  o[8] = int(__float_as_uint(1.0f) >> 23);
}
