// --printf: the barrier kernel's every third thread calls printf at each level. The simulator
// keeps the lines in its exact order, rlab shows them, JSON carries them, and stdout is caught
// around a launch the way the GPU backend catches a kernel's printf.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/stdout_capture.hpp"
#include "tests/printf_lines.hpp"

namespace {

rlab::Params printingRun(const std::string& variant, long long n) {
  rlab::Params p;
  p.lesson = "barrier";
  p.variant = variant;
  p.n = n;
  p.printing = true;
  p.backend = rlab::BackendChoice::Sim;
  return p;
}

}  // namespace

TEST_CASE("printf on the simulator: exactly the expected lines, in lockstep's order") {
  for (const char* variant : {"global", "shared"})
    for (long long n : {1, 2, 7, 8, 31, 32, 33, 255, 256, 257, 1024}) {
      CAPTURE(variant);
      CAPTURE(n);
      const rlab::Params p = printingRun(variant, n);
      const rlab::Trace t = rlab::runLesson(p);
      const std::vector<std::string> expected = expectedPrintfLines(p);
      // Threads that are multiples of 3, times levels.
      const long long width = std::string(variant) == "shared" ? t.params.block : n;
      int levels = 0;
      for (long long i = 1; i < width; i *= 2) ++levels;
      const long long printers =
          std::min<long long>(width, n);  // the threads past n hold no element
      CHECK(expected.size() == size_t((printers + 2) / 3 * levels));
      CHECK(t.kernelOutput == expected);  // lockstep: level by level, threads in order
      CHECK(t.correct);
    }
}

TEST_CASE("printf on the simulator: deterministic per schedule, the same lines under any") {
  for (const char* schedule : {"random:3", "warps-random:2", "reverse", "stall:3:2:1"}) {
    CAPTURE(schedule);
    rlab::Params p = printingRun("global", 100);
    p.schedule = schedule;
    const rlab::Trace first = rlab::runLesson(p), again = rlab::runLesson(p);
    CHECK(first.kernelOutput == again.kernelOutput);
    std::vector<std::string> sorted = first.kernelOutput, expected = expectedPrintfLines(p);
    std::sort(sorted.begin(), sorted.end());
    std::sort(expected.begin(), expected.end());
    CHECK(sorted == expected);  // the barrier is on: every value is the level's own
  }
  // Without the barrier the count stays (every third thread, every level); the order and the
  // values are the schedule's.
  rlab::Params off = printingRun("global", 64);
  off.barrier = false;
  off.schedule = "random:7";
  const rlab::Trace a = rlab::runLesson(off), b = rlab::runLesson(off);
  CHECK(a.kernelOutput.size() == expectedPrintfLines(off).size());
  CHECK(a.kernelOutput == b.kernelOutput);
}

TEST_CASE("printf on the simulator delays the printing threads, as perturb's pause does") {
  rlab::Params p = printingRun("global", 256);
  p.barrier = false;
  p.printing = false;
  CHECK(rlab::runLesson(p).correct);  // lockstep: the race is there but never shows
  p.printing = true;
  const rlab::Trace printing = rlab::runLesson(p);
  CHECK_FALSE(printing.correct);
  p.printing = false;
  p.perturb = true;
  CHECK(rlab::runLesson(p).result == printing.result);
  // No printf, no lines.
  CHECK(rlab::runLesson(printingRun("global", 8)).kernelOutput.size() == 9);
  rlab::Params quiet = printingRun("global", 8);
  quiet.printing = false;
  CHECK(rlab::runLesson(quiet).kernelOutput.empty());
}

TEST_CASE("stdout capture: what is written inside comes back, what is written outside stays") {
  std::fflush(stdout);
  std::string caught;
  {
    rlab::StdoutCapture capture;
    REQUIRE(capture.capturing());
    std::printf("through stdio %d\n", 1);
    const char direct[] = "through write(1)\n";
    CHECK(::write(1, direct, sizeof direct - 1) == ssize_t(sizeof direct - 1));
    std::printf("unfinished line");  // still in stdio's buffer: finish() flushes it
    caught = capture.finish();
    CHECK(capture.finish().empty());
  }
  // stdio's buffer reaches the file when it is flushed, so the two writers' order may swap.
  CHECK(caught.size() == std::string("through stdio 1\nthrough write(1)\nunfinished line").size());
  CHECK(caught.find("through stdio 1\n") != std::string::npos);
  CHECK(caught.find("through write(1)\n") != std::string::npos);
  CHECK(caught.find("unfinished line") != std::string::npos);
  rlab::StdoutCapture second;  // the first released the lock: a second capture can begin
  std::printf("again\n");
  CHECK(second.finish() == "again\n");
}
