#pragma once
#include <string>
#include <vector>

#include "kernels/allreduce.cuh"
#include "lessons/engine/run/driver_support.hpp"

namespace rlab {

// The G buffers of an all-reduce, one on each rank (GPU), and what a traced run records: after
// each step every buffer, which ranks' inputs each chunk already holds, and the copies made.
// Both backends give it the same calls: openRanks, allocOnRank, copyBetweenRanks (on the
// receiver's stream), launchOnRank, rankBarrier (every rank's work so far is done before any
// rank goes on) and finishRanks (the host waits for all).
template <class B, class T, class Op>
class RankBuffers {
 public:
  // Rank r starts from input[r * n, (r + 1) * n), copied from GPU 0 where the input was loaded.
  RankBuffers(B& b, const Params& p, typename B::template Buffer<T>& input, int chunks, bool trace,
              Trace& out)
      : b_(b), p_(p), gpus_(p.gpus), n_(p.n), trace_(trace), out_(out) {
    b.openRanks(gpus_);
    for (int r = 0; r < gpus_; ++r) {
      buffers_.push_back(b.template allocOnRank<T>(r, size_t(n_)));
      received_.push_back(b.template allocOnRank<T>(r, size_t(n_)));
      b.copyBetweenRanks(r, buffers_[r].get(), 0, input.get() + r * n_, size_t(n_));
    }
    b.finishRanks();
    for (int c = 0; c <= chunks; ++c) starts_.push_back(n_ * c / chunks);
    contains_.assign(size_t(gpus_), std::vector<unsigned>(size_t(chunks)));
    for (int r = 0; r < gpus_; ++r)
      for (unsigned& mask : contains_[r]) mask = 1u << r;
    before_ = contains_;
    out.gpus = gpus_;
    out.chunkStarts = starts_;
    if (trace_ && !out.steps.empty()) out.steps[0].contains = contains_;
  }

  int gpus() const { return gpus_; }
  int chunks() const { return int(starts_.size()) - 1; }
  // Chunk c, counted round the ring: -1 is the last one.
  int chunk(int c) const { return ((c % chunks()) + chunks()) % chunks(); }
  B& backend() { return b_; }
  std::vector<T*> bufferPointers() {
    std::vector<T*> pointers;
    for (auto& buffer : buffers_) pointers.push_back(buffer.get());
    return pointers;
  }

  // Rank `to` copies chunk c of rank `from`'s buffer into its own memory, to be combined.
  void fetch(int from, int to, int c) {
    const long long begin = starts_[c], count = starts_[c + 1] - begin;
    b_.copyBetweenRanks(to, received_[to].get() + begin, from, buffers_[from].get() + begin,
                        size_t(count));
    record(from, to, c, true);
    contains_[to][c] |= before_[from][c];
  }

  // Rank `to` combines the chunk it fetched into its own: mine = mine ⊕ received.
  void combineFetched(int to, int c) {
    const long long begin = starts_[c], count = starts_[c + 1] - begin;
    if (count == 0) return;
    const int block = p_.block;
    const long long most = b_.multiprocessors() * (b_.threadSlotsPerMultiprocessor() / block);
    const long long blocks = std::min(blocksFor(count, block), most);
    b_.launchOnRank(to, dim3(unsigned(blocks)), dim3(unsigned(block)), combineChunk<T, Op>,
                    buffers_[to].get() + begin, (const T*)received_[to].get() + begin, count);
  }

  // Rank `to` copies chunk c of rank `from`'s buffer over its own (a finished chunk).
  void overwrite(int from, int to, int c) {
    const long long begin = starts_[c], count = starts_[c + 1] - begin;
    b_.copyBetweenRanks(to, buffers_[to].get() + begin, from, buffers_[from].get() + begin,
                        size_t(count));
    record(from, to, c, false);
    contains_[to][c] = before_[from][c];
  }

  // The ranks wait for each other; a traced run records the step.
  void endStep(const Message& label) {
    b_.rankBarrier();
    before_ = contains_;
    if (!trace_) {
      transfers_.clear();
      return;
    }
    b_.finishRanks();
    StepSnapshot s;
    s.label = label;
    for (int r = 0; r < gpus_; ++r) {
      const auto values = downloadAsDoubles<B, T>(b_, buffers_[r], size_t(n_));
      s.values.insert(s.values.end(), values.begin(), values.end());
      s.active.push_back(r);
    }
    s.contains = contains_;
    s.transfers = std::move(transfers_);
    transfers_.clear();
    out_.steps.push_back(std::move(s));
  }

  // Every rank's buffer, for the check against the host reference.
  void finish() {
    b_.finishRanks();
    out_.rankResults.clear();
    for (int r = 0; r < gpus_; ++r)
      out_.rankResults.push_back(downloadAsDoubles<B, T>(b_, buffers_[r], size_t(n_)));
    out_.result = out_.rankResults[0].empty() ? 0 : out_.rankResults[0][0];
  }

