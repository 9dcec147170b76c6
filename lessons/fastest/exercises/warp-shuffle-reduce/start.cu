// Exercise warp-shuffle-reduce: a warp sums its 32 elements in registers.
//
// The host sets *result to 0 and launches one thread per element, in blocks of whole warps
// (32 to 1024 threads). One atomic per warp, no shared memory.
__global__ void reduce(const int* in, long long n, int* result) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  // TODO: the warp's total in lane 0, with __shfl_down_sync; then lane 0 adds it to *result.
}
