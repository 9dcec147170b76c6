// Exercise tree-in-shared: move the tree into shared memory.
//
// Each block reduces blockDim.x elements (threads past n count as 0) and writes its total to
// out[blockIdx.x]; the host launches again over the block totals until one is left.
// `in` is read-only: the tree cannot work in place in global memory as the shared lesson's
// treeInGlobal does.
__global__ void reduce(const int* in, long long n, int* out) {
  const unsigned tid = threadIdx.x;
  const long long i = blockIdx.x * (long long)blockDim.x + tid;
  // TODO: load this block's elements into a __shared__ array (one read of global memory per
  // element), reduce it there, and write the total.
}
