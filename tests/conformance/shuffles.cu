// The shuffles over the whole warp and over segments of 8 lanes, on int, float, long long and
// double. Eight columns.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  const unsigned full = 0xffffffffu;
  int* o = out + 8 * t;
  o[0] = __shfl_sync(full, v, 5);
  o[1] = __shfl_up_sync(full, v, 3);
  o[2] = __shfl_down_sync(full, v, 3);
  o[3] = __shfl_xor_sync(full, v, 9);
  o[4] = __shfl_sync(full, v, 2, 8);
  o[5] = int(__shfl_down_sync(full, float(v) * 0.5f, 1, 8) * 2.0f);
  o[6] = int(__shfl_up_sync(full, (long long)v << 20, 2, 8) >> 20);
  o[7] = int(__shfl_xor_sync(full, double(v), 4, 8));
}
