// Exercise fix-the-last-warp: Harris's kernel 5, as it is still copied.
//
// Each block reduces blockDim.x elements (threads past n count as 0; blocks of 64 threads or
// more) and writes its total to out[blockIdx.x]; the host launches again over the block totals
// until one is left. From stride 32 on, warp 0 finishes alone, with no barrier: this code
// counts on its 32 lanes running in step, as every warp did before Volta.
// TODO: make the last warp right however its lanes are scheduled.
__device__ void warpReduce(volatile int* s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) warpReduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}
