// Exercise groups-tree: write the block's tree with cooperative groups.
//
// The block and its warp-sized tiles are groups: cg::reduce(tile, v, cg::plus<int>()) sums the
// tile's values and gives every lane the sum. Leave each tile's total in shared memory, let the
// block's sync make them visible, and sum them in the first tile. Thread 0 writes the block's
// total to out[blockIdx.x].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* out) {
  __shared__ int tileTotals[32];
  const cg::thread_block block = cg::this_thread_block();
  // TODO: cut the block into tiles of 32 (cg::tiled_partition<32>), sum each tile with
  // cg::reduce, leave the tiles' totals in tileTotals, sync the block, and sum those in the
  // first tile.
  if (block.thread_rank() == 0) out[block.group_index().x] = 0;
}
