// Exercises: the learner writes the kernel. Each one lives with its lesson, in
// lessons/<lesson>/exercises/<id>/: start.cu (the kernel's signature and a TODO), solution.cu
// (ours) and en.md, ja.md, zh.md (the statement, then hints in <details> blocks that open one at
// a time; each language's file has the same hints in the same order, which a test checks).
// Everything else about an exercise is one descriptor here: which kernel the learner writes,
// how the host runs it (its shape), the operator, and the rules its checks add to the result.
// The files are embedded at build time, like the lessons' texts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/races/verify.hpp"

namespace rlab {

// A run of a learner's kernel records its steps (and its loads and stores) up to this n: the
// array view's cells stay readable.
inline constexpr long long kExerciseStepLimit = 4096;

// How the host runs the learner's kernel; each shape fixes the kernel's parameters. Elements
// are int; the learner's kernel has no trace calls.
enum class ExerciseShape {
  // __global__ void NAME(const int* in, long long n, int* result): one launch; *result holds
  // the operator's identity before it and the total after it.
  AtomicResult,
  // __global__ void NAME(const int* in, long long n, int* out): block b writes its total to
  // out[b]; the host launches again over the block totals until one is left.
  BlockPartials,
  // __global__ void NAME(int* a, long long len): one step of the fold; the host launches it
  // with len = n, then len - len / 2, ... until 1, with (len + 1) / 2 threads; a[0] at the end.
  FoldStep,
  // __global__ void NAME(int* a, int n): one block of at least n threads (a power of two),
  // in place; a[0] at the end.
  OneBlock,
  // __global__ void NAME(const int* in, long long n, int* out): every thread i < n writes the
  // total of its group (its warp, or its block) to out[i].
  AllReduce,
  // __global__ void probe(const int* in, int n, int* out): the simulator's conformance suite
  // (probeExercise()), not an exercise: the host launches it as told and compares out[] with its
  // own answer.
  Probe,
};

// What an exercise asks of __shared__ memory, checked before any case runs (the simulator
// knows the kernel's own __shared__ variables).
enum class SharedUse { Any, Required, Forbidden };

// How many atomics may land on *result (AtomicResult), counted on the simulator.
enum class AtomicLimit { Any, OnePerBlock, OnePerWarp };

// What a failed check found, by kind, for the hint that is about it (Exercise::hintFor).
enum class FailureKind {
  Race,     // two threads' accesses with nothing ordering them, or unwritten shared memory read
  Barrier,  // a __syncthreads() that part of the block skips or never reaches
  Lanes,    // a warp operation without its lanes, or reading a lane that exited
  Bounds,   // a read or write outside the buffer
};

struct Exercise {
  std::string id;       // "fold-any-length": fixed, tests and the CLI use it
  std::string lesson;   // the lesson it belongs to
  std::string variant;  // the lesson variant whose limits its runs respect (n, block sizes)
  std::string title;    // the English statement's heading
  std::string kernel;   // the __global__ function the learner writes
  ExerciseShape shape = ExerciseShape::AtomicResult;
  Op op = Op::Sum;
  int perThread = 1;        // AtomicResult: elements per thread the grid is sized for
  bool gridStride = false;  // AtomicResult: the grid is capped, so threads must loop
  bool warpGroups = false;  // AllReduce: groups are warps (else blocks)
  AtomicLimit atomics = AtomicLimit::Any;
  SharedUse shared = SharedUse::Any;
  // BlockPartials: at some barrier the block's __shared__ array must hold the first level of
  // sequential addressing (s[t] = x[t] + x[t + blockDim.x / 2] for the first half): an
  // interleaved or strided tree gives the same total and never that.
  bool sequentialAddressing = false;
  // Dynamic shared memory the host gives each launch, in bytes per thread of the block
  // (<<<grid, block, block * this>>>): a kernel may declare `extern __shared__ int s[];`.
  int dynamicSharedPerThread = 0;
  bool gpuSpeedGoal = false;  // faster than the shared lesson's coarsened kernel at 2^24, on a GPU
  // The kernel must be written with cooperative groups: this_thread_block() and cg::reduce.
  bool cooperativeGroups = false;
  std::string folder;  // lessons/<lesson>/exercises/<id>
  // The hint (1: the first) each kind of failure is about, where one is: a failed check points
  // there. Every language's file has the same hints in the same order.
  std::map<FailureKind, int> hintFor;

  // "__global__ void reduce(const int* in, long long n, int* result)"
  std::string signature() const;
  // The kernel's type as a function pointer, for the entry that finds it in the learner's file:
  // "void (*)(const int*, long long, int*)"
  std::string pointerType() const;
};

const std::vector<Exercise>& exercises();
// The conformance suite's kernel, compiled and run as a learner's is (lessons/engine/exercise/
// probe.hpp); in no list of exercises.
const Exercise& probeExercise();
const Exercise* findExercise(const std::string& id);
// The exercise, or ParamError naming the ids there are.
const Exercise& exerciseOrThrow(const std::string& id);
std::string exerciseIds();  // "one-queue, largest-element, ..." for messages
std::vector<const Exercise*> exercisesOf(const std::string& lesson);

// The embedded files; ParamError when the build lacks one (a test proves none is missing).
const std::string& startFile(const Exercise& e);
const std::string& solutionFile(const Exercise& e);
// Our solution written with cooperative groups: solution-groups.cu, or solution.cu where the
// exercise asks for the groups.
const std::string& groupsSolutionFile(const Exercise& e);

// <language>.md, split: the statement (without the heading) and the hints in order. Where the
// language's file is missing, the English one, and `language` says so.
struct ExerciseText {
  std::string title;
  std::string statement;
  std::vector<std::string> hints;
  Language language = Language::En;  // the language the text is in
};
ExerciseText exerciseText(const Exercise& e, Language language = Language::En);

// The cases a learner's kernel must pass, in a fixed order: awkward sizes from 1 to 100003
// with every block size, random and adversarial data for the exercise's operator, and on the
// simulator many random and stalling schedules, so that a missing barrier fails even where
// lockstep hides it; on the GPU (which picks its own order) sums of 2^24 + 3 elements instead.
// Each case's replay line runs `replayWith` (see VerifyCase).
std::vector<VerifyCase> exerciseCases(const Exercise& e, const std::string& replayWith,
                                      VerifyScope scope = VerifyScope::Simulator);

// The run `rlab exercise run` makes of these options: the exercise's lesson, variant and
// operator, int elements, no trace, on the simulator or the GPU; checked with resolve().
// Throws ParamError.
Params exerciseRunParams(const Exercise& e, Params options);

}  // namespace rlab
