// The simulator's own (kernels/sim/shared_memory.cpp): where a kernel's __shared__ variables
// live on the worker thread, for poisoning them at each block's start and showing them at a
// barrier.
#pragma once

#include <string>
#include <vector>

#include "kernels/sim/runtime.hpp"

namespace rlab::sim::detail {

// The bytes of one __shared__ variable: the worker thread's copy of it.
struct ByteRange {
  unsigned char* begin = nullptr;
  unsigned char* end = nullptr;
  std::string name;  // the variable's name in the source ("s"); empty when not known
};

// The __shared__ variables `kernel` (a __global__ function) declares in its own body, as the
// calling thread's bytes; found once per kernel and kept. Call it on the worker thread only.
const std::vector<ByteRange>& sharedVariablesOf(const void* kernel);

// The buffer behind the `extern __shared__` arrays of the module that holds `kernel` (every
// such array starts there, as on a GPU; the exercise compiler makes each name an alias of
// kDynamicSharedSymbol): its whole capacity, and the arrays' names. Empty where the module
// declares none. Worker thread only.
const ByteRange& dynamicSharedOf(const void* kernel);

// The file of the module that holds `kernel`, where that module has thread-locals but no symbol
// table (it was stripped), so that its __shared__ variables cannot be told from the program's
// other thread-locals; empty otherwise. Worker thread only.
const std::string& strippedModuleOf(const void* kernel);

}  // namespace rlab::sim::detail
