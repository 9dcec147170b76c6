// What every lesson driver uses: the trace buffers the kernels write into, and small helpers.
// Drivers are templates on the backend (SimBackend, GpuBackend) so each is written once; each
// fills the Trace it is given (steps, result, notes) and nothing else.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/common.cuh"
#include "lessons/params.hpp"
#include "lessons/trace.hpp"

namespace rlab {

// Steps come after the input, which the trace already holds.
inline void appendSteps(Trace& out, std::vector<StepSnapshot> steps) {
  for (StepSnapshot& s : steps) out.steps.push_back(std::move(s));
}

inline long long blocksFor(long long threads, int block) {
  return (threads + block - 1) / block;
}

// Levels of `for (i = 1; i < n; i *= 2)`.
inline int levelsBelow(long long n) {
  int levels = 0;
  for (long long i = 1; i < n; i *= 2) ++levels;
  return levels;
}

template <class B, class T>
std::vector<double> downloadAsDoubles(B& backend, const typename B::template Buffer<T>& buffer,
                                      size_t count) {
  std::vector<T> host(count);
  if (count) backend.download(host.data(), buffer, count);
  return std::vector<double>(host.begin(), host.end());
}

template <class B, class T>
T downloadOne(B& backend, const typename B::template Buffer<T>& buffer, size_t index = 0) {
  T value{};
  backend.download(&value, buffer, 1, index);
  return value;
}

template <class B, class T>
typename B::template Buffer<T> bufferHolding(B& backend, size_t count, T value) {
  auto buffer = backend.template alloc<T>(count);
  const std::vector<T> host(count, value);
  backend.upload(buffer, host.data(), count);
  return buffer;
}

// The device side of a trace: a StepRecorder for the kernel, then snapshots for the Trace.
template <class B, class T>
class Recording {
 public:
  Recording(B& backend, bool on, int steps, long long width, long long threads)
      : backend_(backend),
        on_(on && steps > 0),
        steps_(steps),
        width_(width),
        threads_(threads),
        // Zeroed, though steps leave parts unwritten: the whole buffers are copied back.
        values_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * width : 0, T{})),
        written_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * threads : 0, T{})),
        reads_(bufferHolding<B, int>(backend, on_ ? size_t(steps) * threads : 0, -1)),
        writes_(bufferHolding<B, int>(backend, on_ ? size_t(steps) * threads : 0, -1)) {}

  StepRecorder<T> recorder() {
    StepRecorder<T> r;
    if (!on_) return r;
    r.values = values_.get();
    r.written = written_.get();
    r.reads = reads_.get();
    r.writes = writes_.get();
    r.width = width_;
    r.threads = threads_;
    r.steps = steps_;
    return r;
  }

  bool on() const { return on_; }

  // One snapshot per step. With `initial` (the array the launch started from), each step
  // replays the recorded writes onto the array; without, it reads the recorded values,
  // widths[k] trimming step k.
  std::vector<StepSnapshot> snapshots(const std::vector<std::string>& labels,
                                      const std::vector<double>& initial = {},
                                      const std::vector<long long>& widths = {}) {
    std::vector<StepSnapshot> out;
    if (!on_) return out;
    const auto values = downloadAsDoubles<B, T>(backend_, values_, size_t(steps_) * width_);
    const auto written = downloadAsDoubles<B, T>(backend_, written_, size_t(steps_) * threads_);
    std::vector<int> reads(size_t(steps_) * threads_), writes(size_t(steps_) * threads_);
    if (!reads.empty()) {
      backend_.download(reads.data(), reads_, reads.size());
      backend_.download(writes.data(), writes_, writes.size());
    }
    std::vector<double> array = initial;
    for (int s = 0; s < steps_; ++s) {
      StepSnapshot snap;
      snap.label = s < int(labels.size()) ? labels[s] : "step " + std::to_string(s + 1);
      for (long long t = 0; t < threads_; ++t) {
        const int target = writes[s * threads_ + t];
        if (target < 0) continue;
        snap.active.push_back(int(t));
        snap.pairs.emplace_back(reads[s * threads_ + t], target);
        if (size_t(target) < array.size()) array[target] = written[s * threads_ + t];
      }
      if (!initial.empty()) {
        snap.values = array;
      } else {
        const long long width = s < int(widths.size()) ? widths[s] : width_;
        snap.values.assign(values.begin() + s * width_, values.begin() + s * width_ + width);
      }
      out.push_back(std::move(snap));
    }
    return out;
  }

 private:
  B& backend_;
  bool on_;
  int steps_;
  long long width_, threads_;
  typename B::template Buffer<T> values_, written_;
  typename B::template Buffer<int> reads_, writes_;
};

}  // namespace rlab
