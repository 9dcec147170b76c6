// Dynamic shared memory: two extern __shared__ names for one buffer of two ints a thread (the
// launch gives 8 bytes a thread), written and read back across the block. Two columns.
__global__ void probe(const int* in, int n, int* out) {
  extern __shared__ int s[];
  extern __shared__ int alsoS[];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* first = s;
  int* second = s + blockDim.x;
  first[threadIdx.x] = v;
  second[threadIdx.x] = 2 * v;
  __syncthreads();
  out[2 * t + 0] = first[blockDim.x - 1 - threadIdx.x] + second[(threadIdx.x + 1) % blockDim.x];
  out[2 * t + 1] = alsoS == s;
}
