// Exercise sequential-addressing, with cooperative groups: the same tree, its barriers the
// block's sync. The working threads are the first `stride` ranks of the block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned tid = block.thread_rank();
  const long long i = cg::this_grid().thread_rank();
  s[tid] = i < n ? in[i] : 0;
  block.sync();
  for (unsigned stride = block.size() / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    block.sync();
  }
  if (tid == 0) out[block.group_index().x] = s[0];
}
