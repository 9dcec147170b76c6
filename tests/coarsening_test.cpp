// shared coarsened's elements per thread and add during the load on the simulator, and the
// speed-up table's columns computed from given times.
#include <doctest/doctest.h>

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "tests/coarsening_cases.hpp"

using namespace rlab;
using rlab::testing::coarsenedParams;

namespace {

BenchRow timed(const std::string& kernel, BenchRole role, long long n, double ms) {
  BenchRow r;
  r.kernel = kernel;
  r.role = role;
  r.n = n;
  r.ms = ms;
  return r;
}

}  // namespace

TEST_CASE("coarsened: every elements per thread, with and without the load add, on the simulator") {
  testing::checkCoarsenedSweep(BackendChoice::Sim);
}

TEST_CASE("coarsened: the gather step holds each thread's grid-stride reads, as recorded") {
  for (const testing::GatherCase& c : testing::gatherCases(BackendChoice::Sim))
    testing::checkGatherAgainstHost(c);
}

TEST_CASE("coarsened: without tracing, nothing is gathered and the sum is the same") {
  Params p = coarsenedParams(1000, 0, 0, true);
  p.trace = false;
  const Trace t = runLesson(p);
  CHECK(t.steps.empty());
  CHECK(t.correct);
}

TEST_CASE("coarsened: the kernel's own 8 elements per thread, with the add during the load") {
  const Params resolved = resolve(coarsenedParams(1000, 0, 0, true)).params;
  CHECK(resolved.perThread == 8);
  CHECK(resolved.loadAdd);
  const Trace t = runLesson(coarsenedParams(1000, 0, 0, true));
  REQUIRE(t.steps.size() >= 3);
  // 1000 elements for 256 threads: thread 0 takes elements 0, 256, 512 and 768, not 8.
  CHECK(rlab::english(t.steps[1].label) == "each thread t reads up to 4 elements: t, t + 256, …");
  CHECK(t.steps[1].gathers[0].elements == std::vector<int>{0, 256, 512, 768});
  CHECK(t.steps[1].gathers[255].elements == std::vector<int>{255, 511, 767});
  CHECK(t.steps[1].active.size() == 256);
  CHECK(rlab::english(t.steps[2].label) == "each thread combines up to 4 elements, 256 apart");
  CHECK(t.steps[2].cells == CellKind::Threads);
  CHECK(t.steps[2].values.size() == 256);
  CHECK(t.steps[2].values[0] == 1 + 257 + 513 + 769);
}

TEST_CASE("coarsened without the load add: the tree's first levels add a thread's elements") {
  // 8 elements, 2 threads, 2 elements each: two blocks of 4; stride 2, then stride 1.
  const Trace two = runLesson(coarsenedParams(8, 2, 2, false));
  REQUIRE(two.steps.size() == 3);
  CHECK(rlab::english(two.steps[1].label) == "stride 2");
  CHECK(two.steps[1].values == std::vector<double>{4, 6, 3, 4, 12, 14, 7, 8});
  CHECK(two.steps[1].active == std::vector<int>{0, 1, 2, 3});
  CHECK(two.steps[2].values == std::vector<double>{10, 6, 3, 4, 26, 14, 7, 8});
  CHECK(two.result == 36);
  // 4 elements each: one block of 8, where each thread adds two pairs in the first level.
  const Trace four = runLesson(coarsenedParams(8, 2, 4, false));
  REQUIRE(four.steps.size() == 4);
  CHECK(four.steps[1].values == std::vector<double>{6, 8, 10, 12, 5, 6, 7, 8});
  CHECK(four.steps[1].active == std::vector<int>{0, 1});  // threads, not pairs
  CHECK(four.steps[1].combines.size() == 4);
  CHECK(four.result == 36);
  // 3 elements each: 6 in a block, folded 6 -> 3 -> 2 -> 1.
  const Trace three = runLesson(coarsenedParams(6, 2, 3, false));
  REQUIRE(three.steps.size() == 4);
  CHECK(rlab::english(three.steps[2].label) == "fold 3 onto 2");
  CHECK(three.result == 21);
}

TEST_CASE("coarsened with the load add: the reads, the own sums, then the tree over the threads") {
  const Trace t = runLesson(coarsenedParams(8, 2, 4, true));  // one block, thread 0: 1+3+5+7
  REQUIRE(t.steps.size() == 4);
  CHECK(rlab::english(t.steps[1].label) == "each thread t reads 4 elements: t, t + 2, …");
  CHECK(t.steps[1].gathers[1].elements == std::vector<int>{1, 3, 5, 7});
  CHECK(t.steps[1].gathers[1].values == std::vector<double>{2, 4, 6, 8});
  CHECK(rlab::english(t.steps[2].label) == "each thread combines 4 elements, 2 apart");
  CHECK(t.steps[2].values == std::vector<double>{16, 20});
  CHECK(t.steps[3].values == std::vector<double>{36, 20});
  CHECK(t.steps[3].combines.at(0).source.writtenAt == 2);  // the sums' step, after the gather
  const Trace one = runLesson(coarsenedParams(5, 4, 1, true));
  CHECK(rlab::english(one.steps[1].label) == "each thread t reads element t");
  CHECK(rlab::english(one.steps[2].label) == "each thread combines 1 element");
  CHECK(one.result == 15);
}

