// Cooperative groups' tiles of 1, 2, 4, 8, 16 and 32 threads of a block: rank, meta-group rank
// and size, every shuffle, vote and match, each over the tile's lanes only; and a tile of 4 cut
// from a tile of 32. Twelve columns for each tile size, then two: 74 a thread.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <unsigned Size>
__device__ void tileProbe(const cg::thread_block& block, int v, int* o) {
  const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  o[0] = int(tile.thread_rank());
  o[1] = int(tile.meta_group_rank());
  o[2] = int(tile.meta_group_size());
  o[3] = int(tile.size()) + 100 * int(tile.num_threads());
  o[4] = tile.shfl(v, 0);
  o[5] = tile.shfl_down(v, 1);
  o[6] = tile.shfl_up(v, 1);
  o[7] = tile.shfl_xor(v, Size > 1 ? 1 : 0);
  o[8] = int(tile.ballot(v > 0));
  o[9] = tile.any(v > 50) + 10 * tile.all(v > -90);
  o[10] = int(tile.match_any(v & 1));
  int pred = -1;
  o[11] = int(tile.match_all(int(blockIdx.x), pred)) + 1000 * pred;
  tile.sync();
}

__global__ void probe(const int* in, int n, int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 74 * t;
  tileProbe<1>(block, v, o + 0);
  tileProbe<2>(block, v, o + 12);
  tileProbe<4>(block, v, o + 24);
  tileProbe<8>(block, v, o + 36);
  tileProbe<16>(block, v, o + 48);
  tileProbe<32>(block, v, o + 60);
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<4> quarter = cg::tiled_partition<4>(warp);
  o[72] = int(quarter.meta_group_rank()) + 100 * int(quarter.meta_group_size());
  o[73] = quarter.shfl(v, 3);
}
