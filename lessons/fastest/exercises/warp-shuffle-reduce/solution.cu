// Exercise warp-shuffle-reduce: a warp sums its 32 elements in registers.
//
// Each step adds the value `offset` lanes down: after 16, 8, 4, 2, 1 lane 0 holds the sum of
// all 32 (the other lanes hold partial sums nobody needs). Lanes past n take part with 0.
__global__ void reduce(const int* in, long long n, int* result) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(result, v);
}
