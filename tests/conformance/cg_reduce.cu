// cg::reduce over tiles of 32, 16, 4 and 1 threads, with each of CUDA's functors, on int,
// unsigned, float and long long, and with a function of the learner's own (a lambda). Fourteen
// columns.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void probe(const int* in, int n, int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  const cg::thread_block_tile<4> four = cg::tiled_partition<4>(block);
  const cg::thread_block_tile<1> one = cg::tiled_partition<1>(block);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 14 * t;
  o[0] = cg::reduce(warp, v, cg::plus<int>());
  o[1] = cg::reduce(warp, v, cg::less<int>());
  o[2] = cg::reduce(warp, v, cg::greater<int>());
  o[3] = int(cg::reduce(warp, unsigned(v), cg::bit_and<unsigned>()));
  o[4] = int(cg::reduce(warp, unsigned(v), cg::bit_or<unsigned>()));
  o[5] = int(cg::reduce(warp, unsigned(v), cg::bit_xor<unsigned>()));
  o[6] = cg::reduce(half, v, cg::plus<int>());
  o[7] = cg::reduce(four, v, cg::greater<int>());
  o[8] = cg::reduce(one, v, cg::plus<int>());
  o[9] = int(cg::reduce(warp, float(v), cg::plus<float>()));
  o[10] = int(cg::reduce(four, (long long)v * 3000000000LL, cg::plus<long long>()) / 3000000000LL);
  o[11] = cg::reduce(warp, v, [](int a, int b) { return a < b ? b : a; });
  o[12] = int(cg::reduce(half, unsigned(v), cg::less<unsigned>()));
  o[13] = cg::reduce(four, v, cg::bit_xor<int>());
}
