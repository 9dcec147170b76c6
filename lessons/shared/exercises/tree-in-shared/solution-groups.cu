// Exercise tree-in-shared, with cooperative groups: the shared-memory tree with the block's
// sync between levels, down to one warp; the last 32 partial sums then go through the warp's
// tile with cg::reduce, which needs no barrier: the tile's lanes are its mask.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const unsigned tid = block.thread_rank();
  const long long i = cg::this_grid().thread_rank();
  s[tid] = i < n ? in[i] : 0;
  block.sync();
  for (unsigned stride = block.size() / 2; stride >= 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    block.sync();
  }
  if (warp.meta_group_rank() == 0) {
    const int total = cg::reduce(warp, tid < block.size() ? s[tid] : 0, cg::plus<int>());
    if (warp.thread_rank() == 0) out[block.group_index().x] = total;
  }
}
