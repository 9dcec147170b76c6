// <cuda_runtime.h> for the simulator: everything a kernel uses of it is the shim's. A kernel file
// that includes it, as NVIDIA's samples do, compiles on both backends.
#pragma once

#include "kernels/sim/shim.hpp"
