// [SECTION] Finding the runner, replay lines
// [SECTION] Crashes and hangs in words
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
#include "lessons/engine/exercise/source_check.hpp"
#include "lessons/engine/installation.hpp"
#include "lessons/engine/process.hpp"

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

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

}  // namespace

std::string exerciseReplayCommand(const Exercise& e, const std::string& file) {
  return "rlab exercise run " + e.id + " " + shellWord(file);
}

std::string ExerciseReport::summary() const {
  if (simulator.ran && (verdict == ExerciseVerdict::Passed || verdict == ExerciseVerdict::Failed)) {
    const int onGpu = int(failures.size()) - simulator.failures;
    auto part = [](int failed, int run, int total, const char* where) {
      if (failed == 0) return "right in all " + std::to_string(run) + " cases " + where;
      return std::to_string(failed) + " of the " + std::to_string(run) + " cases run " + where +
             (run < total ? " (of " + std::to_string(total) + ")" : "") + " failed";
    };
    const std::string gpuPart = part(onGpu, casesRun, casesTotal, "on the GPU");
    const std::string simPart =
        simulator.verdict == ExerciseVerdict::Passed || simulator.verdict == ExerciseVerdict::Failed
            ? part(simulator.failures, simulator.casesRun, simulator.casesTotal, "on the simulator")
            : "the simulator could not check it";
    return (verdict == ExerciseVerdict::Passed ? "passed: " : "failed: ") + gpuPart + ", " +
           simPart;
  }
  switch (verdict) {
    case ExerciseVerdict::Passed:
      return hasResult ? "correct" : "passed: all " + std::to_string(casesRun) + " cases";
    case ExerciseVerdict::Failed:
      if (hasResult) return "wrong";
      if (casesRun == 0) return "failed before any case ran";
      return "failed: " + std::to_string(failures.size()) + " of the " + std::to_string(casesRun) +
             " cases run" +
             (casesRun < casesTotal ? " (of " + std::to_string(casesTotal) + ")" : "");
    case ExerciseVerdict::CompileError: {
      int errors = 0;
      for (const auto& d : diagnostics) errors += d.severity == "error";
      return std::to_string(errors) + " compile error" + (errors == 1 ? "" : "s");
    }
    case ExerciseVerdict::Cancelled:
      return "cancelled";
    case ExerciseVerdict::NotRun:
      break;
  }
  return "not run: " + problem;
}

// ============================================================================================
// [SECTION] Crashes and hangs in words
// ============================================================================================

