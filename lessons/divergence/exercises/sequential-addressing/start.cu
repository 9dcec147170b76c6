// Exercise sequential-addressing: the tree without divergence.
//
// Each block loads blockDim.x elements into shared memory, reduces them, and writes its total
// to out[blockIdx.x]; the host launches again over the block totals until one is left.
//
// The divergence lesson's interleaved tree keeps a few working threads in every warp:
//     for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
//       if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
//       __syncthreads();
//     }
// Write the tree with sequential addressing instead.
__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  // TODO: the tree, from stride blockDim.x / 2 down to 1.
  if (tid == 0) out[blockIdx.x] = s[0];
}
