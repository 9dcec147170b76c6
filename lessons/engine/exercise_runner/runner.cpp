// rlab-exercise-runner: runs a learner's kernel, compiled into a shared object, through an
// exercise's cases, in a process of its own, so that a kernel that crashes or never ends takes
// only this process with it. The core (lessons/engine/exercise/check.cpp) starts it and reads its
// report, one line per event, from file descriptor 3:
//   @cases N                         the cases it will run
//   @case K                          case K starts
//   @pass K | @fail K <TAB> sentence case K's outcome (verify's sentence)
//   @rule <TAB> sentence             a rule broken before any case (no __shared__ array ...)
//   @outcome <TAB> passed <TAB> result <TAB> expected <TAB> sentence     (--one: the one run)
//   @crash ... | @hang ...           the kernel crashed or ran past the time limit
//                                    (crash_report.hpp)
//   @error <TAB> sentence            the library could not be loaded
//   @step <TAB> label <TAB> values   (--one --steps: a step of the run)
//   @race <TAB> sentence             (--one: the run's first race, which did not end it)
//   @race-at <TAB> step <TAB> element <TAB> array   (--one --steps: where that race shows)
//   @access <TAB> tick launch block thread phase kind array shared element value instruction
//                                    (--one --steps: a load or store, in the order they ran)
//   @accesses-left <TAB> count       (those past the limit, not sent)
//   @race-ticks <TAB> first <TAB> second   (--one --steps: the race's two accesses)
//   @done
// A sentence or label is a message of the core on one line (encodeMessage), so that the
// learner reads it in their language.
// Whatever the kernel prints goes to stdout as usual.
//
//   rlab-exercise-runner EXERCISE LIBRARY REPLAY-COMMAND CASE-SECONDS [--no-race-detector]
//       [--every-case: not only until three cases have failed]
//       [--one [--n N] [--block B] [--data D] [--values V] [--schedule S]]
//   rlab-exercise-runner EXERCISE SOURCE REPLAY-COMMAND CASE-SECONDS --gpu [--one ...]
//       [--leaderboard: once every case passed, the leaderboard's rounds (leaderboard.hpp)]
// With --gpu the learner's source itself is given: NVRTC compiles it for the device
// (lessons/engine/exercise_runner/gpu.hpp, which adds its own report lines).
//
// [SECTION] Loading the kernel
// [SECTION] Running the cases
// [SECTION] main

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise_runner/box.hpp"
#include "lessons/engine/exercise_runner/crash_report.hpp"
#include "lessons/engine/exercise_runner/drivers.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"
#include "lessons/engine/exercise_runner/gpu.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/races/verify.hpp"

namespace rlab::exercise {

namespace {

// ============================================================================================
// [SECTION] Loading the kernel
// ============================================================================================

void report(const std::string& text) {
  const std::string line = text + "\n";
  for (size_t sent = 0; sent < line.size();) {
    const ssize_t n = write(g_report, line.data() + sent, line.size() - sent);
    if (n <= 0) return;
    sent += size_t(n);
  }
}

// The address range of the module that holds `address`, and its load bias.
void rememberLibrary(const void* address) {
  struct Search {
    uintptr_t address;
  } search{reinterpret_cast<uintptr_t>(address)};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        const uintptr_t wanted = static_cast<Search*>(data)->address;
        uintptr_t low = UINTPTR_MAX, high = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          low = std::min<uintptr_t>(low, info->dlpi_addr + ph.p_vaddr);
          high = std::max<uintptr_t>(high, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
        }
        if (wanted < low || wanted >= high) return 0;
        g_libraryBase = info->dlpi_addr;
        g_libraryLow = low;
        g_libraryHigh = high;
        return 1;
      },
      &search);
}

