// Exercise shared-butterfly: every thread of a block ends with the block's total.
//
// Partners tid and tid ^ b both compute the pair's total. Two barriers a step: every thread
// reads its partner's value before anyone overwrites it, and every thread has written before
// the next step reads.
__global__ void allReduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned b = blockDim.x / 2; b > 0; b /= 2) {
    const int mine = s[tid] + s[tid ^ b];
    __syncthreads();
    s[tid] = mine;
    __syncthreads();
  }
  if (i < n) out[i] = s[tid];
}
