// The allreduce lesson's timings on GPUs (lessons/engine/backends/gpu/allreduce_gpu.cu).
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/backends/gpu/backend.cuh"

namespace rlab {

// The all-reduce of this run, timed: median of repetitions with events on rank 0.
Timings timeAllReduce(GpuBackend& b, const Params& p, const std::vector<double>& input);

// rlab bench's rows for the allreduce variants, on as many GPUs as are present (2, 4 or 8).
std::vector<BenchRow> benchAllReduce(GpuBackend& b, const std::vector<long long>& sizes,
                                     const std::vector<BenchKernel>& variants, ElementType type,
                                     int reps, const BenchProgress& progress);

// Which NCCL ran, or why none did.
std::string allReduceBenchNote(GpuBackend& b);

}  // namespace rlab
