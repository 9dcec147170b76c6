// Exercise sequential-addressing: the tree without divergence.
//
// At each level the first `stride` threads work, thread tid adding the element `stride` places
// on: the working threads are contiguous, so whole warps work or idle together (no divergence
// until fewer than 32 work), and a warp reads 32 consecutive words (no bank conflicts).
__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
