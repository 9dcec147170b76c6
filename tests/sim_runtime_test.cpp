// The simulator against what CUDA promises: barriers, warp operations, atomics, shared memory,
// schedules, and the diagnostics for kernels that would hang or crash on a GPU.
#include <doctest/doctest.h>

#include <numeric>
#include <string>
#include <vector>

// Kernel code below is CUDA, compiled through the shim, exactly as kernels/*.cuh are.
#include "kernels/sim/shim.hpp"
#include "kernels/sim/runtime.hpp"  // the host side: launch, options, errors

namespace {

using rlab::sim::LaunchError;
using rlab::sim::LaunchOptions;
using rlab::sim::Schedule;

const char* const kAllSchedules[] = {"lockstep",  "sequential",     "reverse",     "random:1",
                                     "random:99", "warps-random:3", "stall:4:2:1", "stall:0:1:5"};

LaunchOptions with(const char* schedule) {
  LaunchOptions o;
  o.schedule = Schedule::parse(schedule);
  return o;
}

// ---- kernels ---------------------------------------------------------------------------------

// The barrier lesson's tree in global memory, barrier switchable.
__global__ void treeSum(int* a, int n, bool barrierOn) {
  const int tid = threadIdx.x;
  for (int i = 1; i < n; i *= 2) {
    if (tid % (2 * i) == 0 && tid + i < n) a[tid] += a[tid + i];
    if (barrierOn)
      __syncthreads();
    else
      __nanosleep(0);  // the spot stays a yield point when the barrier is gone
  }
}

__global__ void sharedTree(const int* in, int* out) {
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

__global__ void readBeforeWrite(int* seen) {
  __shared__ int s[64];
  seen[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];  // nobody wrote s yet
  s[threadIdx.x] = 1;                                            // would leak into the next block
}

// Every variable is read by another thread than the one that wrote it, so none can be
// optimised away.
template <class T>
__global__ void twoArraysAndAFlag(T* out) {
  __shared__ T values[10];
  __shared__ double weights[3];
  const unsigned t = threadIdx.x;
  values[t] = T(t);
  if (t < 3) weights[t] = 0.5 * t;
  {
    __shared__ bool flag;  // in an inner block, as fastest.cuh has one
    if (t == 0) flag = out[1] == 0;
    __syncthreads();
    out[t] = flag ? values[9 - t] + T(weights[2 - t % 3]) : T(-1);
  }
}

// A thread-local that is no kernel's shared memory: the simulator must leave it alone.
thread_local int t_notShared;

__global__ void keepsThreadLocal(int* seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) t_notShared = 42;
  if (blockIdx.x == 1 && threadIdx.x == 0) *seen = t_notShared;
}

}  // namespace

TEST_CASE("barrier: the tree is right under every schedule while the barrier is on") {
  for (const char* schedule : kAllSchedules) {
    for (int n : {1, 2, 7, 8, 33, 256}) {
      CAPTURE(schedule);
      CAPTURE(n);
      std::vector<int> a(n);
      std::iota(a.begin(), a.end(), 1);
      rlab::sim::launch(1, n, with(schedule), [&] { treeSum(a.data(), n, true); });
      CHECK(a[0] == n * (n + 1) / 2);
    }
  }
}

TEST_CASE("barrier off: thread 4 stalled in round 2 leaves the sum 15 short") {
  std::vector<int> a = {1, 2, 3, 4, 5, 6, 7, 8};
  rlab::sim::launch(1, 8, with("stall:4:2:1"), [&] { treeSum(a.data(), 8, false); });
  CHECK(a[0] == 21);
  std::vector<int> b = {1, 2, 3, 4, 5, 6, 7, 8};
  rlab::sim::launch(1, 8, with("lockstep"), [&] { treeSum(b.data(), 8, false); });
  CHECK(b[0] == 36);  // in lockstep every thread is one round behind the one it reads
  std::vector<int> c = {1, 2, 3, 4, 5, 6, 7, 8};
  rlab::sim::launch(1, 8, with("sequential"), [&] { treeSum(c.data(), 8, false); });
  CHECK(c[0] != 36);  // thread 0 runs every level before anyone else
}

TEST_CASE("shared memory: per-block trees over many blocks") {
  const int blocks = 9, threads = 256;
  std::vector<int> in(blocks * threads), out(blocks, -1);
  std::iota(in.begin(), in.end(), 0);
  for (const char* schedule : {"lockstep", "random:5", "reverse"}) {
    rlab::sim::launch(blocks, threads, with(schedule), [&] { sharedTree(in.data(), out.data()); });
    for (int b = 0; b < blocks; ++b) {
      const int first = b * threads, last = first + threads - 1;
      CHECK(out[b] == (first + last) * threads / 2);
    }
  }
}

