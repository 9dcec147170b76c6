// A launch the simulator stops, as data: each kind of failure gives its sentence's id and
// arguments (kernels/sim's LaunchFailure), the engine's message for it says in English exactly
// what() says, and Japanese and Chinese have the sentence with every placeholder filled. A
// launch of several blocks names the block, through the sentence's "-in-block" pair.
#include <doctest/doctest.h>

#include <cooperative_groups.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "kernels/sim/runtime.hpp"
#include "kernels/sim/shim.hpp"
#include "lessons/engine/backends/sim/backend.hpp"
#include "lessons/engine/texts/messages.hpp"

using rlab::Language;
using rlab::Message;
using rlab::sim::LaunchError;
using rlab::sim::LaunchFailure;
using rlab::sim::LaunchOptions;

namespace {

namespace cg = cooperative_groups;

constexpr const char* kThisFile = "launch_failures_test.cpp:";

// What a stopped launch gave: its failure, what(), and the engine's message for it.
struct Stopped {
  LaunchFailure failure;
  std::string what;
  Message message;
};

// Every sentence of `m` (its own, its sites') has a line in `language`, and the rendered text
// has no placeholder left.
void checkSaid(const Message& m, Language language) {
  CAPTURE(m.id);
  CHECK(rlab::messageCatalogue(language).entries.count(m.id));
  for (const rlab::MessageArg& a : m.args)
    for (const Message& s : a.sentences) checkSaid(s, language);
}

Stopped stopped(const std::function<void()>& launch) {
  try {
    launch();
  } catch (const LaunchError& e) {
    Stopped s{e.failure(), e.what(), rlab::messageOf(e)};
    CHECK(s.message.id == s.failure.id);
    CHECK(rlab::english(s.message) == s.what);  // en.txt says what() word for word
    for (Language language : {Language::Ja, Language::Zh}) {
      CAPTURE(std::string(rlab::code(language)));
      checkSaid(s.message, language);
      const std::string text = rlab::render(s.message, language);
      CAPTURE(text);
      CHECK(text.find('{') == std::string::npos);
      CHECK(text != s.what);
    }
    return s;
  }
  FAIL("the launch did not stop");
  return {};
}

Stopped stopped(dim3 grid, dim3 block, const std::function<void()>& body,
                const LaunchOptions& options = {}) {
  return stopped([&] { rlab::sim::launch(grid, block, options, body); });
}

bool inThisFile(const std::string& site) {
  return site.rfind(kThisFile, 0) == 0 && site.size() > std::string(kThisFile).size();
}

__global__ void writeAt(int* out, int index) {
  if (threadIdx.x == 0) out[index] = 42;
}

}  // namespace

TEST_CASE("launch failures: threads at two barriers, in one block and in block 1 of two") {
  auto split = [] {
    if (threadIdx.x < 16)
      __syncthreads();
    else
      __syncthreads();
  };
  const Stopped one = stopped(1, 32, split);
  CHECK(one.failure.id == "sim.barrier-mismatch");
  CHECK(one.failure.arg("threads") == "0-15");
  CHECK(one.failure.arg("others") == "16-31");
  CHECK(inThisFile(one.failure.arg("site")));
  CHECK(inThisFile(one.failure.arg("otherSite")));
  CHECK(one.failure.arg("site") != one.failure.arg("otherSite"));
  CHECK(one.failure.arg("block").empty());

  // Block 0 meets at one barrier; block 1 splits.
  const Stopped two = stopped(2, 32, [] {
    if (blockIdx.x == 1 && threadIdx.x >= 20)
      __syncthreads();
    else
      __syncthreads();
  });
  CHECK(two.failure.id == "sim.barrier-mismatch-in-block");
  CHECK(two.failure.arg("block") == "1");
  CHECK(two.failure.arg("threads") == "0-19");
  CHECK(two.failure.arg("others") == "20-31");
  CHECK(two.what.find("threads 0-19 of block 1 wait at the barrier at ") != std::string::npos);
}

