// [SECTION] Finding the runner, replay lines
// [SECTION] The check

#include "lessons/engine/exercise/check.hpp"

#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/box.hpp"
#include "lessons/engine/exercise/fault_words.hpp"
#include "lessons/engine/exercise/source_check.hpp"
#include "lessons/engine/system/installation.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] Finding the runner, replay lines
// ============================================================================================

std::string findExerciseRunner() {
  if (const char* chosen = std::getenv("RLAB_EXERCISE_RUNNER"); chosen && *chosen) return chosen;
  if (std::string installed = helperProgram("rlab-exercise-runner"); !installed.empty())
    return installed;
  const std::string self = runningExecutable();
  const std::string beside = folderOf(self) + "/rlab-exercise-runner";
  return !self.empty() && isExecutableFile(beside) ? beside : "";
}

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

// The fields of `text` between `separator`s, empty ones kept: at least one.
std::vector<std::string> fieldsOf(const std::string& text, char separator) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    fields.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return fields;
    start = end + 1;
  }
}

}  // namespace

std::vector<std::string> splitReportLine(const std::string& line) {
  return fieldsOf(line, '\t');
}

bool readDiagnostic(const std::vector<std::string>& fields, size_t first, CompileDiagnostic& out) {
  if (fields.size() < first + 4) return false;
  out.line = std::atoi(fields[first].c_str());
  out.column = std::atoi(fields[first + 1].c_str());
  out.severity = fields[first + 2];
  out.message = fields[first + 3];
  return true;
}

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
// [SECTION] The check
// ============================================================================================

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

// The runner's options for one run: the case's launch and input, values in full precision.
void appendOneRun(std::vector<std::string>& argv, const Params& p) {
  argv.insert(argv.end(), {"--one", "--n", std::to_string(p.n), "--block", std::to_string(p.block),
                           "--schedule", p.schedule});
  if (p.values.empty()) {
    argv.insert(argv.end(), {"--data", p.data});
    return;
  }
  std::string list;
  char text[40];
  for (double v : p.values) {
    std::snprintf(text, sizeof text, "%.17g", v);
    list += (list.empty() ? "" : ",") + std::string(text);
  }
  argv.insert(argv.end(), {"--values", list});
}

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
  double simSeconds = 0;  // the run itself, in the runner
};

void readEvent(const std::string& line, RunnerEvents& ev) {
  const std::vector<std::string> f = splitReportLine(line);
  const std::string& tag = f[0];
  if (tag == "@cases" && f.size() > 1) ev.total = std::atoi(f[1].c_str());
  if (tag == "@case" && f.size() > 1) ev.current = std::atoi(f[1].c_str());
  if (tag == "@pass") ++ev.run;
  if (tag == "@fail" && f.size() > 2) {
    ++ev.run;
    ev.failures.emplace_back(std::atoi(f[1].c_str()), decodeMessage(f[2]));
  }
  if (tag == "@rule" && f.size() > 1) ev.rule = decodeMessage(f[1]);
  if (tag == "@error" && f.size() > 1) ev.error = decodeMessage(f[1]);
  if ((tag == "@crash" && f.size() >= 14) || (tag == "@hang" && f.size() >= 7)) ev.fault = f;
  if (tag == "@outcome" && f.size() > 4) {
    ++ev.run;
    ev.hasOutcome = true;
    ev.outcomePassed = f[1] == "1";
    ev.result = std::atof(f[2].c_str());
    ev.expected = std::atof(f[3].c_str());
    if (!ev.outcomePassed) ev.failures.emplace_back(0, decodeMessage(f[4]));
  }
  if (tag == "@done") ev.done = true;
  if (tag == "@compile-failed") ev.compileFailed = true;
  if (CompileDiagnostic d; tag == "@diagnostic" && readDiagnostic(f, 1, d))
    ev.diagnostics.push_back(d);
  if (tag == "@speed" && f.size() > 2) ev.speed.emplace_back(f[1] == "1", decodeMessage(f[2]));
  if (tag == "@step" && f.size() > 2) {
    StepSnapshot step;
    step.label = decodeMessage(f[1]);
    step.values = parseValues(f[2]);  // the runner's ints, as --values spells them
    if (f.size() > 4 && !f[3].empty())
      for (const std::string& t : fieldsOf(f[3], ',')) step.active.push_back(std::atoi(t.c_str()));
    if (f.size() > 4 && !f[4].empty())
      for (const std::string& pair : fieldsOf(f[4], ','))
        if (const size_t arrow = pair.find('>'); arrow != std::string::npos)
          step.pairs.emplace_back(std::atoi(pair.c_str()), std::atoi(pair.c_str() + arrow + 1));
    ev.steps.push_back(std::move(step));
  }
  if (tag == "@race" && f.size() > 1) ev.race = decodeMessage(f[1]);
  if (tag == "@note" && f.size() > 1) ev.notes.push_back(decodeMessage(f[1]));
  if (tag == "@race-at" && f.size() > 3) {
    ev.raceStep = std::atoll(f[1].c_str());
    ev.raceElement = std::atoll(f[2].c_str());
    ev.raceArray = f[3];
  }
  if (tag == "@steps-left" && f.size() > 1) ev.stepsLeft = std::atoll(f[1].c_str());
  if (tag == "@seconds" && f.size() > 1) ev.simSeconds = std::atof(f[1].c_str());
}

