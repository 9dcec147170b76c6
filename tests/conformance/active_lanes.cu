// The lanes that are active together: __activemask() and cooperative groups' coalesced_threads()
// in a branch that a third of the lanes take: the mask, the group's size and each lane's rank,
// the value of its first lane, and the group's sum. Five columns.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  if (v % 3 == 0) {
    out[5 * t + 0] = int(__activemask());
    cg::coalesced_group g = cg::coalesced_threads();
    out[5 * t + 1] = int(g.size());
    out[5 * t + 2] = int(g.thread_rank());
    out[5 * t + 3] = g.shfl(v, 0);
    out[5 * t + 4] = cg::reduce(g, v, cg::plus<int>());
  }
}
