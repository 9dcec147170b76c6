// The race detector on kernels of each kind: a race in shared memory, in global memory, across
// blocks, between lanes of a warp, a ticket without its fence; and kernels it must not flag:
// barriers, __syncwarp, atomics, the ticket with its fence, shuffles, a byte a thread. This file
// is built with the detector's hooks (tests/CMakeLists.txt), as the lesson kernels are.
#include <doctest/doctest.h>

#include <vector>

#include "kernels/sim/runtime.hpp"
#include "kernels/sim/shim.hpp"

TEST_CASE("race detector: the lesson kernels carry its hooks in this build, or it says why not") {
  if (!rlab::sim::lessonKernelsDetectRaces())
    MESSAGE("this build runs under AddressSanitizer, whose code cannot also carry the hooks");
}

#if !defined(RLAB_TEST_RACE_HOOKS)
TEST_CASE("race detector: skipped, this file was built without the hooks") {
  MESSAGE("skipped: the race detector's tests need g++ without AddressSanitizer");
}
#else

using rlab::sim::LaunchOptions;
using rlab::sim::LaunchStats;

namespace {

// A tree in global memory, the barrier lesson's, with its barrier or without.
__global__ void treeInGlobal(int* a, int n, bool barrier) {
  const int tid = threadIdx.x;
  for (int stride = 1; stride < n; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < n) a[tid] += a[tid + stride];
    if (barrier) __syncthreads();
  }
}

__global__ void treeInShared(const int* in, int* out, bool barrier) {
  __shared__ int s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    if (barrier) __syncthreads();
  }
  if (tid == 0) out[0] = s[0];
}

__global__ void everyBlockWrites(int* out, bool atomic) {
  if (threadIdx.x != 0) return;
  if (atomic)
    atomicAdd(out, 1);
  else
    out[0] += 1;
}

// The last-block ticket: each block's total into partial[], then the last block to take a
// ticket adds them up. Without the fence nothing orders the partial sums before the reads.
__global__ void ticket(int* partial, unsigned* count, int* out, bool fence) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = int(blockIdx.x) + 1;
    if (fence) __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    out[0] = total;
  }
}

__global__ void neighbours(int* out, bool syncwarp) {
  __shared__ int s[32];
  const unsigned lane = threadIdx.x;
  s[lane] = int(lane);
  if (syncwarp) __syncwarp();
  out[lane] = s[lane ^ 1];
}

__global__ void shuffles(int* out) {
  int v = int(threadIdx.x);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0) out[0] = v;
}

__global__ void flags(bool* seen) {
  seen[threadIdx.x] = true;
}

__global__ void readsUnwritten(int* out) {
  __shared__ int s[33];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

LaunchOptions detecting() {
  LaunchOptions options;
  options.detectRaces = true;
  return options;
}

}  // namespace

TEST_CASE("race detector: a tree without its barrier races in global memory, with it none") {
  std::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
  LaunchStats off =
      rlab::sim::launch(dim3(1), dim3(8), detecting(), treeInGlobal, a.data(), 8, false);
  REQUIRE_FALSE(off.races.empty());
  const rlab::sim::Race& race = off.races.front();
  CHECK_FALSE(race.shared);
  CHECK(race.earlier.thread != race.later.thread);
  CHECK((race.earlier.write || race.later.write));
  CHECK(race.earlier.epoch == 0);
  CHECK(race.earlier.instruction != 0);
  CHECK(off.racingAccesses >= off.races.size());

  a = {3, 1, 7, 0, 4, 1, 6, 3};
  const LaunchStats on =
      rlab::sim::launch(dim3(1), dim3(8), detecting(), treeInGlobal, a.data(), 8, true);
  CHECK(on.races.empty());
  CHECK(a[0] == 25);
}

TEST_CASE("race detector: a race in shared memory names the variable and the element") {
  std::vector<int> in(64, 1), out(1);
  const LaunchStats off =
      rlab::sim::launch(dim3(1), dim3(64), detecting(), treeInShared, in.data(), out.data(), false);
  REQUIRE_FALSE(off.races.empty());
  CHECK(off.races.front().shared);
  CHECK(off.races.front().variable == "s");
  CHECK(off.races.front().offset % 4 == 0);

  const LaunchStats on =
      rlab::sim::launch(dim3(1), dim3(64), detecting(), treeInShared, in.data(), out.data(), true);
  CHECK(on.races.empty());
  CHECK(on.uninitialisedReads.empty());
  CHECK(out[0] == 64);
}

TEST_CASE("race detector: blocks that add to one address race unless they use atomics") {
  int out = 0;
  const LaunchStats plain =
      rlab::sim::launch(dim3(4), dim3(32), detecting(), everyBlockWrites, &out, false);
  REQUIRE_FALSE(plain.races.empty());
  CHECK(plain.races.front().earlier.block == 0);
  CHECK(plain.races.front().later.block == 1);
  out = 0;
  const LaunchStats atomic =
      rlab::sim::launch(dim3(4), dim3(32), detecting(), everyBlockWrites, &out, true);
  CHECK(atomic.races.empty());
  CHECK(out == 4);
}

TEST_CASE("race detector: the last-block ticket is ordered by its fence, and races without") {
  std::vector<int> partial(6);
  unsigned count = 0;
  int out = 0;
  const LaunchStats fenced =
      rlab::sim::launch(dim3(6), dim3(32), detecting(), ticket, partial.data(), &count, &out, true);
  CHECK(fenced.races.empty());
  CHECK(out == 21);
  count = 0;
  const LaunchStats unfenced = rlab::sim::launch(dim3(6), dim3(32), detecting(), ticket,
                                                 partial.data(), &count, &out, false);
  REQUIRE_FALSE(unfenced.races.empty());
  CHECK(unfenced.races.front().later.block == 5);
}

TEST_CASE("race detector: lanes ordered by __syncwarp, racing without it, and shuffles need none") {
  std::vector<int> out(32);
  CHECK(rlab::sim::launch(dim3(1), dim3(32), detecting(), neighbours, out.data(), true)
            .races.empty());
  const LaunchStats without =
      rlab::sim::launch(dim3(1), dim3(32), detecting(), neighbours, out.data(), false);
  REQUIRE_FALSE(without.races.empty());
  CHECK(without.races.front().variable == "s");
  CHECK(rlab::sim::launch(dim3(1), dim3(32), detecting(), shuffles, out.data()).races.empty());
  CHECK(out[0] == 496);
}

TEST_CASE("race detector: a byte a thread is no race, and an unwritten shared element is named") {
  std::vector<char> seen(64);
  CHECK(
      rlab::sim::launch(dim3(1), dim3(64), detecting(), flags, reinterpret_cast<bool*>(seen.data()))
          .races.empty());
  std::vector<int> out(32);
  const LaunchStats unwritten =
      rlab::sim::launch(dim3(1), dim3(32), detecting(), readsUnwritten, out.data());
  CHECK(unwritten.races.empty());
  REQUIRE(unwritten.uninitialisedReads.size() == 1);
  CHECK(unwritten.uninitialisedReads.front().read.thread == 31);
  CHECK(unwritten.uninitialisedReads.front().variable == "s");
  CHECK(unwritten.uninitialisedReads.front().offset == 32 * sizeof(int));
}

TEST_CASE("race detector: a launch that does not ask for it finds nothing and costs nothing") {
  std::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
  const LaunchStats off =
      rlab::sim::launch(dim3(1), dim3(8), LaunchOptions{}, treeInGlobal, a.data(), 8, false);
  CHECK(off.races.empty());
  CHECK(off.racingAccesses == 0);
}

#endif
