// shared coarsened with every elements-per-thread count the tests sweep, with and without the
// add during the load, at awkward n, against a host reference: on the simulator
// (coarsening_test.cpp) and on the GPU (gpu_test.cpp), the same cases.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab::testing {

// shared coarsened over n elements, iota, in blocks of `block` (0: the default).
inline Params coarsenedParams(int64_t n, int block, int perThread, bool loadAdd) {
  Params p;
  p.lesson = "shared";
  p.variant = "coarsened";
  p.n = n;
  p.block = block;
  p.data = "iota";
  p.perThread = perThread;
  p.loadAdd = loadAdd;
  return p;
}

inline void checkCoarsenedSweep(BackendChoice backend) {
  for (const int perThread : {1, 2, 3, 7, 16, 32})
    for (const bool loadAdd : {true, false})
      for (const int64_t n :
           {int64_t(1), int64_t(3), int64_t(255), int64_t(1000), (int64_t(1) << 16) + 3})
        for (const ElementType type : {ElementType::Int, ElementType::Float}) {
          Params p = coarsenedParams(n, 0, perThread, loadAdd);
          p.type = type;
          p.data = "random:7";
          p.backend = backend;
          p.trace = false;
          p.timed = false;
          CAPTURE(perThread);
          CAPTURE(loadAdd);
          CAPTURE(n);
          CAPTURE(name(type));
          const Trace t = runLesson(p);
          CHECK(t.backend == backend);
          // The host reference: the plain loop over the same input. The data are whole numbers
          // 0..9, so every partial sum is exact in both types: the result must equal it.
          double sum = 0;
          for (double v : makeInput(resolve(p))) sum += v;
          CHECK(t.correct);
          CHECK(t.result == sum);
        }
}

// The gather step of coarsened runs with the add during the load, recorded on `backend`, at
// awkward n and elements per thread, in blocks of 256 and of 32 (several blocks at small n).
struct GatherCase {
  int64_t n;
  int block, perThread;
  Trace trace;
};
inline std::vector<GatherCase> gatherCases(BackendChoice backend) {
  std::vector<GatherCase> cases;
  for (const int block : {256, 32})
    for (const int perThread : {1, 2, 3, 4, 8, 32})
      for (const int64_t n : {1, 255, 256, 257, 1000, 4097}) {
        Params p = coarsenedParams(n, block, perThread, true);
        p.data = "random:11";
        p.backend = backend;
        p.timed = false;
        cases.push_back({n, block, perThread, runLesson(p)});
      }
  return cases;
}

// The elements thread `thread` (of the grid) reads, by the kernel's indexing written again on
// the host: its block's share of block · perThread elements, its own index, then block apart.
inline std::vector<int> gridStrideElements(int64_t thread, int block, int perThread, int64_t n) {
  std::vector<int> elements;
  const int64_t base = thread / block * block * perThread, tid = thread % block;
  for (int k = 0; k < perThread && base + k * block + tid < n; ++k)
    elements.push_back(int(base + k * block + tid));
  return elements;
}

// The gather step holds every thread's reads: the grid-stride elements, with the input's values.
inline void checkGatherAgainstHost(const GatherCase& c) {
  CAPTURE(c.n);
  CAPTURE(c.block);
  CAPTURE(c.perThread);
  const Trace& t = c.trace;
  REQUIRE(t.steps.size() >= 3);
  const StepSnapshot& gather = t.steps[1];
  CHECK(gather.cells == CellKind::Elements);
  CHECK(gather.values == t.steps[0].values);  // the input, read, not changed
  CHECK(t.steps[2].cells == CellKind::Threads);
  const int64_t threads =
      (c.n + int64_t(c.block) * c.perThread - 1) / (int64_t(c.block) * c.perThread) * c.block;
  REQUIRE(int64_t(gather.gathers.size()) == threads);
  std::vector<int> readers(size_t(c.n), 0);
  for (int64_t thread = 0; thread < threads; ++thread) {
    CAPTURE(thread);
    const ThreadGather& g = gather.gathers[size_t(thread)];
    CHECK(g.elements == gridStrideElements(thread, c.block, c.perThread, c.n));
    REQUIRE(g.values.size() == g.elements.size());
    double sum = 0;
    for (size_t k = 0; k < g.elements.size(); ++k) {
      CHECK(g.values[k] == t.steps[0].values[size_t(g.elements[k])]);
      sum += g.values[k];
      ++readers[size_t(g.elements[k])];
    }
    // ... and the step after holds each thread's sum of exactly those values
    CHECK(t.steps[2].values[size_t(thread)] == sum);
  }
  CHECK(std::count(readers.begin(), readers.end(), 1) == c.n);  // every element read once
  CHECK(t.correct);
}

}  // namespace rlab::testing
