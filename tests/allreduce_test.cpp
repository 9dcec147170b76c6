// Lesson allreduce on the simulator: every rank against a host reference computed here, for
// every variant, G, type, operator and awkward size; the ring's chunk-contains bitmasks against
// the algorithm's own description; and a broken ring (a fixture) that both checks catch.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/sim/shim.hpp"
#include "kernels/sim/runtime.hpp"  // the host side: launch, options, errors
// (the shim must come before any kernel source)
#include "lessons/allreduce/driver.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/backends/sim/backend.hpp"

using namespace rlab;

namespace {

Params allReduce(const std::string& variant, int gpus, long long n, ElementType type, Op op,
                 const std::string& data) {
  Params p;
  p.lesson = "allreduce";
  p.variant = variant;
  p.gpus = gpus;
  p.n = n;
  p.type = type;
  p.op = op;
  p.data = data;
  return p;
}

// Element j of the result: input[r * n + j] combined over the ranks, in 64 bits for ints
// (wrapped to 32 as the GPU does) and in double for floats, whose inputs here keep every
// partial sum exact.
std::vector<double> hostReference(const std::vector<double>& input, int gpus, long long n,
                                  ElementType type, Op op) {
  std::vector<double> expected(static_cast<size_t>(n));
  for (long long j = 0; j < n; ++j) {
    int64_t whole = op == Op::Max ? INT64_MIN : 0;
    double real = op == Op::Max ? -1e300 : 0;
    for (int r = 0; r < gpus; ++r) {
      const double v = input[size_t(r * n + j)];
      if (op == Op::Max) {
        whole = std::max(whole, int64_t(v));
        real = std::max(real, v);
      } else {
        whole += int64_t(v);
        real += v;
      }
    }
    expected[size_t(j)] =
        type == ElementType::Int ? double(int32_t(uint32_t(uint64_t(whole)))) : double(float(real));
  }
  return expected;
}

// The first (rank, element) that differs from the reference, or an empty string.
std::string firstDifference(const std::vector<std::vector<double>>& ranks,
                            const std::vector<double>& expected) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (ranks[r].size() != expected.size()) return "rank " + std::to_string(r) + " size";
    for (size_t j = 0; j < expected.size(); ++j)
      if (ranks[r][j] != expected[j])
        return "rank " + std::to_string(r) + " element " + std::to_string(j) + ": " +
               std::to_string(ranks[r][j]) + " vs " + std::to_string(expected[j]);
  }
  return "";
}

// What the ring's description says chunk c of rank r holds after `step` steps (1-based; 0 is
// the input): in the reduce-scatter the chunk has come round from rank c to rank r when
// (r - c) mod G <= step; in the all-gather rank r has the finished chunks r + 1, r, ...,
// r + 1 - s after s steps, and the rest as the reduce-scatter left them.
unsigned ringSays(int gpus, int step, int r, int c) {
  auto mod = [gpus](int v) { return ((v % gpus) + gpus) % gpus; };
  const unsigned all = (1u << gpus) - 1;
  const int scatter = std::min(step, gpus - 1), gather = std::max(0, step - (gpus - 1));
  if (gather > 0 && mod(r + 1 - c) <= gather) return all;
  unsigned mask = 1u << r;
  if (mod(r - c) <= scatter)
    for (int q = c;; q = mod(q + 1)) {
      mask |= 1u << q;
      if (q == r) break;
    }
  return mask;
}

// A ring that forgets its last all-gather step: the fixture both checks must catch.
template <class B, class T, class Op>
void driveBrokenRing(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                     Trace& out) {
  RankBuffers<B, T, Op> ranks(b, p, input, p.gpus, trace, out);
  const int g = p.gpus;
  for (int s = 0; s < g - 1; ++s) {
    for (int r = 0; r < g; ++r) ranks.fetch(r, (r + 1) % g, ranks.chunk(r - s));
    for (int r = 0; r < g; ++r) ranks.combineFetched((r + 1) % g, ranks.chunk(r - s));
    ranks.endStep(rlab::verbatim("reduce-scatter"));
  }
  for (int s = 0; s < g - 2; ++s) {
    for (int r = 0; r < g; ++r) ranks.overwrite(r, (r + 1) % g, ranks.chunk(r + 1 - s));
    ranks.endStep(rlab::verbatim("all-gather"));
  }
  ranks.finish();
}

}  // namespace

TEST_CASE("allreduce: every rank equals the host reference (simulator)") {
  for (const char* variant : {"butterfly", "ring", "nccl"})
    for (int gpus : {2, 4, 8})
      for (ElementType type : {ElementType::Int, ElementType::Float})
        for (Op op : {Op::Sum, Op::Max})
          for (long long n : {1LL, 3LL, 1000LL, (1LL << 20) + 7}) {
            // Floats: digits 0..9, so every order of additions gives the same exact sum.
            const std::string data = type == ElementType::Int ? "iota" : "random:11";
            const Params p = allReduce(variant, gpus, n, type, op, data);
            CAPTURE(variant);
            CAPTURE(gpus);
            CAPTURE(name(type));
            CAPTURE(name(op));
            CAPTURE(n);
            const Trace t = runLesson(p);
            const std::vector<double> input = makeInput(resolve(p));
            REQUIRE(t.rankResults.size() == size_t(gpus));
            CHECK(firstDifference(t.rankResults, hostReference(input, gpus, n, type, op)) == "");
            CHECK(t.correct);
          }
}

TEST_CASE("allreduce: float sums of large values stay within the reference's bound") {
  for (const char* variant : {"butterfly", "ring"}) {
    const Trace t = runLesson(allReduce(variant, 8, 1000, ElementType::Float, Op::Sum, "iota"));
    CHECK(t.correct);
    // The ranks agree bit for bit: the gather copies, the butterfly adds a + b and b + a.
    for (const auto& rank : t.rankResults) CHECK(rank == t.rankResults[0]);
  }
}

