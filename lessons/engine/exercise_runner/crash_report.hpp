// The exercise runner's crash and time-limit reports: the signal handlers that end the process
// with one report line, and the timer of each case. Used inside the exercise runner only.
#pragma once

#include <cstdint>

namespace rlab::exercise {

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
// addr2line.

// Where report lines go: file descriptor 3, or stdout where the runner is run by hand.
extern int g_report;
// A case's time limit, in seconds.
extern double g_caseSeconds;
// The learner's library in memory, once loaded: its load bias and the range of its segments,
// which the PCS are offsets into.
extern uintptr_t g_libraryBase, g_libraryLow, g_libraryHigh;

// Before any case: the handlers, on an alternate stack of the worker thread's own.
void installHandlers();
// Case `k` starts (the reports' CASE): SIGALRM once its time limit has passed.
void startCaseTimer(int k);
void stopCaseTimer();

}  // namespace rlab::exercise