TEST_CASE("launch failures: a stuck block names each site it waits at, as a sentence of its own") {
  auto barrierAndWarp = [] {
    if (threadIdx.x < 8)
      __syncthreads();
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  };
  const Stopped one = stopped(1, 32, barrierAndWarp);
  CHECK(one.failure.id == "sim.stuck");
  REQUIRE(one.failure.sites.size() == 2);
  CHECK(one.failure.sites[0].id == "sim.waiting-at-barrier");
  CHECK(one.failure.sites[0].arg("threads") == "0-7");
  CHECK(inThisFile(one.failure.sites[0].arg("site")));
  CHECK(one.failure.sites[1].id == "sim.waiting-at-warp-op");
  CHECK(one.failure.sites[1].arg("threads") == "8-31");
  CHECK(inThisFile(one.failure.sites[1].arg("site")));
  // The sites are a list argument of the message, each site a sentence.
  const rlab::MessageArg* sites = nullptr;
  for (const rlab::MessageArg& a : one.message.args)
    if (a.name == "sites") sites = &a;
  REQUIRE(sites);
  REQUIRE(sites->sentences.size() == 2);
  CHECK(sites->sentences[1].id == "sim.waiting-at-warp-op");
  CHECK(rlab::render(one.message, Language::Ja).find("バリアで待つスレッド 0-7（8 個）、") !=
        std::string::npos);
  CHECK(rlab::render(one.message, Language::Zh).find("的屏障处等待的线程 0-7（8 个）、在 ") !=
        std::string::npos);
  // One thread is "thread 0", and it waits.
  const Stopped alone = stopped(1, 32, [] {
    if (threadIdx.x == 0)
      __syncthreads();
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  });
  CHECK(alone.what.find("thread 0 waits at the barrier at ") != std::string::npos);
  CHECK(alone.what.find("threads 1-31 wait at the warp operation at ") != std::string::npos);

  // Lanes that name each other in different masks: two warp operations, in block 2 of three.
  const Stopped blocks = stopped(3, 32, [] {
    if (blockIdx.x < 2) return;
    if (threadIdx.x < 16) {
      (void)__ballot_sync(0xffffffffu, 1);
    } else {
      (void)__ballot_sync(0xffff0000u, 1);
      (void)__ballot_sync(0x0000ffffu | (1u << threadIdx.x), 1);
    }
  });
  CHECK(blocks.failure.id == "sim.stuck-in-block");
  CHECK(blocks.failure.arg("block") == "2");
  REQUIRE(blocks.failure.sites.size() == 2);
  CHECK(blocks.failure.sites[0].id == "sim.waiting-at-warp-op");
  CHECK(blocks.failure.sites[0].arg("threads") == "0-15");
  CHECK(blocks.failure.sites[1].arg("threads") == "16-31");

  // Threads at two barriers and others at a warp operation: each barrier is a site of its own.
  const Stopped twoBarriers = stopped(1, 64, [] {
    if (threadIdx.x < 8)
      __syncthreads();
    else if (threadIdx.x < 16)
      __syncthreads();
    else
      (void)__shfl_sync(0xffffffffu, 1, 0);
  });
  CHECK(twoBarriers.failure.id == "sim.stuck");
  REQUIRE(twoBarriers.failure.sites.size() == 3);
  CHECK(twoBarriers.failure.sites[0].arg("threads") == "0-7");
  CHECK(twoBarriers.failure.sites[1].id == "sim.waiting-at-barrier");
  CHECK(twoBarriers.failure.sites[1].arg("threads") == "8-15");
  CHECK(twoBarriers.failure.sites[0].arg("site") != twoBarriers.failure.sites[1].arg("site"));
  CHECK(twoBarriers.failure.sites[2].arg("threads") == "16-31");
}

TEST_CASE("launch failures: a barrier that threads wait at after others have exited") {
  const Stopped early = stopped(1, 8, [] {
    if (threadIdx.x >= 6) return;
    __syncthreads();
  });
  CHECK(early.failure.id == "sim.barrier-after-exit");
  CHECK(early.failure.arg("threads") == "0-5");
  CHECK(early.failure.arg("others") == "6-7");
  CHECK(inThisFile(early.failure.arg("site")));
  CHECK(early.what.find("CUDA allows __syncthreads() in conditional code only where the "
                        "condition is the same for the whole block") != std::string::npos);

  const Stopped inIf = stopped(3, 4, [] {
    if (threadIdx.x == 0) __syncthreads();
  });
  CHECK(inIf.failure.id == "sim.barrier-after-exit-in-block");
  CHECK(inIf.failure.arg("block") == "0");
  CHECK(inIf.failure.arg("threads") == "0");
  CHECK(inIf.failure.arg("others") == "1-3");
}

