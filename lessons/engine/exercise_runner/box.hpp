// The runner enters its box (lessons/engine/exercise/box.hpp says what it forbids) before it
// loads a learner's kernel: rlimits, PR_SET_NO_NEW_PRIVS, then a seccomp filter from
// libseccomp, whose forbidden calls raise SIGSYS, which the runner's handler reports with the
// thread and the line. Used inside the exercise runner only.
#pragma once

#include <string>

#include "lessons/engine/texts/messages.hpp"

namespace rlab::exercise {

enum class BoxFor { Simulator, Gpu };

// Empty once the box is up; else one sentence saying why it could not be made (the runner then
// runs nothing).
Message enterBox(BoxFor kind);

// The name of a forbidden system call, for the SIGSYS handler: async-signal-safe, a fixed table
// filled by enterBox. "?" for a call the box does not know.
const char* forbiddenCallName(int number) noexcept;

}  // namespace rlab::exercise
