#include "lessons/engine/exercise_runner/fenced.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>

#include "kernels/sim/runtime.hpp"

namespace rlab::exercise {

namespace {

// The table a crash handler reads: a fixed array, each slot published by its `used` flag.
struct Slot {
  std::atomic<bool> used{false};
  char name[96] = {};
  uintptr_t low = 0, high = 0;  // the whole mapping, fence pages included
  uintptr_t data = 0;
  size_t count = 0;
};
constexpr int kSlots = 32;
Slot g_slots[kSlots];

size_t pageBytes() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

void copyName(Slot& slot, const std::string& name) {
  const size_t length = std::min(name.size(), sizeof slot.name - 1);
  std::memcpy(slot.name, name.data(), length);
  slot.name[length] = '\0';
}

}  // namespace

FencedBuffer::FencedBuffer(const std::string& name, size_t count) : count_(count) {
  const size_t page = pageBytes();
  const size_t bytes = count * sizeof(int);
  const size_t aligned = (bytes + 15) / 16 * 16;  // int4 loads need 16-byte alignment
  const size_t dataPages = (aligned + page - 1) / page;
  mappingBytes_ = (dataPages + 2) * page;
  void* map = mmap(nullptr, mappingBytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) throw std::bad_alloc();
  mapping_ = static_cast<unsigned char*>(map);
  unsigned char* first = mapping_ + page;
  if (mprotect(first, dataPages * page, PROT_READ | PROT_WRITE) != 0) {
    munmap(mapping_, mappingBytes_);
    throw std::bad_alloc();
  }
  unsigned char* end = first + dataPages * page;
  data_ = reinterpret_cast<int*>(end - aligned);
  std::memset(first, sim::kSharedPoisonByte, dataPages * page);
  std::memset(data_, 0, bytes);
  for (int k = 0; k < kSlots; ++k) {
    bool expected = false;
    Slot& slot = g_slots[k];
    if (slot.used.load() || !slot.used.compare_exchange_strong(expected, true)) continue;
    // Claimed: fill it in; a handler that reads it half-filled finds an empty range.
    slot.low = slot.high = 0;
    copyName(slot, name);
    slot.data = reinterpret_cast<uintptr_t>(data_);
    slot.count = count;
    slot.high = reinterpret_cast<uintptr_t>(mapping_ + mappingBytes_);
    slot.low = reinterpret_cast<uintptr_t>(mapping_);
    slot_ = k;
    break;
  }
}

FencedBuffer::~FencedBuffer() {
  if (slot_ >= 0) {
    g_slots[slot_].low = g_slots[slot_].high = 0;
    g_slots[slot_].used.store(false);
  }
  munmap(mapping_, mappingBytes_);
}

void FencedBuffer::rename(const std::string& name) {
  if (slot_ >= 0) copyName(g_slots[slot_], name);
}

FenceHit findFence(uintptr_t address) noexcept {
  FenceHit hit;
  for (const Slot& slot : g_slots) {
    if (!slot.used.load(std::memory_order_relaxed) || address < slot.low || address >= slot.high)
      continue;
    hit.found = true;
    hit.name = slot.name;
    hit.count = slot.count;
    const long long offset = (long long)address - (long long)slot.data;
    hit.index = offset >= 0 ? offset / (long long)sizeof(int)
                            : -((-offset + (long long)sizeof(int) - 1) / (long long)sizeof(int));
    return hit;
  }
  return hit;
}

std::vector<std::pair<uintptr_t, uintptr_t>> unguardedEnds() {
  std::vector<std::pair<uintptr_t, uintptr_t>> ends;
  for (const Slot& slot : g_slots) {
    if (!slot.used.load(std::memory_order_relaxed) || slot.high == 0) continue;
    const uintptr_t last = slot.data + slot.count * sizeof(int), fence = slot.high - pageBytes();
    if (last < fence) ends.emplace_back(last, fence);
  }
  return ends;
}

}  // namespace rlab::exercise
