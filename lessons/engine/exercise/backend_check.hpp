// One backend's check of a learner's file: compile it (on the GPU the runner compiles it with
// NVRTC), start the runner on it, and read the runner's report into sentences. check.cpp sets
// the GPU's check and the simulator's side by side.
#pragma once

#include "lessons/engine/exercise/check.hpp"

namespace rlab {

// The check of `request` on request.backend alone. Throws ParamError for a one run's bad
// options, and on the GPU for a file that cannot be read.
ExerciseReport checkOn(const Exercise& e, const ExerciseRequest& request);

}  // namespace rlab
