// The CUDA a learner's kernel may use on the simulator, as the engine reads it: the table in
// kernels/sim/cuda_surface.def (the same one the shim declares its refusals from), for the
// exercise compiler's sentences about headers and names and for the manual's list.
#pragma once

#include <string>
#include <vector>

namespace rlab {

struct CudaOffered {
  std::string group;  // "Warp vote, match and reduce"
  std::string names;  // "__ballot_sync, __any_sync, ..." as the table words it
};

struct CudaRefused {
  std::string group;
  std::string name;      // "__funnelshift_l", "cooperative_groups::labeled_partition"
  std::string sentence;  // the one the learner reads, at the line that uses it
  bool removed = false;  // no longer CUDA (else: CUDA, not offered by the simulator)
};

struct CudaHeader {
  std::string name;  // "cooperative_groups.h"; a name ending in '/' is a folder of headers
  bool offered = false;
};

struct CudaSurface {
  std::vector<CudaOffered> offered;
  std::vector<CudaRefused> refused;
  std::vector<CudaHeader> headers;
};

const CudaSurface& cudaSurface();

// What the learner reads for `#include <name>`: empty where the backend has it; the
// simulator's "is CUDA, but" for a CUDA header it lacks; the host-header sentence for anything
// else. On the GPU every CUDA header is there.
std::string headerRefusal(const std::string& name, bool onGpu);

// Whether `identifier` is one of the names the simulator offers (a word of the offered lists).
bool offeredName(const std::string& identifier);

// The manual's list (assets/manual/simulator.md): what the simulator offers and what it
// refuses, from the table.
std::string cudaSurfaceMarkdown();

}  // namespace rlab
