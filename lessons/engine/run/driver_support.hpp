// What every lesson driver uses: the trace buffers the kernels write into, and small helpers.
// Drivers are templates on the backend (SimBackend, GpuBackend) so each is written once; each
// fills the Trace it is given (steps, result, notes) and nothing else.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/common.cuh"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// Every value each element held during one launch, step by step, and who wrote it: tells a
// read that got the value of the step before (right) from one that got an older value (a
// race: the write it should have waited for had not landed yet).
class ValueHistory {
 public:
  explicit ValueHistory(const std::vector<double>& initial) : writes_(initial.size()) {
    for (size_t e = 0; e < initial.size(); ++e) writes_[e].push_back({0, initial[e], -1});
  }

  // The read of `value` at `element`, set against the element's latest value.
  ValueRead check(int element, double value) const {
    ValueRead r;
    r.element = element;
    r.value = value;
    if (element < 0 || size_t(element) >= writes_.size()) return r;  // past the array's end
    const Write& latest = writes_[size_t(element)].back();
    if (same(value, latest.value)) {
      r.writtenAt = latest.step;
      return r;
    }
    r.stale = true;
    r.missed = latest.value;
    r.missedWriter = latest.writer;
    r.missedStep = latest.step;
    r.writtenAt = -1;  // a value the element never held before this step
    for (auto w = writes_[size_t(element)].rbegin(); w != writes_[size_t(element)].rend(); ++w)
      if (same(value, w->value)) {
        r.writtenAt = w->step;
        break;
      }
    return r;
  }

  void write(int element, double value, int writer, int step) {
    if (element >= 0 && size_t(element) < writes_.size())
      writes_[size_t(element)].push_back({step, value, writer});
  }

 private:
  struct Write {
    int step;
    double value;
    int writer;
  };
  static bool same(double a, double b) { return a == b || (a != a && b != b); }  // NaN too
  std::vector<std::vector<Write>> writes_;
};

// The steps that reads name (a value written at a step, a write missed at one), from step
// `from` on, move `by` steps later: the steps they count were put after others.
inline void shiftReadSteps(std::vector<StepSnapshot>& steps, int by, int from) {
  for (StepSnapshot& s : steps)
    for (CombineRead& c : s.combines)
      for (ValueRead* r : {&c.target, &c.source}) {
        if (r->writtenAt >= from) r->writtenAt += by;
        if (r->stale && r->missedStep >= from) r->missedStep += by;
      }
}