namespace {

// The learner's line among the library offsets the runner reported: addr2line walks each
// address's inlined calls from the innermost out, so the first line in the learner's file is
// where their code was (a crash inside a shim function inlined into theirs names their call).
std::string learnerLine(const std::string& library, const std::string& source,
                        const std::string& pcs) {
  std::vector<std::string> addresses;
  std::istringstream list(pcs);
  bool first = true;
  for (std::string pc; std::getline(list, pc, ',');) {
    if (pc.empty() || pc == "-") {
      first = false;
      continue;
    }
    unsigned long long offset = std::strtoull(pc.c_str(), nullptr, 16);
    if (!first && offset > 0) --offset;  // a return address: the call is the byte before
    first = false;
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", offset);
    addresses.push_back(text);
  }
  if (addresses.empty()) return "";
  std::vector<std::string> arguments = {"-e", library, "-i"};
  arguments.insert(arguments.end(), addresses.begin(), addresses.end());
  std::istringstream lines(runAddr2line(arguments));
  for (std::string line; std::getline(lines, line);) {
    const size_t colon = line.rfind(':');
    if (colon == std::string::npos ||
        fs::path(line.substr(0, colon)).lexically_normal().string() != source)
      continue;
    std::string number = line.substr(colon + 1);
    number = number.substr(0, number.find_first_not_of("0123456789"));
    if (number.empty() || number == "0") continue;
    return fs::path(source).filename().string() + ":" + number;
  }
  return "";
}

std::string whoRan(const std::vector<std::string>& f, size_t running) {
  if (f.size() <= running + 2 || f[running] != "1") return "";
  return "thread " + f[running + 2] + " of block " + f[running + 1];
}

std::string plural(long long count, const char* word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

// @crash SIGNAL CASE RUNNING BLOCK THREAD ADDRESS WRITE FENCE NAME INDEX COUNT HEAP PCS
std::string crashText(const std::vector<std::string>& f, const std::string& where) {
  const int signal = std::atoi(f[1].c_str());
  std::string who = whoRan(f, 3);
  if (who.empty()) who = "code outside any simulated thread";
  const std::string at = where.empty() ? "" : " at " + where;
  if (signal == SIGSYS || signal == SIGXFSZ)
    return who + " tried to " + boxDeed(signal == SIGSYS ? f[9] : "write") + at +
           ", and was stopped: " + kBoxWhy;
  if (signal == SIGXCPU)
    return "the runner used more than " + std::to_string(kBoxCpuSeconds) +
           " s of CPU time, the box's limit, and was stopped (" + who + " was running" + at + ")";
  const bool heapFull = std::atoll(f[12].c_str()) > 0;
  if (signal == SIGSEGV && f[8] == "1") {
    const std::string name = f[9];
    const long long index = std::atoll(f[10].c_str()), count = std::atoll(f[11].c_str());
    const std::string verb = f[7] == "1" ? "wrote" : f[7] == "0" ? "read" : "touched";
    return who + " " + verb + " " + name + "[" + std::to_string(index) + "]" + at + ", " +
           (index < 0 ? "before the start" : "past the end") + " of " + name + " (" +
           plural(count, "element") + ", indices 0 to " + std::to_string(count - 1) + ")";
  }
  const unsigned long long address = std::strtoull(f[6].c_str(), nullptr, 16);
  switch (signal) {
    case SIGSEGV:
      if (address < 65536)
        return who + " used a null pointer" + at + " (address " + f[6] + ")" +
               (heapFull ? "; a malloc or new in the kernel had got one: CUDA's device heap has " +
                               std::to_string(sim::kDeviceHeapBytes >> 20) + " MiB"
                         : "");
      return who + " touched memory that belongs to no buffer" + at + " (address " + f[6] +
             "), or overran its stack (the simulator gives each thread 64 KiB)";
    case SIGFPE:
      return who + " divided an integer by zero" + at;
    case SIGBUS:
      return who + " made a misaligned or invalid memory access" + at;
    case SIGILL:
      return who + " reached an illegal instruction" + at +
             " (a __trap(), or a function that ends without returning its value)";
    case SIGABRT:
      return who + " aborted the program" + at;
    default:
      return who + " ended the run with signal " + f[1] + at;
  }
}

// @hang MILLISECONDS CASE RUNNING BLOCK THREAD PCS
std::string hangText(const std::vector<std::string>& f, const std::string& where) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", std::atof(f[1].c_str()) / 1000);
  const std::string who = whoRan(f, 3);
  std::string text = std::string("the kernel was still running after ") + seconds + " s";
  if (!who.empty())
    text += " (" + who + " was" + (where.empty() ? " running" : " at " + where) + ")";
  else
    text += " with no thread running between two barriers or warp operations";
  return text + ": does a loop never end?";
}

}  // namespace

std::string runnerFaultText(const std::string& reportLine, const std::string& library,
                            const std::string& file) {
  const std::vector<std::string> f = splitTabs(reportLine);
  if (!((f[0] == "@crash" && f.size() >= 14) || (f[0] == "@hang" && f.size() >= 7))) return "";
  const std::string where =
      learnerLine(library, fs::absolute(file).lexically_normal().string(), f.back());
  return f[0] == "@hang" ? hangText(f, where) : "the kernel crashed: " + crashText(f, where);
}

// ============================================================================================
// [SECTION] The check
// ============================================================================================

