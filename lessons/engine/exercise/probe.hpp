// The conformance suite's way in: a file with `__global__ void probe(const int* in, int n,
// int* out)`, compiled and run exactly as a learner's kernel is (the simulator's compile and
// checks, the runner and its box; on the GPU, NVRTC), launched as told, and out[] handed back
// for the caller to set against its own answer and the other backend's.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/exercise/compile.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/params.hpp"

namespace rlab {

struct ProbeLaunch {
  unsigned grid = 1, block = 32;
  size_t sharedBytes = 0;             // dynamic shared memory: <<<grid, block, sharedBytes>>>
  int n = 0;                          // the kernel's n: in[] holds n values
  int outCount = 0;                   // out[] holds this many, each set to kProbeUntouched first
  std::string schedule = "lockstep";  // the simulator's
};

// What out[] holds where the kernel wrote nothing.
inline constexpr int kProbeUntouched = -12345678;

struct ProbeResult {
  std::vector<int> out;
  std::string failure;  // the launch failed: one sentence (out is then empty)
};

struct ProbeReport {
  std::vector<CompileDiagnostic> diagnostics;  // the compile's (errors: nothing ran)
  std::string problem;  // the compile or the runner could not run, or the runner ended early
  std::vector<ProbeResult> results;  // one per launch, in order
  int signal = 0;                    // the signal that ended the runner, if one did
  bool ran() const { return problem.empty() && !results.empty(); }
};

// A launch as the runner's --launch takes it: "GRID,BLOCK,SHARED,N,OUT,SCHEDULE"; parsing throws
// std::invalid_argument.
std::string probeLaunchArgument(const ProbeLaunch& launch);
ProbeLaunch parseProbeLaunch(const std::string& argument);
std::vector<int> parseProbeInput(const std::string& text);  // "3,-1,4"

// The kernel in `file` on `backend` (Sim or Gpu), with in[] = `input` for every launch.
// `compileOnly` on the GPU: NVRTC only, no device needed.
ProbeReport runProbe(const std::string& file, const std::vector<int>& input,
                     const std::vector<ProbeLaunch>& launches, BackendChoice backend,
                     bool compileOnly = false);

// NVRTC compiles `file` as the GPU path compiles exercise `e`'s kernel, with no device needed:
// its diagnostics, and `problem` where it did not compile or NVRTC is not here.
ProbeReport compileWithNvrtc(const Exercise& e, const std::string& file);

// A probe compiled elsewhere into `library` (with rlab_exercise_kernel handing over `probe`), run
// by the simulator's runner as a learner's is, in its box; `source` names its lines in a crash.
ProbeReport runCompiledProbe(const std::string& library, const std::string& source,
                             const std::vector<int>& input,
                             const std::vector<ProbeLaunch>& launches);

}  // namespace rlab
