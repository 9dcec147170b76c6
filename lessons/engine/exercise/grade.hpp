// A grade for a learner's file, for the platforms courses grade in (rlab exercise grade): the
// exercise's check on the simulator with every case run, its cases in kinds, each kind a test
// worth points, all or nothing; where a GPU grades, the GPU's check is one test more. The
// writers of Gradescope's, PrairieLearn's and our own results files are the command line's
// (app/cli/grade_views.cpp); the points are here, once.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/exercise/check.hpp"

namespace rlab {

enum class GradeTestId {
  Sizes,          // every size and block size, in lockstep
  Ends,           // the extreme (or the only non-identity element) first or last
  Orders,         // random, reverse and warp-random orders of the threads
  LateThreads,    // a thread (or a lane) held back: stall:T:R:K, lane:T:S:K
  RacesAndRules,  // no race and no broken CUDA rule in any case
  Gpu,            // the GPU's own check (its sizes, a real card's order)
  Leaderboard,    // --leaderboard: the kernel timed against fastest and CUB; no points
};

// Every test, in the order a grade lists them.
inline constexpr GradeTestId kGradeTests[] = {GradeTestId::Sizes,         GradeTestId::Ends,
                                              GradeTestId::Orders,        GradeTestId::LateThreads,
                                              GradeTestId::RacesAndRules, GradeTestId::Gpu,
                                              GradeTestId::Leaderboard};

struct GradeTest {
  GradeTestId id = GradeTestId::Sizes;
  int maxPoints = 0, points = 0;
  int cases = 0, casesPassed = 0;  // of its kind (RacesAndRules, Gpu: every case run)
  bool passed = false;
  Message sentence;  // passed: how many cases; failed: the first failure's sentence
};

struct GradeReport {
  std::string exercise, file;
  BackendChoice backend = BackendChoice::Sim;         // Gpu: the GPU's test is among the tests
  ExerciseVerdict verdict = ExerciseVerdict::NotRun;  // the simulator's check's
  std::vector<GradeTest> tests;
  int points = 0, maxPoints = 0;
  double seconds = 0;                          // compiling and running, every check
  std::vector<CompileDiagnostic> diagnostics;  // a file that does not compile
  // False where no grade could be made for reasons not the file's (the compiler or the runner
  // could not be started): `summary` says why, and a platform should retry, not score.
  bool gradable = true;
  Message summary;  // "85 of 100 points: ..."
  // request.leaderboard: the stage's figures (a board's entry only where `right`).
  LeaderboardResult leaderboard;
};

// The points each test is worth (the manual's table): the sizes 40, the ends, the orders, the
// late threads and races and rules 15 each; the GPU's check 20 more where it grades; the
// leaderboard none (it ranks, it does not grade).
int gradeTestPoints(GradeTestId id);
// "sizes", "ends", ...: the test's id in the results files.
const char* gradeTestKey(GradeTestId id);
// The test's name in words ("every size and block size").
Message gradeTestName(GradeTestId id);

// Grades `request.file` (request.backend Sim, or Gpu where a GPU works: the GPU's test too;
// oneRun and everyCase are set here; request.leaderboard adds the leaderboard's test, which on
// the simulator says that it needs a GPU). Never throws for what the file does: a file that does
// not compile, crashes, hangs or breaks a rule gets its points and sentences. Throws
// ParamError where the file cannot be read.
GradeReport gradeExercise(const Exercise& e, const ExerciseRequest& request);

}  // namespace rlab
