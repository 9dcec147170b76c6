// The leaderboard's stage of a grade (rlab exercise grade --leaderboard), inside the exercise
// runner once every case of the GPU's check has passed: the learner's whole reduction at
// n = 2^24 timed on fresh inputs, each run's sum checked again, then the fastest lesson's kernel
// and CUB timed on the same input in the same process. Its report lines:
//   @leaderboard-start                  (the rounds begin: a runner that ends now ended in them)
//   @leaderboard-round <TAB> round <TAB> right (1/0) <TAB> ms <TAB> sentence
//   @leaderboard <TAB> mine ms <TAB> fastest ms <TAB> CUB ms <TAB> sentence   (every round right)
//   @leaderboard-none <TAB> sentence    (no time: the exercise has none, or it failed)
#pragma once

#include <string>

#include "lessons/engine/exercise_runner/gpu.hpp"
#include "lessons/engine/exercise_runner/gpu_device.hpp"

namespace rlab::exercise {

void runLeaderboard(const Exercise& e, Gpu& gpu, const std::string& replayWith,
                    const ReportLine& report);

}  // namespace rlab::exercise