 private:
  void record(int from, int to, int c, bool combined) {
    if (!trace_ || starts_[c + 1] == starts_[c]) return;  // an empty chunk moves nothing
    Transfer t;
    t.from = from;
    t.to = to;
    t.begin = starts_[c];
    t.end = starts_[c + 1];
    t.bytes = (t.end - t.begin) * (long long)sizeof(T);
    t.combined = combined;
    transfers_.push_back(t);
  }

  B& b_;
  const Params& p_;
  int gpus_;
  long long n_;
  bool trace_;
  Trace& out_;
  std::vector<typename B::template Buffer<T>> buffers_, received_;
  std::vector<long long> starts_;
  std::vector<std::vector<unsigned>> contains_, before_;  // now, and when the step began
  std::vector<Transfer> transfers_;
};

// ---- The algorithms --------------------------------------------------------------------------

// Recursive doubling: at step k every rank swaps its whole buffer with rank ^ 2^k, and both
// combine. After log2 G steps every rank holds everything: the butterfly lesson's XOR partners,
// with GPUs for threads. Each step moves the whole buffer: log2 G · n elements per rank in all.
template <class B, class T, class Op>
void butterflySteps(RankBuffers<B, T, Op>& ranks) {
  for (int bit = 1; bit < ranks.gpus(); bit *= 2) {
    for (int r = 0; r < ranks.gpus(); ++r) ranks.fetch(r ^ bit, r, 0);
    // Every partner's copy has landed before anyone changes the buffer it copied from.
    ranks.backend().rankBarrier();
    for (int r = 0; r < ranks.gpus(); ++r) ranks.combineFetched(r, 0);
    ranks.endStep(
        Message("step.allreduce.partner", {{"partner", "rank ^ " + std::to_string(bit)}}));
  }
}

// The ring: G chunks of n / G. Reduce-scatter: at step s rank r passes chunk r - s to rank
// r + 1, which combines it into its own; after G - 1 steps rank r holds chunk r + 1 complete.
// All-gather: at step s rank r passes its complete chunk r + 1 - s on, which the receiver
// writes over its own. 2 (G - 1) steps of n / G elements: 2 (G - 1) / G · n per rank in all,
// less than twice the buffer however many GPUs take part.
template <class B, class T, class Op>
void ringSteps(RankBuffers<B, T, Op>& ranks, bool ncclModel = false) {
  // The simulator's stand-in for NCCL says so in every step's label.
  auto label = [&](Message step) {
    return ncclModel ? Message("step.allreduce.nccl-model", {{"step", std::move(step)}}) : step;
  };
  const int g = ranks.gpus();
  for (int s = 0; s < g - 1; ++s) {
    // A chunk is read by the next rank while this rank works on another one: no barrier.
    for (int r = 0; r < g; ++r) ranks.fetch(r, (r + 1) % g, ranks.chunk(r - s));
    for (int r = 0; r < g; ++r) ranks.combineFetched((r + 1) % g, ranks.chunk(r - s));
    ranks.endStep(
        label(Message("step.allreduce.reduce-scatter", {{"step", s + 1}, {"steps", g - 1}})));
  }
  for (int s = 0; s < g - 1; ++s) {
    for (int r = 0; r < g; ++r) ranks.overwrite(r, (r + 1) % g, ranks.chunk(r + 1 - s));
    ranks.endStep(label(Message("step.allreduce.all-gather", {{"step", s + 1}, {"steps", g - 1}})));
  }
}

// NCCL: one ncclAllReduce per rank in one group (the GPU backend opens the library at run time).
template <class B, class T, class Op>
void ncclSteps(RankBuffers<B, T, Op>& ranks, long long n) {
  ranks.backend().template ncclAllReduce<T, Op>(ranks.bufferPointers(), size_t(n));
  ranks.endStep(Message("step.allreduce.nccl"));
}

// ---- The drivers -----------------------------------------------------------------------------

template <class B, class T, class Op>
void driveAllReduceButterfly(B& b, const Params& p, typename B::template Buffer<T>& input,
                             bool trace, Trace& out) {
  RankBuffers<B, T, Op> ranks(b, p, input, 1, trace, out);
  butterflySteps(ranks);
  ranks.finish();
}

template <class B, class T, class Op>
void driveAllReduceRing(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                        Trace& out) {
  RankBuffers<B, T, Op> ranks(b, p, input, p.gpus, trace, out);
  ringSteps(ranks);
  ranks.finish();
}

template <class B, class T, class Op>
void driveAllReduceNccl(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace,
                        Trace& out) {
  if constexpr (B::kHasNccl) {
    RankBuffers<B, T, Op> ranks(b, p, input, 1, trace, out);
    ncclSteps(ranks, p.n);
    ranks.finish();
    out.notes.push_back(b.ncclDescription());
  } else {
    RankBuffers<B, T, Op> ranks(b, p, input, p.gpus, trace, out);
    ringSteps(ranks, true);
    ranks.finish();
    out.notes.push_back(Message("note.allreduce.nccl-model"));
  }
}

}  // namespace rlab