TEST_CASE("each opened barrier shows the kernel's shared memory as the step left it") {
  const int blocks = 3, threads = 8;
  std::vector<int> in(blocks * threads), out(blocks, -1);
  std::iota(in.begin(), in.end(), 1);
  for (const char* schedule : {"lockstep", "random:5"}) {
    LaunchOptions options = with(schedule);
    std::vector<std::vector<int>> seen(blocks);  // s[0] at each barrier of each block
    options.onBarrier = [&](unsigned block, const std::vector<rlab::sim::SharedSpan>& shared) {
      REQUIRE(shared.size() == 1);
      REQUIRE(shared[0].size == 256 * sizeof(int));
      seen[block].push_back(reinterpret_cast<const int*>(shared[0].bytes)[0]);
    };
    rlab::sim::launch(blocks, threads, options, sharedTree, (const int*)in.data(), out.data());
    for (int b = 0; b < blocks; ++b) {
      const int x = b * threads + 1;  // the block's first element
      // After the load, then strides 4, 2, 1: s[0] gathers x, x + 4, x + 2 ..., the total.
      CHECK(seen[size_t(b)] == std::vector<int>{x, 2 * x + 4, 4 * x + 12, 8 * x + 28});
      CHECK(out[size_t(b)] == 8 * x + 28);
    }
  }
}

TEST_CASE("shared memory starts poisoned in every block, no block sees the last one's values") {
  std::vector<int> seen(3 * 64, 0);
  rlab::sim::launch(3, 64, {}, readBeforeWrite, seen.data());
  int poison;
  std::memset(&poison, rlab::sim::kSharedPoisonByte, sizeof poison);
  for (int v : seen) CHECK(v == poison);
}

TEST_CASE("only the launched kernel's shared variables are poisoned, nothing else") {
  // Exactly the bytes the kernel declares, inner-block variables included.
  CHECK(rlab::sim::sharedMemoryBytes(reinterpret_cast<const void*>(&readBeforeWrite)) == 64 * 4);
  CHECK(rlab::sim::sharedMemoryBytes(reinterpret_cast<const void*>(&twoArraysAndAFlag<int>)) ==
        10 * 4 + 3 * 8 + 1);
  CHECK(rlab::sim::sharedMemoryBytes(reinterpret_cast<const void*>(&twoArraysAndAFlag<double>)) ==
        10 * 8 + 3 * 8 + 1);
  CHECK(rlab::sim::sharedMemoryBytes(reinterpret_cast<const void*>(&keepsThreadLocal)) == 0);
  std::vector<double> out(10);
  rlab::sim::launch(1, 10, {}, twoArraysAndAFlag<double>, out.data());
  CHECK(out[0] == 10.0);
  CHECK(out[4] == 5.0 + 0.5);
  CHECK(out[9] == 0.0 + 1.0);
  // Another thread-local on the worker thread survives from block 0 to block 1.
  int seen = 0;
  rlab::sim::launch(2, 32, {}, keepsThreadLocal, &seen);
  CHECK(seen == 42);
}

TEST_CASE("a barrier reached by only part of the block stops the launch with a diagnostic") {
  auto divergent = [] {
    if (threadIdx.x < 16) {
      __syncthreads();
    }
    __syncthreads();
  };
  try {
    rlab::sim::launch(1, 32, {}, divergent);
    FAIL("no diagnostic");
  } catch (const LaunchError& e) {
    const std::string what = e.what();
    CHECK(what.find("threads 0-15") != std::string::npos);
    CHECK(what.find("threads 16-31") != std::string::npos);
    CHECK(what.find("sim_runtime_test.cpp:") != std::string::npos);
  }
  // The engine goes on after a failed launch.
  std::vector<int> a = {1, 2, 3, 4};
  rlab::sim::launch(1, 4, {}, [&] { treeSum(a.data(), 4, true); });
  CHECK(a[0] == 10);
}

TEST_CASE("a warp operation with lanes missing stops the launch") {
  // Lane 5 has exited: the others do not wait for it, but the value read from it is undefined.
  auto missing = [] {
    if (threadIdx.x == 5) return;
    (void)__shfl_sync(0xffffffffu, 1, 5);
  };
  try {
    rlab::sim::launch(1, 32, {}, missing);
    FAIL("no diagnostic");
  } catch (const LaunchError& e) {
    CHECK(std::string(e.what()).find("lane 5") != std::string::npos);
  }
  auto waitsForBarrier = [] {
    if (threadIdx.x < 8)
      __syncthreads();
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  };
  CHECK_THROWS_AS(rlab::sim::launch(1, 32, {}, waitsForBarrier), LaunchError);
}

