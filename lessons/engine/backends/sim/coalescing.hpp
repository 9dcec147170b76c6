// The simulator's record of one launch's global loads and stores, grouped as a GPU issues
// them: one request per warp and load or store instruction, with the sectors it touched.
#pragma once

#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// Requests per step of the launch (steps[k]: the kernel's step k, as StepRecorder::combine
// numbers it), then one more list: the accesses after a thread's last mark (a block's total
// written out, an element copied without a combine), which belong to no step but count in the
// launch's totals. An access belongs to the step its thread marks next (its combine). Lanes of a
// warp that ran the same instruction the same number of times in a step are one request: the
// k-th run of an instruction by each lane goes together, as on a GPU where the lanes run it
// side by side.
std::vector<std::vector<WarpMemoryRequest>> warpRequests(
    const std::vector<sim::MemoryAccess>& accesses, int steps);

}  // namespace rlab
