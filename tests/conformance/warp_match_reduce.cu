// Warp match and reduce: __match_any_sync, __match_all_sync, and each __reduce_*_sync over the
// whole warp, then __reduce_min_sync over the warp's first 20 lanes only. Twelve columns.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int v = t < n ? in[t] : 0;
  int* o = out + 12 * t;
  const unsigned full = 0xffffffffu;
  int pred = -1;
  o[0] = int(__match_any_sync(full, v & 3));
  o[1] = int(__match_all_sync(full, v & 3, &pred));
  o[2] = pred;
  o[3] = int(__match_all_sync(full, double(blockIdx.x), &pred));
  o[4] = pred;
  o[5] = __reduce_add_sync(full, v);
  o[6] = __reduce_min_sync(full, v);
  o[7] = int(__reduce_max_sync(full, unsigned(v)));  // unsigned: -1 is the largest
  o[8] = int(__reduce_and_sync(full, unsigned(v)));
  o[9] = int(__reduce_or_sync(full, unsigned(v)));
  o[10] = int(__reduce_xor_sync(full, unsigned(v)));
  if (lane < 20) o[11] = __reduce_max_sync(0x000fffffu, v);
}