TEST_CASE("elements per thread and the load add: bad values are refused in one sentence") {
  auto refusal = [](const Params& p) {
    try {
      resolve(p);
    } catch (const ParamError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal(coarsenedParams(100, 0, 33, true)) ==
        "--per-thread 33 is not allowed; use a whole number from 1 to 32.");
  CHECK(refusal(coarsenedParams(100, 0, -1, true)).find("--per-thread -1") == 0);
  CHECK(refusal(coarsenedParams(100, 1024, 9, false)).find("more than the 8192 that fit") !=
        std::string::npos);
  CHECK(refusal(coarsenedParams(100, 1024, 8, false)).empty());
  Params multiblock = coarsenedParams(100, 0, 4, true);
  multiblock.variant = "multiblock";
  CHECK(refusal(multiblock).find("--per-thread is only for") == 0);
  multiblock.perThread = 0;
  multiblock.loadAdd = false;
  CHECK(refusal(multiblock).find("--no-load-add is only for") == 0);
}

TEST_CASE("the speed-up table: x the CPU loop and x the previous kernel, per n") {
  std::vector<BenchRow> rows = {
      timed("cpu loop", BenchRole::CpuLoop, 1024, 8.0),
      timed("cub", BenchRole::Cub, 1024, 0.5),
      timed("atomic", BenchRole::Lesson, 1024, 4.0),
      timed("folding", BenchRole::Lesson, 1024, 2.0),
      timed("shared coarsened", BenchRole::Lesson, 1024, 0.25),
      timed("copy (read n at copy speed)", BenchRole::Roofline, 1024, 0.1),
      timed("cpu loop", BenchRole::CpuLoop, 4096, 30.0),
      timed("atomic", BenchRole::Lesson, 4096, 10.0),
      timed("folding", BenchRole::Lesson, 4096, 0.0),  // not measured (cancelled)
      timed("shared coarsened", BenchRole::Lesson, 4096, 3.0),
  };
  BenchRow across = timed("allreduce ring", BenchRole::Lesson, 1024, 1.0);
  across.gpus = 2;
  rows.push_back(across);
  fillSpeedUps(rows);
  CHECK(rows[0].cpuRatio == 1);
  CHECK(rows[0].previousRatio == 0);  // the CPU loop is no kernel of the course
  CHECK(rows[1].cpuRatio == 16);
  CHECK(rows[1].previousRatio == 0);
  CHECK(rows[2].cpuRatio == 2);
  CHECK(rows[2].previousRatio == 0);  // the first lesson kernel of its n
  CHECK(rows[3].cpuRatio == 4);
  CHECK(rows[3].previousRatio == 2);
  CHECK(rows[4].cpuRatio == 32);
  CHECK(rows[4].previousRatio == 8);
  CHECK(rows[5].cpuRatio == 80);
  CHECK(rows[5].previousRatio == 0);
  CHECK(rows[7].cpuRatio == 3);       // 4096's own CPU loop, not 1024's
  CHECK(rows[7].previousRatio == 0);  // nothing before it at 4096
  CHECK(rows[8].cpuRatio == 0);       // no time: no ratio
  CHECK(rows[9].cpuRatio == 10);
  CHECK(rows[9].previousRatio == 0);  // the kernel before it has no time
  CHECK(rows[10].cpuRatio == 0);      // across GPUs: not in the table
}

TEST_CASE("bench: shared coarsened once per elements per thread, named by them") {
  BenchRequest request;
  request.kernels = {{"shared", "multiblock"}, {"shared", "coarsened"}, {"fastest", "default"}};
  auto names = [](const std::vector<BenchKernel>& kernels) {
    std::vector<std::string> out;
    for (const BenchKernel& k : kernels) out.push_back(k.name);
    return out;
  };
  const auto plain = benchKernels(request);
  CHECK(names(plain) ==
        std::vector<std::string>{"shared multiblock", "shared coarsened", "fastest"});
  CHECK(plain[1].params.perThread == 8);
  CHECK(plain[0].params.perThread == 0);
  request.perThread = {1, 4};
  request.loadAdd = false;
  const auto swept = benchKernels(request);
  CHECK(names(swept) == std::vector<std::string>{"shared multiblock",
                                                 "shared coarsened K=1, no load add",
                                                 "shared coarsened K=4, no load add", "fastest"});
  CHECK(swept[2].params.perThread == 4);
  CHECK_FALSE(swept[2].params.loadAdd);
}

TEST_CASE("bench on the simulator: a CPU loop row for each n, and no kernel ratios") {
  BenchRequest request;
  request.sizes = {1000, 3000};
  request.kernels = {{"shared", "coarsened"}};
  request.perThread = {2, 16};
  request.reps = 1;
  const auto rows = benchSimulator(request, nullptr);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].role == BenchRole::CpuLoop);
  CHECK(rows[0].ms > 0);
  CHECK(rows[1].kernel == "shared coarsened K=2");
  CHECK(rows[1].perThread == 2);
  CHECK(rows[2].perThread == 16);
  CHECK(rows[3].role == BenchRole::CpuLoop);
  CHECK(rows[3].n == 3000);
  for (const BenchRow& r : rows) CHECK(r.cpuRatio == 0);
}
