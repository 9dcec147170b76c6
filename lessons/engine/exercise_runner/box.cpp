// The box, built from lessons/engine/exercise/box.hpp's table with libseccomp (Debian's
// libseccomp-dev): every call of the table traps (SIGSYS), with these exceptions so that the
// runner itself still works:
//   clone     allowed with CLONE_THREAD (a thread of this process: the CUDA driver starts some);
//             clone3, whose flags a filter cannot read, answers ENOSYS, and glibc falls back to
//             clone
//   kill, tkill, tgkill   allowed to this process (abort, raise)
//   socket    on the GPU, allowed for local sockets (AF_UNIX, AF_NETLINK), which a driver may use
//   open, openat   allowed without a write flag (dlopen, reading the kernel's symbols);
//             openat2, whose flags a filter cannot read either, answers ENOSYS
// Other architectures' system calls (int 0x80 on x86-64) trap too.

#include "lessons/engine/exercise_runner/box.hpp"

#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lessons/engine/exercise/box.hpp"

namespace rlab::exercise {

namespace {

constexpr int kKnownCalls = 1024;
const char* g_callNames[kKnownCalls] = {};

Message failed(const char* what, int error) {
  return Message("runner.no-box", {{"call", what}, {"error", std::strerror(error)}});
}

bool limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit value{soft, hard};
  return setrlimit(resource, &value) == 0;
}

Message setLimits(BoxFor kind) {
  if (!limit(RLIMIT_CORE, 0, 0)) return failed("setrlimit(RLIMIT_CORE)", errno);
  if (!limit(RLIMIT_FSIZE, 0, 0)) return failed("setrlimit(RLIMIT_FSIZE)", errno);
  if (!limit(RLIMIT_CPU, kBoxCpuSeconds, kBoxCpuSeconds + 10))
    return failed("setrlimit(RLIMIT_CPU)", errno);
#if !defined(__SANITIZE_ADDRESS__)
  // The CUDA driver maps the GPU's memory into the process: no limit on address space there.
  if (kind == BoxFor::Simulator && !limit(RLIMIT_AS, kBoxMemoryBytes, kBoxMemoryBytes))
    return failed("setrlimit(RLIMIT_AS)", errno);
#else
  (void)kind;
#endif
  return {};
}

// One rule: the call traps, unless `allow` names the arguments under which it may go on.
Message addRules(scmp_filter_ctx filter, BoxFor kind) {
  const pid_t self = getpid();
  for (const BoxRule& rule : kBoxRules) {
    if (rule.scope == BoxScope::Simulator && kind != BoxFor::Simulator) continue;
    const int call = seccomp_syscall_resolve_name(rule.syscall);
    if (call == __NR_SCMP_ERROR) continue;  // not a call on this architecture (fork on arm64)
    if (call >= 0 && call < kKnownCalls) g_callNames[call] = rule.syscall;
    const std::string name = rule.syscall;
    int r = 0;
    if (name == "clone") {
      r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1,
                           SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    } else if (name == "kill" || name == "tkill") {
      r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1,
                           SCMP_A0(SCMP_CMP_NE, scmp_datum_t(self)));
    } else if (name == "tgkill") {
      r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1,
                           SCMP_A0(SCMP_CMP_NE, scmp_datum_t(self)));
    } else if (name == "socket" && kind == BoxFor::Gpu) {
      // Every family but AF_UNIX (1) and AF_NETLINK (16): a rule compares an argument once.
      static_assert(AF_UNIX == 1 && AF_NETLINK == 16);
      r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1,
                           SCMP_A0(SCMP_CMP_GT, scmp_datum_t(AF_NETLINK)));
      for (scmp_datum_t family = 0; family < AF_NETLINK && r == 0; ++family)
        if (family != AF_UNIX)
          r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1, SCMP_A0(SCMP_CMP_EQ, family));
    } else if (name == "open" || name == "openat") {
      // Any write flag: each rule alone traps, so any one of them does.
      const unsigned flagArgument = name == "open" ? 1 : 2;
      for (const int flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND}) {
        const scmp_arg_cmp written = {flagArgument, SCMP_CMP_MASKED_EQ, scmp_datum_t(flag),
                                      scmp_datum_t(flag)};
        r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 1, written);
        if (r != 0) break;
      }
    } else {
      r = seccomp_rule_add(filter, SCMP_ACT_TRAP, call, 0);
    }
    if (r != 0) return failed((std::string("seccomp_rule_add(") + rule.syscall + ")").c_str(), -r);
  }
  // Calls whose arguments a filter cannot read: "not here", and the C library takes the old way.
  for (const char* call : {"clone3", "openat2"}) {
    const int number = seccomp_syscall_resolve_name(call);
    if (number == __NR_SCMP_ERROR) continue;
    if (const int r = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), number, 0); r != 0)
      return failed((std::string("seccomp_rule_add(") + call + ")").c_str(), -r);
  }
  return {};
}

}  // namespace

Message enterBox(BoxFor kind) {
  if (Message why = setLimits(kind); !why.empty()) return why;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return failed("prctl(PR_SET_NO_NEW_PRIVS)", errno);
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (!filter) return failed("seccomp_init", ENOMEM);
  Message why;
  if (int r = seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP); r != 0)
    why = failed("seccomp_attr_set", -r);
  // Every thread of the process, the worker that runs the kernels included.
  if (why.empty())
    if (int r = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1); r != 0)
      why = failed("seccomp_attr_set(TSYNC)", -r);
  if (why.empty()) why = addRules(filter, kind);
  if (why.empty())
    if (int r = seccomp_load(filter); r != 0) why = failed("seccomp_load", -r);
  seccomp_release(filter);
  return why;
}

const char* forbiddenCallName(int number) noexcept {
  if (number >= 0 && number < kKnownCalls && g_callNames[number]) return g_callNames[number];
  return "?";
}

}  // namespace rlab::exercise
