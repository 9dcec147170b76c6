// Coalescing: the sectors each warp's global load or store touched, from the addresses the
// simulator saw, against sector sets worked out by hand.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/engine/run/run.hpp"

namespace {

using rlab::WarpMemoryRequest;

rlab::Trace runWithMemory(const std::string& lesson, const std::string& variant, int64_t n,
                          rlab::ElementType type, bool memory = true) {
  rlab::Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.type = type;
  p.data = "random:3";
  p.memory = memory;
  return rlab::runLesson(p);
}

std::set<long long> sectorsOf(const WarpMemoryRequest& r) {
  std::set<long long> s;
  for (const auto& lane : r.lanes) s.insert(lane.sector);
  return s;
}

std::set<long long> range(long long first, long long last) {
  std::set<long long> s;
  for (long long k = first; k <= last; ++k) s.insert(k);
  return s;
}

// The requests of a step for one warp, loads first in the order of their lanes' first sector.
std::vector<const WarpMemoryRequest*> requestsOf(const rlab::StepSnapshot& s, int warp,
                                                 bool write) {
  std::vector<const WarpMemoryRequest*> out;
  for (const auto& r : s.memory)
    if (r.warp == warp && r.write == write) out.push_back(&r);
  return out;
}

}  // namespace

TEST_CASE("coalescing: the interleaved tree in global memory, n = 64, by hand") {
  // barrier global: at stride i, thread tid works when tid % 2i == 0, reading a[tid] and
  // a[tid + i] and writing a[tid]. 4-byte elements, 32-byte sectors hold 8 of them.
  //   stride 1: 16 lanes of a warp, every other element of 32: 64 bytes in 4 sectors (2 at best)
  //   stride 2:  8 lanes, every 4th element:  32 bytes in 4 sectors (1 at best)
  //   stride 4:  4 lanes, every 8th element:  16 bytes in 4 sectors, one element in each
  //   stride 8:  2 lanes (tid 0, 16):          8 bytes in 2 sectors
  //   stride 16: 1 lane: 1 sector; stride 32: thread 0 alone, warp 1 idle
  struct Level {
    int lanes, sectors, useful, best;
  };
  const Level levels[] = {{16, 4, 64, 2}, {8, 4, 32, 1}, {4, 4, 16, 1},
                          {2, 2, 8, 1},   {1, 1, 4, 1},  {1, 1, 4, 1}};
  for (auto type : {rlab::ElementType::Int, rlab::ElementType::Float}) {
    CAPTURE(rlab::name(type));
    const rlab::Trace t = runWithMemory("barrier", "global", 64, type);
    REQUIRE(t.memoryRecorded);
    REQUIRE(t.steps.size() == 7);
    CHECK(t.correct);
    for (int k = 0; k < 6; ++k) {
      CAPTURE(k);
      const int stride = 1 << k;
      const rlab::StepSnapshot& s = t.steps[size_t(k + 1)];
      for (int warp = 0; warp < 2; ++warp) {
        CAPTURE(warp);
        const auto loads = requestsOf(s, warp, false);
        const auto stores = requestsOf(s, warp, true);
        if (stride == 32 && warp == 1) {
          CHECK(loads.empty());
          CHECK(stores.empty());
          continue;
        }
        REQUIRE(loads.size() == 2);  // a[tid], a[tid + stride]
        REQUIRE(stores.size() == 1);
        for (const WarpMemoryRequest* r : {loads[0], loads[1], stores[0]}) {
          CHECK(int(r->lanes.size()) == levels[k].lanes);
          CHECK(r->sectors == levels[k].sectors);
          CHECK(r->usefulBytes == levels[k].useful);
          CHECK(r->minSectors == levels[k].best);
        }
        // The sectors themselves, counted from the warp's first (its 32 elements are sectors
        // 4w .. 4w + 3): the store's (a[tid]) and both loads' together.
        const std::set<long long> stored[] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3},
                                              {0, 2},       {0},          {0}};
        const std::set<long long> loaded[] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3},
                                              {0, 1, 2, 3}, {0, 2},       {0, 4}};
        std::set<long long> store, load;
        for (long long x : sectorsOf(*stores[0])) store.insert(x - 4 * warp);
        for (const WarpMemoryRequest* r : loads)
          for (long long x : sectorsOf(*r)) load.insert(x - 4 * warp);
        CHECK(store == stored[k]);
        CHECK(load == loaded[k]);
      }
    }
    // Stride 1, warp 0: the lanes are 0, 2, ..., 30 (threads 0..30 even) at bytes 0, 8, ...
    const auto first = requestsOf(t.steps[1], 0, false);
    std::vector<int> lanes;
    for (const auto& a : first[0]->lanes) lanes.push_back(a.lane);
    CHECK(lanes.front() == 0);
    CHECK(lanes.back() == 30);
    CHECK(first[0]->lanes[1].offset - first[0]->lanes[0].offset == 8);
    CHECK(rlab::sectorEfficiency(*first[0]) == doctest::Approx(50));
  }
}