// 2139062143 is the poison the simulator leaves in shared memory before a write and past the
// end of a buffer: a result off by a few of it read one of them.
bool offByPoison(double result, double expected) {
  const double poison = 2139062143.0, wrap = 4294967296.0;
  for (int k = -4; k <= 4; ++k) {
    if (k == 0) continue;
    const double off = std::fmod(result - expected - k * poison, wrap);
    if (std::fabs(off) < 1e6 || std::fabs(std::fabs(off) - wrap) < 1e6) return true;
  }
  return false;
}

// A wrong result off by a few poisons says so.
Message withPoisonNote(const VerifyOutcome& o) {
  if (o.passed || o.sentence.id != "verify.wrong" || !offByPoison(o.result, o.expected))
    return o.sentence;
  return Message("verify.wrong-poison", o.sentence.args);
}

std::string clean(const Message& m) {  // one line, no tabs: the report's fields
  return encodeMessage(m);
}

// dlopen()s the learner's library and asks it for its kernel. False, the error reported, where
// it cannot.
bool loadKernel(const std::string& library, const void*& kernel) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    report("@error\t" + clean(Message("runner.cannot-load", {{"why", dlerror()}})));
    return false;
  }
  using Entry = const void* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, "rlab_exercise_kernel"));
  if (!entry) {
    report("@error\t" + clean(Message("runner.no-entry", {{"entry", "rlab_exercise_kernel"}})));
    return false;
  }
  kernel = entry();
  rememberLibrary(kernel);
  g_instructionName = [](uintptr_t instruction) -> std::string {
    if (instruction <= g_libraryLow || instruction > g_libraryHigh) return "";
    char text[32];  // a return address: the call is the byte before
    std::snprintf(text, sizeof text, "@pc:0x%llx",
                  (unsigned long long)(instruction - 1 - g_libraryBase));
    return text;
  };
  return true;
}

// ============================================================================================
// [SECTION] Running the cases
// ============================================================================================

// What the command line asks past its first four arguments.
struct Request {
  bool one = false, gpu = false, steps = false, compileOnly = false;
  bool everyCase = false;  // not only until three have failed (a grade counts every kind)
  Params options;
  std::string values;  // --values, parsed where a run takes it
  GpuRun run;          // --input and --launch: the conformance suite's probe
};

Request parseFlags(int argc, char** argv) {
  Request r;
  for (int k = 5; k < argc; ++k) {
    const std::string flag = argv[k];
    const std::string value = k + 1 < argc ? argv[k + 1] : "";
    if (flag == "--no-race-detector") {
      g_detectRaces = false;
      continue;
    }
    if (flag == "--every-case") {
      r.everyCase = true;
      continue;
    }
    if (flag == "--leaderboard") {
      r.run.leaderboard = true;
      continue;
    }
    if (flag == "--one" || flag == "--gpu" || flag == "--steps" || flag == "--compile-only") {
      (flag == "--one"     ? r.one
       : flag == "--gpu"   ? r.gpu
       : flag == "--steps" ? r.steps
                           : r.compileOnly) = true;
      continue;
    }
    ++k;
    if (flag == "--n") r.options.n = std::atoll(value.c_str());
    if (flag == "--block") r.options.block = std::atoi(value.c_str());
    if (flag == "--data") r.options.data = value;
    if (flag == "--values") r.values = value;
    if (flag == "--schedule") r.options.schedule = value;
    if (flag == "--input") r.run.probeInput = parseProbeInput(value);
    if (flag == "--launch") r.run.probeLaunches.push_back(parseProbeLaunch(value));
  }
  return r;
}

// With --gpu: the learner's source, through NVRTC and the driver API (gpu.hpp).
int runGpuRequest(const Exercise& e, const std::string& library, const std::string& replayWith,
                  Request& r) {
  try {
    if (!r.values.empty()) r.options.values = parseValues(r.values);
    r.run.oneRun = r.one;
    r.run.compileOnly = r.compileOnly;
    r.run.options = r.options;
    return runOnGpu(e, library, replayWith, r.run, report);
  } catch (const std::exception& ex) {
    report("@error\t" + clean(messageOf(ex)));
    return 3;
  }
}

