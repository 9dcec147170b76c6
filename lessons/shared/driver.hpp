#pragma once
#include <algorithm>
#include <type_traits>

#include "kernels/shared.cuh"
#include "lessons/engine/run/tree_passes.hpp"

namespace rlab {

// coarsened: the step before the threads' sums, on the input: which elements each thread read
// and what it read there (the kernel's gather() records), and the global loads it made.
template <class B, class T>
StepSnapshot gatherStep(Recording<B, T>& rec, Message label, std::vector<double> input,
                        std::vector<WarpMemoryRequest> loads) {
  StepSnapshot gather;
  gather.label = std::move(label);
  gather.values = std::move(input);
  gather.gathers = rec.gathers();
  for (size_t t = 0; t < gather.gathers.size(); ++t)
    if (!gather.gathers[t].elements.empty()) gather.active.push_back(int(t));
  gather.memory = std::move(loads);
  return gather;
}

// multiblock and coarsened: one launch, block partials combined by one atomic each.
template <class B, class T, class Op, class Kernel>
void runOneLaunch(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Kernel kernel, int perThread, Trace& out) {
  const long long blocks = blocksFor(p.n, p.block * perThread);
  const long long threads = blocks * p.block;
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto partials = b.template alloc<T>(trace ? size_t(blocks) : 0);
  // coarsened (the kernel takes perThread): a first step where each thread combines its own.
  constexpr bool coarse =
      std::is_invocable_v<Kernel, const T*, long long, int, T*, T*, StepRecorder<T>>;
  const int levels = levelsBelow(p.block) + (coarse ? 1 : 0);
  Recording<B, T> rec(b, trace, levels, 0, threads);
  if (coarse) rec.recordGathers(perThread);
  // Coarsened steps live on the threads' partial sums; multiblock's on the input itself.
  const auto initial = !trace   ? std::vector<double>{}
                       : coarse ? std::vector<double>(size_t(threads), 0.0)
                                : downloadAsDoubles<B, T>(b, input, size_t(p.n));
  if constexpr (coarse)
    b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
             (long long)p.n, perThread, result.get(), trace ? partials.get() : nullptr,
             rec.recorder());
  else
    b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), kernel, (const T*)input.get(),
             (long long)p.n, result.get(), trace ? partials.get() : nullptr, rec.recorder());
  std::vector<Message> labels;
  // Thread 0 of block 0 takes the most: every block.x-th element of its block's share, as far
  // as n reaches.
  const long long most = std::min<long long>(perThread, blocksFor(p.n, p.block));
  // own: one element each; apart: perThread each; up to: n ends before some threads' last
  auto coarseLabel = [&](const char* own, const char* apart, const char* upTo) {
    return most == 1 ? Message(own, {{"elements", 1}})
                     : Message(most == perThread ? apart : upTo,
                               {{"elements", most}, {"apart", p.block}});
  };
  if (coarse)
    labels.push_back(coarseLabel("step.shared.combine-own", "step.shared.combine-apart",
                                 "step.shared.combine-up-to"));
  for (int stride = p.block / 2; stride > 0; stride /= 2)
    labels.push_back(Message("step.stride", {{"stride", stride}}));
  auto steps = rec.snapshots(labels, initial);
  if (coarse && !steps.empty()) {
    // after the load the cells are the threads' partial sums, not elements
    for (StepSnapshot& step : steps) step.cells = CellKind::Threads;
    steps.insert(steps.begin(),
                 gatherStep(rec,
                            coarseLabel("step.shared.gather-own", "step.shared.gather-apart",
                                        "step.shared.gather-up-to"),
                            downloadAsDoubles<B, T>(b, input, size_t(p.n)),
                            std::move(steps.front().memory)));
    shiftReadSteps(steps, 1, 1);  // the input stays step 0
  }
  appendSteps(out, std::move(steps));
  if (trace) out.blockPartials = downloadAsDoubles<B, T>(b, partials, size_t(blocks));
  out.result = double(downloadOne<B, T>(b, result));
}

template <class B, class T, class Op>
void driveTreeInGlobal(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                       Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, treeInGlobal<T, Op>, StrideOrder::Down, false, out);
}

template <class B, class T, class Op>
void driveTreeInShared(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                       Trace& out) {
  runTreePasses<B, T>(b, p, input, trace, treeInShared<T, Op>, StrideOrder::Down, false, out);
}

template <class B, class T, class Op>
void driveMultiBlock(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                     Trace& out) {
  runOneLaunch<B, T, Op>(b, p, input, trace, multiBlock<T, Op>, 1, out);
}

