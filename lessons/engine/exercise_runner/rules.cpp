// The rules an exercise adds to a run (rules.hpp), and those drivers.hpp declares for both
// backends: the identity, the __shared__ memory rule, every thread's all-reduce value.

#include "lessons/engine/exercise_runner/rules.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "lessons/engine/exercise_runner/drivers.hpp"
#include "lessons/engine/exercise_runner/fenced.hpp"
#include "lessons/engine/run/reference.hpp"

namespace rlab::exercise {

namespace {

std::string text(double v) {
  return formatValue(v, ElementType::Int);
}

Message threadName(long long thread, long long block) {
  return Message("check.thread-of-block", {{"thread", thread}, {"block", block}});
}

// What the runner calls an instruction of the learner's library ("@pc:OFFSET"), or "".
std::string instructionName(uintptr_t instruction) {
  return g_instructionName ? g_instructionName(instruction) : std::string();
}

}  // namespace

Message offLimitsSentence(const sim::ThreadAccess& a) {
  const FenceHit hit = findFence(a.address);
  Message who = threadName(a.thread, a.block);
  if (const std::string line = instructionName(a.instruction); !line.empty())
    who = Message("check.who-at", {{"who", who}, {"line", line}});
  const long long count = (long long)hit.count;
  return Message(a.write || a.atomic ? "check.wrote-past" : "check.read-past",
                 {{"who", who},
                  {"element", std::string(hit.name) + "[" + std::to_string(hit.index) + "]"},
                  {"buffer", hit.name},
                  {"count", count},
                  {"last", count - 1}});
}

void checkAtomicsOnly(const sim::LaunchStats& stats, const int* result, int identity,
                      int finalValue, long long& count) {
  double value = identity;
  const sim::AtomicEvent* previous = nullptr;
  count = 0;
  for (const sim::AtomicEvent& a : stats.atomics) {
    if (a.address != result) continue;
    if (a.old != value) {
      const Message before = previous
                                 ? Message("rule.left-by-atomic",
                                           {{"value", text(value)},
                                            {"who", threadName(previous->thread, previous->block)}})
                                 : Message("rule.left-by-host", {{"value", text(value)}});
      throw RuleBroken(Message(
          "rule.atomic-found",
          {{"who", threadName(a.thread, a.block)}, {"found", text(a.old)}, {"before", before}}));
    }
    value = a.after;
    previous = &a;
    ++count;
  }
  if (finalValue != value)
    throw RuleBroken(previous
                         ? Message("rule.ended-after-atomics",
                                   {{"final", text(finalValue)}, {"left", text(value)}})
                         : Message("rule.ended-without-atomics", {{"final", text(finalValue)}}));
}

void checkAtomicCount(const Exercise& e, long long atomics, long long blocks, int block) {
  if (e.atomics == AtomicLimit::Any) return;
  const bool perWarp = e.atomics == AtomicLimit::OnePerWarp;
  const long long allowed = blocks * (perWarp ? blocksFor(block, 32) : 1);
  if (atomics <= allowed) return;
  throw RuleBroken(
      Message(perWarp ? "rule.atomics-per-warp" : "rule.atomics-per-block",
              {{"atomics", atomics}, {"blocks", blocks}, {"block", block}, {"allowed", allowed}}));
}

void SequentialAddressingWatch::atBarrier(unsigned b, const std::vector<sim::SharedSpan>& shared) {
  if (block_ < 4 || b >= seen_.size() || seen_[b]) return;
  const sim::SharedSpan* tree = nullptr;  // the largest shared variable: the tree's array
  for (const auto& span : shared)
    if (span.size >= size_t(block_) * sizeof(int) && (!tree || span.size > tree->size))
      tree = &span;
  if (!tree) return;
  const int* s = reinterpret_cast<const int*>(tree->bytes);
  const long long base = (long long)b * block_, half = block_ / 2;
  for (long long t = 0; t < half; ++t) {
    const unsigned x = element(base + t), y = element(base + t + half);
    if (s[t] != int(x + y)) return;
  }
  seen_[b] = 1;
}

void SequentialAddressingWatch::check(int pass) const {
  if (block_ < 4) return;
  for (size_t b = 0; b < seen_.size(); ++b) {
    if (seen_[b]) continue;
    const std::string x = pass == 1 ? "in" : "x";
    const std::string half = std::to_string(block_ / 2);
    const std::vector<MessageArg> args = {
        {"block", b},
        {"pass", pass},
        {"holds", "s[t] = " + x + "[base + t] + " + x + "[base + t + " + half + "]"},
        {"half", half}};
    throw RuleBroken(Message(pass == 1 ? "rule.not-sequential" : "rule.not-sequential-pass", args));
  }
}

int identityOf(Op op) {
  switch (op) {
    case Op::Max:
      return INT_MIN;
    case Op::Min:
      return INT_MAX;
    case Op::Product:
      return 1;
    case Op::Sum:
    case Op::Subtract:
      break;
  }
  return 0;
}

Message sharedMemoryRuleBroken(const Exercise& e, const void* kernel) {
  return e.shared == SharedUse::Any ? Message()
                                    : sharedMemoryRuleBroken(e, sim::sharedMemoryBytes(kernel),
                                                             sim::usesDynamicSharedMemory(kernel));
}

Message sharedMemoryRuleBroken(const Exercise& e, size_t bytes, bool dynamic) {
  if (e.shared == SharedUse::Required && bytes == 0 && !dynamic)
    return Message("rule.no-shared", {{"kernel", e.kernel}});
  if (e.shared == SharedUse::Forbidden && (bytes > 0 || dynamic))
    return dynamic ? Message("rule.dynamic-shared-forbidden", {{"kernel", e.kernel}})
                   : Message("rule.shared-forbidden", {{"kernel", e.kernel}, {"bytes", bytes}});
  return {};
}

double allReduceResult(const Exercise& e, const std::vector<double>& input, const int* out,
                       int blockSize, int untouched) {
  const long long n = (long long)input.size(), block = blockSize;
  const long long group = e.warpGroups ? std::min<long long>(32, block) : block;
  std::vector<double> totals;
  for (long long first = 0; first < n; first += group) {
    const long long last = std::min(n, first + group) - 1;
    const std::vector<double> elements(input.begin() + first, input.begin() + last + 1);
    const double total = reference(e.op, ElementType::Int, elements).expected;
    for (long long i = first; i <= last; ++i) {
      const int got = out[i];
      if (got == total) continue;
      const Message who = threadName(i % block, i / block);
      const std::string cell = "out[" + std::to_string(i) + "]";
      if (got == untouched)
        throw RuleBroken(Message("rule.out-untouched",
                                 {{"cell", cell}, {"value", text(untouched)}, {"who", who}}));
      throw RuleBroken(
          Message(e.warpGroups ? "rule.out-not-warp-total" : "rule.out-not-block-total",
                  {{"who", who},
                   {"got", text(got)},
                   {"cell", cell},
                   {"first", first},
                   {"last", last},
                   {"total", text(total)}}));
    }
    totals.push_back(total);
  }
  return reference(e.op, ElementType::Int, totals).expected;
}

}  // namespace rlab::exercise
