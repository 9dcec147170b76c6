// rlab-exercise-runner: runs a learner's kernel, compiled into a shared object, through an
// exercise's cases, in a process of its own, so that a kernel that crashes or never ends takes
// only this process with it. The core (lessons/engine/exercise/check.cpp) starts it and reads its
// report, one line per event, from file descriptor 3:
//   @cases N                         the cases it will run
//   @case K                          case K starts
//   @pass K | @fail K <TAB> sentence case K's outcome (verify's sentence)
//   @rule <TAB> sentence             a rule broken before any case (no __shared__ array ...)
//   @outcome <TAB> passed <TAB> result <TAB> expected <TAB> sentence     (--one: the one run)
//   @crash ... | @hang ...           the kernel crashed or ran past the time limit (see below)
//   @error <TAB> sentence            the library could not be loaded
//   @step <TAB> label <TAB> values   (--one --steps: a step of the run)
//   @race <TAB> sentence             (--one: the run's first race, which did not end it)
//   @race-at <TAB> step <TAB> element <TAB> array   (--one --steps: where that race shows)
//   @done
// A sentence or label is a message of the core on one line (encodeMessage), so that the
// learner reads it in their language.
// Whatever the kernel prints goes to stdout as usual.
//
//   rlab-exercise-runner EXERCISE LIBRARY REPLAY-COMMAND CASE-SECONDS [--no-race-detector]
//       [--one [--n N] [--block B] [--data D] [--values V] [--schedule S]]
//   rlab-exercise-runner EXERCISE SOURCE REPLAY-COMMAND CASE-SECONDS --gpu [--one ...]
// With --gpu the learner's source itself is given: NVRTC compiles it for the device
// (lessons/engine/exercise_runner/gpu.hpp, which adds its own report lines).
//
// [SECTION] Crash and time-limit reports (signal handlers)
// [SECTION] Loading the kernel
// [SECTION] main

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <execinfo.h>
#include <string>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise_runner/box.hpp"
#include "lessons/engine/exercise_runner/drivers.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"
#include "lessons/engine/exercise_runner/gpu.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/races/verify.hpp"

namespace rlab::exercise {

// ============================================================================================
// [SECTION] Crash and time-limit reports (signal handlers)
// ============================================================================================
// A fault in the kernel (SIGSEGV on a fence page, SIGFPE, SIGBUS, SIGILL, SIGABRT), a call
// the box forbids (SIGSYS), a box limit (SIGXCPU, SIGXFSZ) and the case's time limit (SIGALRM,
// delivered to the worker thread that runs every kernel) end the process with one report line:
//   @crash SIGNAL CASE RUNNING BLOCK THREAD ADDRESS WRITE FENCE NAME INDEX COUNT HEAP PCS
//   @hang SECONDS CASE RUNNING BLOCK THREAD PCS
// RUNNING says whether a simulated thread was running (then BLOCK and THREAD name it), FENCE
// whether the faulting ADDRESS fell in a buffer's fence pages (NAME[INDEX] of COUNT), WRITE is
// 1 for a write, 0 for a read, -1 unknown; for SIGSYS, ADDRESS is the system call's number and
// NAME its name. HEAP counts the kernel's mallocs that got a null pointer (the device heap was
// full). PCS are offsets into the learner's library ("-" for code elsewhere), the interrupted
// instruction first, then return addresses: the parent maps them to the learner's lines with
// addr2line. Everything here is async-signal-safe but the backtrace, which runs once before
// any case so that it is loaded.

namespace {

int g_report = 3;
int g_case = -1;
double g_caseSeconds = 5;
uintptr_t g_libraryBase = 0, g_libraryLow = 0, g_libraryHigh = 0;

class Line {
 public:
  Line& operator<<(const char* s) {
    while (*s && used_ < sizeof text_ - 2) text_[used_++] = *s++;
    return *this;
  }
  Line& operator<<(long long v) {
    char digits[24];
    int k = 0;
    const bool negative = v < 0;
    unsigned long long u = negative ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
      digits[k++] = char('0' + u % 10);
      u /= 10;
    } while (u);
    if (negative) *this << "-";
    while (k > 0 && used_ < sizeof text_ - 2) text_[used_++] = digits[--k];
    return *this;
  }
  Line& hex(uintptr_t v) {
    char digits[20];
    int k = 0;
    do {
      digits[k++] = "0123456789abcdef"[v % 16];
      v /= 16;
    } while (v);
    *this << "0x";
    while (k > 0 && used_ < sizeof text_ - 2) text_[used_++] = digits[--k];
    return *this;
  }
  Line& tab() { return *this << "\t"; }
  void send(int fd) {
    text_[used_++] = '\n';
    for (size_t sent = 0; sent < used_;) {
      const ssize_t n = write(fd, text_ + sent, used_ - sent);
      if (n <= 0) break;
      sent += size_t(n);
    }
  }

