// Device buffers for a learner's kernel on the simulator, fenced: each buffer ends at a page
// boundary (give or take the 16-byte alignment int4 loads need) between pages nobody may touch.
// A kernel that reads or writes past the end, or before the start, faults at once, in the
// thread that did it, and the exercise runner's crash report names the thread, the buffer
// and the index. The few bytes between the last element and the page end hold the shared
// memory poison, as the lessons' guard zones do, and the race detector's hooks watch them
// (unguardedEnds). Used inside the exercise runner only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rlab::exercise {

class FencedBuffer {
 public:
  // `count` ints (at least one), zeroed; `name` is the kernel parameter it is passed as.
  FencedBuffer(const std::string& name, size_t count);
  ~FencedBuffer();
  FencedBuffer(const FencedBuffer&) = delete;
  FencedBuffer& operator=(const FencedBuffer&) = delete;

  int* data() const { return data_; }
  size_t count() const { return count_; }
  // The name crash reports use ("in", "out", "the block totals of pass 1").
  void rename(const std::string& name);

 private:
  unsigned char* mapping_ = nullptr;
  size_t mappingBytes_ = 0;
  int* data_ = nullptr;
  size_t count_ = 0;
  int slot_ = -1;
};

// Where an address falls among the live buffers: inside one's fence pages, as an element
// index (negative before the start). Async-signal-safe: plain reads of a fixed table.
struct FenceHit {
  bool found = false;
  const char* name = "";
  long long index = 0;
  size_t count = 0;
};
FenceHit findFence(uintptr_t address) noexcept;

// The bytes of each live buffer between its last element and its fence page, which no fault
// guards (the simulator's LaunchOptions::offLimits): [begin, end) each.
std::vector<std::pair<uintptr_t, uintptr_t>> unguardedEnds();

}  // namespace rlab::exercise
