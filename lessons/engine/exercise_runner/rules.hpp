// The rules an exercise adds to a run on the simulator, for the drivers (drivers.cpp): no load
// or store past a buffer's end, *result changed by atomics only, how many atomics, sequential
// addressing. A broken rule is one sentence, thrown. Used inside the exercise runner only.
#pragma once

#include <stdexcept>
#include <vector>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/texts/messages.hpp"

namespace rlab::exercise {

// A broken rule: its sentence, and what() the English.
class RuleBroken : public std::runtime_error, public MessageCarrier {
 public:
  explicit RuleBroken(Message m) : std::runtime_error(english(m)), MessageCarrier(std::move(m)) {}
};

// The blocks of `block` threads that `threads` threads need.
inline long long blocksFor(long long threads, long long block) {
  return (threads + block - 1) / block;
}

// A load or store between a buffer's last element and its fence page, in the sentence a fault
// past the page gets.
Message offLimitsSentence(const sim::ThreadAccess& a);

// *result may change only through atomics: each atomic on it must find what the one before it
// left (the first: the identity the host stored), and the last must leave what the host reads.
// On the simulator one thread runs at a time, so `*result += v` gives the right total there;
// on a GPU threads read the same old value at once and lose each other's additions. A plain
// store of a block's total (`*result = s[0]`) breaks the chain the same way.
void checkAtomicsOnly(const sim::LaunchStats& stats, const int* result, int identity,
                      int finalValue, long long& count);

void checkAtomicCount(const Exercise& e, long long atomics, long long blocks, int block);

// Sequential addressing, seen from the barriers: after the tree's first level the first half
// of the block's shared array holds x[t] + x[t + blockDim.x / 2], where x is what the block
// loaded (0 past the end). An interleaved tree (x[t] + x[t + 1] at even t) or a strided one
// reaches the same total, and never that state. Blocks of fewer than four threads have one
// level, the same in every tree.
class SequentialAddressingWatch {
 public:
  SequentialAddressingWatch(const int* source, long long len, int block, long long blocks)
      : source_(source), len_(len), block_(block), seen_(size_t(blocks), 0) {}

  void atBarrier(unsigned b, const std::vector<sim::SharedSpan>& shared);
  void check(int pass) const;

 private:
  unsigned element(long long i) const { return i < len_ ? unsigned(source_[i]) : 0u; }
  const int* source_;
  long long len_;
  int block_;
  std::vector<char> seen_;
};

}  // namespace rlab::exercise
