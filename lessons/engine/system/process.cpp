#include "lessons/engine/system/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace rlab {

namespace {

// A pipe whose ends sit at 10 and above, close-on-exec: posix_spawn's dup2 onto 1, 2 or 3
// then always makes a fresh descriptor, which the child keeps.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("could not make a pipe: ") + std::strerror(errno) + ".");
    read = fcntl(fds[0], F_DUPFD_CLOEXEC, 10);
    write = fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
    close(fds[0]);
    close(fds[1]);
  }
  ~Pipe() {
    closeRead();
    closeWrite();
  }
  void closeRead() {
    if (read >= 0) close(read);
    read = -1;
  }
  void closeWrite() {
    if (write >= 0) close(write);
    write = -1;
  }
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The child's environment: this process's, with `environment` ("NAME=value") replacing or
// adding to it.
std::vector<char*> childEnvironment(const std::vector<std::string>& environment) {
  std::vector<char*> variables;
  for (char** v = environ; *v; ++v) {
    const std::string entry = *v;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const auto& mine : environment) replaced |= mine.rfind(name, 0) == 0;
    if (!replaced) variables.push_back(*v);
  }
  for (const auto& mine : environment) variables.push_back(const_cast<char*>(mine.c_str()));
  variables.push_back(nullptr);
  return variables;
}

// Starts argv[0] in a process group of its own, stdin from /dev/null, stdout and stderr into
// `output`, the report (where `reporting`) as file descriptor 3; closes the pipes' write ends
// here. Throws in one sentence when it cannot be started.
pid_t spawnChild(const std::vector<std::string>& argv, const ChildOptions& options, Pipe& output,
                 Pipe& report, bool reporting) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, output.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output.write, STDERR_FILENO);
  if (reporting) posix_spawn_file_actions_adddup2(&actions, report.write, 3);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> variables = childEnvironment(options.environment);
  pid_t pid = 0;
  const int failed =
      posix_spawn(&pid, args[0], &actions, &attributes, args.data(), variables.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  output.closeWrite();
  report.closeWrite();
  if (failed)
    throw std::runtime_error("could not start " + argv[0] + ": " + std::strerror(failed) + ".");
  return pid;
}

// What runChild keeps while the child runs.
struct Watch {
  explicit Watch(pid_t child) : pid(child) {}
  pid_t pid;
  ChildResult result;
  Clock::time_point start = Clock::now();
  Clock::time_point lastReport = start;
  std::string pending;  // a report line not yet ended
  size_t written = 0;   // bytes of stdout and stderr, kept or not
  bool killed = false;
  void killGroup() {
    if (!killed) kill(-pid, SIGKILL);
    killed = true;
  }
};

// A piece of the child's stdout and stderr: kept up to the limit; past the stop limit, the end.
void takeOutput(Watch& w, const ChildOptions& options, const char* buffer, size_t got) {
  if (options.onOutput) options.onOutput(std::string(buffer, got));
  const size_t room = options.outputLimit - std::min(options.outputLimit, w.result.output.size());
  w.result.output.append(buffer, std::min(room, got));
  w.written += got;
  if (options.outputStopLimit > 0 && w.written > options.outputStopLimit && !w.killed) {
    w.result.outputExceeded = true;
    w.killGroup();
  }
}

// A piece of the report pipe: each line it ends goes to onReportLine.
void takeReport(Watch& w, const ChildOptions& options, const char* buffer, size_t got) {
  w.pending.append(buffer, got);
  for (size_t newline; (newline = w.pending.find('\n')) != std::string::npos;) {
    w.lastReport = Clock::now();
    options.onReportLine(w.pending.substr(0, newline));
    w.pending.erase(0, newline + 1);
  }
}

// Cancel and the time limits: the child's group is killed when one says so.
void checkLimits(Watch& w, const ChildOptions& options) {
  if (options.keepGoing && !options.keepGoing()) {
    w.result.cancelled = true;
    w.killGroup();
  } else if ((options.timeLimitSeconds > 0 && secondsSince(w.start) > options.timeLimitSeconds) ||
             (options.silenceLimitSeconds > 0 &&
              secondsSince(w.lastReport) > options.silenceLimitSeconds)) {
    w.result.timedOut = true;
    w.killGroup();
  }
}

// Reads both pipes until the child has closed them, every 50 ms checking the limits.
void readUntilClosed(Watch& w, const ChildOptions& options, Pipe& output, Pipe& report) {
  char buffer[1 << 16];
  while (output.read >= 0 || report.read >= 0) {
    pollfd fds[2] = {{output.read, POLLIN, 0}, {report.read, POLLIN, 0}};
    const int ready = poll(fds, 2, 50);
    if (ready < 0 && errno != EINTR) break;
    for (int k = 0; k < 2 && ready > 0; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = ::read(fds[k].fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        (k == 0 ? output : report).closeRead();
        continue;
      }
      if (k == 0)
        takeOutput(w, options, buffer, size_t(got));
      else
        takeReport(w, options, buffer, size_t(got));
    }
    if (!w.killed) checkLimits(w, options);
  }
}

// Waits for the child to end: its exit code, or the signal that ended it.
void waitForExit(pid_t pid, ChildResult& result) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
}

}  // namespace

ChildResult runChild(const std::vector<std::string>& argv, const ChildOptions& options) {
  Pipe output;
  Pipe report;
  const bool reporting = bool(options.onReportLine);
  Watch w(spawnChild(argv, options, output, report, reporting));
  readUntilClosed(w, options, output, report);
  if (!w.pending.empty() && reporting) options.onReportLine(w.pending);
  waitForExit(w.pid, w.result);
  return w.result;
}

std::string runAddr2line(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"/usr/bin/addr2line"};
  if (!isExecutableFile(argv[0])) argv[0] = "/bin/addr2line";
  if (!isExecutableFile(argv[0])) return "";
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  try {
    ChildOptions options;
    options.timeLimitSeconds = 20;
    return runChild(argv, options).output;
  } catch (const std::exception&) {
    return "";
  }
}

bool isExecutableFile(const std::string& path) {
  struct stat info {};
  return !path.empty() && stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

std::string folderOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string runningExecutable() {
  std::string self(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(size_t(length > 0 ? length : 0));
  return self;
}

}  // namespace rlab
