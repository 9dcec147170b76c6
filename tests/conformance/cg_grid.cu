// Cooperative groups' grid, without a cooperative launch: its ranks and sizes, and is_valid()
// false (no grid-wide sync in such a launch). Six columns.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void probe(const int*, int, int* out) {
  const cg::grid_group grid = cg::this_grid();
  const int t = int(grid.thread_rank());
  int* o = out + 6 * t;
  o[0] = t;
  o[1] = int(grid.size());
  o[2] = int(grid.is_valid());
  o[3] = int(grid.block_rank());
  o[4] = int(grid.num_blocks());
  o[5] = int(grid.dim_blocks().x) + 10000 * int(grid.block_index().x);
}
