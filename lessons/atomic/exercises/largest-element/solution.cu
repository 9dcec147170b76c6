// Exercise largest-element: the maximum, one atomic per element.
//
// atomicMax compares and stores as one step: a thread with a larger value can never be
// overwritten by one that read *result before it.
__global__ void reduce(const int* in, long long n, int* result) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, in[i]);
}
