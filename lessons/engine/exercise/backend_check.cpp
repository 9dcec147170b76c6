// One backend's check of a learner's file, in phases: the one run's case, compiling, a rule on
// the source, the runner's run, its failures and its outcome.

#include "lessons/engine/exercise/backend_check.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "lessons/engine/exercise/box.hpp"
#include "lessons/engine/exercise/fault_words.hpp"
#include "lessons/engine/exercise/runner_protocol.hpp"
#include "lessons/engine/exercise/source_check.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

namespace fs = std::filesystem;

namespace {

// The runner names an instruction of the learner's library "@pc:OFFSET" (a race's two accesses,
// say): here each becomes the learner's file and line, or the file alone where the instruction
// is in a header the simulator offers.
Message withLearnerLines(Message m, const std::string& library, const std::string& file) {
  for (MessageArg& a : m.args) {
    for (Message& s : a.sentences) s = withLearnerLines(std::move(s), library, file);
    if (a.text.rfind("@pc:", 0) != 0) continue;
    const std::string source = fs::absolute(file).lexically_normal().string();
    const std::string where = learnerLine(library, source, a.text.substr(4));
    a.text = where.empty() ? fs::path(file).filename().string() : where;
  }
  return m;
}

// The run's accesses with the learner's lines in place of the runner's "@pc:OFFSET" (empty
// where the instruction is not in their file).
std::vector<MemoryAccess> accessesWithLines(std::vector<MemoryAccess> accesses,
                                            const std::string& library, const std::string& file) {
  std::vector<std::string> offsets;
  for (const MemoryAccess& a : accesses)
    if (a.line.starts_with("@pc:")) offsets.push_back(a.line.substr(4));
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  const std::map<std::string, std::string> lines =
      learnerLines(library, fs::absolute(file).lexically_normal().string(), offsets);
  for (MemoryAccess& a : accesses) {
    const auto found = a.line.starts_with("@pc:") ? lines.find(a.line.substr(4)) : lines.end();
    a.line = found == lines.end() ? "" : found->second;
  }
  return accesses;
}

// A crash or hang report as the sentence of the case it ended, with the learner's line.
Message faultSentence(const std::vector<std::string>& f, const VerifyCase* c,
                      const std::string& library, const std::string& file) {
  const std::string source = fs::absolute(file).lexically_normal().string();
  const std::string where = learnerLine(library, source, f.back());
  const Message what = f[0] == "@hang" ? hangText(f, where)
                                       : Message("check.crashed", {{"what", crashText(f, where)}});
  if (!c) return Message("check.outside-cases", {{"what", what}});
  return Message("check.case-fault",
                 {{"case", describeCase(*c)}, {"what", what}, {"replay", replayCommand(*c)}});
}

// The learner's run as the step player shows it.
std::shared_ptr<const Trace> learnerTrace(const Exercise& e, const Params& params, RunnerEvents& ev,
                                          const std::string& library, const std::string& file) {
  auto t = std::make_shared<Trace>();
  t->params = resolve(params).params;
  t->exercise = e.id;
  t->backend = BackendChoice::Sim;
  t->device = Message("device.simulator", {{"schedule", t->params.schedule}});
  t->traced = true;
  t->steps = std::move(ev.steps);
  if (ev.raceStep >= 0 && size_t(ev.raceStep) < t->steps.size()) {
    StepSnapshot& raced = t->steps[size_t(ev.raceStep)];
    if (ev.raceElement >= 0 && size_t(ev.raceElement) < raced.values.size()) {
      raced.racedElement = int(ev.raceElement);
      raced.array = ev.raceArray;
    }
  }
  t->accesses = accessesWithLines(std::move(ev.accesses), library, file);
  t->accessesLeft = ev.accessesLeft;
  t->raceFirstTick = ev.raceFirstTick;
  t->raceSecondTick = ev.raceSecondTick;
  t->result = ev.result;
  t->expected = ev.expected;
  t->correct = ev.hasOutcome && ev.outcomePassed;
  t->timings.simSeconds = ev.simSeconds;
  t->notes.push_back(Message("check.steps-taken"));
  if (ev.stepsLeft > 0)
    t->notes.push_back(
        Message("check.steps-kept", {{"kept", t->steps.size()}, {"left", ev.stepsLeft}}));
  if (!ev.race.empty())
    t->notes.push_back(Message(t->correct ? "note.race-right" : "note.race", {{"race", ev.race}}));
  return t;
}

// What the phases of one backend's check share.
struct BackendCheck {
  BackendCheck(const Exercise& e, const ExerciseRequest& request)
      : e(e),
        request(request),
        replayWith(exerciseReplayCommand(e, request.file)),
        onGpu(request.backend == BackendChoice::Gpu) {}

