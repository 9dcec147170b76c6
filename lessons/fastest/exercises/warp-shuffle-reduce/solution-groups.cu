// Exercise warp-shuffle-reduce, with cooperative groups: cg::reduce sums the warp's tile in
// registers (the shuffles, or one __reduce_add_sync on a GPU that has it), and the tile's rank
// 0 brings the sum to *result: one atomic a warp.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce(const int* in, long long n, int* result) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const long long i = cg::this_grid().thread_rank();
  const int total = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(result, total);
}
