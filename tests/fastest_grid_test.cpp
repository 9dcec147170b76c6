// The fastest lesson's launch geometry on a device like the H100 (132 SMs) it was measured on.
#include <doctest/doctest.h>

// The driver includes the kernel, which is CUDA: compiled through the shim, as everywhere.
#include "kernels/sim/shim.hpp"
#include "lessons/fastest/driver.hpp"

using rlab::fastestBlocks;

TEST_CASE("fastest: few blocks for small arrays, one per SM in the middle, more for large") {
  const long long sms = 132, halfTheSlots = 132 * 8 / 2;
  CHECK(fastestBlocks(1, 256, sms, 2048, false) == 1);
  CHECK(fastestBlocks(1 << 16, 256, sms, 2048, false) == 16);        // 16 elements per thread
  CHECK(fastestBlocks((1 << 16) + 1, 256, sms, 2048, false) == 17);  // and never fewer
  CHECK(fastestBlocks(1 << 20, 256, sms, 2048, false) == sms);
  CHECK(fastestBlocks(1 << 22, 256, sms, 2048, false) == sms);
  CHECK(fastestBlocks(1 << 24, 256, sms, 2048, false) == 512);  // 128 elements per thread
  CHECK(fastestBlocks(1 << 28, 256, sms, 2048, false) == halfTheSlots);
}

TEST_CASE("fastest: a float sum's adding block comes on top, except at the limit") {
  const long long sms = 132, halfTheSlots = 132 * 8 / 2;
  for (long long n : {1LL, 1LL << 16, 1LL << 20, 1LL << 24}) {
    CAPTURE(n);
    CHECK(fastestBlocks(n, 256, sms, 2048, true) == fastestBlocks(n, 256, sms, 2048, false) + 1);
  }
  CHECK(fastestBlocks(1LL << 28, 256, sms, 2048, true) == halfTheSlots);
  for (int block = 32; block <= 1024; block *= 2) {
    CAPTURE(block);
    CHECK(fastestBlocks(1LL << 28, block, sms, 2048, true) <= sms * (2048 / block) / 2);
    CHECK(fastestBlocks(1LL << 28, block, 1, 2048, true) >= 1);
  }
}