 private:
  char text_[1024];
  size_t used_ = 0;
};

void appendFrames(Line& line, uintptr_t pc) {
  void* frames[24];
  const int count = backtrace(frames, 24);
  auto one = [&](uintptr_t address) {
    if (address >= g_libraryLow && address < g_libraryHigh)
      line.hex(address - g_libraryBase);
    else
      line << "-";
  };
  one(pc);
  for (int k = 0; k < count; ++k) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(frames[k]);
    if (address == pc) continue;
    line << ",";
    one(address);
  }
}

uintptr_t interruptedPc(void* context) {
#if defined(__x86_64__)
  return uintptr_t(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return uintptr_t(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#else
  (void)context;
  return 0;
#endif
}

int faultWasWrite(void* context) {
#if defined(__x86_64__)
  return (static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
  (void)context;
  return -1;
#endif
}

void onFault(int signal, siginfo_t* info, void* context) {
  const sim::RunningThread t = sim::runningThread();
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  Line line;
  if (signal == SIGALRM) {
    line << "@hang";
    line.tab() << (long long)std::lround(g_caseSeconds * 1000);
  } else {
    line << "@crash";
    line.tab() << (long long)signal;
  }
  line.tab() << (long long)g_case;
  line.tab() << (long long)t.running;
  line.tab() << (long long)t.block;
  line.tab() << (long long)t.thread;
  if (signal == SIGSYS) {
    line.tab().hex(uintptr_t(info->si_syscall));
    line.tab() << (long long)-1;
    line.tab() << (long long)0;
    line.tab() << forbiddenCallName(info->si_syscall);
    line.tab() << (long long)0;
    line.tab() << (long long)0;
    line.tab() << (long long)sim::deviceHeapRefusals();
  } else if (signal != SIGALRM) {
    const FenceHit fence = findFence(address);
    line.tab().hex(address);
    line.tab() << (long long)(signal == SIGSEGV ? faultWasWrite(context) : -1);
    line.tab() << (long long)fence.found;
    line.tab() << (fence.found ? fence.name : "-");
    line.tab() << fence.index;
    line.tab() << (long long)fence.count;
    line.tab() << (long long)sim::deviceHeapRefusals();
  }
  line.tab();
  appendFrames(line, interruptedPc(context));
  line.send(g_report);
  _exit(signal == SIGALRM ? 71 : 70);
}

void installHandlers() {
  struct sigaction action {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGSYS, SIGXCPU, SIGXFSZ})
    sigaction(signal, &action, nullptr);
  // The time limit must land on the worker thread, where the kernel runs: every other thread
  // keeps SIGALRM blocked (the worker, started later, inherits the block and lifts it).
  sigset_t alarm;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm, nullptr);
  sim::runOnWorkerThread([alarm] {
    // Fiber stacks are small and a fault may be a stack overflow: handlers get their own stack.
    // Mapped, not a static array: AddressSanitizer unmaps the alternate stack it finds when the
    // thread ends, and an array it cannot unmap makes it print an error into the kernel's output.
    constexpr size_t kStackBytes = 256 * 1024;
    void* stack =
        mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack != MAP_FAILED) {
      stack_t alternate{};
      alternate.ss_sp = stack;
      alternate.ss_size = kStackBytes;
      sigaltstack(&alternate, nullptr);
    }
    pthread_sigmask(SIG_UNBLOCK, &alarm, nullptr);
  });
  void* warmUp[2];
  backtrace(warmUp, 2);  // loads the unwinder now, not inside a handler
}

void startCaseTimer(int k) {
  g_case = k;
  itimerval timer{};
  timer.it_value.tv_sec = time_t(g_caseSeconds);
  timer.it_value.tv_usec = suseconds_t((g_caseSeconds - double(time_t(g_caseSeconds))) * 1e6);
  setitimer(ITIMER_REAL, &timer, nullptr);
}

