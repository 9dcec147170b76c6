// Simulator throughput through the core library, as `rlab run` uses it: the shared lesson's
// shared-memory tree over 2^20 ones in 256-thread blocks, lockstep, no trace. Prints figures;
// asserts nothing about time (a wrong result exits non-zero).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lessons/engine/run/run.hpp"

int main(int argc, char** argv) {
  rlab::Params p;
  p.lesson = "shared";
  p.variant = "shared";
  p.n = argc > 1 ? std::atoll(argv[1]) : 1 << 20;
  p.block = 256;
  p.data = "ones";
  p.trace = false;
  p.backend = rlab::BackendChoice::Sim;
  bool right = rlab::runLesson(p).correct;  // warm-up: fibers and pages
  std::vector<double> seconds;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    right = rlab::runLesson(p).correct && right;
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[1];
  std::printf(
      "simulator, lesson shared (shared), %lld elements, 256-thread blocks, lockstep, whole "
      "run: %.3f s, %.2f million elements/s (median of 3 runs, %.3f to %.3f s; result %s)\n",
      (long long)p.n, median, double(p.n) / median / 1e6, seconds.front(), seconds.back(),
      right ? "right" : "WRONG");
  return right ? 0 : 1;
}
