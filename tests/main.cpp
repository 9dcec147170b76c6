// The tests' main: doctest's, after pointing the learner's folder (progress, exercise files;
// lessons/engine/exercise/progress.hpp) at a scratch folder of this process, so that no test
// (nor the app or rlab a test starts) reads or writes the real home's. A test that needs its
// own sets XDG_DATA_HOME again.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include "tests/temp_folder.hpp"

int main(int argc, char** argv) {
  const TempFolder data("xdg-data");
  ::setenv("XDG_DATA_HOME", data.str().c_str(), 1);
  ::unsetenv("RLAB_EXERCISE_DIR");
  doctest::Context context(argc, argv);
  return context.run();
}
