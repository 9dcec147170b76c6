// Exercise shared-butterfly: every thread of a block ends with the block's total.
//
// The host launches one thread per element, blocks of 1 to 1024 threads (a power of two).
// Thread i < n writes the total of its block's elements to out[i]; threads past n count as 0.
__global__ void allReduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  // TODO: the butterfly: at step b (blockDim.x / 2 down to 1) thread tid combines s[tid] and
  // s[tid ^ b].
  if (i < n) out[i] = s[tid];
}
