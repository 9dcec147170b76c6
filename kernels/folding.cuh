// Lesson "folding": halve the problem, one launch at a time.
#pragma once
#include "kernels/common.cuh"

// Fold the back half onto the front half: a[i] += a[i + remain]. With reduce = len / 2 and
// remain = len - reduce, an odd middle element just waits for the next step, so any length
// works. Every thread does one addition per launch, all in parallel: log2(n) launches instead
// of n atomics. Still slow: each launch reads and writes the array through global memory, and
// each launch costs a few microseconds of its own.
// We launch `reduce` threads, not `remain`: thread reduce..remain-1 would have no partner.
template <class T, class Op>
__global__ void foldStep(T* a, long long reduce, long long remain, StepRecorder<T> trace) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= reduce) return;
  const T mine = a[i], other = a[i + remain];
  a[i] = Op::apply(mine, other);
  trace.combine(0, i, i, i + remain, mine, other, a[i]);
}

// The same fold into a second buffer, as the seed tutorial wrote it: read from one buffer,
// write the folded front half into the other, and let the host swap the two for the next
// step. What differs from foldStep: no element is read and written in the same launch, and
// the odd middle element has to be copied across (its thread does no addition), so this
// kernel launches `remain` threads, not `reduce`. What it costs: a second buffer as large as
// the input, and one more element moved per odd step. The bound `i < remain` matters: the
// grid is rounded up to whole blocks, and without it the threads past the live part would
// read and write past it (the seed's kernel has no such bound).
template <class T, class Op>
__global__ void foldInto(const T* in, T* out, long long reduce, long long remain,
                         StepRecorder<T> trace) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= remain) return;
  // Every thread reads its own element, in one load for the whole warp (the compiler makes one
  // of the two branches' loads anyway: written so, the simulator counts the requests as the GPU
  // does).
  const T mine = in[i];
  if (i < reduce) {
    const T other = in[i + remain];
    out[i] = Op::apply(mine, other);
    trace.combine(0, i, i, i + remain, mine, other, out[i]);
  } else {
    out[i] = mine;  // the odd middle element: no partner, it waits in the other buffer
    trace.moved(0);
  }
}
