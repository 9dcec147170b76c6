// Simulator throughput on the real path: the "shared" lesson (a shared-memory tree in 256-thread
// blocks, lockstep) over 2^20 ones, run through rlab_core exactly as `rlab run` runs it. Prints
// figures; asserts nothing about time, only that the result is right.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/run.hpp"

int main(int argc, char** argv) {
  rlab::Params p;
  p.lesson = "shared";
  p.variant = "shared";
  p.n = argc > 1 ? std::atoll(argv[1]) : 1 << 20;
  p.block = 256;
  p.trace = false;
  p.data = "ones";
  p.backend = rlab::BackendChoice::Sim;

  rlab::Params warmUp = p;  // starts the worker thread and creates the fibers
  warmUp.n = p.block;
  if (!rlab::runLesson(warmUp).correct) {
    std::printf("simulator: the warm-up run of the shared lesson gave a WRONG result\n");
    return 1;
  }

  constexpr int kRuns = 3;  // the median of three: the machines are shared and noisy
  std::vector<double> seconds;
  uint64_t switches = 0, blocks = 0, poisoned = 0;
  for (int run = 0; run < kRuns; ++run) {
    const auto before = rlab::sim::totals();
    const auto start = std::chrono::steady_clock::now();
    const rlab::Trace t = rlab::runLesson(p);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    const auto after = rlab::sim::totals();
    switches = after.switches - before.switches;
    blocks = after.blocks - before.blocks;
    poisoned = after.poisonedBytes - before.poisonedBytes;
    if (!t.correct) {
      std::printf("simulator: the shared lesson gave %.17g, expected %.17g: WRONG\n", t.result,
                  t.expected);
      return 1;
    }
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[kRuns / 2];
  std::printf(
      "simulator, lesson shared (shared), %lld elements, 256-thread blocks, lockstep, whole run: "
      "%.3f s, %.2f million elements/s (median of %d runs, %.3f to %.3f s); %llu blocks, %llu "
      "bytes of shared memory poisoned a block, %.1f ns per fiber switch, everything included "
      "(result right)\n",
      (long long)p.n, median, double(p.n) / median / 1e6, kRuns, seconds.front(), seconds.back(),
      (unsigned long long)blocks, (unsigned long long)(poisoned / blocks),
      median * 1e9 / double(switches));
  return 0;
}