// @step LABEL VALUES WORKED PAIRS: one line per step, sent as it is taken; WORKED the
// threads that read or wrote the step's array, PAIRS "4>0,5>1" what each write read.
void reportStep(const StepSnapshot& step) {
  std::string values, worked, pairs;
  for (double v : step.values) values += (values.empty() ? "" : ",") + std::to_string((long long)v);
  for (int t : step.active) worked += (worked.empty() ? "" : ",") + std::to_string(t);
  for (const auto& [source, target] : step.pairs)
    pairs += (pairs.empty() ? "" : ",") + std::to_string(source) + ">" + std::to_string(target);
  report("@step\t" + clean(step.label) + "\t" + values + "\t" + worked + "\t" + pairs);
}

// @access: one load or store of the run (StepRecorder::keepAccesses), its instruction as the
// core finds the learner's line from ("@pc:OFFSET"; "-" outside their library), value "-"
// where not known.
void reportAccess(const MemoryAccess& a, uintptr_t instruction) {
  const std::string pc = g_instructionName ? g_instructionName(instruction) : "";
  report("@access\t" + std::to_string(a.tick) + "\t" + std::to_string(a.launch) + "\t" +
         std::to_string(a.block) + "\t" + std::to_string(a.thread) + "\t" +
         std::to_string(a.phase) + "\t" + name(a.kind) + "\t" + a.array + "\t" +
         (a.shared ? "1" : "0") + "\t" + std::to_string(a.element) + "\t" +
         (a.valueKnown ? std::to_string(a.value) : "-") + "\t" + (pc.empty() ? "-" : pc));
}

// What --one reports after its run: the steps past the limit, the first race and the step
// that shows it, a lane schedule that held nobody, and the outcome.
void reportOneRun(const VerifyCase& c, const VerifyOutcome& o, const StepRecorder& recorder,
                  const Message& race) {
  if (recorder.left() > 0) report("@steps-left\t" + std::to_string(recorder.left()));
  if (recorder.accessesLeft() > 0)
    report("@accesses-left\t" + std::to_string(recorder.accessesLeft()));
  if (const auto ticks = recorder.raceTicks())
    report("@race-ticks\t" + std::to_string(ticks->first) + "\t" + std::to_string(ticks->second));
  if (!race.empty()) report("@race\t" + clean(race));
  if (const Message idle = laneScheduleHeldNobody(c.params.schedule, g_laneThreadWarpSteps);
      !idle.empty())
    report("@note\t" + clean(idle));
  if (const auto& mark = recorder.raceMark())
    report("@race-at\t" + std::to_string(mark->step) + "\t" + std::to_string(mark->element) + "\t" +
           mark->array);
  char numbers[80];
  std::snprintf(numbers, sizeof numbers, "%.17g\t%.17g", o.result, o.expected);
  report("@outcome\t" + std::string(o.passed ? "1" : "0") + "\t" + numbers + "\t" +
         clean(withPoisonNote(o)));
  report("@done");
}

