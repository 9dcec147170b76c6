// The fastest lesson's grid (fastestBlocks), stated without its formula: what any right grid
// must do on every device shape and block size, and the values measured best on the H100.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

// The driver includes the kernel, which is CUDA: compiled through the shim, as everywhere.
#include "kernels/sim/shim.hpp"
#include "kernels/sim/runtime.hpp"  // the host side: launch, options, errors
#include "lessons/fastest/driver.hpp"

using rlab::fastestBlocks;

namespace {

struct Device {
  const char* name;
  long long multiprocessors;
  int threadSlots;  // per multiprocessor
};

const Device kDevices[] = {{"H100", 132, 2048}, {"sm_86", 84, 1536}, {"sm_75", 40, 1024}};

// Every power of two to 2^28, one less and one more, and three times each.
std::vector<long long> sizes() {
  std::vector<long long> n;
  for (long long p = 1; p <= (1LL << 28); p *= 2)
    for (long long v : {p - 1, p, p + 1, 3 * p})
      if (v >= 1 && v <= (1LL << 28)) n.push_back(v);
  std::sort(n.begin(), n.end());
  n.erase(std::unique(n.begin(), n.end()), n.end());
  return n;
}

long long ceilDiv(long long a, long long b) {
  return (a + b - 1) / b;
}

// Blocks of this size the device holds at once, halved: the grid's ceiling (at least one).
long long halfTheResidentBlocks(const Device& d, int block) {
  return std::max(1LL, d.multiprocessors * (d.threadSlots / block) / 2);
}

}  // namespace

TEST_CASE("fastest grid: what any right grid does, on three device shapes and every block") {
  const std::vector<long long> ns = sizes();
  for (const Device& d : kDevices) {
    for (int block = 32; block <= 1024; block *= 2) {
      const long long limit = halfTheResidentBlocks(d, block);
      for (bool adding : {false, true}) {
        long long previous = 0;
        for (long long n : ns) {
          const std::string what = std::string(d.name) + " block " + std::to_string(block) +
                                   (adding ? " float" : " int") + " n=" + std::to_string(n);
          CAPTURE(what);
          const long long g = fastestBlocks(n, block, d.multiprocessors, d.threadSlots, adding);
          CHECK(g >= 1);
          // Never more than half the device's thread slots (one block where even one is more).
          CHECK(g <= limit);
          CHECK((g == 1 || g * block <= d.multiprocessors * d.threadSlots / 2));
          // More data never gets fewer blocks.
          CHECK(g >= previous);
          previous = g;
          if (adding) continue;
          const long long sixteenEach = ceilDiv(n, 16LL * block);
          if (sixteenEach < d.multiprocessors) {
            // Small arrays: 16 elements a thread, as many blocks as that takes (each block's
            // total costs time at the end), never more.
            CHECK(g == std::min(sixteenEach, limit));
          } else {
            // Enough for every SM: none left idle.
            CHECK(g >= std::min(d.multiprocessors, limit));
          }
        }
      }
    }
  }
}

TEST_CASE(
    "fastest grid: a float sum's adding block comes on top, except at the limit and "
    "where one block loads it all") {
  for (const Device& d : kDevices) {
    for (int block = 32; block <= 1024; block *= 2) {
      const long long limit = halfTheResidentBlocks(d, block);
      for (long long n : sizes()) {
        const std::string what =
            std::string(d.name) + " block " + std::to_string(block) + " n=" + std::to_string(n);
        CAPTURE(what);
        const long long ints = fastestBlocks(n, block, d.multiprocessors, d.threadSlots, false);
        const long long floats = fastestBlocks(n, block, d.multiprocessors, d.threadSlots, true);
        CHECK(floats == (ints == limit || ints == 1 ? ints : ints + 1));
      }
    }
  }
}

TEST_CASE("fastest grid: the values measured best on the H100 (132 SMs, 256 threads)") {
  CHECK(fastestBlocks(1, 256, 132, 2048, false) == 1);
  CHECK(fastestBlocks(1 << 16, 256, 132, 2048, false) == 16);
  CHECK(fastestBlocks((1 << 16) + 1, 256, 132, 2048, false) == 17);
  CHECK(fastestBlocks(1 << 20, 256, 132, 2048, false) == 132);
  CHECK(fastestBlocks(1 << 24, 256, 132, 2048, false) == 512);
  CHECK(fastestBlocks(1 << 28, 256, 132, 2048, false) == 528);
  CHECK(fastestBlocks(1 << 16, 256, 132, 2048, true) == 17);
  CHECK(fastestBlocks(4096, 256, 132, 2048, true) == 1);  // one block, no adding block
  CHECK(fastestBlocks(1 << 28, 256, 132, 2048, true) == 528);
}
