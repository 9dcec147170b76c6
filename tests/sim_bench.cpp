// Simulator throughput: a 2^20-element shared-memory tree reduction in 256-thread blocks, the
// kernel the design's speed target names. Prints figures; asserts nothing about time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "kernels/sim/shim.hpp"

__global__ void blockTreeSum(const int* in, long long* out) {
  __shared__ int s[256];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<int> in(size_t(blocks) * threads, 1);
  std::vector<long long> out(blocks);
  rlab::sim::launch(1, threads, {}, [&] { blockTreeSum(in.data(), out.data()); });  // warm-up
  const auto start = std::chrono::steady_clock::now();
  const auto stats =
      rlab::sim::launch(blocks, threads, {}, [&] { blockTreeSum(in.data(), out.data()); });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long total = std::accumulate(out.begin(), out.end(), 0LL);
  std::printf(
      "simulator: %d elements, %d-thread blocks, lockstep: %.3f s, %.2f million elements/s, "
      "%.1f ns per fiber switch (result %s)\n",
      n, threads, seconds, n / seconds / 1e6, seconds * 1e9 / double(stats.switches),
      total == (long long)blocks * threads ? "right" : "WRONG");
  return total == (long long)blocks * threads ? 0 : 1;
}
