// Tiles made at run time: tiled_partition(block, 8), a thread_group, with its rank, size and
// sync; and tiles of 4 cut from the coalesced lanes of a branch. Five columns.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void probe(const int* in, int n, int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 5 * t;
  const cg::thread_group eight = cg::tiled_partition(block, 8);
  o[0] = int(eight.thread_rank());
  o[1] = int(eight.size());
  eight.sync();
  if (v > 0) {
    const cg::coalesced_group positive = cg::coalesced_threads();
    const cg::coalesced_group fours = cg::tiled_partition(positive, 4);
    o[2] = int(fours.thread_rank());
    o[3] = int(fours.size());
    o[4] = int(fours.meta_group_rank());
  }
}
