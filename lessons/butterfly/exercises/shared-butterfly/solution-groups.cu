// Exercise shared-butterfly, with cooperative groups: the butterfly in shared memory, its two
// barriers a step the block's sync: one after every thread has read its partner, one after
// every thread has written.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void allReduce(const int* in, long long n, int* out) {
  __shared__ int s[1024];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned tid = block.thread_rank();
  const long long i = cg::this_grid().thread_rank();
  s[tid] = i < n ? in[i] : 0;
  block.sync();
  for (unsigned b = block.size() / 2; b > 0; b /= 2) {
    const int mine = s[tid] + s[tid ^ b];
    block.sync();
    s[tid] = mine;
    block.sync();
  }
  if (i < n) out[i] = s[tid];
}
