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

#include "lessons/engine/texts/messages.hpp"

namespace rlab {

enum class BoxScope { Everywhere, Simulator };

struct BoxRule {
  const char* syscall;  // as libseccomp names it
  const char* deed;     // what the kernel tried, a message id: box.deed.program, "start a program"
  BoxScope scope;
};

// Every call here stops the runner with SIGSYS, except as noted in box.cpp (clone with
// CLONE_THREAD, kill of itself, and opens without a write flag are allowed).
inline constexpr BoxRule kBoxRules[] = {
    {"execve", "box.deed.program", BoxScope::Everywhere},
    {"execveat", "box.deed.program", BoxScope::Everywhere},
    {"fork", "box.deed.process", BoxScope::Everywhere},
    {"vfork", "box.deed.process", BoxScope::Everywhere},
    {"clone", "box.deed.process", BoxScope::Everywhere},
    {"socket", "box.deed.network", BoxScope::Everywhere},
    {"socketpair", "box.deed.network", BoxScope::Everywhere},
    {"kill", "box.deed.signal", BoxScope::Everywhere},
    {"tkill", "box.deed.signal", BoxScope::Everywhere},
    {"tgkill", "box.deed.signal", BoxScope::Everywhere},
    {"pidfd_open", "box.deed.reach", BoxScope::Everywhere},
    {"pidfd_getfd", "box.deed.reach", BoxScope::Everywhere},
    {"pidfd_send_signal", "box.deed.signal", BoxScope::Everywhere},
    {"ptrace", "box.deed.reach", BoxScope::Everywhere},
    {"process_vm_readv", "box.deed.reach", BoxScope::Everywhere},
    {"process_vm_writev", "box.deed.reach", BoxScope::Everywhere},
    {"open", "box.deed.write", BoxScope::Simulator},
    {"openat", "box.deed.write", BoxScope::Simulator},
    {"creat", "box.deed.write", BoxScope::Simulator},
    {"truncate", "box.deed.write", BoxScope::Simulator},
    {"rename", "box.deed.write", BoxScope::Simulator},
    {"renameat", "box.deed.write", BoxScope::Simulator},
    {"renameat2", "box.deed.write", BoxScope::Simulator},
    {"unlink", "box.deed.write", BoxScope::Simulator},
    {"unlinkat", "box.deed.write", BoxScope::Simulator},
    {"mkdir", "box.deed.write", BoxScope::Simulator},
    {"mkdirat", "box.deed.write", BoxScope::Simulator},
    {"rmdir", "box.deed.write", BoxScope::Simulator},
    {"link", "box.deed.write", BoxScope::Simulator},
    {"linkat", "box.deed.write", BoxScope::Simulator},
    {"symlink", "box.deed.write", BoxScope::Simulator},
    {"symlinkat", "box.deed.write", BoxScope::Simulator},
    {"chmod", "box.deed.write", BoxScope::Simulator},
    {"fchmodat", "box.deed.write", BoxScope::Simulator},
    {"chown", "box.deed.write", BoxScope::Simulator},
    {"lchown", "box.deed.write", BoxScope::Simulator},
    {"fchownat", "box.deed.write", BoxScope::Simulator},
    {"mknod", "box.deed.write", BoxScope::Simulator},
    {"mknodat", "box.deed.write", BoxScope::Simulator},
    {"utimes", "box.deed.write", BoxScope::Simulator},
    {"utimensat", "box.deed.write", BoxScope::Simulator},
    {"setxattr", "box.deed.write", BoxScope::Simulator},
    {"lsetxattr", "box.deed.write", BoxScope::Simulator},
    {"removexattr", "box.deed.write", BoxScope::Simulator},
    {"lremovexattr", "box.deed.write", BoxScope::Simulator},
    {"mount", "box.deed.system", BoxScope::Everywhere},
    {"umount2", "box.deed.system", BoxScope::Everywhere},
    {"chroot", "box.deed.system", BoxScope::Everywhere},
    {"pivot_root", "box.deed.system", BoxScope::Everywhere},
    {"unshare", "box.deed.system", BoxScope::Everywhere},
    {"setns", "box.deed.system", BoxScope::Everywhere},
    {"bpf", "box.deed.system", BoxScope::Everywhere},
    {"perf_event_open", "box.deed.system", BoxScope::Everywhere},
    {"userfaultfd", "box.deed.system", BoxScope::Everywhere},
    {"io_uring_setup", "box.deed.system", BoxScope::Everywhere},
    {"keyctl", "box.deed.system", BoxScope::Everywhere},
    {"add_key", "box.deed.system", BoxScope::Everywhere},
    {"request_key", "box.deed.system", BoxScope::Everywhere},
};

inline constexpr uint64_t kBoxMemoryBytes = uint64_t(4) << 30;  // address space, the simulator's
inline constexpr int kBoxCpuSeconds = 1800;                     // CPU time of one runner in all
inline constexpr size_t kBoxOutputBytes = size_t(1) << 20;      // what a kernel may print

// What a kernel stopped by the box did, for the rule of `syscall`: "start a program (execve)".
inline Message boxDeed(const std::string& syscall) {
  for (const BoxRule& rule : kBoxRules)
    if (syscall == rule.syscall) return Message(rule.deed, {{"call", syscall}});
  return Message("box.deed.call", {{"call", syscall}});
}

// The end of every sentence about the box (box.why): what it allows a kernel.

}  // namespace rlab