void stopCaseTimer() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
}

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
  bool one = false, gpu = false, steps = false, compileOnly = false;
  Params options;
  std::string values;
  GpuRun run;
  for (int k = 5; k < argc; ++k) {
    const std::string flag = argv[k];
    const std::string value = k + 1 < argc ? argv[k + 1] : "";
    if (flag == "--no-race-detector") {
      g_detectRaces = false;
      continue;
    }
    if (flag == "--one" || flag == "--gpu" || flag == "--steps" || flag == "--compile-only") {
      (flag == "--one"     ? one
       : flag == "--gpu"   ? gpu
       : flag == "--steps" ? steps
                           : compileOnly) = true;
      continue;
    }
    ++k;
    if (flag == "--n") options.n = std::atoll(value.c_str());
    if (flag == "--block") options.block = std::atoi(value.c_str());
    if (flag == "--data") options.data = value;
    if (flag == "--values") values = value;
    if (flag == "--schedule") options.schedule = value;
    if (flag == "--input") run.probeInput = parseProbeInput(value);
    if (flag == "--launch") run.probeLaunches.push_back(parseProbeLaunch(value));
  }

  installHandlers();
  if (gpu) {  // the GPU path enters its box once the driver and NVRTC are up
    try {
      if (!values.empty()) options.values = parseValues(values);
      run.oneRun = one;
      run.compileOnly = compileOnly;
      run.options = options;
      return runOnGpu(*e, library, replayWith, run, report);
    } catch (const std::exception& ex) {
      report("@error\t" + clean(messageOf(ex)));
      return 3;
    }
  }
  // Nothing of the learner's has run yet; from here on it runs boxed.
  if (const Message why = enterBox(BoxFor::Simulator); !why.empty()) {
    report("@error\t" + clean(why));
    return 3;
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    report("@error\t" + clean(Message("runner.cannot-load", {{"why", dlerror()}})));
    return 3;
  }
  using Entry = const void* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, "rlab_exercise_kernel"));
  if (!entry) {
    report("@error\t" + clean(Message("runner.no-entry", {{"entry", "rlab_exercise_kernel"}})));
    return 3;
  }
  const void* kernel = entry();
  rememberLibrary(kernel);
  g_instructionName = [](uintptr_t instruction) -> std::string {
    if (instruction <= g_libraryLow || instruction > g_libraryHigh) return "";
    char text[32];  // a return address: the call is the byte before
    std::snprintf(text, sizeof text, "@pc:0x%llx",
                  (unsigned long long)(instruction - 1 - g_libraryBase));
    return text;
  };
  const KernelRunner runKernel = [&](const Params& p) { return runExerciseKernel(*e, kernel, p); };

  try {
    if (probe) {
      runProbesOnSimulator(kernel, run.probeInput, run.probeLaunches, startCaseTimer, report);
      stopCaseTimer();
      report("@done");
      return 0;
    }
    if (one) {
      if (!values.empty()) options.values = parseValues(values);
      VerifyCase c;
      c.params = exerciseRunParams(*e, options);
      c.subject = Message("verify.exercise", {{"exercise", e->id}});
      c.replayWith = replayWith;
      report("@cases\t1");
      report("@case\t0");
      // @step LABEL VALUES WORKED PAIRS: one line per step, sent as it is taken; WORKED the
      // threads that read or wrote the step's array, PAIRS "4>0,5>1" what each write read.
      StepRecorder recorder([](const StepSnapshot& step) {
        std::string values, worked, pairs;
        for (double v : step.values)
          values += (values.empty() ? "" : ",") + std::to_string((long long)v);
        for (int t : step.active) worked += (worked.empty() ? "" : ",") + std::to_string(t);
        for (const auto& [source, target] : step.pairs)
          pairs +=
              (pairs.empty() ? "" : ",") + std::to_string(source) + ">" + std::to_string(target);
        report("@step\t" + clean(step.label) + "\t" + values + "\t" + worked + "\t" + pairs);
      });
      steps = steps && resolve(c.params).params.n <= kExerciseStepLimit;
      // The replay shows the result and the race both: the first race is told after the run.
      Message race;
      g_onRace = [&race](const sim::LaunchError& e) {
        if (race.empty()) race = messageOf(e);
      };
      startCaseTimer(0);
      const auto start = std::chrono::steady_clock::now();
      const VerifyOutcome o = verify(c, [&](const Params& p) {
        return runExerciseKernel(*e, kernel, p, steps ? &recorder : nullptr);
      });
      stopCaseTimer();
      report("@seconds\t" +
             std::to_string(
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
      if (recorder.left() > 0) report("@steps-left\t" + std::to_string(recorder.left()));
      if (!race.empty()) report("@race\t" + clean(race));
      if (const Message idle = laneScheduleHeldNobody(c.params.schedule, g_laneThreadWarpSteps);
          !idle.empty())
        report("@note\t" + clean(idle));
      if (const auto& mark = recorder.raceMark())
        report("@race-at\t" + std::to_string(mark->step) + "\t" + std::to_string(mark->element) +
               "\t" + mark->array);
      char numbers[80];
      std::snprintf(numbers, sizeof numbers, "%.17g\t%.17g", o.result, o.expected);
      report("@outcome\t" + std::string(o.passed ? "1" : "0") + "\t" + numbers + "\t" +
             clean(withPoisonNote(o)));
      report("@done");
      return 0;
    }
    const Message rule = sharedMemoryRuleBroken(*e, kernel);
    if (!rule.empty()) {
      report("@rule\t" + clean(rule));
      report("@done");
      return 0;
    }
    const std::vector<VerifyCase> cases = exerciseCases(*e, replayWith);
    report("@cases\t" + std::to_string(cases.size()));
    int failed = 0;
    for (size_t k = 0; k < cases.size() && failed < 3; ++k) {
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
