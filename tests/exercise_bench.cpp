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

namespace {

struct Figures {
  std::vector<double> compile, check, total;
  bool passed = true;
  int cases = 0;
  double median(std::vector<double>& v) const {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string eId = argc > 1 ? argv[1] : "fold-any-length";
  const rlab::Exercise& e = rlab::exerciseOrThrow(eId);
  const auto file = std::filesystem::temp_directory_path() / ("rlab-bench-" + e.id + ".cu");
  std::ofstream(file) << rlab::solutionFile(e);
  rlab::ExerciseRequest request;
  request.file = file.string();
  // With the race detector (as every check runs) and without it (its cost), taking turns so
  // that both see the same machine.
  Figures with, without;
  for (int run = 0; run < 3; ++run)
    for (bool detector : {true, false}) {
      request.raceDetector = detector;
      const rlab::ExerciseReport r = rlab::checkExercise(e, request);
      Figures& f = detector ? with : without;
      f.passed = f.passed && r.passed();
      f.cases = r.casesRun;
      f.compile.push_back(r.compileSeconds);
      f.check.push_back(r.runSeconds);
      f.total.push_back(r.compileSeconds + r.runSeconds);
    }
  std::filesystem::remove(file);
  const double totalWith = with.median(with.total), totalWithout = without.median(without.total);
  std::printf(
      "exercise %s on the simulator, our solution: compile %.2f s + check %.2f s (%d cases) = "
      "%.2f s (median of 3 runs; %s; target under 1.5 s)\n",
      e.id.c_str(), with.median(with.compile), with.median(with.check), with.cases, totalWith,
      with.passed ? "passed" : "FAILED");
  std::printf(
      "  the race detector's cost: without it compile %.2f s + check %.2f s = %.2f s, so the "
      "detector takes %.2fx the time (%+.2f s), measured in the same run, turn about\n",
      without.median(without.compile), without.median(without.check), totalWithout,
      totalWith / totalWithout, totalWith - totalWithout);
  return with.passed && without.passed ? 0 : 1;
}