TEST_CASE("lanes that name each other in different masks stop the launch at both sites") {
  // Lanes 0-15 wait for the whole warp, lanes 16-31 for themselves only and then for lane 0's
  // half again: neither can go on, and the diagnostic names both lines.
  auto split = [] {
    if (threadIdx.x < 16) {
      (void)__ballot_sync(0xffffffffu, 1);
    } else {
      (void)__ballot_sync(0xffff0000u, 1);
      (void)__ballot_sync(0x0000ffffu | (1u << threadIdx.x), 1);
    }
  };
  try {
    rlab::sim::launch(1, 32, {}, split);
    FAIL("no diagnostic");
  } catch (const LaunchError& e) {
    const std::string what = e.what();
    CHECK(what.find("threads 0-15 wait at the warp operation at sim_runtime_test.cpp:") !=
          std::string::npos);
    CHECK(what.find("threads 16-31 wait at the warp operation at sim_runtime_test.cpp:") !=
          std::string::npos);
  }
}

TEST_CASE("__activemask is the lanes a branch sends to its line, a tile's mask is its lanes") {
  std::vector<unsigned> seen(64, 0);
  auto branch = [&] {
    const unsigned t = threadIdx.x;
    if (t % 3 == 0) seen[t] = __activemask();
    __syncwarp();
  };
  for (const char* schedule : {"lockstep", "reverse", "random:3", "stall:3:1:4"}) {
    CAPTURE(schedule);
    std::fill(seen.begin(), seen.end(), 0);
    LaunchOptions options;
    options.schedule = Schedule::parse(schedule);
    rlab::sim::launch(1, 40, options, branch);
    CHECK(seen[0] == 0x49249249u);   // lanes 0, 3, ..., 30 of warp 0
    CHECK(seen[33] == 0x00000092u);  // lanes 1, 4, 7 of warp 1 (threads 33, 36, 39), of 8
  }
}

TEST_CASE("the block's votes: how many brought a true predicate, whether all, whether any") {
  std::vector<int> counts(100), alls(100), anys(100);
  auto votes = [&] {
    const unsigned t = threadIdx.x;
    counts[t] = __syncthreads_count(t % 7 == 0);
    alls[t] = __syncthreads_and(t < 1000);
    anys[t] = __syncthreads_or(t == 99);
  };
  rlab::sim::launch(1, 100, {}, votes);
  CHECK(counts[0] == 15);  // 0, 7, ..., 98
  CHECK(counts[99] == 15);
  CHECK(alls[50] == 1);
  CHECK(anys[0] == 1);
  auto split = [] {
    if (threadIdx.x < 5)
      (void)__syncthreads_count(1);
    else
      __syncthreads();
  };
  CHECK_THROWS_AS(rlab::sim::launch(1, 32, {}, split), LaunchError);
}

TEST_CASE("warp shuffles and votes match a host reference, full and partial masks") {
  const int threads = 64;
  auto valueOf = [](int t) { return t * 7 + 3; };
  for (int width : {32, 16, 8, 4}) {
    for (unsigned mask : {0xffffffffu, 0x0000ffffu, 0xff00ff00u}) {
      // A shuffle that reads a lane outside its mask is refused (the value is undefined): the
      // partial masks, whole bytes of lanes, only with segments of at most 8 lanes.
      if (mask != 0xffffffffu && width > 8) continue;
      CAPTURE(width);
      CAPTURE(mask);
      std::vector<int> shfl(threads, -1), up(threads, -1), down(threads, -1), xr(threads, -1);
      std::vector<unsigned> ballot(threads, 0);
      std::vector<int> any(threads, -1), all(threads, -1);
      rlab::sim::launch(1, threads, with("random:11"), [&] {
        const int t = threadIdx.x, lane = t % 32;
        if (!(mask >> lane & 1u)) return;
        const int v = valueOf(t);
        // Sources stay inside the mask: within a segment, lanes of one mask byte.
        shfl[t] = __shfl_sync(mask, v, 1 % width, width);
        up[t] = __shfl_up_sync(mask, v, 1, width);
        down[t] = __shfl_down_sync(mask, v, 1, width);
        xr[t] = __shfl_xor_sync(mask, v, 1, width);
        ballot[t] = __ballot_sync(mask, t % 3 == 0);
        any[t] = __any_sync(mask, t == 40);
        all[t] = __all_sync(mask, v > 0);
      });
      for (int t = 0; t < threads; ++t) {
        const int lane = t % 32, warp0 = t - lane;
        if (!(mask >> lane & 1u)) continue;
        const int seg = lane & ~(width - 1);
        auto ref = [&](int srcLane, bool inRange) {
          return inRange && (mask >> srcLane & 1u) ? valueOf(warp0 + srcLane) : valueOf(t);
        };
        CAPTURE(t);
        CHECK(shfl[t] == ref(seg + 1 % width, true));
        CHECK(up[t] == ref(lane - 1, lane - seg >= 1));
        CHECK(down[t] == ref(lane + 1, lane - seg + 1 < width));
        CHECK(xr[t] == ref(lane ^ 1, true));
        unsigned expectBallot = 0;
        for (int l = 0; l < 32; ++l)
          if ((mask >> l & 1u) && (warp0 + l) % 3 == 0) expectBallot |= 1u << l;
        CHECK(ballot[t] == expectBallot);
        CHECK(any[t] == (warp0 == 32 && (mask >> 8 & 1u)));
        CHECK(all[t] == 1);
      }
    }
  }
}

