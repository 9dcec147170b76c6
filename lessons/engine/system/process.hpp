// Child processes for the core's jobs: a run under compute-sanitizer, a compiler, the exercise
// runner. Started with posix_spawn from an argument vector (no shell), stdin from /dev/null,
// stdout and stderr captured together, in a process group of their own so that killing one
// kills what it started (the compiler's cc1plus and ld too).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rlab {

struct ChildOptions {
  // The child is killed after this long (0: never), or after this long without a report line
  // (0: never).
  double timeLimitSeconds = 0;
  double silenceLimitSeconds = 0;
  // Asked about every 50 ms while the child runs; false kills it (Cancel).
  std::function<bool()> keepGoing;
  // When set, the child gets a second pipe as file descriptor 3, and every line it writes
  // there comes here as it arrives (without the newline): a report kept apart from whatever
  // the child's own code prints.
  std::function<void(const std::string&)> onReportLine;
  // When set, every piece of stdout and stderr as it arrives (a line may come in pieces), also
  // past outputLimit: a tool's progress lines.
  std::function<void(const std::string&)> onOutput;
  size_t outputLimit = size_t(1) << 20;  // bytes of stdout and stderr kept
  size_t outputStopLimit = 0;            // the child is killed once it has written more (0: never)
  // "NAME=value" entries that replace or add to this process's environment for the child.
  std::vector<std::string> environment;
};

struct ChildResult {
  std::string output;           // stdout and stderr, interleaved as written, up to the limit
  int exitCode = -1;            // -1: ended by a signal
  int signal = 0;               // the signal that ended it
  bool timedOut = false;        // killed for a time limit
  bool cancelled = false;       // killed because keepGoing said so
  bool outputExceeded = false;  // killed for writing more than outputStopLimit
};

// Runs argv[0] (a path) with these arguments and waits for it. Throws std::runtime_error in
// one sentence when it cannot be started.
ChildResult runChild(const std::vector<std::string>& argv, const ChildOptions& options = {});

// binutils' addr2line run with `arguments`: its output, or "" where it is missing or fails
// (the caller then names no line).
std::string runAddr2line(const std::vector<std::string>& arguments);

// Whether a path names a regular file this process may run.
bool isExecutableFile(const std::string& path);
// The folder of a path ("." when it has none), and the program this process runs.
std::string folderOf(const std::string& path);
std::string runningExecutable();

}  // namespace rlab
