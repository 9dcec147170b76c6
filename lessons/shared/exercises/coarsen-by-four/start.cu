// Exercise coarsen-by-four: each thread first adds four elements on its own.
//
// The host sets *result to 0 and launches a quarter of the threads: ceil(n / (4 * blockDim.x))
// blocks. Block b covers elements b * 4 * blockDim.x up to (but not including)
// (b + 1) * 4 * blockDim.x.
__global__ void reduce(const int* in, long long n, int* result) {
  const unsigned tid = threadIdx.x;
  // TODO: four elements per thread, in registers; then the block's tree in shared memory, and
  // one atomic per block.
}
