// The host side of an exercise on the simulator: one driver per ExerciseShape runs the
// learner's kernel (found in their shared object) on fenced buffers, as a lesson driver runs
// a lesson kernel, and checks the rules the exercise adds to the result: *result changed by
// atomics only, how many atomics, every thread's all-reduce value. Used inside the exercise
// runner only.
#pragma once

#include "lessons/exercises.hpp"

namespace rlab::exercise {

// The two multiprocessors of the simulator (SimBackend's), with an H100's thread slots: the
// grid of a grid-stride exercise.
inline constexpr long long kSimMultiprocessors = 2;
inline constexpr long long kThreadSlotsPerMultiprocessor = 2048;

// Runs `kernel` (a function of e.pointerType()) on the case's input and launch and returns the
// result. Throws with one sentence when the run cannot finish (sim::LaunchError) or breaks one
// of the exercise's rules.
double runExerciseKernel(const Exercise& e, const void* kernel, const Params& p);

// Before any case: the exercise's rule on __shared__ memory. Empty when the kernel keeps it,
// else one sentence.
std::string sharedMemoryRuleBroken(const Exercise& e, const void* kernel);
// The same rule for a kernel that declares `bytes` of __shared__ memory (the GPU's count).
std::string sharedMemoryRuleBroken(const Exercise& e, size_t bytes);

// What the host stores in *result before the launch: the operator's identity.
int identityOf(Op op);

// AllReduce, on any backend: every out[i] (i < n) must be the total of its group, its warp or
// its block; the result is the groups' totals combined. Throws one sentence naming the first
// thread that ended with something else (`untouched`: what out held before the launch).
double allReduceResult(const Exercise& e, const std::vector<double>& input, const int* out,
                       int block, int untouched);

}  // namespace rlab::exercise
