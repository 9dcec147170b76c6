// <device_launch_parameters.h> for the simulator: threadIdx, blockIdx, blockDim, gridDim and
// warpSize are the shim's.
#pragma once

#include "kernels/sim/shim.hpp"
