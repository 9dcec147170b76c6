// Exercise shuffle-butterfly, with cooperative groups: cg::reduce over the warp's tile gives
// every lane the total (an all-reduce), in registers, with the tile's lanes as its mask.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void allReduce(const int* in, long long n, int* out) {
  const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const long long i = cg::this_grid().thread_rank();
  const int total = cg::reduce(tile, i < n ? in[i] : 0, cg::plus<int>());
  if (i < n) out[i] = total;
}
