// What a reduction kernel must get right before anyone calls it correct: the cases (awkward
// sizes, every block size, every operator and type, random and adversarial data, and on the
// simulator the schedules a GPU might pick) and the check against the CPU reference. The
// lessons' tests run their own kernels through it; an exercise checker runs a learner's kernel
// through the same cases.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"
#include "lessons/engine/run/params.hpp"

namespace rlab {

struct LessonInfo;
struct VariantInfo;

enum class VerifyScope {
  // Seconds on the simulator. Sizes 1 to 4097: every operator and type on random data, and the
  // adversarial patterns, the block sizes taken in turn so that each size meets every block
  // size; 65537: four runs. Sums under random and stalling schedules, at 33, 257 and 1000.
  Simulator,
  // The GPU: the same data, every case at every block size, plus 100003 and sums at 2^24 + 3
  // (at the default, smallest and largest block). No schedules: the GPU picks its own.
  Gpu,
};

struct VerifyCase {
  // The run: lesson, variant, n, block (0: the lesson's default), op, type, the data
  // (params.data, or params.values for data of its own), schedule, perturb and backend.
  Params params;
  Message data;  // the input in words: "random integers from -99 to 99 (seed 3)"
  // What runs, for sentences: empty for the lesson's variant ("shared multiblock"); an
  // exercise names itself ("exercise fold-any-length": Message("verify.exercise", ...)).
  Message subject;
  // The command that replays the case, up to its options: empty for `rlab run LESSON --variant
  // V`; an exercise's runs the learner's file ("rlab exercise run fold-any-length fold.cu") and
  // takes no --op, --type or --backend (the exercise fixes them).
  std::string replayWith;
};

struct VerifyOutcome {
  bool passed = false;
  double result = 0;
  double expected = 0;
  double tolerance = 0;
  // Empty when the case passed; else one sentence: which case broke (lesson, variant, n, block,
  // op, type, data, schedule), what came out, and the `rlab run` line that replays its input.
  Message sentence;
};

struct VerifyReport {
  int casesRun = 0;
  int failed = 0;                       // of casesRun
  std::vector<VerifyOutcome> failures;  // the first ones, in the order of the cases
  bool passed() const { return failed == 0; }
  // "all 270 cases passed", or how many failed and the sentence of each one kept, a line each.
  Message summary() const;
};

// Runs the kernel under test on a case's resolved parameters (n, block, variant filled in)
// and returns its result. Throwing (a launch that could not finish, a write past the end of a
// buffer) fails the case with the exception's sentence.
using KernelRunner = std::function<double(const Params&)>;

// The cases for one lesson variant, in a fixed order (the same on every machine). Every case
// resolves: it respects the lesson's maxN, oneBlock and the variant's minBlock.
std::vector<VerifyCase> verificationCases(const LessonInfo& lesson, const VariantInfo& variant,
                                          VerifyScope scope);

// The pieces the cases are made of, for checks that choose their own sizes, operators and
// schedules (an exercise's).
enum class VerifyData {
  OwnRandom,     // negative (and for floats fractional) values of our own; n up to 257
  RandomDigits,  // random:SEED (digits 0 to 9)
  Iota,          // 1..n: the maximum at the end, the minimum at index 0
  Ones,          // products beyond 257 elements: the only exact product of many
  ExtremeFirst,  // max/min: the extreme at index 0
  ExtremeLast,   // max/min: the extreme at the last index
  OneAtLast,     // sum/product: the identity everywhere but the last index
};
// The data a size gets with an operator when it has no pattern of its own.
VerifyData mainVerifyData(Op op, int64_t n);
// 0 (the lesson's default) and every power of two from the variant's smallest block (at least
// 32) to 1024; for a one-block lesson only those that cover n.
std::vector<int> verifyBlockSizes(const LessonInfo& lesson, const VariantInfo& variant, int64_t n);
// One case on the simulator (or the GPU), its data made from `seed`.
VerifyCase makeVerifyCase(const LessonInfo& lesson, const VariantInfo& variant, VerifyScope scope,
                          int64_t n, int block, Op op, ElementType type, VerifyData data,
                          uint64_t seed);

// One case: the expected value and the comparison come from lessons/engine/run/reference.hpp.
VerifyOutcome verify(const VerifyCase& c, const KernelRunner& runKernel);

// Every case in order, stopping after `stopAfter` failures (0: never).
VerifyReport verifyAll(const std::vector<VerifyCase>& cases, const KernelRunner& runKernel,
                       int stopAfter = 3);

// "shared multiblock: n = 257, block 128, sum of int, data ..., schedule random:101"
Message describeCase(const VerifyCase& c);
// "rlab run shared --variant multiblock --block 128 --op sum --type int --values=... --backend
// sim": runs the lesson's own kernel on the case's input and launch, from a POSIX shell (long
// runs of one value are written as $(printf ...) so that the line stays short).
std::string replayCommand(const VerifyCase& c);

// A failure's sentence (an outcome's, a check's) with the line that replays it, where it has
// one (its argument "replay"): "... Replay: rlab run shared --variant ...". The app shows the
// line apart, with a button that copies it.
Message withReplay(const Message& failure);

// The lesson's own kernel: runLesson(p).result.
double runLessonKernel(const Params& p);

}  // namespace rlab
