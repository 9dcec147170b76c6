// Warp vote: __ballot_sync, __any_sync and __all_sync over the whole warp, and __ballot_sync
// over a mask with lanes missing (the odd lanes only). Four columns a thread.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int v = t < n ? in[t] : 0;
  const int pred = v > 0;
  out[4 * t + 0] = int(__ballot_sync(0xffffffffu, pred));
  out[4 * t + 1] = __any_sync(0xffffffffu, pred);
  out[4 * t + 2] = __all_sync(0xffffffffu, v > -90);
  if (lane % 2 == 1) out[4 * t + 3] = int(__ballot_sync(0xaaaaaaaau, pred));
}
