// The exercise runner seen from the check: the options of one run, and the report lines it
// writes ("@tag\tfield\tfield..."), read into events as they come. Finding the runner and a
// report line's fields are check.hpp's (probe.cpp reads the same lines).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/exercise/compile.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// The leaderboard's stage of a GPU check (ExerciseRequest::leaderboard): the learner's whole
// reduction at n = 2^24 on fresh inputs, each run's sum checked, beside the fastest lesson and
// CUB timed in the same process (lessons/engine/exercise_runner/leaderboard.hpp).
struct LeaderboardResult {
  bool ran = false;    // the runner timed rounds or said why it could not
  bool right = false;  // every round right and timed: the figures belong on a board
  int rounds = 0, roundsRight = 0;
  double kernelMs = 0, fastestMs = 0, cubMs = 0;  // medians
  Message sentence;  // the figures, the wrong round's sentence, or why there is no time
};

// What the runner's report lines said, as they came.
struct RunnerEvents {
  int total = 0, current = -1, run = 0;
  bool done = false, compileFailed = false;
  std::vector<CompileDiagnostic> diagnostics;     // NVRTC's, on the GPU
  std::vector<std::pair<bool, Message>> speed;    // the speed goal: met, sentence
  std::vector<std::pair<int, Message>> failures;  // case, sentence
  Message rule, error;
  std::vector<std::string> fault;  // the @crash or @hang fields
  bool hasOutcome = false, outcomePassed = false;
  double result = 0, expected = 0;
  std::vector<StepSnapshot> steps;
  Message race;  // the one run's first race (--one: a race does not end the run there)
  std::vector<Message> notes;  // the one run's other notes (a lane schedule that held nobody)
  // ... and the step and element of the step's array where it shows (-1: none)
  long long raceStep = -1, raceElement = -1;
  std::string raceArray;
  long long stepsLeft = 0;
  std::vector<MemoryAccess> accesses;  // their line still the runner's "@pc:OFFSET"
  long long accessesLeft = 0, raceFirstTick = -1, raceSecondTick = -1;
  double simSeconds = 0;  // the run itself, in the runner
  LeaderboardResult leaderboard;
};

// One report line of the runner into `ev`; a line of another tag, or too few fields, leaves it
// as it was.
void readEvent(const std::string& line, RunnerEvents& ev);

// The runner's options for one run: the case's launch and input, values in full precision.
void appendOneRun(std::vector<std::string>& argv, const Params& p);

}  // namespace rlab
