// [SECTION] Replay lines, the report's summary
// [SECTION] The check: the GPU's and the simulator's together
// (One backend's check: backend_check.cpp. The runner's options and report lines:
// runner_protocol.cpp.)

#include "lessons/engine/exercise/check.hpp"

#include <cctype>

#include "lessons/engine/exercise/backend_check.hpp"

namespace rlab {

// ============================================================================================
// [SECTION] Replay lines, the report's summary
// ============================================================================================

namespace {

std::string shellWord(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word)
    plain &=
        std::isalnum((unsigned char)c) || std::string("_./-+,=:@%").find(c) != std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string exerciseReplayCommand(const Exercise& e, const std::string& file) {
  return "rlab exercise run " + e.id + " " + shellWord(file);
}

Message ExerciseReport::summary() const {
  if (simulator.ran && (verdict == ExerciseVerdict::Passed || verdict == ExerciseVerdict::Failed)) {
    const int onGpu = int(failures.size()) - simulator.failures;
    auto part = [](int failed, int run, int total, const char* where) {
      if (failed == 0)
        return Message("check.part-right", {{"run", run}, {"where", Message(where)}});
      return Message(
          run < total ? "check.part-failed-of" : "check.part-failed",
          {{"failed", failed}, {"run", run}, {"total", total}, {"where", Message(where)}});
    };
    const Message gpuPart = part(onGpu, casesRun, casesTotal, "check.where-gpu");
    const Message simPart =
        simulator.verdict == ExerciseVerdict::Passed || simulator.verdict == ExerciseVerdict::Failed
            ? part(simulator.failures, simulator.casesRun, simulator.casesTotal,
                   "check.where-simulator")
            : Message("check.simulator-could-not");
    return Message(verdict == ExerciseVerdict::Passed ? "check.both-passed" : "check.both-failed",
                   {{"gpu", gpuPart}, {"simulator", simPart}});
  }
  switch (verdict) {
    case ExerciseVerdict::Passed:
      return hasResult ? Message("check.correct") : Message("check.passed", {{"cases", casesRun}});
    case ExerciseVerdict::Failed:
      if (hasResult) return Message("check.wrong");
      if (casesRun == 0) return Message("check.failed-before-any");
      return Message(casesRun < casesTotal ? "check.failed-of" : "check.failed",
                     {{"failed", failures.size()}, {"run", casesRun}, {"total", casesTotal}});
    case ExerciseVerdict::CompileError: {
      int errors = 0;
      for (const auto& d : diagnostics) errors += d.severity == "error";
      return Message("check.compile-errors", {{"errors", errors}});
    }
    case ExerciseVerdict::Cancelled:
      return Message("check.cancelled");
    case ExerciseVerdict::NotRun:
      break;
  }
  return Message("check.not-run", {{"why", problem}});
}

// ============================================================================================
// [SECTION] The check: the GPU's and the simulator's together
// ============================================================================================

namespace {

// Races on the learner's own card: the GPU's check, then the simulator's on the same file. A GPU
// runs its threads in the order it happens to pick, so a race can be right there in every case;
// the simulator's schedules make the orders a GPU may also pick. The verdict passes only where
// both do, and otherwise says what each found.
void addSimulatorCheck(ExerciseReport& report, const ExerciseReport& sim) {
  ExerciseReport::SimulatorCheck& s = report.simulator;
  s.ran = true;
  s.verdict = sim.verdict;
  s.casesRun = sim.casesRun;
  s.casesTotal = sim.casesTotal;
  const bool gpuPassed = report.passed();
  switch (sim.verdict) {
    case ExerciseVerdict::Passed:
      report.notes.push_back(Message("check.simulator-passed", {{"cases", sim.casesRun}}));
      return;
    case ExerciseVerdict::Cancelled:
      report.verdict = ExerciseVerdict::Cancelled;
      return;
    case ExerciseVerdict::Failed:
      for (size_t k = 0; k < sim.failures.size(); ++k)
        report.failures.push_back(
            k > 0       ? Message("check.on-simulator", {{"failure", sim.failures[k]}})
            : gpuPassed ? Message("check.gpu-right-simulator-wrong",
                                  {{"cases", report.casesRun}, {"failure", sim.failures[k]}})
                        : Message("check.also-simulator-wrong", {{"failure", sim.failures[k]}}));
      s.failures = int(sim.failures.size());
      break;
    case ExerciseVerdict::CompileError:
    case ExerciseVerdict::NotRun: {
      Message why = sim.problem;
      for (const CompileDiagnostic& d : sim.diagnostics)
        if (why.empty() && d.severity == "error")
          why = Message("check.diagnostic-line", {{"line", d.line}, {"message", d.message}});
      report.failures.push_back(gpuPassed
                                    ? Message("check.gpu-right-simulator-could-not",
                                              {{"cases", report.casesRun}, {"why", why}})
                                    : Message("check.also-simulator-could-not", {{"why", why}}));
      s.failures = 1;
      break;
    }
  }
  report.verdict = ExerciseVerdict::Failed;
}

// Whether any sentence in `m` (itself included) has the id `id`.
bool mentions(const Message& m, std::string_view id) {
  if (m.id == id) return true;
  for (const MessageArg& a : m.args)
    for (const Message& inner : a.sentences)
      if (mentions(inner, id)) return true;
  return false;
}

// The hint of `e` about the first failure, or else the first note (a one run's race, beside
// its steps or not), that one of its hints is about; 0: none.
int hintAbout(const Exercise& e, const ExerciseReport& report) {
  static const std::vector<Message> none;
  for (const std::vector<Message>* said :
       {&report.failures, &report.notes, report.trace ? &report.trace->notes : &none})
    for (const Message& m : *said)
      if (const std::optional<FailureKind> kind = failureKind(m))
        if (const auto hint = e.hintFor.find(*kind); hint != e.hintFor.end()) return hint->second;
  return 0;
}

// One run on the GPU, and the simulator's run of the same case beside it: a GPU shows no steps,
// so the steps drawn are the simulator's (said so above them), with its race marked; a rule the
// simulator stopped the kernel for fails the run as it fails a check.
void addSimulatorSteps(ExerciseReport& report, const ExerciseReport& sim) {
  // The steps' own result line is the simulator's: the GPU's is said apart.
  report.notes.insert(report.notes.begin(),
                      Message("note.exercise-gpu-result",
                              {{"result", formatValue(report.result, ElementType::Int)},
                               {"expected", formatValue(report.expected, ElementType::Int)}}));
  report.compileSeconds += sim.compileSeconds;
  report.runSeconds += sim.runSeconds;
  if (sim.verdict == ExerciseVerdict::Cancelled) {
    report.verdict = ExerciseVerdict::Cancelled;
    return;
  }
  if (sim.trace) {
    auto trace = std::make_shared<Trace>(*sim.trace);
    trace->notes.insert(trace->notes.begin(),
                        sim.hasResult
                            ? Message("note.exercise-steps-from-simulator",
                                      {{"result", formatValue(sim.result, ElementType::Int)}})
                            : Message("note.exercise-steps-from-simulator-unfinished"));
    report.trace = std::move(trace);
  }
  for (const Message& note : sim.notes) report.notes.push_back(note);
  for (const Message& failure : sim.failures)
    report.failures.push_back(Message("check.on-simulator", {{"failure", failure}}));
  if (!sim.failures.empty()) report.verdict = ExerciseVerdict::Failed;
}

ExerciseReport checkBoth(const Exercise& e, const ExerciseRequest& request) {
  ExerciseReport report = checkOn(e, request);
  const bool checked =
      report.verdict == ExerciseVerdict::Passed || report.verdict == ExerciseVerdict::Failed;
  if (request.backend != BackendChoice::Gpu || !checked) return report;
  ExerciseRequest onSimulator = request;
  onSimulator.backend = BackendChoice::Sim;
  if (request.oneRun) {
    if (report.hasResult) addSimulatorSteps(report, checkOn(e, onSimulator));
    return report;
  }
  const ExerciseReport sim = checkOn(e, onSimulator);
  addSimulatorCheck(report, sim);
  report.compileSeconds += sim.compileSeconds;
  report.runSeconds += sim.runSeconds;
  return report;
}

}  // namespace

std::optional<FailureKind> failureKind(const Message& failure) {
  const std::string_view id = failure.id;
  if (id.starts_with("sim.race") || id.starts_with("sim.uninitialised-shared"))
    return FailureKind::Race;
  // A block stuck with threads at a warp operation and none at a barrier is the warp's lanes.
  if (id.starts_with("sim.stuck"))
    return mentions(failure, "sim.waiting-at-warp-op") &&
                   !mentions(failure, "sim.waiting-at-barrier")
               ? FailureKind::Lanes
               : FailureKind::Barrier;
  if (id.starts_with("sim.barrier-")) return FailureKind::Barrier;
  for (std::string_view lanes : {"sim.mask-leaves-out-lane", "sim.read-exited-lane",
                                 "sim.read-lane-outside-mask", "sim.read-missing-lane",
                                 "sim.different-warp-ops"})
    if (id.starts_with(lanes)) return FailureKind::Lanes;
  for (std::string_view bounds : {"check.read-past", "check.wrote-past", "check.touched-past",
                                  "check.read-before", "check.wrote-before", "check.touched-before",
                                  "sim.buffer-overrun", "sim.dynamic-shared-overrun"})
    if (id.starts_with(bounds)) return FailureKind::Bounds;
  for (const MessageArg& a : failure.args)
    for (const Message& inner : a.sentences)
      if (const std::optional<FailureKind> kind = failureKind(inner)) return kind;
  return std::nullopt;
}

ExerciseReport checkExercise(const Exercise& e, const ExerciseRequest& request) {
  ExerciseReport report = checkBoth(e, request);
  report.hint = hintAbout(e, report);  // a one run's race too, where its sum came out right
  return report;
}

}  // namespace rlab