// --one: the one run a replay shows, step by step where asked and n is small enough.
void runOneCase(const Exercise& e, const void* kernel, const std::string& replayWith, Request& r) {
  if (!r.values.empty()) r.options.values = parseValues(r.values);
  VerifyCase c;
  c.params = exerciseRunParams(e, r.options);
  c.subject = Message("verify.exercise", {{"exercise", e.id}});
  c.replayWith = replayWith;
  report("@cases\t1");
  report("@case\t0");
  StepRecorder recorder(reportStep);
  const bool steps = r.steps && resolve(c.params).params.n <= kExerciseStepLimit;
  if (steps) recorder.keepAccesses(reportAccess, kAccessesKept);
  // The replay shows the result and the race both: the first race is told after the run.
  Message race;
  g_onRace = [&race](const sim::LaunchError& e) {
    if (race.empty()) race = messageOf(e);
  };
  startCaseTimer(0);
  const auto start = std::chrono::steady_clock::now();
  const VerifyOutcome o = verify(c, [&](const Params& p) {
    return runExerciseKernel(e, kernel, p, steps ? &recorder : nullptr);
  });
  stopCaseTimer();
  report("@seconds\t" +
         std::to_string(
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  reportOneRun(c, o, recorder, race);
}

// Every case of the check, until three have failed (or all of them, `everyCase`).
void runCases(const Exercise& e, const void* kernel, const std::string& replayWith,
              bool everyCase) {
  const KernelRunner runKernel = [&](const Params& p) { return runExerciseKernel(e, kernel, p); };
  const std::vector<VerifyCase> cases = exerciseCases(e, replayWith);
  report("@cases\t" + std::to_string(cases.size()));
  int failed = 0;
  for (size_t k = 0; k < cases.size() && (failed < 3 || everyCase); ++k) {
    report("@case\t" + std::to_string(k));
    startCaseTimer(int(k));
    const VerifyOutcome o = verify(cases[k], runKernel);
    stopCaseTimer();
    if (o.passed) {
      report("@pass\t" + std::to_string(k));
    } else {
      ++failed;
      report("@fail\t" + std::to_string(k) + "\t" + clean(withPoisonNote(o)));
    }
  }
  report("@done");
}

}  // namespace

// ============================================================================================
// [SECTION] main
// ============================================================================================

int runnerMain(int argc, char** argv) {
  if (fcntl(g_report, F_GETFD) < 0) g_report = dup(STDOUT_FILENO);  // run by hand
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 5) {
    std::fprintf(
        stderr,
        "usage: rlab-exercise-runner EXERCISE LIBRARY REPLAY-COMMAND CASE-SECONDS "
        "[--gpu] [--one [--steps] [--n N] [--block B] [--data D] [--values V] [--schedule S]]\n");
    return 2;
  }
  const bool probe = std::string(argv[1]) == "probe";  // the conformance suite's kernel
  const Exercise* e = probe ? &probeExercise() : findExercise(argv[1]);
  if (!e) {
    report("@error\t" + clean(Message("runner.no-exercise", {{"exercise", argv[1]}})));
    return 2;
  }
  const std::string library = argv[2], replayWith = argv[3];
  g_caseSeconds = std::max(0.05, std::atof(argv[4]));
  Request r = parseFlags(argc, argv);

  installHandlers();
  // The GPU path enters its box once the driver and NVRTC are up.
  if (r.gpu) return runGpuRequest(*e, library, replayWith, r);
  // Nothing of the learner's has run yet; from here on it runs boxed.
  if (const Message why = enterBox(BoxFor::Simulator); !why.empty()) {
    report("@error\t" + clean(why));
    return 3;
  }
  const void* kernel = nullptr;
  if (!loadKernel(library, kernel)) return 3;

  try {
    if (probe) {
      runProbesOnSimulator(kernel, r.run.probeInput, r.run.probeLaunches, startCaseTimer, report);
      stopCaseTimer();
      report("@done");
      return 0;
    }
    if (r.one) {
      runOneCase(*e, kernel, replayWith, r);
      return 0;
    }
    const Message rule = sharedMemoryRuleBroken(*e, kernel);
    if (!rule.empty()) {
      report("@rule\t" + clean(rule));
      report("@done");
      return 0;
    }
    runCases(*e, kernel, replayWith, r.everyCase);
  } catch (const std::exception& ex) {
    report("@error\t" + clean(messageOf(ex)));
    return 3;
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace rlab::exercise

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer checks at exit from a tracer process it starts with clone and ptrace, which the
// box forbids: in a sanitizer build the runner leaves leaks to the tests that run the core in
// their own process.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}
#endif

int main(int argc, char** argv) {
  return rlab::exercise::runnerMain(argc, argv);
}
