#pragma once
#include <deque>
#include <map>
#include <utility>

#include "kernels/atomic.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// On a GPU, which keeps no record, the order the atomics landed in, rebuilt from what each one
// found: the first found the identity, the next found identity ⊕ the first's value, and so on.
// Where values repeat, any consistent order is the true one as far as anyone can tell; where
// float rounding makes a total differ from what the atomic found, the rebuild stops there.
// The simulator records each atomic as it lands and needs none of this.
template <class T, class Op>
std::vector<AtomicLanding> orderOfLanding(const std::vector<T>& in, const std::vector<T>& found,
                                          bool& complete) {
  std::map<T, std::deque<int>> byFound;
  for (size_t t = 0; t < found.size(); ++t) byFound[found[t]].push_back(int(t));
  std::vector<AtomicLanding> order;
  T total = Op::template identity<T>();
  for (size_t k = 0; k < found.size(); ++k) {
    auto it = byFound.find(total);
    if (it == byFound.end() || it->second.empty()) break;
    const int t = it->second.front();
    it->second.pop_front();
    order.push_back({t, double(total), double(in[t])});
    total = Op::apply(total, in[t]);
  }
  complete = order.size() == found.size();
  return order;
}

template <class B, class T, class Op>
void driveAtomic(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                 Trace& out) {
  auto result = bufferHolding<B, T>(b, 1, Op::template identity<T>());
  auto found = b.template alloc<T>(trace ? size_t(p.n) : 0);
  const dim3 grid(unsigned(blocksFor(p.n, p.block))), block(unsigned(p.block));
  std::vector<std::pair<long long, double>> recorded;  // the simulator's own record
  if constexpr (B::kRecordsAtomics) {
    if (trace)
      recorded = b.launchRecordingAtomics(result.get(), grid, block, atomicReduce<T, Op>,
                                          (const T*)input.get(), (long long)p.n, result.get(),
                                          found.get());
  }
  if (!B::kRecordsAtomics || !trace)
    b.launch(grid, block, atomicReduce<T, Op>, (const T*)input.get(), (long long)p.n, result.get(),
             trace ? found.get() : nullptr);
  out.result = double(downloadOne<B, T>(b, result));
  if (!trace) return;
  std::vector<T> in(size_t(p.n)), before(size_t(p.n));
  b.download(in.data(), input, in.size());
  b.download(before.data(), found, before.size());
  if (B::kRecordsAtomics) {
    for (const auto& [thread, before] : recorded)
      out.atomicOrder.push_back({int(thread), before, double(in[size_t(thread)])});
  } else {
    bool complete = false;
    out.atomicOrder = orderOfLanding<T, Op>(in, before, complete);
    if (!complete)
      out.notes.push_back(
          Message("note.atomic.order-incomplete", {{"atomics", out.atomicOrder.size()}}));
  }
  for (const AtomicLanding& a : out.atomicOrder) {
    StepSnapshot s;
    const T after = Op::apply(T(a.before), T(a.value));
    s.label = Message("step.atomic.lands", {{"thread", a.thread}});
    s.values = {double(after)};
    s.active = {a.thread};
    s.pairs = {{a.thread, 0}};
    out.steps.push_back(std::move(s));
  }
}

}  // namespace rlab
