// Compiling and checking a small exercise on the simulator, as `rlab exercise check` does: our
// solution of fold-any-length (or the exercise named on the command line), compiled by the
// system compiler and run through every case by the runner process. Prints figures; asserts
// nothing about time (a solution that fails exits non-zero). The target is under 3 s in all on
// this project's 2-core machines.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "lessons/engine/exercise/check.hpp"

int main(int argc, char** argv) {
  const std::string eId = argc > 1 ? argv[1] : "fold-any-length";
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  const auto file = std::filesystem::temp_directory_path() / ("rlab-bench-" + e.id + ".cu");
  std::ofstream(file) << rlab::solutionFile(e);
  rlab::ExerciseRequest request;
  request.file = file.string();
  std::vector<double> compile, check, total;
  bool passed = true;
  int cases = 0;
  for (int run = 0; run < 3; ++run) {
    const rlab::ExerciseReport r = rlab::checkExercise(e, request);
    passed = passed && r.passed();
    cases = r.casesRun;
    compile.push_back(r.compileSeconds);
    check.push_back(r.runSeconds);
    total.push_back(r.compileSeconds + r.runSeconds);
  }
  std::filesystem::remove(file);
  for (auto* v : {&compile, &check, &total}) std::sort(v->begin(), v->end());
  std::printf(
      "exercise %s on the simulator, our solution: compile %.2f s + check %.2f s (%d cases) = "
      "%.2f s (median of 3 runs, %.2f to %.2f s; %s; target under 3 s)\n",
      e.id.c_str(), compile[1], check[1], cases, total[1], total.front(), total.back(),
      passed ? "passed" : "FAILED");
  return passed ? 0 : 1;
}
