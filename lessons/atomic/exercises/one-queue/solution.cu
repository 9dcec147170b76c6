// Exercise one-queue: every thread brings its element to one address.
//
// atomicAdd reads, adds and writes as one step, so two threads never add to the same old
// value. The guard keeps the threads of the last block that have no element away from in[].
__global__ void reduce(const int* in, long long n, int* result) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(result, in[i]);
}
