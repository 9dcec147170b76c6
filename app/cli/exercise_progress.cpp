// rlab exercise progress: the learner's path through the course, read from the progress file
// rlab and the app share (lessons/engine/exercise/progress.hpp): each lesson with its exercises
// and their marks, how many are done, and the next one.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/exercise/progress.hpp"

namespace rlab::cli {

int exerciseProgressCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  const Progress progress = loadProgress(progressFilePath());
  if (!progress.problem.empty())  // a fresh start, said once: the file is kept when next saved
    err << "rlab: " << render(progress.problem, c.language) << "\n";
  if (c.format == Format::Json)
    out << exerciseProgressJson(progress).dump(2) << "\n";
  else
    printExerciseProgress(out, progress, c.language, colour, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