TEST_CASE("warp reduction with __shfl_down_sync and __shfl_xor_sync") {
  std::vector<float> down(32), xr(32);
  rlab::sim::launch(1, 32, {}, [&] {
    float v = float(threadIdx.x + 1), w = v;
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffffu, v, offset);
      w += __shfl_xor_sync(0xffffffffu, w, offset);
    }
    down[threadIdx.x] = v;
    xr[threadIdx.x] = w;
    __syncwarp();
  });
  CHECK(down[0] == 528.0f);
  for (float w : xr) CHECK(w == 528.0f);  // the butterfly gives every lane the total
}

// Which atomics a type has, asked of the shim as a kernel's call would ask.
template <class T>
concept HasAtomicAdd = requires(T* p, T v) {
  atomicAdd(p, v);
};
template <class T>
concept HasAtomicMax = requires(T* p, T v) {
  atomicMax(p, v);
};
template <class T>
concept HasAtomicMin = requires(T* p, T v) {
  atomicMin(p, v);
};
template <class T>
concept HasAtomicExch = requires(T* p, T v) {
  atomicExch(p, v);
};
template <class T>
concept HasAtomicCAS = requires(T* p, T v) {
  atomicCAS(p, v, v);
};

TEST_CASE("the atomics are CUDA's overloads, no more") {
  // CUDA 13's declarations: atomicAdd for int, unsigned, unsigned long long, float, double;
  // atomicMax and atomicMin for the integers; atomicExch for those and float; atomicCAS for
  // the integers. A kernel that uses another must fail here as under nvcc.
  CHECK(HasAtomicAdd<int>);
  CHECK(HasAtomicAdd<unsigned>);
  CHECK(HasAtomicAdd<unsigned long long>);
  CHECK(HasAtomicAdd<float>);
  CHECK(HasAtomicAdd<double>);
  CHECK_FALSE(HasAtomicAdd<long long>);
  CHECK_FALSE(HasAtomicAdd<short>);  // only CUDA's types; no __half here either
  CHECK((HasAtomicMax<long long> && HasAtomicMin<long long>));
  for (bool floating :
       {HasAtomicMax<float>, HasAtomicMax<double>, HasAtomicMin<float>, HasAtomicMin<double>,
        HasAtomicExch<double>, HasAtomicCAS<float>, HasAtomicCAS<double>})
    CHECK_FALSE(floating);
  CHECK((HasAtomicMax<int> && HasAtomicMax<unsigned> && HasAtomicMax<unsigned long long>));
  CHECK((HasAtomicMin<int> && HasAtomicMin<unsigned> && HasAtomicMin<unsigned long long>));
  CHECK((HasAtomicExch<int> && HasAtomicExch<unsigned> && HasAtomicExch<unsigned long long> &&
         HasAtomicExch<float>));
  CHECK((HasAtomicCAS<int> && HasAtomicCAS<unsigned> && HasAtomicCAS<unsigned long long>));
  // As in CUDA, __double_as_longlong gives a long long, and a negative double a negative one.
  CHECK(std::is_same_v<decltype(__double_as_longlong(1.0)), long long>);
  CHECK(__double_as_longlong(-2.5) < 0);
  CHECK(__longlong_as_double(__double_as_longlong(-2.5)) == -2.5);
}

