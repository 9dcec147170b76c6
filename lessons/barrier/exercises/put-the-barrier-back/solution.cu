// Exercise put-the-barrier-back: a tree in one block, in global memory.
//
// The barrier ends each level: no thread reads a[tid + stride] at the next level before the
// thread that writes it has finished this one. It stands outside the `if`, where every thread
// of the block reaches it, idle or not.
__global__ void treeReduce(int* a, int n) {
  const int tid = threadIdx.x;
  for (int stride = 1; stride < n; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < n) a[tid] += a[tid + stride];
    __syncthreads();
  }
}
