// Exercise tree-in-shared: move the tree into shared memory.
//
// One read of global memory per element; every level after that reads and writes shared
// memory, on the chip. The first barrier makes the whole block's load visible before the
// first level reads a neighbour's element.
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