namespace {

// A crash or hang report as the sentence of the case it ended, with the learner's line.
std::string faultSentence(const std::vector<std::string>& f, const VerifyCase* c,
                          const std::string& library, const std::string& file) {
  const std::string source = fs::absolute(file).lexically_normal().string();
  const std::string where = learnerLine(library, source, f.back());
  const std::string what =
      f[0] == "@hang" ? hangText(f, where) : "the kernel crashed: " + crashText(f, where);
  if (!c) return "The runner stopped outside any case: " + what + ".";
  return describeCase(*c) + ": " + what + (what.back() == '?' ? "" : ".") +
         " Replay: " + replayCommand(*c);
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
  std::vector<CompileDiagnostic> diagnostics;         // NVRTC's, on the GPU
  std::vector<std::pair<bool, std::string>> speed;    // the speed goal: met, sentence
  std::vector<std::pair<int, std::string>> failures;  // case, sentence
  std::string rule, error;
  std::vector<std::string> fault;  // the @crash or @hang fields
  bool hasOutcome = false, outcomePassed = false;
  double result = 0, expected = 0;
  std::vector<StepSnapshot> steps;
  long long stepsLeft = 0;
  double simSeconds = 0;  // the run itself, in the runner
};

void readEvent(const std::string& line, RunnerEvents& ev) {
  const std::vector<std::string> f = splitTabs(line);
  const std::string& tag = f[0];
  if (tag == "@cases" && f.size() > 1) ev.total = std::atoi(f[1].c_str());
  if (tag == "@case" && f.size() > 1) ev.current = std::atoi(f[1].c_str());
  if (tag == "@pass") ++ev.run;
  if (tag == "@fail" && f.size() > 2) {
    ++ev.run;
    ev.failures.emplace_back(std::atoi(f[1].c_str()), f[2]);
  }
  if (tag == "@rule" && f.size() > 1) ev.rule = f[1];
  if (tag == "@error" && f.size() > 1) ev.error = f[1];
  if ((tag == "@crash" && f.size() >= 14) || (tag == "@hang" && f.size() >= 7)) ev.fault = f;
  if (tag == "@outcome" && f.size() > 4) {
    ++ev.run;
    ev.hasOutcome = true;
    ev.outcomePassed = f[1] == "1";
    ev.result = std::atof(f[2].c_str());
    ev.expected = std::atof(f[3].c_str());
    if (!ev.outcomePassed) ev.failures.emplace_back(0, f[4]);
  }
  if (tag == "@done") ev.done = true;
  if (tag == "@compile-failed") ev.compileFailed = true;
  if (tag == "@diagnostic" && f.size() > 4) {
    CompileDiagnostic d;
    d.line = std::atoi(f[1].c_str());
    d.column = std::atoi(f[2].c_str());
    d.severity = f[3];
    d.message = f[4];
    ev.diagnostics.push_back(d);
  }
  if (tag == "@speed" && f.size() > 2) ev.speed.emplace_back(f[1] == "1", f[2]);
  if (tag == "@step" && f.size() > 2) {
    StepSnapshot step;
    step.label = f[1];
    step.values = parseValues(f[2]);  // the runner's ints, as --values spells them
    ev.steps.push_back(std::move(step));
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
  t->device = "the simulator, schedule " + t->params.schedule;
  t->traced = true;
  t->steps = std::move(ev.steps);
  t->result = ev.result;
  t->expected = ev.expected;
  t->correct = ev.hasOutcome && ev.outcomePassed;
  t->timings.simSeconds = ev.simSeconds;
  t->notes.push_back(
      "Your kernel's steps, taken by the simulator without a trace call in your code: one each "
      "time a block's __syncthreads() opens (the kernel's largest __shared__ array, or the "
      "global array it works in), and one after each launch. 2139062143 in a __shared__ cell: "
      "never written (the simulator's poison).");
  if (ev.stepsLeft > 0)
    t->notes.push_back("Only the first " + std::to_string(t->steps.size()) + " steps are kept; " +
                       std::to_string(ev.stepsLeft) + " more were not recorded.");
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
    c.subject = "exercise " + e.id;
    c.replayWith = replayWith;
    cases.push_back(c);
  }

  const std::string runner = findExerciseRunner();
  if (!isExecutableFile(runner)) {
    report.problem =
        "the exercise runner (rlab-exercise-runner) was found neither in libexec/reduction-lab "
        "of this installation nor beside this program; set RLAB_EXERCISE_RUNNER to its path.";
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
      throw ParamError(request.file + " is not a file that can be read.");
    compiled.ok = true;
    compiled.library = fs::absolute(request.file).lexically_normal().string();
  } else {
    compiled = compileForSimulator(e, request.file, scratch.path(),
                                   [&] { return progress("compiling", 0, 0); });
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
    const std::string missing = cooperativeGroupsMissing(
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
    if (!missing.empty()) {
      report.failures.push_back(missing + ".");
      report.verdict = ExerciseVerdict::Failed;
      return report;
    }
  }

  std::vector<std::string> argv = {runner, e.id, compiled.library, replayWith,
                                   std::to_string(request.caseSeconds)};
  if (onGpu) argv.push_back("--gpu");
  if (request.oneRun) appendOneRun(argv, cases.front().params);
  if (request.oneRun && !onGpu) argv.push_back("--steps");
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

  for (const auto& [index, sentence] : ev.failures) report.failures.push_back(sentence);
  if (!ev.rule.empty()) report.failures.push_back(ev.rule);
  if (done.outputExceeded) {
    const VerifyCase* c =
        ev.current >= 0 && size_t(ev.current) < cases.size() ? &cases[size_t(ev.current)] : nullptr;
    const std::string limit = std::to_string(kBoxOutputBytes >> 20) + " MiB";
    report.failures.push_back((c ? describeCase(*c) + ": the" : "The") +
                              " kernel printed more than " + limit +
                              ", the box's limit on output, and was stopped" +
                              (c ? ". Replay: " + replayCommand(*c) : "."));
  } else if (!ev.fault.empty()) {
    const int k = std::atoi(ev.fault[2].c_str());
    const VerifyCase* c = k >= 0 && size_t(k) < cases.size() ? &cases[size_t(k)] : nullptr;
    report.casesRun += c ? 1 : 0;
    report.failures.push_back(faultSentence(ev.fault, c, compiled.library, request.file));
  } else if (!ev.error.empty()) {
    report.problem = ev.error;
    return report;
  } else if (!ev.done) {
    const std::string which = ev.current >= 0 && size_t(ev.current) < cases.size()
                                  ? " in case " + describeCase(cases[size_t(ev.current)])
                                  : "";
    const std::string seconds = std::to_string(int(options.silenceLimitSeconds));
    const VerifyCase* c =
        ev.current >= 0 && size_t(ev.current) < cases.size() ? &cases[size_t(ev.current)] : nullptr;
    if (done.timedOut && onGpu && c)
      report.failures.push_back(
          describeCase(*c) + ": the kernel was still running on the GPU after " + seconds +
          " s and was stopped: does a loop never end? Replay: " + replayCommand(*c));
    else if (done.timedOut)
      report.failures.push_back("The runner stopped answering" + which + " and was stopped after " +
                                seconds + " s.");
    else if (done.signal == SIGSYS && c)  // a forbidden call with every signal blocked
      report.failures.push_back(describeCase(*c) +
                                ": the kernel made a system call the box forbids (system() and "
                                "posix_spawn start a process with every signal blocked, so the "
                                "call cannot be named) and was stopped: " +
                                kBoxWhy + ". Replay: " + replayCommand(*c));
    else
      report.failures.push_back("The runner ended" + which + " without a report (" +
                                (done.signal ? "signal " + std::to_string(done.signal)
                                             : "exit code " + std::to_string(done.exitCode)) +
                                ").");
  }
  if (request.oneRun && ev.hasOutcome) {
    report.hasResult = true;
    report.result = ev.result;
    report.expected = ev.expected;
  }
  if (request.oneRun && !ev.steps.empty()) report.trace = learnerTrace(e, cases.front().params, ev);
  for (const auto& [met, sentence] : ev.speed)
    (met ? report.notes : report.failures).push_back(sentence);
  report.verdict = report.failures.empty() ? ExerciseVerdict::Passed : ExerciseVerdict::Failed;
  if (e.gpuSpeedGoal && !request.oneRun && !onGpu)
    report.notes.push_back(
        "The speed goal (faster than the shared lesson's coarsened kernel at 2^24) can only be "
        "measured on a GPU.");
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
  const std::string gpuSaid =
      gpuPassed ? "Right in all " + std::to_string(report.casesRun) + " cases on this GPU, but "
                : "Also ";
  switch (sim.verdict) {
    case ExerciseVerdict::Passed:
      report.notes.push_back("On the simulator, the same file under its schedules: all " +
                             std::to_string(sim.casesRun) + " cases passed.");
      return;
    case ExerciseVerdict::Cancelled:
      report.verdict = ExerciseVerdict::Cancelled;
      return;
    case ExerciseVerdict::Failed:
      for (size_t k = 0; k < sim.failures.size(); ++k)
        report.failures.push_back(
            (k == 0 ? gpuSaid + "wrong on the simulator, whose schedules run the threads and "
                                "lanes in orders a GPU may also pick: "
                    : std::string("On the simulator: ")) +
            sim.failures[k]);
      s.failures = int(sim.failures.size());
      break;
    case ExerciseVerdict::CompileError:
    case ExerciseVerdict::NotRun: {
      std::string why = sim.problem;
      for (const CompileDiagnostic& d : sim.diagnostics)
        if (why.empty() && d.severity == "error")
          why = "line " + std::to_string(d.line) + ": " + d.message;
      report.failures.push_back(gpuSaid + "the simulator could not check the same file (" + why +
                                "), so its schedules were not run.");
      s.failures = 1;
      break;
    }
  }
  report.verdict = ExerciseVerdict::Failed;
}

}  // namespace

ExerciseReport checkExercise(const Exercise& e, const ExerciseRequest& request) {
  ExerciseReport report = checkOn(e, request);
  const bool checked =
      report.verdict == ExerciseVerdict::Passed || report.verdict == ExerciseVerdict::Failed;
  if (request.backend != BackendChoice::Gpu || request.oneRun || !checked) return report;
  ExerciseRequest onSimulator = request;
  onSimulator.backend = BackendChoice::Sim;
  const ExerciseReport sim = checkOn(e, onSimulator);
  addSimulatorCheck(report, sim);
  report.compileSeconds += sim.compileSeconds;
  report.runSeconds += sim.runSeconds;
  return report;
}

}  // namespace rlab
