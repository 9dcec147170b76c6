// Exercise fix-the-last-warp, with cooperative groups: the tree in shared memory with the
// block's sync down to 64 partial sums; then the first warp's tile adds s[tid] and s[tid + 32]
// in registers and cg::reduce does the last five steps. The tile's lanes are its mask, so no
// lane can run ahead of the others it reads from, and no shared memory is read by the last warp
// after another lane wrote it.
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
  for (unsigned stride = block.size() / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    block.sync();
  }
  if (warp.meta_group_rank() == 0) {
    const int total = cg::reduce(warp, s[tid] + s[tid + 32], cg::plus<int>());
    if (warp.thread_rank() == 0) out[block.group_index().x] = total;
  }
}
