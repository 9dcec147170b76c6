// Runs one lesson: resolve the parameters, pick the backend, run, check against the reference.
#pragma once

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// Throws ParamError for bad input, GpuUnavailable when --backend gpu cannot run,
// sim::LaunchError when a simulated kernel cannot finish.
// --op subtract also runs the same data through the other kernels that offer it
// (Trace::otherKernels) and gives no verdict (Trace::singleAnswer).
Trace runLesson(const Params& params);
Trace runLesson(const Resolved& run);
// The run alone: subtract without the other kernels, and without its verdict's note.
Trace runLessonOnce(const Params& params);
Trace runLessonOnce(const Resolved& run);

// lane:T:S:K holds thread T from its warp step S on. Where T took fewer warp steps than S in
// every block (`threadSteps`, the simulator's LaunchStats::laneThreadWarpSteps), the schedule
// held nobody and the run was lockstep's: the note that says so (a lesson's run and an exercise
// run both carry it); empty for any other schedule, or one that held its thread.
Message laneScheduleHeldNobody(const std::string& schedule, unsigned long long threadSteps);
// The same, with the schedule already parsed (`s` is `schedule`'s).
Message laneScheduleHeldNobody(const sim::Schedule& s, const std::string& schedule,
                               unsigned long long threadSteps);

}  // namespace rlab
