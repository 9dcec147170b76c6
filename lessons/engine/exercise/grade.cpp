#include "lessons/engine/exercise/grade.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "lessons/engine/exercise/backend_check.hpp"

namespace rlab {

namespace {

constexpr GradeTestId kCaseKinds[] = {GradeTestId::Sizes, GradeTestId::Ends, GradeTestId::Orders,
                                      GradeTestId::LateThreads};

// Which test a case of the simulator's check belongs to.
GradeTestId kindOf(const VerifyCase& c) {
  const std::string& schedule = c.params.schedule;
  if (schedule.starts_with("stall:") || schedule.starts_with("lane:"))
    return GradeTestId::LateThreads;
  if (schedule != "lockstep") return GradeTestId::Orders;
  static const std::set<std::string> ends = {"verify.data-max-first", "verify.data-max-last",
                                             "verify.data-min-first", "verify.data-min-last",
                                             "verify.data-one-at-last"};
  return ends.count(c.data.id) ? GradeTestId::Ends : GradeTestId::Sizes;
}

// What failed the whole file before any case could tell (it does not compile, a rule on its
// source or its shared memory): every test's sentence. Empty where the cases ran.
Message wholeFileFailure(const ExerciseReport& sim) {
  if (sim.verdict == ExerciseVerdict::CompileError) {
    int errors = 0;
    for (const CompileDiagnostic& d : sim.diagnostics) errors += d.severity == "error" ? 1 : 0;
    return Message("grade.compile-error", {{"errors", errors}});
  }
  if (sim.casesRun == 0 && !sim.failures.empty()) return sim.failures.front();
  return {};
}

// A case kind's test from the simulator's check of every case.
GradeTest caseKindTest(GradeTestId id, const std::vector<VerifyCase>& cases,
                       const ExerciseReport& sim) {
  GradeTest t;
  t.id = id;
  const std::map<int, Message> failed(sim.caseFailures.begin(), sim.caseFailures.end());
  Message firstFailure, stoppedBy;
  for (int k = 0; k < int(cases.size()); ++k) {
    if (kindOf(cases[size_t(k)]) != id) continue;
    ++t.cases;
    if (const auto f = failed.find(k); f != failed.end()) {
      if (firstFailure.empty()) firstFailure = f->second;
    } else if (sim.faultCase >= 0 && k > sim.faultCase) {
      if (stoppedBy.empty()) stoppedBy = failed.at(sim.faultCase);
    } else {
      ++t.casesPassed;
    }
  }
  t.passed = t.cases > 0 && t.casesPassed == t.cases;
  t.sentence =
      t.passed ? Message("grade.cases-passed", {{"cases", t.cases}})
      : !firstFailure.empty()
          ? firstFailure
          : Message("grade.not-run", {{"cases", t.cases - t.casesPassed}, {"failure", stoppedBy}});
  return t;
}

// Races and CUDA's rules, in every case (and before any). Being free of them earns nothing
// where the check did not get through every case (a crash, a hang) or no case came out right
// (a kernel that does nothing has no race).
GradeTest racesAndRulesTest(const ExerciseReport& sim) {
  GradeTest t;
  t.id = GradeTestId::RacesAndRules;
  t.cases = sim.casesTotal;
  int breaches = 0;
  for (const auto& [index, failure] : sim.caseFailures) breaches += failureKind(failure) ? 1 : 0;
  t.casesPassed = sim.casesRun - breaches;
  for (const Message& failure : sim.failures)
    if (failureKind(failure)) {
      t.sentence = failure;
      break;
    }
  const int right = sim.casesRun - int(sim.caseFailures.size());
  if (t.sentence.empty() && sim.faultCase >= 0)
    t.sentence = Message("grade.not-run", {{"cases", sim.casesTotal - sim.casesRun},
                                           {"failure", sim.failures.back()}});
  else if (t.sentence.empty() && right <= 0)
    t.sentence = Message("grade.race-free-but-wrong", {{"cases", sim.casesRun}});
  t.passed = t.sentence.empty();
  if (t.passed) t.sentence = Message("grade.no-race", {{"cases", sim.casesRun}});
  return t;
}

// The GPU's own check: its sizes on a real card, all or nothing; and where asked, the
// leaderboard's stage, after it in the same run.
GradeTest gpuTest(const Exercise& e, ExerciseRequest request, LeaderboardResult& board) {
  request.backend = BackendChoice::Gpu;
  request.everyCase = false;
  const ExerciseReport gpu = checkOn(e, request);
  board = gpu.leaderboard;
  GradeTest t;
  t.id = GradeTestId::Gpu;
  t.cases = gpu.casesTotal;
  t.passed = gpu.verdict == ExerciseVerdict::Passed;
  t.casesPassed = t.passed ? gpu.casesRun : gpu.casesRun - int(gpu.caseFailures.size());
  t.sentence = t.passed                ? Message("grade.cases-passed", {{"cases", gpu.casesRun}})
               : !gpu.failures.empty() ? gpu.failures.front()
               : !gpu.problem.empty()  ? gpu.problem
                                       : gpu.summary();
  return t;
}

int failedTests(const std::vector<GradeTest>& tests) {
  return int(
      std::count_if(tests.begin(), tests.end(), [](const GradeTest& t) { return !t.passed; }));
}

// The leaderboard's test: passed where every round was right and timed; its sentence the
// figures, or what kept the kernel off the board.
GradeTest leaderboardTest(const GradeReport& g) {
  GradeTest t;
  t.id = GradeTestId::Leaderboard;
  t.cases = g.leaderboard.rounds;
  t.casesPassed = g.leaderboard.roundsRight;
  t.passed = g.leaderboard.right;
  const int failed = failedTests(g.tests);
  const bool roundWrong = g.leaderboard.rounds > g.leaderboard.roundsRight;
  t.sentence = g.backend != BackendChoice::Gpu ? Message("grade.leaderboard-needs-gpu")
               : roundWrong  // its own sentence; the GPU's test failed with it too
                   ? g.leaderboard.sentence
                   : failed > 0 ? Message("grade.leaderboard-not-right", {{"failed", failed}})
                     : !g.leaderboard.sentence.empty() ? g.leaderboard.sentence
                                                       : Message("check.leaderboard-not-run");
  return t;
}

}  // namespace

int gradeTestPoints(GradeTestId id) {
  switch (id) {
    case GradeTestId::Sizes:
      return 40;
    case GradeTestId::Gpu:
      return 20;
    case GradeTestId::Leaderboard:
      return 0;
    default:
      return 15;
  }
}

const char* gradeTestKey(GradeTestId id) {
  switch (id) {
    case GradeTestId::Sizes:
      return "sizes";
    case GradeTestId::Ends:
      return "ends";
    case GradeTestId::Orders:
      return "orders";
    case GradeTestId::LateThreads:
      return "late-threads";
    case GradeTestId::RacesAndRules:
      return "races-and-rules";
    case GradeTestId::Gpu:
      return "gpu";
    case GradeTestId::Leaderboard:
      return "leaderboard";
  }
  return "";
}

Message gradeTestName(GradeTestId id) {
  switch (id) {
    case GradeTestId::Sizes:
      return Message("grade.test-sizes");
    case GradeTestId::Ends:
      return Message("grade.test-ends");
    case GradeTestId::Orders:
      return Message("grade.test-orders");
    case GradeTestId::LateThreads:
      return Message("grade.test-late-threads");
    case GradeTestId::RacesAndRules:
      return Message("grade.test-races-and-rules");
    case GradeTestId::Gpu:
      return Message("grade.test-gpu");
    case GradeTestId::Leaderboard:
      return Message("grade.test-leaderboard");
  }
  return {};
}

GradeReport gradeExercise(const Exercise& e, const ExerciseRequest& request) {
  GradeReport g;
  g.exercise = e.id;
  g.file = request.file;
  g.backend = request.backend;
  ExerciseRequest onSimulator = request;
  onSimulator.backend = BackendChoice::Sim;
  onSimulator.oneRun = false;
  onSimulator.everyCase = true;
  const ExerciseReport sim = checkOn(e, onSimulator);
  g.verdict = sim.verdict;
  g.diagnostics = sim.diagnostics;
  g.seconds = sim.compileSeconds + sim.runSeconds;
  if (sim.verdict == ExerciseVerdict::NotRun || sim.verdict == ExerciseVerdict::Cancelled) {
    g.gradable = false;
    g.summary =
        sim.verdict == ExerciseVerdict::Cancelled ? Message("grade.cancelled") : sim.problem;
    return g;
  }
  const std::vector<VerifyCase> cases = exerciseCases(e, exerciseReplayCommand(e, request.file));
  for (GradeTestId id : kCaseKinds) {
    GradeTest t = caseKindTest(id, cases, sim);
    if (t.cases > 0) g.tests.push_back(std::move(t));
  }
  g.tests.push_back(racesAndRulesTest(sim));
  if (const Message whole = wholeFileFailure(sim); !whole.empty())
    for (GradeTest& t : g.tests) {
      t.passed = false;
      t.casesPassed = 0;
      t.sentence = whole;
    }
  if (request.backend == BackendChoice::Gpu) {
    const auto start = std::chrono::steady_clock::now();
    // Only a kernel right by every test is timed for the board: a fast wrong one scores nothing.
    ExerciseRequest onGpu = onSimulator;
    onGpu.leaderboard = request.leaderboard && failedTests(g.tests) == 0;
    g.tests.push_back(gpuTest(e, onGpu, g.leaderboard));
    g.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (request.leaderboard) g.tests.push_back(leaderboardTest(g));
  int passed = 0;
  for (GradeTest& t : g.tests) {
    t.maxPoints = gradeTestPoints(t.id);
    t.points = t.passed ? t.maxPoints : 0;
    g.points += t.points;
    g.maxPoints += t.maxPoints;
    passed += t.passed ? 1 : 0;
  }
  g.summary = Message(
      "grade.summary",
      {{"points", g.points}, {"max", g.maxPoints}, {"passed", passed}, {"tests", g.tests.size()}});
  return g;
}

}  // namespace rlab
