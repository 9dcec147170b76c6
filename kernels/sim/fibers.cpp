// Fibers: the stacks the simulated threads run on, made in slabs once per process (the pool's
// layout and why is in kernels/sim/detail/fibers.hpp).

#include "kernels/sim/detail/fibers.hpp"

#include <pthread.h>

#include <cstdlib>
#include <new>

namespace rlab::sim::detail {

FiberPool::FiberPool(void (*entry)(fc::transfer_t)) : entry_(entry) {
  contexts_.reserve(kMaxFibers);
  stacks_.reserve(kMaxFibers);
}

FiberPool::~FiberPool() {
  for (void* p : slabs_) std::free(p);
}

void FiberPool::addSlab() {
  void* slab = std::aligned_alloc(kSlabBytes, kSlabBytes);
  if (!slab) throw std::bad_alloc();
  slabs_.push_back(slab);
  for (size_t offset = 0; offset + kSlot <= kSlabBytes; offset += kSlot) {
    const size_t stagger = ((offset / kSlot) % 61) * 64;
    void* top = static_cast<char*>(slab) + offset + kStackBytes + stagger;
    contexts_.push_back(fc::make_fcontext(top, kStackBytes, entry_));
    stacks_.push_back({static_cast<char*>(top) - kStackBytes, kStackBytes});
  }
}

Stack threadStack() {
  Stack stack;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return stack;
  void* bottom = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attributes, &bottom, &size) == 0) stack = {bottom, size};
  pthread_attr_destroy(&attributes);
  return stack;
}

}  // namespace rlab::sim::detail