// The learner's run as the step player shows it.
std::shared_ptr<const Trace> learnerTrace(const Exercise& e, const Params& params,
                                          RunnerEvents& ev) {
  auto t = std::make_shared<Trace>();
  t->params = resolve(params).params;
  t->exercise = e.id;
  t->backend = "sim";
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

// One backend's check.
ExerciseReport checkOn(const Exercise& e, const ExerciseRequest& request) {
  ExerciseReport report;
  report.file = request.file;
  auto progress = [&](const std::string& stage, int done, int total) {
    return !request.progress || request.progress(stage, done, total);
  };
  const std::string replayWith = exerciseReplayCommand(e, request.file);
  const bool onGpu = request.backend == BackendChoice::Gpu;
  const VerifyScope scope = onGpu ? VerifyScope::Gpu : VerifyScope::Simulator;
  // The run's own case, or every check's: the runner numbers them the same way.
  std::vector<VerifyCase> cases;
  if (request.oneRun) {
    VerifyCase c;
    Params options = request.options;
    options.backend = request.backend;
    c.params = exerciseRunParams(e, options);  // ParamError for bad options, now
    c.subject = Message("verify.exercise", {{"exercise", e.id}});
    c.replayWith = replayWith;
    cases.push_back(c);
  }

  const std::string runner = findExerciseRunner();
  if (!isExecutableFile(runner)) {
    report.problem = Message("check.no-runner");
    return report;
  }

  ScratchFolder scratch;
  if (!progress("compiling", 0, 0)) {
    report.verdict = ExerciseVerdict::Cancelled;
    return report;
  }
  // On the simulator the system compiler makes a library here; on the GPU the runner compiles
  // the source itself with NVRTC.
  CompileResult compiled;
  if (onGpu) {
    std::error_code error;
    if (!fs::is_regular_file(request.file, error))
      throw ParamError(Message("check.unreadable", {{"file", request.file}}));
    compiled.ok = true;
    compiled.library = fs::absolute(request.file).lexically_normal().string();
  } else {
    compiled = compileForSimulator(
        e, request.file, scratch.path(), [&] { return progress("compiling", 0, 0); },
        request.raceDetector);
  }
  report.compileSeconds = compiled.seconds;
  report.diagnostics = compiled.diagnostics;
  report.compilerOutput = compiled.output;
  if (compiled.cancelled) {
    report.verdict = ExerciseVerdict::Cancelled;
    return report;
  }
  if (!compiled.ok) {
    report.verdict =
        compiled.failure.empty() ? ExerciseVerdict::CompileError : ExerciseVerdict::NotRun;
    report.problem = compiled.failure;
    return report;
  }
  if (e.cooperativeGroups && !request.oneRun) {  // a rule on the source, before any case
    std::ifstream in(request.file);
    const Message missing = cooperativeGroupsMissing(
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
    if (!missing.empty()) {
      report.failures.push_back(missing);
      report.verdict = ExerciseVerdict::Failed;
      return report;
    }
  }

  std::vector<std::string> argv = {runner, e.id, compiled.library, replayWith,
                                   std::to_string(request.caseSeconds)};
  if (onGpu) argv.push_back("--gpu");
  if (request.oneRun) appendOneRun(argv, cases.front().params);
  if (request.oneRun && !onGpu) argv.push_back("--steps");
  if (!request.raceDetector) argv.push_back("--no-race-detector");
  RunnerEvents ev;
  ChildOptions options;
  // The runner stops a case itself after caseSeconds and says where; this is for a runner
  // that cannot even do that.
  options.silenceLimitSeconds = request.caseSeconds + 10;
  options.outputLimit = 64 * 1024;
  options.outputStopLimit = kBoxOutputBytes;
  // A GPU's driver would keep the kernel's machine code in ~/.nv: nothing outside is written.
  if (onGpu) options.environment = {"CUDA_CACHE_DISABLE=1"};
  options.onReportLine = [&](const std::string& line) { readEvent(line, ev); };
  options.keepGoing = [&] { return progress("checking", ev.run, ev.total); };
  const auto start = std::chrono::steady_clock::now();
  const ChildResult done = runChild(argv, options);
  report.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.printed = done.output;
  report.casesRun = ev.run;
  report.casesTotal = ev.total;
  if (done.cancelled) {
    report.verdict = ExerciseVerdict::Cancelled;
    return report;
  }
  if (!request.oneRun && (!ev.fault.empty() || !ev.done))
    cases = exerciseCases(e, replayWith, scope);
  if (onGpu) {
    report.diagnostics = ev.diagnostics;
    if (ev.compileFailed) {
      report.verdict = ExerciseVerdict::CompileError;
      return report;
    }
  }

  for (const auto& [index, sentence] : ev.failures)
    report.failures.push_back(withLearnerLines(sentence, compiled.library, request.file));
  if (!ev.rule.empty()) report.failures.push_back(ev.rule);
  if (done.outputExceeded) {
    const VerifyCase* c =
        ev.current >= 0 && size_t(ev.current) < cases.size() ? &cases[size_t(ev.current)] : nullptr;
    const int mebibytes = int(kBoxOutputBytes >> 20);
    report.failures.push_back(c ? Message("check.output-limit-in", {{"case", describeCase(*c)},
                                                                    {"mebibytes", mebibytes},
                                                                    {"replay", replayCommand(*c)}})
                                : Message("check.output-limit", {{"mebibytes", mebibytes}}));
  } else if (!ev.fault.empty()) {
    const int k = std::atoi(ev.fault[2].c_str());
    const VerifyCase* c = k >= 0 && size_t(k) < cases.size() ? &cases[size_t(k)] : nullptr;
    report.casesRun += c ? 1 : 0;
    report.failures.push_back(faultSentence(ev.fault, c, compiled.library, request.file));
  } else if (!ev.error.empty()) {
    report.problem = ev.error;
    return report;
  } else if (!ev.done) {
    const int seconds = int(options.silenceLimitSeconds);
    const VerifyCase* c =
        ev.current >= 0 && size_t(ev.current) < cases.size() ? &cases[size_t(ev.current)] : nullptr;
    const Message how = done.signal ? verbatim("signal " + std::to_string(done.signal))
                                    : Message("check.exit-code", {{"code", done.exitCode}});
    if (done.timedOut && onGpu && c)
      report.failures.push_back(Message(
          "check.gpu-hang",
          {{"case", describeCase(*c)}, {"seconds", seconds}, {"replay", replayCommand(*c)}}));
    else if (done.timedOut)
      report.failures.push_back(
          c ? Message("check.runner-silent-in", {{"case", describeCase(*c)}, {"seconds", seconds}})
            : Message("check.runner-silent", {{"seconds", seconds}}));
    else if (done.signal == SIGSYS && c)  // a forbidden call with every signal blocked
      report.failures.push_back(
          Message("check.box-stopped-unnamed", {{"case", describeCase(*c)},
                                                {"why", Message("box.why")},
                                                {"replay", replayCommand(*c)}}));
    else
      report.failures.push_back(
          c ? Message("check.runner-ended-in", {{"case", describeCase(*c)}, {"how", how}})
            : Message("check.runner-ended", {{"how", how}}));
  }
  if (request.oneRun && ev.hasOutcome) {
    report.hasResult = true;
    report.result = ev.result;
    report.expected = ev.expected;
  }
  if (!ev.race.empty()) {
    ev.race = withLearnerLines(ev.race, compiled.library, request.file);
    if (request.oneRun && ev.steps.empty())  // no steps to show it beside: the report's note
      report.notes.push_back(
          Message(ev.hasOutcome && ev.outcomePassed ? "note.race-right" : "note.race",
                  {{"race", ev.race}}));
  }
  for (const Message& note : ev.notes) report.notes.push_back(note);
  if (request.oneRun && !ev.steps.empty()) report.trace = learnerTrace(e, cases.front().params, ev);
  for (const auto& [met, sentence] : ev.speed)
    (met ? report.notes : report.failures).push_back(sentence);
  report.verdict = report.failures.empty() ? ExerciseVerdict::Passed : ExerciseVerdict::Failed;
  if (e.gpuSpeedGoal && !request.oneRun && !onGpu)
    report.notes.push_back(Message("check.speed-needs-gpu"));
  return report;
}

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
                                 "sim.read-lane-outside-mask", "sim.different-warp-ops"})
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
