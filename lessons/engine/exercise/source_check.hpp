// A learner's kernel file read before any compiler sees it: the headers it includes (only
// CUDA's device headers and the C headers CUDA offers in device code; on the simulator, only
// those it has) and, on the simulator, inline assembly (PTX, which only a GPU runs). Each
// refusal is one sentence at its line.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/exercise/compile.hpp"

namespace rlab {

std::vector<CompileDiagnostic> checkKernelSource(const std::string& text, bool onGpu);

// Whether the file declares an `extern __shared__` array (dynamic shared memory).
bool declaresExternShared(const std::string& text);

// Empty where the file writes its kernel with cooperative groups (this_thread_block() and
// cg::reduce over a group), else one sentence saying what is missing.
Message cooperativeGroupsMissing(const std::string& text);

}  // namespace rlab