TEST_CASE("warp operations wait only for the lanes of their mask that have not exited") {
  std::vector<unsigned> ballots(64);
  rlab::sim::launch(dim3(1), dim3(64), {}, [&] {
    if (threadIdx.x % 32 >= 20) return;
    __syncwarp();
    ballots[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
  });
  CHECK(ballots[0] == 0xfffffu);
  CHECK(ballots[51] == 0xfffffu);
}

TEST_CASE("launch failures: warp operations with a lane left out, exited or elsewhere") {
  const Stopped ownLane = stopped(1, 32, [] { (void)__shfl_sync(0x1u, 1, 0); });
  CHECK(ownLane.failure.id == "sim.mask-leaves-out-lane");
  CHECK(ownLane.failure.arg("thread") == "1");
  CHECK(ownLane.failure.arg("lane") == "1");
  CHECK(inThisFile(ownLane.failure.arg("site")));

  // A lane that has exited is not waited for; a value read from it is undefined.
  const Stopped exited = stopped(2, 64, [] {
    if (threadIdx.x == 37) return;
    (void)__shfl_sync(0xffffffffu, 1, 5);
  });
  CHECK(exited.failure.id == "sim.read-exited-lane-in-block");
  CHECK(exited.failure.arg("block") == "0");
  CHECK(exited.failure.arg("thread") == "32");
  CHECK(exited.failure.arg("lane") == "5");
  CHECK(exited.failure.arg("source") == "37");

  // Each half of the warp names only itself, and reads a lane of the other half.
  const Stopped outside = stopped(1, 32, [] {
    const unsigned half = threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u;
    (void)__shfl_sync(half, 1, int(threadIdx.x ^ 16));
  });
  CHECK(outside.failure.id == "sim.read-lane-outside-mask");
  CHECK(outside.failure.arg("thread") == "0");
  CHECK(outside.failure.arg("lane") == "16");

  // A block of 40 threads ends in a warp of 8 lanes: the butterfly's first step reads lanes
  // that were never there.
  const Stopped missing = stopped(1, 40, [] { (void)__shfl_xor_sync(0xffffffffu, 1, 16); });
  CHECK(missing.failure.id == "sim.read-missing-lane");
  CHECK(missing.failure.arg("thread") == "32");
  CHECK(missing.failure.arg("lane") == "16");
  CHECK(missing.failure.arg("lanes") == "8");
  CHECK(inThisFile(missing.failure.arg("site")));
  // Reads that stay inside the lanes the warp has are CUDA's defined results.
  std::vector<int> got(40);
  rlab::sim::launch(dim3(1), dim3(40), {},
                    [&] { got[threadIdx.x] = __shfl_xor_sync(0xffffffffu, int(threadIdx.x), 4); });
  CHECK(got[33] == 37);
  CHECK(got[38] == 34);

  const Stopped different = stopped(1, 64, [] {
    if (threadIdx.x < 48)
      (void)__ballot_sync(0xffffffffu, 1);
    else
      (void)__any_sync(0xffffffffu, 1);
  });
  CHECK(different.failure.id == "sim.different-warp-ops");
  CHECK(different.failure.arg("warp") == "1");
  CHECK(inThisFile(different.failure.arg("site")));
  CHECK(inThisFile(different.failure.arg("otherSite")));

  const Stopped width = stopped(1, 32, [] { (void)__shfl_sync(~0u, 1, 0, 3); });
  CHECK(width.failure.id == "sim.warp-width");
  CHECK(width.failure.arg("thread") == "0");
  CHECK(width.failure.arg("width") == "3");
  CHECK(inThisFile(width.failure.arg("site")));
}

TEST_CASE(
    "launch failures: a thread that fails an assertion, traps, or frees what no malloc gave") {
  const Stopped assertion = stopped(1, 8, [] { assert(threadIdx.x != 3); });
  CHECK(assertion.failure.id == "sim.assertion");
  CHECK(assertion.failure.arg("thread") == "3");
  CHECK(assertion.failure.arg("expression") == "threadIdx.x != 3");
  CHECK(inThisFile(assertion.failure.arg("site")));

  const Stopped inBlock = stopped(4, 8, [] { assert(blockIdx.x != 2 || threadIdx.x != 6); });
  CHECK(inBlock.failure.id == "sim.assertion-in-block");
  CHECK(inBlock.failure.arg("block") == "2");
  CHECK(inBlock.failure.arg("thread") == "6");

  const Stopped trap = stopped(1, 4, [] {
    if (threadIdx.x == 2) __trap();
  });
  CHECK(trap.failure.id == "sim.trap");
  CHECK(trap.failure.arg("thread") == "2");
  CHECK(inThisFile(trap.failure.arg("site")));

  const Stopped badFree = stopped(2, 4, [] {
    int local = 0;
    if (blockIdx.x == 1 && threadIdx.x == 0) rlab::sim::detail::deviceFree(&local);
  });
  CHECK(badFree.failure.id == "sim.bad-free-in-block");
  CHECK(badFree.failure.arg("thread") == "0");
  CHECK(badFree.failure.arg("block") == "1");
  CHECK(badFree.failure.arg("site").empty());  // free() does not know its line
}

TEST_CASE("launch failures: a thread that threw, what it threw or something else") {
  const Stopped threw = stopped(1, 4, [] {
    if (threadIdx.x == 1) throw std::runtime_error("boom");
  });
  CHECK(threw.failure.id == "sim.threw");
  CHECK(threw.failure.arg("thread") == "1");
  CHECK(threw.failure.arg("what") == "boom");
  const Stopped something = stopped(2, 4, [] {
    if (blockIdx.x == 1 && threadIdx.x == 3) throw 7;
  });
  CHECK(something.failure.id == "sim.threw-unknown-in-block");
  CHECK(something.failure.arg("thread") == "3");
  CHECK(something.failure.arg("block") == "1");
}

TEST_CASE("launch failures: cooperative groups the simulator cannot run") {
  const Stopped size =
      stopped(1, 32, [] { (void)cg::tiled_partition(cg::this_thread_block(), 3); });
  CHECK(size.failure.id == "sim.tile-size");
  CHECK(size.failure.arg("thread") == "0");
  CHECK(inThisFile(size.failure.arg("site")));

  const Stopped coalesced =
      stopped(1, 32, [] { (void)cg::tiled_partition(cg::coalesced_threads(), 6); });
  CHECK(coalesced.failure.id == "sim.coalesced-tile-size");

  const Stopped tileOfTile = stopped(2, 32, [] {
    const cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 16);
    (void)cg::tiled_partition(tile, 8);
  });
  CHECK(tileOfTile.failure.id == "sim.tile-of-tile-in-block");
  CHECK(tileOfTile.failure.arg("block") == "0");

  const Stopped grid = stopped(2, 32, [] { cg::this_grid().sync(); });
  CHECK(grid.failure.id == "sim.grid-sync-in-block");
  CHECK(grid.failure.arg("thread") == "0");
  CHECK(grid.failure.arg("block") == "0");
  CHECK(inThisFile(grid.failure.arg("site")));
}

