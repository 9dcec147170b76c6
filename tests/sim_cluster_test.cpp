// Thread block clusters on the simulator: a cluster's blocks combine their totals through
// distributed shared memory under every schedule; the mistakes (reading a neighbour before
// cluster.sync(), a block exiting while a neighbour still reads it, reading past a neighbour's
// array) are named, as races or as a stopped launch; CUDA's limits on a cluster's size and the
// grid's shape are kept; the cluster's coordinates are CUDA's. Built with the race detector's
// hooks (tests/CMakeLists.txt), as the lesson kernels and a learner's are.
#include <doctest/doctest.h>

#include <cooperative_groups.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "kernels/sim/shim.hpp"
#include "lessons/engine/texts/messages.hpp"

namespace cg = cooperative_groups;
using rlab::sim::LaunchError;
using rlab::sim::LaunchOptions;
using rlab::sim::LaunchStats;
using rlab::sim::Schedule;

namespace {

constexpr unsigned kBlock = 64;

// Each block adds its 64 elements in shared memory; then block rank 0 of each cluster adds the
// other blocks' totals, read from their shared memory, and makes one atomic for the cluster.
// `syncBeforeReading`: the cluster.sync() between the totals and the reads; `syncBeforeExit`:
// the one that keeps every block alive until rank 0 has read it.
// Unsigned: a read of a neighbour's unwritten total adds poison, which must not overflow.
__global__ void clusterSum(const unsigned* in, unsigned* out, bool syncBeforeReading,
                           bool syncBeforeExit) {
  __shared__ unsigned s[kBlock];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * kBlock + tid];
  __syncthreads();
  for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  cg::cluster_group cluster = cg::this_cluster();
  if (syncBeforeReading) cluster.sync();
  if (cluster.block_rank() == 0 && tid == 0) {
    unsigned total = s[0];
    for (unsigned rank = 1; rank < cluster.num_blocks(); ++rank)
      total += *cluster.map_shared_rank(&s[0], int(rank));
    atomicAdd(out, total);
  }
  if (syncBeforeExit) cluster.sync();
}

// Thread 0 of each block reads its neighbour's s[offset] (rank + 1, around the cluster).
__global__ void readNeighbour(int* out, unsigned offset, int rankShift) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = int(blockIdx.x);
  cg::this_cluster().sync();
  if (threadIdx.x == 0) {
    const unsigned rank = cg::this_cluster().block_rank(), blocks = cg::this_cluster().num_blocks();
    const int* theirs = cg::this_cluster().map_shared_rank(s, int((rank + 1) % blocks) + rankShift);
    out[blockIdx.x] = theirs[offset];
  }
  cg::this_cluster().sync();
}

std::vector<unsigned> digits(size_t n) {
  std::vector<unsigned> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = unsigned(i * 7 % 10);
  return v;
}

LaunchOptions clustered(unsigned blocks, const char* schedule = "lockstep") {
  LaunchOptions options;
  options.cluster = dim3(blocks);
  options.schedule = Schedule::parse(schedule);
  options.detectRaces = true;
  return options;
}

// The stopped launch's failure; its English is what() word for word, and Japanese and Chinese
// fill every placeholder.
rlab::sim::LaunchFailure stopped(const std::function<void()>& launch) {
  try {
    launch();
  } catch (const LaunchError& e) {
    const rlab::Message message = rlab::messageOf(e);
    CHECK(rlab::english(message) == std::string(e.what()));
    for (rlab::Language language : {rlab::Language::Ja, rlab::Language::Zh})
      CHECK(rlab::render(message, language).find('{') == std::string::npos);
    return e.failure();
  }
  FAIL("the launch did not stop");
  return {};
}

}  // namespace

TEST_CASE("clusters: the blocks of a cluster add their totals through each other's shared memory") {
  const std::vector<unsigned> in = digits(16 * kBlock);
  const unsigned expected = std::accumulate(in.begin(), in.end(), 0u);
  for (unsigned blocks : {1u, 2u, 4u, 8u})
    for (const char* schedule :
         {"lockstep", "sequential", "reverse", "random:1", "random:7", "warps-random:3"}) {
      CAPTURE(blocks);
      CAPTURE(schedule);
      unsigned out = 0;
      const LaunchStats stats =
          rlab::sim::launch(dim3(16), dim3(kBlock), clustered(blocks, schedule), clusterSum,
                            in.data(), &out, true, true);
      CHECK(out == expected);
      CHECK(stats.races.empty());
      CHECK(stats.uninitialisedReads.empty());
    }
}

