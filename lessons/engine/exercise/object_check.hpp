// A learner's kernel, compiled into an object file, checked for what only host code does: every
// function it calls from outside must be one CUDA offers in device code (the simulator's own,
// the math library's, printf, malloc and free, new and delete), it may not throw, and no
// variable may be initialised by code at load time. Each refusal is one sentence at the
// learner's line (from the call's relocation and the object's debug information). The object
// also says which `extern __shared__` arrays the kernel declares, for the link.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/exercise/compile.hpp"

namespace rlab {

struct ObjectCheck {
  std::vector<CompileDiagnostic> refusals;
  std::vector<std::string> dynamicShared;  // symbols of the extern __shared__ arrays
  std::vector<std::string> redirected;     // C library names the link sends to the simulator's
  Message failure;                         // the object could not be read: one sentence
};

// `object`: the compiled entry; `source`: the learner's file as the compiler was given it.
ObjectCheck checkKernelObject(const std::string& object, const std::string& source);

// The link's options that send `redirected` names (malloc, free, new, delete, __assert_fail,
// clock) to the simulator's device functions, and each extern __shared__ array to the module's
// dynamic shared memory.
std::vector<std::string> kernelLinkOptions(const ObjectCheck& check);

// The definitions the entry file adds for those options to point at.
std::string deviceLibraryDefinitions();

}  // namespace rlab