TEST_CASE_TEMPLATE("atomics of every type land once each, in a recorded order", T, int, unsigned,
                   unsigned long long, float, double) {
  constexpr bool integer = std::is_integral_v<T>;
  constexpr bool exchanges = !std::is_same_v<T, double>;
  const int blocks = 4, threads = 64, total = blocks * threads;
  T sum = 0, biggest = 0, smallest = T(1000), swapped = 0;
  T cas = 0;
  LaunchOptions options = with("random:9");
  options.recordAtomics = true;
  auto stats = rlab::sim::launch(blocks, threads, options, [&] {
    const T v = T(blockIdx.x * blockDim.x + threadIdx.x + 1);
    atomicAdd(&sum, v);
    if constexpr (integer) {
      atomicMax(&biggest, v);
      atomicMin(&smallest, v);
      atomicCAS(&cas, T(0), v);  // only the first thread wins
    }
    if constexpr (exchanges) atomicExch(&swapped, v);
  });
  CHECK(sum == T(total * (total + 1) / 2));
  if constexpr (integer) {
    CHECK(biggest == T(total));
    CHECK(smallest == T(1));
    CHECK(cas != T(0));
  }
  if constexpr (exchanges) CHECK(swapped != T(0));
  const size_t perThread = 1 + (integer ? 3 : 0) + (exchanges ? 1 : 0);
  REQUIRE(stats.atomics.size() == perThread * total);
  // The sum's own events form a chain: each old value is the previous one plus its operand.
  double running = 0;
  for (const auto& e : stats.atomics) {
    if (e.address != &sum) continue;
    CHECK(e.old == running);
    running += e.operand;
    CHECK(e.after == running);  // the value it left
  }
  CHECK(running == double(total * (total + 1) / 2));
}

TEST_CASE("same schedule and input give the same run, another seed another run") {
  auto order = [](const char* schedule) {
    std::vector<int> log;
    rlab::sim::launch(2, 64, with(schedule), [&] {
      for (int step = 0; step < 3; ++step) {
        log.push_back(int(blockIdx.x * 64 + threadIdx.x));
        __nanosleep(0);
      }
      __syncthreads();
      log.push_back(-1 - int(threadIdx.x));
    });
    return log;
  };
  for (const char* schedule : kAllSchedules) {
    CAPTURE(schedule);
    CHECK(order(schedule) == order(schedule));
  }
  CHECK(order("random:1") != order("random:2"));
  CHECK(order("warps-random:1") != order("warps-random:2"));
  // lockstep: rounds in thread order; sequential: thread 0 first through all its steps.
  const auto lockstep = order("lockstep");
  CHECK(std::vector<int>(lockstep.begin(), lockstep.begin() + 3) == std::vector<int>{0, 1, 2});
  const auto sequential = order("sequential");
  CHECK(std::vector<int>(sequential.begin(), sequential.begin() + 4) ==
        std::vector<int>{0, 0, 0, 1});
  const auto reverse = order("reverse");
  CHECK(reverse.front() == 63);
  // warps-random keeps a warp's lanes together: 32 entries in a row from one warp.
  const auto warps = order("warps-random:5");
  for (int i = 0; i < 32; ++i) CHECK(warps[i] / 32 == warps[0] / 32);
}

TEST_CASE("a thread that throws or fails an assertion is named, the test binary lives on") {
  try {
    rlab::sim::launch(2, 32, {}, [] {
      if (blockIdx.x == 1 && threadIdx.x == 5) throw std::runtime_error("boom");
      __syncthreads();
    });
    FAIL("no error");
  } catch (const LaunchError& e) {
    const std::string what = e.what();
    CHECK(what.find("thread 5 of block 1") != std::string::npos);
    CHECK(what.find("boom") != std::string::npos);
  }
  try {
    rlab::sim::launch(1, 8, {}, [] {
      __syncthreads();
      assert(threadIdx.x != 3);
    });
    FAIL("no error");
  } catch (const LaunchError& e) {
    const std::string what = e.what();
    CHECK(what.find("thread 3") != std::string::npos);
    CHECK(what.find("threadIdx.x != 3") != std::string::npos);
  }
}

TEST_CASE("launch arguments are checked") {
  CHECK_THROWS_AS(rlab::sim::launch(1, 2048, {}, [] {}), std::invalid_argument);
  CHECK_THROWS_AS(rlab::sim::launch(dim3(0), 32, {}, [] {}), std::invalid_argument);
  CHECK_THROWS_AS(rlab::sim::launch(1, 32, {}, [] { (void)__shfl_sync(~0u, 1, 0, 3); }),
                  LaunchError);
}
