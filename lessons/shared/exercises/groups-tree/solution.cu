// Exercise groups-tree: the block's tree, written with cooperative groups.
//
// The block is a group, and so is each warp-sized tile of it: cg::reduce sums a tile's values
// in registers and hands every lane the sum, with the tile's own lanes as the mask. Each tile's
// rank 0 leaves its total in shared memory, the block's sync makes them visible, and the first
// tile sums the tiles' totals (a block of 1024 has 32 of them).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int tileTotals[32];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const long long i = (long long)block.group_index().x * block.size() + block.thread_rank();
  const int total = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
  if (tile.thread_rank() == 0) tileTotals[tile.meta_group_rank()] = total;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const int mine =
        tile.thread_rank() < tile.meta_group_size() ? tileTotals[tile.thread_rank()] : 0;
    const int blockTotal = cg::reduce(tile, mine, cg::plus<int>());
    if (tile.thread_rank() == 0) out[block.group_index().x] = blockTotal;
  }
}
