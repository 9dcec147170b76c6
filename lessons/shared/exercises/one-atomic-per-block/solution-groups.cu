// Exercise one-atomic-per-block, with cooperative groups: each warp's tile sums its 32 elements
// with cg::reduce, the tiles' totals meet in shared memory behind the block's sync, and the
// first tile sums those; its rank 0 brings the block's total to *result, one atomic a block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* result) {
  __shared__ int tileTotals[32];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const long long i = cg::this_grid().thread_rank();
  const int total = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
  if (tile.thread_rank() == 0) tileTotals[tile.meta_group_rank()] = total;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const int mine =
        tile.thread_rank() < tile.meta_group_size() ? tileTotals[tile.thread_rank()] : 0;
    const int blockTotal = cg::reduce(tile, mine, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(result, blockTotal);
  }
}