// clusters: multiblock's tree, then the tree's levels across the blocks of each cluster, read
// through distributed shared memory, and one atomic a cluster. The grid is a whole number of
// clusters; blocks past n load the identity.
template <class B, class T, class Op>
void driveClusters(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                   Trace& out) {
  const long long blocks =
      blocksFor(blocksFor(p.n, p.block), int(kClusterBlocks)) * (long long)kClusterBlocks;
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto partials = b.template alloc<T>(trace ? size_t(blocks) : 0);
  std::vector<Message> labels;
  for (int stride = p.block / 2; stride > 0; stride /= 2)
    labels.push_back(Message("step.stride", {{"stride", stride}}));
  for (unsigned stride = 1; stride < kClusterBlocks; stride *= 2)
    labels.push_back(
        Message("step.shared.cluster-level", {{"stride", stride}, {"blocks", kClusterBlocks}}));
  Recording<B, T> rec(b, trace, int(labels.size()), 0, blocks * p.block);
  const auto initial =
      trace ? downloadAsDoubles<B, T>(b, input, size_t(p.n)) : std::vector<double>{};
  b.launchInClusters(dim3(unsigned(blocks)), dim3(unsigned(p.block)), dim3(kClusterBlocks),
                     clusterTree<T, Op>, (const T*)input.get(), (long long)p.n, result.get(),
                     trace ? partials.get() : nullptr, p.barrier, rec.recorder());
  appendSteps(out, rec.snapshots(labels, initial));
  if (!p.barrier) out.notes.push_back(Message("note.shared.cluster-barrier-off"));
  if (trace) out.blockPartials = downloadAsDoubles<B, T>(b, partials, size_t(blocks));
  out.clusterBlocks = int(kClusterBlocks);
  out.result = double(downloadOne<B, T>(b, result));
}

// Elements per thread of the coarsened kernels: the run's --per-thread, else the kernel's own.
inline int perThreadOf(const Params& p) {
  return p.perThread > 0 ? p.perThread : kCoarsening;
}

// coarsenedNoLoadAdd: its tree runs over the block's perThread · block elements themselves, so
// its steps live on the input, like multiblock's. The kernel records each pair by the element it
// writes; here each pair goes back to the thread that added it (element j of a block: thread
// j mod block), so a thread with several pairs in a level shows them all.
template <class B, class T, class Op>
void runNoLoadAdd(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                  Trace& out) {
  const int perThread = perThreadOf(p);
  const long long slots = (long long)p.block * perThread;
  const long long blocks = blocksFor(p.n, int(slots));
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto partials = b.template alloc<T>(trace ? size_t(blocks) : 0);
  std::vector<Message> labels;
  for (long long len = slots; len > 1; len -= len / 2)
    labels.push_back(
        len % 2 == 0 ? Message("step.stride", {{"stride", len / 2}})
                     : Message("step.shared.fold-onto", {{"len", len}, {"remain", len - len / 2}}));
  Recording<B, T> rec(b, trace, int(labels.size()), 0, blocks * slots);
  const auto initial =
      trace ? downloadAsDoubles<B, T>(b, input, size_t(p.n)) : std::vector<double>{};
  b.launch(dim3(unsigned(blocks)), dim3(unsigned(p.block)), coarsenedNoLoadAdd<T, Op>,
           (const T*)input.get(), (long long)p.n, perThread, result.get(),
           trace ? partials.get() : nullptr, rec.recorder());
  auto steps = rec.snapshots(labels, initial);
  auto threadOf = [&](int element) {
    return int(element / slots * p.block + element % slots % p.block);
  };
  for (StepSnapshot& step : steps) {
    for (int& t : step.active) t = threadOf(t);
    std::sort(step.active.begin(), step.active.end());
    step.active.erase(std::unique(step.active.begin(), step.active.end()), step.active.end());
    for (CombineRead& c : step.combines) c.thread = threadOf(c.thread);
  }
  appendSteps(out, std::move(steps));
  if (trace) out.blockPartials = downloadAsDoubles<B, T>(b, partials, size_t(blocks));
  out.result = double(downloadOne<B, T>(b, result));
}

template <class B, class T, class Op>
void driveCoarsened(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                    Trace& out) {
  if (!p.loadAdd) return runNoLoadAdd<B, T, Op>(b, p, input, trace, out);
  runOneLaunch<B, T, Op>(b, p, input, trace, coarsened<T, Op>, perThreadOf(p), out);
}

}  // namespace rlab
