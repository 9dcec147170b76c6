// The block votes: __syncthreads_count, __syncthreads_and and __syncthreads_or, each a barrier
// of the whole block. Three columns.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  out[3 * t + 0] = __syncthreads_count(v > 0);
  out[3 * t + 1] = __syncthreads_and(v > -95);
  out[3 * t + 2] = __syncthreads_or(v > 97);
}
