// Exercise fix-the-last-warp: the last warp, right under every lane schedule.
//
// Each step of the last warp needs two waits: every lane has read before any lane overwrites
// what it read (lane 16 writes s[16], which lane 0 reads), and every lane has written before
// any lane reads the next step's values. __syncwarp() is both: it waits for the lanes of the
// warp and orders their shared-memory accesses, so `volatile` is no longer needed. (The other
// way: add s[tid + 32] into a register, then __shfl_down_sync for the last five steps.)
__device__ void warpReduce(int* s, unsigned tid) {
  int v = s[tid];
  for (unsigned offset = 32; offset > 0; offset /= 2) {
    v += s[tid + offset];
    __syncwarp();  // every lane has read
    s[tid] = v;
    __syncwarp();  // every lane has written
  }
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
