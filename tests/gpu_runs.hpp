// What the GPU test files share: a run on the GPU, untimed, and an exercise checked on it.
#pragma once

#include <string>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/run/params.hpp"

namespace rlab {

inline Params gpuParams(const std::string& lesson, const std::string& variant, int64_t n) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.backend = BackendChoice::Gpu;
  p.timed = false;
  return p;
}

inline const std::string kExerciseFixtures =
    std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/";

inline ExerciseReport checkOnGpu(const std::string& id, const std::string& file) {
  ExerciseRequest request;
  request.file = file;
  request.backend = BackendChoice::Gpu;
  return checkExercise(exerciseOrThrow(id), request);
}

}  // namespace rlab
