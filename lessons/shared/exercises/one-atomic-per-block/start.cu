// Exercise one-atomic-per-block: many blocks, one launch, one atomic per block.
//
// The host sets *result to 0 and launches one thread per element (ceil(n / blockDim.x)
// blocks). No second launch: each block reduces its elements, then adds its total to *result.
__global__ void reduce(const int* in, long long n, int* result) {
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  // TODO: the block's tree in shared memory, then one atomic per block.
}