#if defined(RLAB_TEST_RACE_HOOKS)
TEST_CASE("clusters: reading a neighbour before cluster.sync() is a race, and wrong in order") {
  const std::vector<unsigned> in = digits(8 * kBlock);
  const unsigned expected = std::accumulate(in.begin(), in.end(), 0u);
  // Rank 0 runs first: its neighbours have written nothing yet.
  unsigned out = 0;
  const LaunchStats first = rlab::sim::launch(dim3(8), dim3(kBlock), clustered(4, "sequential"),
                                              clusterSum, in.data(), &out, false, true);
  CHECK(out != expected);
  REQUIRE_FALSE(first.uninitialisedReads.empty());
  CHECK(first.uninitialisedReads.front().variable == "s");
  CHECK(first.uninitialisedReads.front().owner != first.uninitialisedReads.front().read.block);
  // The neighbours run first: the sum comes out right, and the race is named all the same.
  out = 0;
  const LaunchStats last = rlab::sim::launch(dim3(8), dim3(kBlock), clustered(4, "reverse"),
                                             clusterSum, in.data(), &out, false, true);
  CHECK(out == expected);
  REQUIRE_FALSE(last.races.empty());
  const rlab::sim::Race& race = last.races.front();
  CHECK(race.shared);
  CHECK(race.variable == "s");
  CHECK(race.offset == 0);
  CHECK(race.earlier.write);
  CHECK_FALSE(race.later.write);
  CHECK(race.owner == race.earlier.block);
  CHECK(race.owner != race.later.block);

  // Their sentences name whose shared memory it was.
  const LaunchError named = rlab::sim::raceError(last, clustered(4, "reverse"), true);
  CHECK(named.failure().id == "sim.race-in-cluster");
  CHECK(named.failure().arg("owner") == std::to_string(race.owner));
  CHECK(rlab::english(rlab::messageOf(named)) == std::string(named.what()));
  LaunchStats unwrittenOnly = first;
  unwrittenOnly.races.clear();
  const LaunchError unwritten = rlab::sim::raceError(unwrittenOnly, clustered(4), true);
  CHECK(unwritten.failure().id == "sim.uninitialised-in-cluster");
  CHECK(rlab::english(rlab::messageOf(unwritten)) == std::string(unwritten.what()));
  for (const LaunchError* e : {&named, &unwritten})
    CHECK(rlab::render(rlab::messageOf(*e), rlab::Language::Zh).find('{') == std::string::npos);
}

TEST_CASE("clusters: a block that exits while rank 0 still reads it stops the launch") {
  const std::vector<unsigned> in = digits(4 * kBlock);
  unsigned out = 0;
  // Rank 0 reads first: the others are alive, and the sum is right without the last sync.
  rlab::sim::launch(dim3(4), dim3(kBlock), clustered(4, "sequential"), clusterSum, in.data(), &out,
                    true, false);
  CHECK(out == std::accumulate(in.begin(), in.end(), 0u));
  // The others run to their end first.
  const rlab::sim::LaunchFailure failure = stopped([&] {
    rlab::sim::launch(dim3(4), dim3(kBlock), clustered(4, "reverse"), clusterSum, in.data(), &out,
                      true, false);
  });
  CHECK(failure.id == "sim.cluster-after-exit-in-block");
  CHECK(failure.arg("block") == "0");
  CHECK(failure.arg("thread") == "0");
  CHECK(failure.arg("rank") == "1");  // the first it reads
}

TEST_CASE("clusters: reading past a neighbour's array stops the launch") {
  std::vector<int> out(4, -1);
  rlab::sim::LaunchFailure past = stopped([&] {
    rlab::sim::launch(dim3(4), dim3(kBlock), clustered(2), readNeighbour, out.data(), kBlock, 0);
  });
  CHECK(past.id == "sim.cluster-out-of-bounds-in-block");
  CHECK(past.arg("variable") == "s");
  CHECK(past.arg("rank") == "1");
}
#else
TEST_CASE("clusters: the race detector's cases skipped, this file was built without its hooks") {
  MESSAGE("skipped: the race detector's tests need g++ without AddressSanitizer");
}
#endif

TEST_CASE("clusters: a neighbour's shared memory, of a rank that exists") {
  std::vector<int> out(4, -1);
  rlab::sim::launch(dim3(4), dim3(kBlock), clustered(2), readNeighbour, out.data(), 5u, 0);
  CHECK(out == std::vector<int>{1, 0, 3, 2});

  rlab::sim::LaunchFailure rank = stopped([&] {
    rlab::sim::launch(dim3(4), dim3(kBlock), clustered(2), readNeighbour, out.data(), 0u, 2);
  });
  CHECK(rank.id == "sim.cluster-rank-in-block");
  CHECK(rank.arg("rank") == "3");
  CHECK(rank.arg("blocks") == "2");
  CHECK(rank.arg("site").rfind("sim_cluster_test.cpp:", 0) == 0);

  int global = 0;
  rlab::sim::LaunchFailure notShared = stopped([&] {
    rlab::sim::launch(dim3(2), dim3(32), clustered(2),
                      [&] { cg::this_cluster().map_shared_rank(&global, 1); });
  });
  CHECK(notShared.id == "sim.cluster-map-not-shared-in-block");
}