TEST_CASE("coalescing: sequential addressing in global memory is fully coalesced") {
  // shared global, n = 64, one block of 64: at stride s, threads tid < s read a[tid] and
  // a[tid + s]. Stride 32: warp 0's 32 lanes read 32 consecutive 4-byte elements, 128 bytes in
  // 4 sectors, one 128-byte line: 100%. Stride 16: 16 lanes, 64 bytes, 2 sectors.
  for (auto type : {rlab::ElementType::Int, rlab::ElementType::Float}) {
    CAPTURE(rlab::name(type));
    const rlab::Trace t = runWithMemory("shared", "global", 64, type);
    REQUIRE(t.memoryRecorded);
    REQUIRE(t.steps.size() == 7);
    CHECK(t.correct);
    const auto loads = requestsOf(t.steps[1], 0, false);
    REQUIRE(loads.size() == 2);
    for (const WarpMemoryRequest* r : loads) {
      CHECK(r->lanes.size() == 32);
      CHECK(r->sectors == 4);
      CHECK(r->lines == 1);
      CHECK(r->usefulBytes == 128);
      CHECK(rlab::sectorEfficiency(*r) == doctest::Approx(100));
    }
    std::set<long long> both = sectorsOf(*loads[0]);
    for (long long x : sectorsOf(*loads[1])) both.insert(x);
    CHECK(both == range(0, 7));
    CHECK(requestsOf(t.steps[1], 1, false).empty());  // warp 1 sits this level out
    for (int k = 1; k <= 6; ++k) {
      const rlab::MemoryStepSummary sum = rlab::summarizeMemory(t.steps[size_t(k)].memory);
      CHECK(sum.sectors == sum.minSectors);  // every level as few sectors as its bytes need
      CHECK(sum.requests == 3);
    }
    CHECK(rlab::summarizeMemory(t.steps[6].memory).efficiency == doctest::Approx(12.5));
  }
}

TEST_CASE("coalescing: folding n = 33 straddles sectors, n = 64 does not") {
  // n = 33: reduce 16, remain 17. a[0..15] is bytes 0..63: 2 sectors; a[17..32] is bytes
  // 68..131: sectors 2, 3 and 4, three sectors for 64 bytes (66.7%).
  const rlab::Trace odd = runWithMemory("folding", "", 33, rlab::ElementType::Int);
  REQUIRE(odd.memoryRecorded);
  const auto loads = requestsOf(odd.steps[1], 0, false);
  REQUIRE(loads.size() == 2);
  CHECK(sectorsOf(*loads[0]) == range(0, 1));
  CHECK(sectorsOf(*loads[1]) == range(2, 4));
  CHECK(loads[1]->sectors == 3);
  CHECK(loads[1]->minSectors == 2);
  CHECK(rlab::sectorEfficiency(*loads[1]) == doctest::Approx(200.0 / 3));
  const rlab::Trace even = runWithMemory("folding", "", 64, rlab::ElementType::Float);
  const auto aligned = requestsOf(even.steps[1], 0, false);
  REQUIRE(aligned.size() == 2);
  CHECK(sectorsOf(*aligned[1]) == range(4, 7));
}

TEST_CASE("coalescing: nothing is recorded unless asked, nor for shared-memory steps") {
  const rlab::Trace plain = runWithMemory("barrier", "global", 64, rlab::ElementType::Int, false);
  CHECK_FALSE(plain.memoryRecorded);
  for (const auto& s : plain.steps) CHECK(s.memory.empty());
  const rlab::Trace shared = runWithMemory("divergence", "sequential", 64, rlab::ElementType::Int);
  CHECK_FALSE(shared.memoryRecorded);
  bool said = false;
  for (const auto& note : shared.notes)
    said |= rlab::english(note).find("bank conflicts") != std::string::npos;
  CHECK(said);
}

TEST_CASE("rlab run --memory prints sectors per warp request, as text and JSON") {
  auto rlab = [](std::vector<std::string> args, std::string& out, std::string& err) {
    std::ostringstream o, e;
    rlab::cli::Terminal wide;  // every request on one line
    wide.width = 200;
    const int code = rlab::cli::main(args, o, e, wide);
    out = o.str();
    err = e.str();
    return code;
  };
  std::string out, err;
  REQUIRE(rlab({"run", "barrier", "--n", "64", "--memory"}, out, err) == 0);
  CHECK(out.find("memory: 6 warp requests, 24 sectors for 384 useful bytes (50.0% efficiency; "
                 "12 sectors at best)") != std::string::npos);
  CHECK(out.find("block 0 warp 0 load  arg 0: 16 lanes, 4 sectors (2 at best), 1 line, 64 "
                 "useful bytes, 50.0%") != std::string::npos);
  REQUIRE(
      rlab({"run", "shared", "--variant", "global", "--n", "64", "--memory", "--format", "json"},
           out, err) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["memory_recorded"] == true);
  CHECK(j["steps"][1]["memory"]["sectors"] == 12);
  CHECK(j["steps"][1]["memory"]["efficiency_percent"] == 100.0);
  CHECK(j["steps"][1]["memory"]["requests"][0]["lanes"].size() == 32);
  CHECK(rlab({"run", "barrier", "--memory", "--backend", "gpu"}, out, err) == 2);
  CHECK(err.find("--memory counts the sectors from the addresses the simulator sees") !=
        std::string::npos);
}
