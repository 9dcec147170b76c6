// Exercise largest-element: the maximum, one atomic per element.
//
// The host sets *result to the smallest int (-2147483648), then launches one thread per
// element: ceil(n / blockDim.x) blocks.
__global__ void reduce(const int* in, long long n, int* result) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  // TODO: leave the largest element of in[0..n-1] in *result.
}