TEST_CASE("clusters: CUDA's limits on a cluster's size and on the grid's shape") {
  auto launchWith = [](dim3 grid, dim3 cluster, bool nonPortable) {
    LaunchOptions options;
    options.cluster = cluster;
    options.nonPortableClusterSize = nonPortable;
    rlab::sim::launch(grid, dim3(32), options, [] {});
  };
  CHECK(stopped([&] { launchWith(dim3(16), dim3(16), false); }).id ==
        "sim.cluster-too-large-portable");
  CHECK_NOTHROW(launchWith(dim3(16), dim3(16), true));
  CHECK_NOTHROW(launchWith(dim3(4, 4), dim3(2, 4), false));
  CHECK(stopped([&] { launchWith(dim3(32), dim3(32), true); }).id == "sim.cluster-too-large");
  const rlab::sim::LaunchFailure uneven = stopped([&] { launchWith(dim3(6), dim3(4), false); });
  CHECK(uneven.id == "sim.cluster-not-divisible");
  CHECK(uneven.arg("grid") == "6 x 1 x 1");
  CHECK(uneven.arg("shape") == "4 x 1 x 1");
}

TEST_CASE("clusters: a cluster's coordinates, by CUDA's definitions") {
  struct Seen {
    unsigned rank, blocks, threadRank;
    dim3 index, clusterIdx, dims, inClusters;
  };
  std::vector<Seen> seen(4 * 6);
  LaunchOptions options;
  options.cluster = dim3(2, 3);
  rlab::sim::launch(dim3(4, 6), dim3(8), options, [&] {
    if (threadIdx.x != 3) return;
    const cg::cluster_group c = cg::this_cluster();
    seen[blockIdx.y * 4 + blockIdx.x] = {c.block_rank(),
                                         c.num_blocks(),
                                         c.thread_rank(),
                                         c.block_index(),
                                         __clusterIdx(),
                                         c.dim_blocks(),
                                         __clusterGridDimInClusters()};
  });
  const Seen& b = seen[5 * 4 + 3];  // blockIdx (3, 5): cluster (1, 1), (1, 2) within it
  CHECK(b.index.x == 1);
  CHECK(b.index.y == 2);
  CHECK(b.rank == 1 + 2 * 2);
  CHECK(b.blocks == 6);
  CHECK(b.threadRank == b.rank * 8 + 3);
  CHECK(b.clusterIdx.x == 1);
  CHECK(b.clusterIdx.y == 1);
  CHECK(b.dims.x == 2);
  CHECK(b.dims.y == 3);
  CHECK(b.inClusters.x == 2);
  CHECK(b.inClusters.y == 2);
}

TEST_CASE(
    "clusters: without clusters a block is a cluster of one, and cluster.sync() its barrier") {
  std::vector<unsigned> a = digits(kBlock);
  const unsigned expected = std::accumulate(a.begin(), a.end(), 0u);
  LaunchOptions options;
  options.detectRaces = true;
  unsigned blocks = 0;
  const LaunchStats stats = rlab::sim::launch(dim3(1), dim3(kBlock), options, [&] {
    const unsigned tid = threadIdx.x;
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
      if (tid < stride) a[tid] += a[tid + stride];
      cg::this_cluster().sync();
    }
    if (tid == 0) blocks = cg::this_cluster().num_blocks();
  });
  CHECK(a[0] == expected);
  CHECK(blocks == 1);
  CHECK(stats.races.empty());
}

TEST_CASE("clusters: threads at cluster.sync() while the rest of their block waits at a barrier") {
  const rlab::sim::LaunchFailure failure = stopped([] {
    rlab::sim::launch(dim3(2), dim3(32), clustered(2), [] {
      if (threadIdx.x < 16)
        cg::this_cluster().sync();
      else
        __syncthreads();
    });
  });
  CHECK(failure.id == "sim.stuck-in-block");
  REQUIRE(failure.sites.size() == 2);
  CHECK(failure.sites[0].id == "sim.waiting-at-barrier");
  CHECK(failure.sites[1].id == "sim.waiting-at-cluster-barrier");
  CHECK(failure.sites[1].arg("threads") == "0-15");
}
