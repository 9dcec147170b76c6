// The simulator against the CUDA a learner brings: each probe of tests/conformance/ (one small
// kernel per feature) compiled and run as a learner's kernel is, on awkward launches (partial
// warps, a block of one, n short of the threads) and under schedules that let threads overtake
// each other, against the host's answer (tests/conformance_cases.hpp). tests/gpu_test.cpp runs
// the same probes on the GPU and sets the two backends against each other; here NVRTC compiles
// each one as the GPU path does, which needs no device.
#include <doctest/doctest.h>

#include "lessons/engine/exercise/probe.hpp"
#include "tests/conformance_cases.hpp"

using namespace rlab;
using namespace rlab::conformance;

namespace {

std::string diagnosticsText(const ProbeReport& r) {
  std::string text;
  for (const auto& d : r.diagnostics) text += d.text("probe") + "\n";
  return text;
}

void checkOnSimulator(const std::string& name) {
  const ConformanceCase& c = conformanceCase(name);
  std::vector<ProbeLaunch> launches = probeLaunches(c.columns, c.perBlock, c.sharedPerThread);
  // The three-warp and the partial-warp launches again, threads out of step.
  const std::vector<ProbeLaunch> again = {launches[1], launches[3]};
  for (const char* schedule : {"random:7", "warps-random:3", "stall:33:1:2", "reverse"})
    for (ProbeLaunch l : again) {
      l.schedule = schedule;
      launches.push_back(l);
    }
  const std::vector<int> input = probeInput(256);
  const ProbeReport r = runProbe(conformanceFile(c), input, launches, BackendChoice::Sim);
  REQUIRE_MESSAGE(r.ran(), name << ": " << r.problem << "\n" << diagnosticsText(r));
  for (size_t k = 0; k < launches.size(); ++k) {
    const ProbeLaunch& l = launches[k];
    INFO(name << " <<<" << l.grid << ", " << l.block << ", " << l.sharedBytes << ">>> n = " << l.n
              << ", schedule " << l.schedule);
    if (c.readsMissingLanes && hasPartialWarp(l)) {
      CHECK_MESSAGE(refusedMissingLane(r.results[k].failure), r.results[k].failure);
      continue;
    }
    CHECK_MESSAGE(r.results[k].failure.empty(), r.results[k].failure);
    const std::string difference = firstDifference(r.results[k].out, c.answer(input, l), c.columns);
    CHECK_MESSAGE(difference.empty(), difference);
  }
}

}  // namespace

TEST_CASE("conformance: warp vote, with a mask that leaves lanes out") {
  checkOnSimulator("warp_vote");
}
TEST_CASE("conformance: warp match and reduce, with a mask that leaves lanes out") {
  checkOnSimulator("warp_match_reduce");
}
TEST_CASE("conformance: __activemask and coalesced_threads in a branch") {
  checkOnSimulator("active_lanes");
}
TEST_CASE("conformance: shuffles of four types, whole warps and segments of 8") {
  checkOnSimulator("shuffles");
}
TEST_CASE("conformance: __syncthreads_count, _and and _or") {
  checkOnSimulator("block_votes");
}
TEST_CASE("conformance: integer intrinsics") {
  checkOnSimulator("integer_intrinsics");
}
TEST_CASE("conformance: every atomic CUDA has, for its types") {
  checkOnSimulator("atomics");
}
TEST_CASE("conformance: extern __shared__, sized by the launch") {
  checkOnSimulator("dynamic_shared");
}
TEST_CASE("conformance: __align__ and the vector types' alignment") {
  checkOnSimulator("alignment");
}
TEST_CASE("conformance: cooperative groups' thread block") {
  checkOnSimulator("cg_block");
}
TEST_CASE("conformance: cooperative groups' tiles of 1 to 32 threads") {
  checkOnSimulator("cg_tiles");
}
TEST_CASE("conformance: cg::reduce with CUDA's functors and a lambda") {
  checkOnSimulator("cg_reduce");
}
TEST_CASE("conformance: cooperative groups' grid without a cooperative launch") {
  checkOnSimulator("cg_grid");
}
TEST_CASE("conformance: tiles made at run time, of a block and of coalesced lanes") {
  checkOnSimulator("cg_partitions");
}
TEST_CASE("conformance: malloc, free, new and delete on the device heap") {
  checkOnSimulator("device_heap");
}
TEST_CASE("conformance: min, max, bit casts, fences, clock64, __constant__") {
  checkOnSimulator("misc");
}

TEST_CASE("conformance: every probe compiles with NVRTC, as the GPU path compiles it") {
  for (const ConformanceCase& c : conformanceCases()) {
    const ProbeReport r = runProbe(conformanceFile(c), {}, {}, BackendChoice::Gpu, true);
    if (r.problem.find("NVRTC (") != std::string::npos ||
        r.problem.find("no GPU path") != std::string::npos) {
      MESSAGE("skipped: " << r.problem);
      return;
    }
    CHECK_MESSAGE(r.problem.empty(), c.name << ": " << r.problem << "\n" << diagnosticsText(r));
  }
}
