// The exercise runner's signal handlers and case timer (crash_report.hpp): everything here is
// async-signal-safe but the backtrace, which runs once before any case so that it is loaded.

#include "lessons/engine/exercise_runner/crash_report.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <execinfo.h>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise_runner/box.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"

namespace rlab::exercise {

int g_report = 3;
double g_caseSeconds = 5;
uintptr_t g_libraryBase = 0, g_libraryLow = 0, g_libraryHigh = 0;

namespace {

int g_case = -1;

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

}  // namespace

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

}  // namespace rlab::exercise