// Steps come after those the trace holds (the input first); the steps in their reads, counted
// from the launch's input, become the trace's.
inline void appendSteps(Trace& out, std::vector<StepSnapshot> steps) {
  shiftReadSteps(steps, int(out.steps.size()) - 1, 0);
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

// Whether backend B records each launch's global loads and stores (the simulator does); C++17,
// for nvcc.
template <class B, class = void>
struct TakesWarpRequests : std::false_type {};
template <class B>
struct TakesWarpRequests<B, std::void_t<decltype(std::declval<B&>().takeWarpRequests(0))>>
    : std::true_type {};

// The device side of a trace: a StepRecorder for the kernel, then snapshots for the Trace.
template <class B, class T>
class Recording {
 public:
  // `clocks`: the kernel stamps when each combine read and wrote (StepRecorder::now()).
  Recording(B& backend, bool on, int steps, long long width, long long threads, bool clocks = false)
      : backend_(backend),
        on_(on && steps > 0),
        steps_(steps),
        width_(width),
        threads_(threads),
        // Zeroed, though steps leave parts unwritten: the whole buffers are copied back.
        values_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * width : 0, T{})),
        written_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * threads : 0, T{})),
        readTarget_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * threads : 0, T{})),
        readSource_(bufferHolding<B, T>(backend, on_ ? size_t(steps) * threads : 0, T{})),
        reads_(bufferHolding<B, int>(backend, on_ ? size_t(steps) * threads : 0, -1)),
        writes_(bufferHolding<B, int>(backend, on_ ? size_t(steps) * threads : 0, -1)),
        lines_(bufferHolding<B, int>(backend, on_ ? size_t(steps) * threads : 0, 0)),
        readClock_(bufferHolding<B, long long>(backend, on_ && clocks ? size_t(steps) * threads : 0,
                                               -1ll)),
        writeClock_(bufferHolding<B, long long>(
            backend, on_ && clocks ? size_t(steps) * threads : 0, -1ll)) {}

  StepRecorder<T> recorder() {
    StepRecorder<T> r;
    if (!on_) return r;
    r.values = values_.get();
    r.written = written_.get();
    r.readTarget = readTarget_.get();
    r.readSource = readSource_.get();
    r.reads = reads_.get();
    r.writes = writes_.get();
    r.lines = lines_.get();
    r.readClock = readClock_.get();
    r.writeClock = writeClock_.get();
    r.gathered = gathered_.get();
    r.gatheredValues = gatheredValues_.get();
    r.gatherReads = gatherReads_;
    r.width = width_;
    r.threads = threads_;
    r.steps = steps_;
    return r;
  }

  bool on() const { return on_; }

  // Records each thread's first `readsPerThread` reads of its own elements (gather()); before
  // recorder().
  void recordGathers(int readsPerThread) {
    if (!on_) return;
    gatherReads_ = readsPerThread;
    gathered_ = bufferHolding<B, int>(backend_, size_t(threads_) * readsPerThread, -1);
    gatheredValues_ = bufferHolding<B, T>(backend_, size_t(threads_) * readsPerThread, T{});
  }

  // What each thread read, thread t at [t], in the order it read (recordGathers()).
  std::vector<ThreadGather> gathers() {
    std::vector<ThreadGather> out;
    if (!on_ || gatherReads_ == 0) return out;
    std::vector<int> elements(size_t(threads_) * gatherReads_);
    backend_.download(elements.data(), gathered_, elements.size());
    const auto values = downloadAsDoubles<B, T>(backend_, gatheredValues_, elements.size());
    out.resize(size_t(threads_));
    for (size_t k = 0; k < elements.size(); ++k) {
      if (elements[k] < 0) continue;  // a read past n the thread did not make
      ThreadGather& g = out[k / size_t(gatherReads_)];
      g.elements.push_back(elements[k]);
      g.values.push_back(values[k]);
    }
    return out;
  }

  // One snapshot per step. With `initial` (the array the launch started from), each step
  // replays the recorded writes onto the array and checks every value a thread read against
  // what the array held when the step began; without, it reads the recorded values, widths[k]
  // trimming step k. Step numbers in the reads count from 1 for this launch's first step, 0
  // being `initial` (appendSteps makes them the trace's).
  std::vector<StepSnapshot> snapshots(const std::vector<Message>& labels,
                                      const std::vector<double>& initial = {},
                                      const std::vector<long long>& widths = {}) {
    std::vector<StepSnapshot> out;
    if (!on_) return out;
    const Downloaded d = downloadRecorded();
    std::vector<double> array = initial;
    ValueHistory history(initial);
    for (int s = 0; s < steps_; ++s) {
      StepSnapshot snap;
      snap.label = s < int(labels.size()) ? labels[s] : Message("step.numbered", {{"step", s + 1}});
      for (long long t = 0; t < threads_; ++t) {
        const long long k = s * threads_ + t;
        const int target = d.writes[k];
        if (target < 0) continue;
        snap.active.push_back(int(t));
        snap.pairs.emplace_back(d.reads[k], target);
        if (!initial.empty()) snap.combines.push_back(combineOf(d, k, int(t), history));
      }
      markOverwrites(snap);
      for (const CombineRead& c : snap.combines) {  // this step's writes, after all its reads
        history.write(c.target.element, c.wrote, c.thread, s + 1);
        if (size_t(c.target.element) < array.size()) array[c.target.element] = c.wrote;
      }
      if (!initial.empty()) {
        snap.values = array;
      } else {
        const long long width = s < int(widths.size()) ? widths[s] : width_;
        snap.values.assign(d.values.begin() + s * width_, d.values.begin() + s * width_ + width);
      }
      out.push_back(std::move(snap));
    }
    // The simulator, asked to: the launch's global loads and stores, step by step.
    if constexpr (TakesWarpRequests<B>::value) {
      auto requests = backend_.takeWarpRequests(steps_);
      for (size_t k = 0; k + 1 < requests.size() && k < out.size(); ++k)
        out[k].memory = std::move(requests[k]);
      if (!requests.empty() && !out.empty()) out.back().memoryAfter = std::move(requests.back());
    }
    return out;
  }

 private:
  // The recorded buffers, copied back to the host.
  struct Downloaded {
    std::vector<double> values, written, readTarget, readSource;
    std::vector<int> reads, writes, lines;
    std::vector<long long> readClock, writeClock;
  };

  Downloaded downloadRecorded() {
    Downloaded d;
    d.values = downloadAsDoubles<B, T>(backend_, values_, size_t(steps_) * width_);
    d.written = downloadAsDoubles<B, T>(backend_, written_, size_t(steps_) * threads_);
    d.readTarget = downloadAsDoubles<B, T>(backend_, readTarget_, size_t(steps_) * threads_);
    d.readSource = downloadAsDoubles<B, T>(backend_, readSource_, size_t(steps_) * threads_);
    d.reads.resize(size_t(steps_) * threads_);
    d.writes.resize(size_t(steps_) * threads_);
    d.lines.resize(size_t(steps_) * threads_);
    if (!d.reads.empty()) {
      backend_.download(d.reads.data(), reads_, d.reads.size());
      backend_.download(d.writes.data(), writes_, d.writes.size());
      backend_.download(d.lines.data(), lines_, d.lines.size());
    }
    d.readClock.resize(readClock_.size());
    d.writeClock.resize(writeClock_.size());
    if (!d.readClock.empty()) {
      backend_.download(d.readClock.data(), readClock_, d.readClock.size());
      backend_.download(d.writeClock.data(), writeClock_, d.writeClock.size());
    }
    return d;
  }

  // Thread t's combine at index k of the recorded buffers, its reads checked against what the
  // array held when the step began.
  static CombineRead combineOf(const Downloaded& d, long long k, int t,
                               const ValueHistory& history) {
    CombineRead c;
    c.thread = t;
    const int target = d.writes[k];
    // A combine whose source is its target records the thread's own value: it read
    // nothing from the array, so there is no read to check.
    if (d.reads[k] != target) {
      c.target = history.check(target, d.readTarget[k]);
      c.source = history.check(d.reads[k], d.readSource[k]);
    } else {
      c.target.element = target;
      c.target.value = d.readTarget[k];
    }
    c.wrote = d.written[k];
    c.line = d.lines[k];
    if (!d.readClock.empty()) {
      c.readClock = d.readClock[k];
      c.wroteClock = d.writeClock[k];
    }
    return c;
  }

  // A value the element never held before this step, which a thread of this step wrote
  // there: read after it was overwritten.
  static void markOverwrites(StepSnapshot& snap) {
    for (CombineRead& c : snap.combines)
      for (ValueRead* r : {&c.target, &c.source})
        if (r->stale && r->writtenAt < 0)
          for (const CombineRead& w : snap.combines)
            if (w.thread != c.thread && w.target.element == r->element &&
                (w.wrote == r->value || (w.wrote != w.wrote && r->value != r->value)))
              r->overwrittenBy = w.thread;
  }

  B& backend_;
  bool on_;
  int steps_;
  long long width_, threads_;
  typename B::template Buffer<T> values_, written_, readTarget_, readSource_;
  typename B::template Buffer<int> reads_, writes_, lines_;
  typename B::template Buffer<long long> readClock_, writeClock_;
  int gatherReads_ = 0;
  typename B::template Buffer<int> gathered_ = backend_.template alloc<int>(0);
  typename B::template Buffer<T> gatheredValues_ = backend_.template alloc<T>(0);
};

}  // namespace rlab
