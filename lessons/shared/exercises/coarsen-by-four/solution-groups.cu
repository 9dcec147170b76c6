// Exercise coarsen-by-four, with cooperative groups: four elements a thread in a register
// (blockDim.x apart, so a warp's loads stay contiguous), then the block's sum through its
// tiles: cg::reduce in each warp, the warps' totals in shared memory, one atomic a block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* result) {
  __shared__ int tileTotals[32];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const long long base = 4LL * block.group_index().x * block.size() + block.thread_rank();
  int sum = 0;
  for (int k = 0; k < 4; ++k) {
    const long long i = base + (long long)k * block.size();
    if (i < n) sum += in[i];
  }
  sum = cg::reduce(tile, sum, cg::plus<int>());
  if (tile.thread_rank() == 0) tileTotals[tile.meta_group_rank()] = sum;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const int mine =
        tile.thread_rank() < tile.meta_group_size() ? tileTotals[tile.thread_rank()] : 0;
    const int blockTotal = cg::reduce(tile, mine, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(result, blockTotal);
  }
}
