// Exercise shuffle-butterfly: every lane of a warp ends with the warp's total.
//
// The host launches one thread per element, in blocks of 32 to 1024 threads (whole warps).
// Thread i < n writes the total of its warp's elements to out[i]; threads past n count as 0.
__global__ void allReduce(const int* in, long long n, int* out) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  // TODO: a butterfly over the warp with __shfl_xor_sync, registers only.
  if (i < n) out[i] = v;
}
