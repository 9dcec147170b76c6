// Runs one lesson: resolve the parameters, pick the backend, run, check against the reference.
#pragma once

#include "lessons/params.hpp"
#include "lessons/trace.hpp"

namespace rlab {

// Throws ParamError for bad input, GpuUnavailable when --backend gpu cannot run,
// sim::LaunchError when a simulated kernel cannot finish.
Trace runLesson(const Params& params);

}  // namespace rlab
