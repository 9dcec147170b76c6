// Checking a learner's kernel: compile it (lessons/engine/exercise/compile.hpp), then run it
// through the exercise's cases in a child process, rlab-exercise-runner, which loads it with
// dlopen. Whatever the kernel does (crash, read past a buffer, never end), the caller gets a report
// and goes on: the app and rlab never run the learner's code themselves.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/exercise/compile.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/runner_protocol.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

struct ExerciseRequest {
  std::string file;     // the learner's kernel file
  bool oneRun = false;  // run one case (`options`) instead of every check
  // oneRun: n, block, data or values, schedule; the rest is the exercise's (exerciseRunParams)
  Params options;
  // A case that runs longer than this is stopped and reported as a hang, with the thread and
  // line that were running (on the GPU: a case that does not end within 10 s more).
  double caseSeconds = 5;
  // Sim: the system compiler and the simulator. Gpu: NVRTC and the device, in the same
  // runner process; its cases are the GPU scope's (no schedules, sums of 2^24 + 3). A GPU
  // check (not oneRun) then runs the simulator's check on the same file too, and passes only
  // where both do: the GPU picks one order of its threads, which may hide a race.
  BackendChoice backend = BackendChoice::Sim;
  // The simulator's race detector looks at every run (kernels/sim/race_detector.cpp), and a
  // race fails the case even where its sum was right. Only a benchmark turns it off, to measure
  // what it costs.
  bool raceDetector = true;
  // Every case runs, not only until three have failed (rlab exercise grade: a grade counts
  // every kind of case). The simulator only; a GPU check still stops at three.
  bool everyCase = false;
  // A GPU check (not oneRun), once every case has passed: the leaderboard's stage, which times
  // the whole reduction on fresh inputs against the fastest lesson and CUB (rlab exercise grade
  // --leaderboard). A wrong round fails the check.
  bool leaderboard = false;
  // Called as the work goes: stage "compiling" or "checking", cases done of total (0 of 0
  // while compiling). Returning false stops it (Cancel).
  std::function<bool(const std::string& stage, int done, int total)> progress;
};

enum class ExerciseVerdict {
  Passed,        // every case passed (oneRun: the result was right)
  Failed,        // a case failed, a rule was broken, or the kernel crashed or hung
  CompileError,  // the compiler refused the file: see diagnostics
  Cancelled,
  NotRun,  // the compiler or the runner could not be started: see problem
};

struct ExerciseReport {
  ExerciseVerdict verdict = ExerciseVerdict::NotRun;
  std::string file;                            // as given
  std::vector<CompileDiagnostic> diagnostics;  // errors and warnings, at the file's lines
  std::string compilerOutput;
  int casesRun = 0, casesTotal = 0;
  // Sentences, in the order the cases ran: which case broke, what came out (or how the kernel
  // crashed or hung, with the thread and line), and the command that replays it.
  std::vector<Message> failures;
  // This backend's failed cases, by their index in exerciseCases (the failures' sentences
  // again), and the case the kernel crashed or hung in (-1: none; the cases after it did not
  // run).
  std::vector<std::pair<int, Message>> caseFailures;
  int faultCase = -1;
  Message problem;      // NotRun: why, in one sentence
  std::string printed;  // what the kernel printed (the first 64 KiB)
  double compileSeconds = 0, runSeconds = 0;
  // A GPU check: the simulator's check of the same file (its verdict, its cases, how many of
  // its sentences are in `failures`, after the GPU's). casesRun and casesTotal are the GPU's.
  struct SimulatorCheck {
    bool ran = false;
    ExerciseVerdict verdict = ExerciseVerdict::NotRun;
    int casesRun = 0, casesTotal = 0, failures = 0;
  } simulator;
  // oneRun
  bool hasResult = false;
  double result = 0, expected = 0;
  // oneRun on the simulator with n up to kExerciseStepLimit: the run as the step player shows
  // it, a step at each barrier of each block and after each launch (also when it crashed).
  std::shared_ptr<const Trace> trace;
  std::vector<Message> notes;
  // request.leaderboard on the GPU: the stage's figures, or why there are none.
  LeaderboardResult leaderboard;
  // Not passed: the exercise's hint (1: the first) about the kind of failure found first, where
  // it has one (Exercise::hintFor); 0: none.
  int hint = 0;

  bool passed() const { return verdict == ExerciseVerdict::Passed; }
  // One line: "passed: all 134 cases", "failed: 1 of 12 cases run", "2 compile errors" ...
  Message summary() const;
};

// The kind of failure a check's sentence tells of (its own id or those of the sentences in it,
// the outermost first), where it is one of FailureKind's.
std::optional<FailureKind> failureKind(const Message& failure);

ExerciseReport checkExercise(const Exercise& e, const ExerciseRequest& request);

// "rlab exercise run ID FILE": how a failure's replay line starts (FILE quoted for a shell
// where it needs it).
std::string exerciseReplayCommand(const Exercise& e, const std::string& file);

// What a runner's "@crash ..." or "@hang ..." report line says, in words, with the line of `file`
// (the source of `library`) where the kernel was; "" for another line.
std::string runnerFaultText(const std::string& reportLine, const std::string& library,
                            const std::string& file);

// A runner's report line ("@tag\tfield\tfield..."): its tab-separated fields, the tag first.
std::vector<std::string> splitReportLine(const std::string& line);
// The diagnostic an "@diagnostic" line carries from fields[first] on (LINE COLUMN SEVERITY
// MESSAGE); false where the line has fewer fields.
bool readDiagnostic(const std::vector<std::string>& fields, size_t first, CompileDiagnostic& out);

// The runner: $RLAB_EXERCISE_RUNNER, beside the running program, then where this build put
// it; empty when there is none.
std::string findExerciseRunner();

}  // namespace rlab
