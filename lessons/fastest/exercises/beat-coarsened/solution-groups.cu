// Exercise beat-coarsened, with cooperative groups: the grid sweeps the array in int4 vectors
// (its size the stride), block 0 adds the last n % 4 elements, each warp's tile sums with
// cg::reduce, the tiles' totals meet in shared memory, and one atomic a block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* result) {
  __shared__ int tileTotals[32];
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const long long vectors = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int sum = 0;
  for (long long v = grid.thread_rank(); v < vectors; v += grid.size()) {
    const int4 x = in4[v];
    sum += x.x + x.y + x.z + x.w;
  }
  if (grid.block_rank() == 0 && block.thread_rank() < n % 4)
    sum += in[vectors * 4 + block.thread_rank()];
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
