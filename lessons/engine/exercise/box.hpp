// The box a learner's kernel runs in: the exercise runner, before it loads the kernel, gives up
// what no kernel needs, with Linux's own means (rlimits, PR_SET_NO_NEW_PRIVS, and a seccomp
// filter built with libseccomp: lessons/engine/exercise_runner/box.cpp). What the box forbids,
// and in what words, is this table: the runner builds its filter from it, and the check names
// a stopped kernel's deed from it.
//   no new process or program   execve, fork, clone without CLONE_THREAD, ...
//   no network                  socket, socketpair
//   no other process reached    kill and friends to another process, ptrace, process_vm_*
//   no file written             open with a write flag, creat, rename, unlink, mkdir, ...
//                               (the simulator only: the GPU's driver opens its devices for
//                               writing, and a kernel on a GPU runs no code on the host)
//   no system changed           mount, unshare, bpf, io_uring, ...
// Limits: the simulator's runner may use kBoxMemoryBytes of address space (not under
// AddressSanitizer, which reserves terabytes), a case's own time limit and then
// kBoxCpuSeconds of CPU in all, no file of any size, and the check stops a runner that prints
// more than kBoxOutputBytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rlab {

enum class BoxScope { Everywhere, Simulator };

struct BoxRule {
  const char* syscall;  // as libseccomp names it
  const char* deed;     // what the kernel tried: "start a program"
  BoxScope scope;
};

// Every call here stops the runner with SIGSYS, except as noted in box.cpp (clone with
// CLONE_THREAD, kill of itself, and opens without a write flag are allowed).
inline constexpr BoxRule kBoxRules[] = {
    {"execve", "start a program", BoxScope::Everywhere},
    {"execveat", "start a program", BoxScope::Everywhere},
    {"fork", "start a process", BoxScope::Everywhere},
    {"vfork", "start a process", BoxScope::Everywhere},
    {"clone", "start a process", BoxScope::Everywhere},
    {"socket", "open a network connection", BoxScope::Everywhere},
    {"socketpair", "open a network connection", BoxScope::Everywhere},
    {"kill", "signal another process", BoxScope::Everywhere},
    {"tkill", "signal another process", BoxScope::Everywhere},
    {"tgkill", "signal another process", BoxScope::Everywhere},
    {"pidfd_open", "reach into another process", BoxScope::Everywhere},
    {"pidfd_getfd", "reach into another process", BoxScope::Everywhere},
    {"pidfd_send_signal", "signal another process", BoxScope::Everywhere},
    {"ptrace", "reach into another process", BoxScope::Everywhere},
    {"process_vm_readv", "reach into another process", BoxScope::Everywhere},
    {"process_vm_writev", "reach into another process", BoxScope::Everywhere},
    {"open", "write a file", BoxScope::Simulator},
    {"openat", "write a file", BoxScope::Simulator},
    {"creat", "write a file", BoxScope::Simulator},
    {"truncate", "write a file", BoxScope::Simulator},
    {"rename", "write a file", BoxScope::Simulator},
    {"renameat", "write a file", BoxScope::Simulator},
    {"renameat2", "write a file", BoxScope::Simulator},
    {"unlink", "write a file", BoxScope::Simulator},
    {"unlinkat", "write a file", BoxScope::Simulator},
    {"mkdir", "write a file", BoxScope::Simulator},
    {"mkdirat", "write a file", BoxScope::Simulator},
    {"rmdir", "write a file", BoxScope::Simulator},
    {"link", "write a file", BoxScope::Simulator},
    {"linkat", "write a file", BoxScope::Simulator},
    {"symlink", "write a file", BoxScope::Simulator},
    {"symlinkat", "write a file", BoxScope::Simulator},
    {"chmod", "write a file", BoxScope::Simulator},
    {"fchmodat", "write a file", BoxScope::Simulator},
    {"chown", "write a file", BoxScope::Simulator},
    {"lchown", "write a file", BoxScope::Simulator},
    {"fchownat", "write a file", BoxScope::Simulator},
    {"mknod", "write a file", BoxScope::Simulator},
    {"mknodat", "write a file", BoxScope::Simulator},
    {"utimes", "write a file", BoxScope::Simulator},
    {"utimensat", "write a file", BoxScope::Simulator},
    {"setxattr", "write a file", BoxScope::Simulator},
    {"lsetxattr", "write a file", BoxScope::Simulator},
    {"removexattr", "write a file", BoxScope::Simulator},
    {"lremovexattr", "write a file", BoxScope::Simulator},
    {"mount", "change the system", BoxScope::Everywhere},
    {"umount2", "change the system", BoxScope::Everywhere},
    {"chroot", "change the system", BoxScope::Everywhere},
    {"pivot_root", "change the system", BoxScope::Everywhere},
    {"unshare", "change the system", BoxScope::Everywhere},
    {"setns", "change the system", BoxScope::Everywhere},
    {"bpf", "change the system", BoxScope::Everywhere},
    {"perf_event_open", "change the system", BoxScope::Everywhere},
    {"userfaultfd", "change the system", BoxScope::Everywhere},
    {"io_uring_setup", "change the system", BoxScope::Everywhere},
    {"keyctl", "change the system", BoxScope::Everywhere},
    {"add_key", "change the system", BoxScope::Everywhere},
    {"request_key", "change the system", BoxScope::Everywhere},
};

inline constexpr uint64_t kBoxMemoryBytes = uint64_t(4) << 30;  // address space, the simulator's
inline constexpr int kBoxCpuSeconds = 1800;                     // CPU time of one runner in all
inline constexpr size_t kBoxOutputBytes = size_t(1) << 20;      // what a kernel may print

// What a kernel stopped by the box did, for the rule of `syscall`: "start a program (execve)".
inline std::string boxDeed(const std::string& syscall) {
  for (const BoxRule& rule : kBoxRules)
    if (syscall == rule.syscall) return std::string(rule.deed) + " (" + syscall + ")";
  return "make the system call " + syscall;
}

// The end of every sentence about the box: what it allows a kernel.
inline constexpr const char* kBoxWhy =
    "a kernel runs in a box: no new processes, no network, no files written, no other process "
    "reached";

}  // namespace rlab
