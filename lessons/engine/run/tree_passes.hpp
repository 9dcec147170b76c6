// Block trees that write one partial per block: launch over the input, then over the
// partials, until one value is left (divergence, shared global/shared).
#pragma once
#include <map>
#include <set>

#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

enum class StrideOrder { Up, Down };  // 1, 2, 4 ... or blockDim/2 ... 1

// Warps with active lanes, and the worst number of distinct shared-memory words a warp's
// writes put into one bank (32 banks of 4 bytes): 1 means no conflict.
inline void measureWarps(StepSnapshot& s, int block) {
  std::set<int> warps;
  int worst = 0;
  std::map<std::pair<int, int>, std::set<int>> wordsPerWarpBank;
  for (size_t k = 0; k < s.active.size(); ++k) {
    const int warp = s.active[k] / 32;
    warps.insert(warp);
    const int word = s.pairs[k].second % block;
    auto& words = wordsPerWarpBank[{warp, word % 32}];
    words.insert(word);
    worst = std::max(worst, int(words.size()));
  }
  s.activeWarps.assign(warps.begin(), warps.end());
  s.bankConflictDegree = worst;
}

// `launch(grid, block, source, len, partials, recorder)` launches one pass; `label(k)` names
// level k of a pass (from 0), a Message. `clocks`: the kernel stamps when each combine read and
// wrote.
template <class B, class T, class Launch, class Label>
void runTreePasses(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                   Launch launch, Label label, bool measure, bool clocks, Trace& out) {
  const int levels = levelsBelow(p.block);
  typename B::template Buffer<T> previous = b.template alloc<T>(0);
  T* source = input.get();
  long long len = p.n;
  for (int pass = 1;; ++pass) {
    const long long blocks = blocksFor(len, p.block);
    auto partials = b.template alloc<T>(size_t(blocks));
    Recording<B, T> rec(b, trace, levels, 0, blocks * p.block, clocks);
    const auto initial =
        rec.on() ? downloadAsDoubles<B, T>(b, source == input.get() ? input : previous, size_t(len))
                 : std::vector<double>{};
    launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), source, len, partials.get(),
           rec.recorder());
    if (rec.on()) {
      std::vector<Message> labels;
      for (int k = 0; k < levels; ++k)
        labels.push_back(pass > 1
                             ? Message("step.pass-level", {{"pass", pass}, {"level", label(k)}})
                             : label(k));
      std::vector<StepSnapshot> steps = rec.snapshots(labels, initial);
      if (measure)
        for (StepSnapshot& s : steps) measureWarps(s, p.block);
      appendSteps(out, std::move(steps));
    }
    if (pass == 1 && trace)
      out.blockPartials = downloadAsDoubles<B, T>(b, partials, size_t(blocks));
    if (blocks == 1) {
      out.result = double(downloadOne<B, T>(b, partials));
      return;
    }
    previous = std::move(partials);
    source = previous.get();
    len = blocks;
  }
}

template <class B, class T, class Kernel>
void runTreePasses(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                   Kernel kernel, StrideOrder order, bool measure, Trace& out) {
  auto launch = [&](dim3 grid, dim3 block, T* source, long long len, T* partials,
                    StepRecorder<T> recorder) {
    b.launch(grid, block, kernel, source, len, partials, recorder);
  };
  auto label = [&](int k) {
    return Message("step.stride",
                   {{"stride", order == StrideOrder::Up ? 1 << k : p.block >> (k + 1)}});
  };
  runTreePasses<B, T>(b, p, input, trace, launch, label, measure, false, out);
}

}  // namespace rlab
