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

}  // namespace

ChildResult runChild(const std::vector<std::string>& argv, const ChildOptions& options) {
  Pipe output;
  Pipe report;
  const bool reporting = bool(options.onReportLine);
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
  std::vector<char*> variables;
  for (char** v = environ; *v; ++v) {
    const std::string entry = *v;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const auto& mine : options.environment) replaced |= mine.rfind(name, 0) == 0;
    if (!replaced) variables.push_back(*v);
  }
  for (const auto& mine : options.environment) variables.push_back(const_cast<char*>(mine.c_str()));
  variables.push_back(nullptr);
  pid_t pid = 0;
  const int failed =
      posix_spawn(&pid, args[0], &actions, &attributes, args.data(), variables.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  output.closeWrite();
  report.closeWrite();
  if (failed)
    throw std::runtime_error("could not start " + argv[0] + ": " + std::strerror(failed) + ".");

  ChildResult result;
  const Clock::time_point start = Clock::now();
  Clock::time_point lastReport = start;
  std::string pending;  // a report line not yet ended
  size_t written = 0;   // bytes of stdout and stderr, kept or not
  bool killed = false;
  auto killGroup = [&] {
    if (!killed) kill(-pid, SIGKILL);
    killed = true;
  };
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
      if (k == 0) {
        if (options.onOutput) options.onOutput(std::string(buffer, size_t(got)));
        const size_t room =
            options.outputLimit - std::min(options.outputLimit, result.output.size());
        result.output.append(buffer, std::min(room, size_t(got)));
        written += size_t(got);
        if (options.outputStopLimit > 0 && written > options.outputStopLimit && !killed) {
          result.outputExceeded = true;
          killGroup();
        }
        continue;
      }
      pending.append(buffer, size_t(got));
      for (size_t newline; (newline = pending.find('\n')) != std::string::npos;) {
        lastReport = Clock::now();
        options.onReportLine(pending.substr(0, newline));
        pending.erase(0, newline + 1);
      }
    }
    if (killed) continue;
    if (options.keepGoing && !options.keepGoing()) {
      result.cancelled = true;
      killGroup();
    } else if ((options.timeLimitSeconds > 0 && secondsSince(start) > options.timeLimitSeconds) ||
               (options.silenceLimitSeconds > 0 &&
                secondsSince(lastReport) > options.silenceLimitSeconds)) {
      result.timedOut = true;
      killGroup();
    }
  }
  if (!pending.empty() && reporting) options.onReportLine(pending);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
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
