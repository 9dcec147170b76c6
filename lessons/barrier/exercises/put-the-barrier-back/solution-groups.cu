// Exercise put-the-barrier-back, with cooperative groups: block.sync() is the block's barrier,
// __syncthreads() by its group's name, reached by every thread of the block at each level.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void treeReduce(int* a, int n) {
  const cg::thread_block block = cg::this_thread_block();
  const int tid = int(block.thread_rank());
  for (int stride = 1; stride < n; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < n) a[tid] += a[tid + stride];
    block.sync();
  }
}
