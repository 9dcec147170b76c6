// Cooperative groups' thread block: its rank, size and coordinates, and its sync as the block's
// barrier (a value passed round the block through shared memory). Nine columns.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void probe(const int* in, int n, int* out) {
  __shared__ int s[1024];
  cg::thread_block block = cg::this_thread_block();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 9 * t;
  o[0] = int(block.thread_rank());
  o[1] = int(block.size());
  o[2] = int(block.num_threads());
  o[3] = int(block.group_index().x);
  o[4] = int(block.thread_index().x);
  o[5] = int(block.group_dim().x) + 10000 * int(block.dim_threads().x);
  s[block.thread_rank()] = v;
  block.sync();
  o[6] = s[(block.thread_rank() + 1) % block.size()];
  cg::sync(block);
  o[7] = int(cg::thread_rank(block));
  o[8] = int(cg::group_size(block));
}