TEST_CASE("launch failures: more shared memory than a block has, a write past a buffer") {
  LaunchOptions options;
  options.dynamicSharedBytes = rlab::sim::kSharedMemoryPerBlock + 4;
  const Stopped shared = stopped(
      1, 32, [] {}, options);
  CHECK(shared.failure.id == "sim.shared-memory-limit");
  CHECK(shared.failure.arg("bytes") == "49156");
  CHECK(shared.failure.arg("static") == "0");
  CHECK(shared.failure.arg("dynamic") == "49156");
  CHECK(shared.failure.arg("limit") == "49152");

  rlab::SimBackend backend{LaunchOptions{}};
  auto out = backend.alloc<int>(8);
  const Stopped past = stopped([&] { backend.launch(dim3(1), dim3(32), writeAt, out.get(), 9); });
  CHECK(past.failure.id == "sim.buffer-overrun");
  CHECK(past.failure.arg("blocks") == "1");
  CHECK(past.failure.arg("threads") == "32");
  CHECK(past.failure.arg("count") == "8");
  CHECK(past.failure.arg("type") == "int");
  CHECK(past.failure.arg("last") == "7");
  CHECK(past.failure.arg("index") == "9");
  CHECK(past.what ==
        "a kernel launched with 1 block of 32 threads wrote past the end of a buffer of 8 ints "
        "(indices 0 to 7): element 9 is the first one written past the end.");
}

TEST_CASE("launch failures: a block that makes no progress in a hundred million rounds") {
  const Stopped spin = stopped(2, 1, [] {
    if (blockIdx.x == 0) return;
    for (;;) __nanosleep(1);  // block 1 spins: every round runs it again
  });
  CHECK(spin.failure.id == "sim.no-progress-in-block");
  CHECK(spin.failure.arg("block") == "1");
  CHECK(spin.failure.arg("rounds") == "100000000");
}
