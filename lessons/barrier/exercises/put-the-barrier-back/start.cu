// Exercise put-the-barrier-back: a tree in one block, in global memory.
//
// At level `stride` (1, 2, 4, ...) thread tid, a multiple of 2 * stride, adds its neighbour
// `stride` places on. The host launches one block of at least n threads (a power of two);
// a[0] ends with the total.
//
// This is the barrier lesson's tree with its barrier taken out: threads run ahead to the next
// level and read a neighbour that has not finished the level below. Put the barrier back
// where it belongs.
__global__ void treeReduce(int* a, int n) {
  const int tid = threadIdx.x;
  for (int stride = 1; stride < n; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < n) a[tid] += a[tid + stride];
    // TODO
  }
}