  const Exercise& e;
  const ExerciseRequest& request;
  ExerciseReport report;
  const std::string replayWith;
  const bool onGpu;
  // The run's own case, or every check's: the runner numbers them the same way.
  std::vector<VerifyCase> cases;
  CompileResult compiled;
  RunnerEvents ev;
  ChildResult done;
  double silenceLimitSeconds = 0;  // the runner's, as run

  bool progress(const std::string& stage, int casesDone, int total) const {
    return !request.progress || request.progress(stage, casesDone, total);
  }
  // The case the runner numbered `k`, where there is one.
  const VerifyCase* caseAt(int k) const {
    return k >= 0 && size_t(k) < cases.size() ? &cases[size_t(k)] : nullptr;
  }
};

// The one run's case: the exercise's parameters with the request's options.
VerifyCase oneRunCase(const BackendCheck& c) {
  VerifyCase one;
  Params options = c.request.options;
  options.backend = c.request.backend;
  one.params = exerciseRunParams(c.e, options);  // ParamError for bad options, now
  one.subject = Message("verify.exercise", {{"exercise", c.e.id}});
  one.replayWith = c.replayWith;
  return one;
}

// On the simulator the system compiler makes a library in `scratch`; on the GPU the runner
// compiles the source itself with NVRTC. False where the check ends here.
bool compileLearnerFile(BackendCheck& c, const ScratchFolder& scratch) {
  ExerciseReport& report = c.report;
  CompileResult& compiled = c.compiled;
  if (c.onGpu) {
    std::error_code error;
    if (!fs::is_regular_file(c.request.file, error))
      throw ParamError(Message("check.unreadable", {{"file", c.request.file}}));
    compiled.ok = true;
    compiled.library = fs::absolute(c.request.file).lexically_normal().string();
  } else {
    compiled = compileForSimulator(
        c.e, c.request.file, scratch.path(), [&] { return c.progress("compiling", 0, 0); },
        c.request.raceDetector);
  }
  report.compileSeconds = compiled.seconds;
  report.diagnostics = compiled.diagnostics;
  report.compilerOutput = compiled.output;
  if (compiled.cancelled) {
    report.verdict = ExerciseVerdict::Cancelled;
    return false;
  }
  if (!compiled.ok) {
    report.verdict =
        compiled.failure.empty() ? ExerciseVerdict::CompileError : ExerciseVerdict::NotRun;
    report.problem = compiled.failure;
    return false;
  }
  return true;
}

// A rule on the source, before any case: the exercise's cooperative groups. False where the
// file breaks it.
bool keepsSourceRule(BackendCheck& c) {
  if (!c.e.cooperativeGroups || c.request.oneRun) return true;
  std::ifstream in(c.request.file);
  const Message missing = cooperativeGroupsMissing(
      std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  if (missing.empty()) return true;
  c.report.failures.push_back(missing);
  c.report.verdict = ExerciseVerdict::Failed;
  return false;
}

std::vector<std::string> runnerArguments(const BackendCheck& c, const std::string& runner) {
  const ExerciseRequest& request = c.request;
  std::vector<std::string> argv = {runner, c.e.id, c.compiled.library, c.replayWith,
                                   std::to_string(request.caseSeconds)};
  if (c.onGpu) argv.push_back("--gpu");
  if (request.oneRun) appendOneRun(argv, c.cases.front().params);
  if (request.oneRun && !c.onGpu) argv.push_back("--steps");
  if (!request.raceDetector) argv.push_back("--no-race-detector");
  if (request.everyCase && !c.onGpu) argv.push_back("--every-case");
  if (request.leaderboard && c.onGpu && !request.oneRun) argv.push_back("--leaderboard");
  return argv;
}

// The runner over the cases, its report lines read as they come. False where cancelled.
bool runRunner(BackendCheck& c, const std::string& runner) {
  const std::vector<std::string> argv = runnerArguments(c, runner);
  ChildOptions options;
  // The runner stops a case itself after caseSeconds and says where; this is for a runner
  // that cannot even do that.
  options.silenceLimitSeconds = c.request.caseSeconds + 10;
  options.outputLimit = 64 * 1024;
  options.outputStopLimit = kBoxOutputBytes;
  // A GPU's driver would keep the kernel's machine code in ~/.nv: nothing outside is written.
  if (c.onGpu) options.environment = {"CUDA_CACHE_DISABLE=1"};
  options.onReportLine = [&](const std::string& line) { readEvent(line, c.ev); };
  options.keepGoing = [&] { return c.progress("checking", c.ev.run, c.ev.total); };
  c.silenceLimitSeconds = options.silenceLimitSeconds;
  const auto start = std::chrono::steady_clock::now();
  c.done = runChild(argv, options);
  c.report.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c.report.printed = c.done.output;
  c.report.casesRun = c.ev.run;
  c.report.casesTotal = c.ev.total;
  if (c.done.cancelled) {
    c.report.verdict = ExerciseVerdict::Cancelled;
    return false;
  }
  return true;
}

// The runner printed past the box's limit: in which case, where it was in one.
Message outputLimitSentence(const BackendCheck& c) {
  const VerifyCase* k = c.caseAt(c.ev.current);
  const int mebibytes = int(kBoxOutputBytes >> 20);
  return k ? Message("check.output-limit-in", {{"case", describeCase(*k)},
                                               {"mebibytes", mebibytes},
                                               {"replay", replayCommand(*k)}})
           : Message("check.output-limit", {{"mebibytes", mebibytes}});
}

// The runner ended before its report did: silent past the time limit, stopped by the box, or
// another signal or exit code.
Message runnerEndedSentence(const BackendCheck& c) {
  const ChildResult& done = c.done;
  const int seconds = int(c.silenceLimitSeconds);
  const VerifyCase* k = c.caseAt(c.ev.current);
  const Message how = done.signal ? verbatim("signal " + std::to_string(done.signal))
                                  : Message("check.exit-code", {{"code", done.exitCode}});
  if (done.timedOut && c.onGpu && k)
    return Message(
        "check.gpu-hang",
        {{"case", describeCase(*k)}, {"seconds", seconds}, {"replay", replayCommand(*k)}});
  if (done.timedOut)
    return k ? Message("check.runner-silent-in", {{"case", describeCase(*k)}, {"seconds", seconds}})
             : Message("check.runner-silent", {{"seconds", seconds}});
  if (done.signal == SIGSYS && k)  // a forbidden call with every signal blocked
    return Message(
        "check.box-stopped-unnamed",
        {{"case", describeCase(*k)}, {"why", Message("box.why")}, {"replay", replayCommand(*k)}});
  return k ? Message("check.runner-ended-in", {{"case", describeCase(*k)}, {"how", how}})
           : Message("check.runner-ended", {{"how", how}});
}

// The runner's failures, with the learner's lines, and how it ended where it did not end well.
// False where the check ends here (the GPU's compiler refused the file, or the runner could
// not check it).
bool readFailures(BackendCheck& c) {
  ExerciseReport& report = c.report;
  const RunnerEvents& ev = c.ev;
  if (!c.request.oneRun && (!ev.fault.empty() || !ev.done))
    c.cases = exerciseCases(c.e, c.replayWith, c.onGpu ? VerifyScope::Gpu : VerifyScope::Simulator);
  if (c.onGpu) {
    report.diagnostics = ev.diagnostics;
    if (ev.compileFailed) {
      report.verdict = ExerciseVerdict::CompileError;
      return false;
    }
  }

  for (const auto& [index, sentence] : ev.failures) {
    report.failures.push_back(withLearnerLines(sentence, c.compiled.library, c.request.file));
    report.caseFailures.emplace_back(index, report.failures.back());
  }
  if (!ev.rule.empty()) report.failures.push_back(ev.rule);
  if (c.done.outputExceeded) {
    report.failures.push_back(outputLimitSentence(c));
    if (c.caseAt(ev.current)) {
      report.faultCase = ev.current;
      report.caseFailures.emplace_back(ev.current, report.failures.back());
    }
  } else if (!ev.fault.empty()) {
    const VerifyCase* k = c.caseAt(std::atoi(ev.fault[2].c_str()));
    report.casesRun += k ? 1 : 0;
    report.failures.push_back(faultSentence(ev.fault, k, c.compiled.library, c.request.file));
    if (k) report.faultCase = std::atoi(ev.fault[2].c_str());
    if (k) report.caseFailures.emplace_back(report.faultCase, report.failures.back());
  } else if (!ev.error.empty()) {
    report.problem = ev.error;
    return false;
  } else if (!ev.done) {
    report.failures.push_back(runnerEndedSentence(c));
    if (c.caseAt(ev.current)) {
      report.faultCase = ev.current;
      report.caseFailures.emplace_back(ev.current, report.failures.back());
    }
  }
  return true;
}

// The leaderboard's stage: its figures, a wrong round as the check's failure, or why it did not
// run.
void readLeaderboard(BackendCheck& c) {
  if (!c.request.leaderboard || !c.onGpu || c.request.oneRun) return;
  LeaderboardResult& board = c.report.leaderboard;
  board = c.ev.leaderboard;
  board.sentence = withLearnerLines(board.sentence, c.compiled.library, c.request.file);
  if (board.ran && !c.ev.done && !c.report.failures.empty()) {
    // The runner was stopped in a round (a kernel that hangs or crashes only at 2^24): that
    // round is wrong, and its sentence is how the runner ended, already the check's failure.
    ++board.rounds;
    board.sentence = c.report.failures.back();
    return;
  }
  if (board.rounds > board.roundsRight) c.report.failures.push_back(board.sentence);
  if (!board.ran) board.sentence = Message("check.leaderboard-not-run");
}

// What the run came to: the one run's result, its race and notes, its steps, the speed goal,
// and the verdict.
void readOutcome(BackendCheck& c) {
  ExerciseReport& report = c.report;
  RunnerEvents& ev = c.ev;
  const bool oneRun = c.request.oneRun;
  if (oneRun && ev.hasOutcome) {
    report.hasResult = true;
    report.result = ev.result;
    report.expected = ev.expected;
  }
  if (!ev.race.empty()) {
    ev.race = withLearnerLines(ev.race, c.compiled.library, c.request.file);
    if (oneRun && ev.steps.empty())  // no steps to show it beside: the report's note
      report.notes.push_back(
          Message(ev.hasOutcome && ev.outcomePassed ? "note.race-right" : "note.race",
                  {{"race", ev.race}}));
  }
  for (const Message& note : ev.notes) report.notes.push_back(note);
  if (oneRun && !ev.steps.empty())
    report.trace =
        learnerTrace(c.e, c.cases.front().params, ev, c.compiled.library, c.request.file);
  for (const auto& [met, sentence] : ev.speed)
    (met ? report.notes : report.failures).push_back(sentence);
  readLeaderboard(c);
  report.verdict = report.failures.empty() ? ExerciseVerdict::Passed : ExerciseVerdict::Failed;
  if (c.e.gpuSpeedGoal && !oneRun && !c.onGpu)
    report.notes.push_back(Message("check.speed-needs-gpu"));
}

}  // namespace

ExerciseReport checkOn(const Exercise& e, const ExerciseRequest& request) {
  BackendCheck c(e, request);
  c.report.file = request.file;
  if (request.oneRun) c.cases.push_back(oneRunCase(c));

  const std::string runner = findExerciseRunner();
  if (!isExecutableFile(runner)) {
    c.report.problem = Message("check.no-runner");
    return std::move(c.report);
  }

  ScratchFolder scratch;
  if (!c.progress("compiling", 0, 0)) {
    c.report.verdict = ExerciseVerdict::Cancelled;
    return std::move(c.report);
  }
  if (!compileLearnerFile(c, scratch) || !keepsSourceRule(c)) return std::move(c.report);
  if (!runRunner(c, runner) || !readFailures(c)) return std::move(c.report);
  readOutcome(c);
  return std::move(c.report);
}

}  // namespace rlab
