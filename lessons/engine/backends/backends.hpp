// The two backends a lesson runs on. Each fills the Trace it is given: steps, result, notes,
// the device, and on the GPU the timings.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// No working GPU can take the run, or GPU use ended: one sentence saying why and what to do.
class GpuUnavailable : public std::runtime_error, public MessageCarrier {
 public:
  explicit GpuUnavailable(Message message)
      : std::runtime_error(english(message)), MessageCarrier(std::move(message)) {}
};

// The simulator (lessons/engine/backends/sim/run_sim.cpp). Throws sim::LaunchError when a kernel
// cannot finish.
void runOnSimulator(const Resolved& run, const std::vector<double>& input, bool trace, Trace& out);
bool simulatorHasDriver(DriverId driver);

// The GPU (lessons/engine/backends/gpu/*.cu, or lessons/engine/backends/gpu/absent.cpp in a build
// without CUDA). Throws GpuUnavailable with one sentence when no working device can take the run.
void runOnGpu(const Params& p, const std::vector<double>& input, bool trace, Trace& out);
bool gpuBackendBuilt();
bool gpuHasDriver(DriverId driver);

struct GpuProbe {
  bool usable = false;
  Message device;      // "NVIDIA H100 80GB HBM3, compute capability 9.0, 79.1 GiB"
  Message why;         // when not usable: one sentence
  int devices = 0;     // CUDA devices the driver sees
  std::string name{};  // the card alone: "NVIDIA H100 80GB HBM3"
  // The CUDA version the driver supports and the one this build's runtime is, as CUDA numbers
  // them (13000: 13.0); 0 where unknown.
  int cudaDriver = 0, cudaRuntime = 0;
  bool clusters = false;  // thread block clusters: compute capability 9.0 or later
};
// Asks the driver once per call; cheap enough for start-up, not for every frame.
GpuProbe probeGpu();

// Keeps the GPU busy for `nanoseconds` (one thread spinning on the clock), so that what is
// queued behind it on the default stream runs back to back: the time between two events queued
// after it is then the GPU's alone, without the host's launch overhead. The exercise runner's
// timings call it between driver API launches; both share the device's primary context.
void holdGpuFor(long long nanoseconds);

// Tests: while on, every GPU run fails as it would after a kernel fault, also on a machine with
// a working GPU, so the failure path is tested there too.
void injectGpuFailure(bool on);

}  // namespace rlab