TEST_CASE("allreduce: the ring's chunk masks after each step are the algorithm's") {
  for (int gpus : {2, 4, 8})
    for (long long n : {3LL, 8LL, 13LL}) {
      CAPTURE(gpus);
      CAPTURE(n);
      // Rank q's input is 2^q everywhere: a sum then is the set of ranks it holds, measured.
      Params p = allReduce("ring", gpus, n, ElementType::Int, Op::Sum, "");
      for (int q = 0; q < gpus; ++q)
        for (long long j = 0; j < n; ++j) p.values.push_back(double(1 << q));
      p.n = 0;
      const Trace t = runLesson(p);
      REQUIRE(t.steps.size() == size_t(2 * (gpus - 1) + 1));
      REQUIRE(t.chunkStarts.size() == size_t(gpus + 1));
      for (size_t step = 0; step < t.steps.size(); ++step) {
        const StepSnapshot& s = t.steps[step];
        REQUIRE(s.contains.size() == size_t(gpus));
        for (int r = 0; r < gpus; ++r)
          for (int c = 0; c < gpus; ++c) {
            CAPTURE(step);
            CAPTURE(r);
            CAPTURE(c);
            CHECK(s.contains[r][c] == ringSays(gpus, int(step), r, c));
            for (long long j = t.chunkStarts[c]; j < t.chunkStarts[c + 1]; ++j)
              CHECK(s.values[size_t(r * n + j)] == double(s.contains[r][c]));
          }
        // Every step but the input: each rank sends one chunk, n / G elements of 4 bytes.
        if (step > 0)
          for (const Transfer& x : s.transfers) {
            CHECK(x.to == (x.from + 1) % gpus);
            CHECK(x.bytes == (x.end - x.begin) * 4);
            CHECK(x.combined == (step < size_t(gpus)));
          }
      }
    }
}

TEST_CASE("allreduce: the butterfly exchanges whole buffers with rank ^ 2^k") {
  const Trace t = runLesson(allReduce("butterfly", 8, 5, ElementType::Int, Op::Sum, "iota"));
  REQUIRE(t.steps.size() == 4);  // the input and log2 8 steps
  for (size_t k = 1; k < t.steps.size(); ++k) {
    REQUIRE(t.steps[k].transfers.size() == 8);
    for (const Transfer& x : t.steps[k].transfers) {
      CHECK(x.from == (x.to ^ (1 << (k - 1))));
      CHECK(x.begin == 0);
      CHECK(x.end == 5);
      CHECK(x.bytes == 20);
    }
    // After k steps rank r holds the 2^k ranks that share its bits above the lowest k.
    const int group = 1 << k;
    for (int r = 0; r < 8; ++r)
      CHECK(t.steps[k].contains[r][0] == ((1u << group) - 1u) << (r & ~(group - 1)));
  }
}

TEST_CASE("allreduce: a ring that skips a gather step is caught") {
  for (int gpus : {4, 8}) {
    Params p = allReduce("ring", gpus, 16, ElementType::Int, Op::Sum, "iota");
    const Resolved r = resolve(p);
    const std::vector<double> input = makeInput(r);
    SimBackend b(sim::LaunchOptions{});
    const std::vector<int> host(input.begin(), input.end());
    auto buffer = b.alloc<int>(host.size());
    b.upload(buffer, host.data(), host.size());
    Trace t;
    StepSnapshot first;
    first.values = input;
    t.steps.push_back(first);
    driveBrokenRing<SimBackend, int, SumOp>(b, r.params, buffer, true, t);
    CHECK(firstDifference(t.rankResults,
                          hostReference(input, gpus, 16, ElementType::Int, Op::Sum)) != "");
    bool masksDiffer = false;
    for (int q = 0; q < gpus; ++q)
      for (int c = 0; c < gpus; ++c)
        masksDiffer |= t.steps.back().contains[q][c] != ringSays(gpus, 2 * (gpus - 1), q, c);
    CHECK(masksDiffer);
  }
}

TEST_CASE("allreduce: --gpus is checked in one sentence") {
  auto message = [](Params p) {
    try {
      resolve(p);
    } catch (const ParamError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(allReduce("ring", 3, 8, ElementType::Int, Op::Sum, "iota")) ==
        "--gpus 3 is not allowed; use 1, 2, 4 or 8.");
  Params other;
  other.lesson = "folding";
  other.gpus = 2;
  CHECK(message(other) == "--gpus is only for the allreduce lesson; folding runs on one GPU.");
  Params values = allReduce("ring", 4, 0, ElementType::Int, Op::Sum, "iota");
  values.values = {1, 2, 3, 4, 5, 6};
  CHECK(message(values).find("do not split evenly over --gpus 4") != std::string::npos);
  // One GPU: nothing to exchange, the input is the result.
  const Trace one = runLesson(allReduce("ring", 1, 5, ElementType::Int, Op::Sum, "iota"));
  CHECK(one.correct);
  CHECK(one.steps.size() == 1);
}

TEST_CASE("allreduce: a chunk's ranks as the views name them, runs shortened past 4 GPUs") {
  CHECK(ranksText(0b1111, 4) == "all");
  CHECK(ranksText(0b0111, 4) == "0+1+2");
  CHECK(ranksText(0b1001, 4) == "0+3");
  CHECK(ranksText(0b11000111, 8) == "0-2+6+7");
  CHECK(ranksText(0b01111100, 8) == "2-6");
  CHECK(ranksText(0b01010101, 8) == "0+2+4+6");
  CHECK(ranksText(0b11111111, 8) == "all");
}
