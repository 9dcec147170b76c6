// What NVRTC needs to compile the CUDA a learner brings: the toolkit's include folders (for
// <cooperative_groups.h>, <cuda_runtime.h>, <cuda/std/...>), and the C headers CUDA offers in
// device code (<cstdio>, <cstdint>, <climits>, ...), which nvcc finds on the host and NVRTC
// does not have: given to it as headers of their own, declaring what device code may use.
#pragma once

#include <string>
#include <vector>

namespace rlab::exercise {

struct NvrtcHeaders {
  std::vector<std::string> options;  // "-I/usr/local/cuda/include", ...
  std::vector<std::string> names;    // "cstdint", "stdint.h", ...
  std::vector<std::string> texts;    // each one's text
  std::string searched;              // where the toolkit's headers were looked for (none found)
};

// `nvrtcLibrary`: a function of the NVRTC library that was loaded, to look beside it.
NvrtcHeaders nvrtcHeaders(const void* nvrtcLibrary);

}  // namespace rlab::exercise
