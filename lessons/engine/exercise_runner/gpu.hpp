// An exercise on the GPU, inside the exercise runner: NVRTC compiles the learner's file for
// the device's architecture, the driver API loads and launches it through the exercise's
// cases (the GPU scope: no schedules, sums of 2^24 + 3 elements), and `beat-coarsened` is
// timed against the shared lesson's coarsened kernel. The report lines are the simulator
// path's, plus "@diagnostic LINE COLUMN SEVERITY MESSAGE" and "@compile-failed" for NVRTC's
// messages, and "@speed PASSED SENTENCE".
//
// Both libraries are opened at run time (dlopen), so the runner starts on machines without a
// GPU driver or NVRTC and the simulator path never needs them. Built only where the CUDA
// toolkit was found (gpu.cpp); elsewhere gpu_absent.cpp says so.
#pragma once

#include <functional>
#include <string>

#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/probe.hpp"

namespace rlab::exercise {

using ReportLine = std::function<void(const std::string&)>;

struct GpuRun {
  bool oneRun = false;  // one case, `options` (else: every case of the check)
  // NVRTC only, for sm_90, with no device or driver needed: the diagnostics, then @done.
  bool compileOnly = false;
  Params options;
  // Once every case has passed: the leaderboard's rounds (leaderboard.hpp).
  bool leaderboard = false;
  // The conformance suite's probe (ExerciseShape::Probe): in[] and its launches.
  std::vector<int> probeInput;
  std::vector<ProbeLaunch> probeLaunches;
};

// Returns the runner's exit code.
int runOnGpu(const Exercise& e, const std::string& source, const std::string& replayWith,
             const GpuRun& run, const ReportLine& report);

}  // namespace rlab::exercise
