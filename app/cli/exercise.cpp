// rlab exercise: list the exercises, print one's statement, write a starting file, check a
// learner's file (or run it once, as a failed check's replay line does), show a hint or our
// solution. The statement and hints are in the chosen language (--lang, else the locale).
#include <filesystem>
#include <fstream>
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/backends.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"

namespace rlab::cli {

namespace fs = std::filesystem;

namespace {

int startExercise(const Exercise& e, const std::string& folder, std::ostream& out) {
  std::error_code error;
  // A folder that does not exist yet is made, with any missing parents, as mkdir -p would.
  if (!fs::is_directory(folder, error)) {
    if (fs::exists(folder, error))
      throw UsageError(folder + " is a file, not a folder; name a folder to write " + e.id +
                       ".cu into.");
    fs::create_directories(folder, error);
    if (error)
      throw UsageError("could not create the folder " + folder + " (" + error.message() +
                       "); name a folder you can write to.");
    out << "Created the folder " << folder << ".\n";
  }
  const std::string path = (fs::path(folder) / (e.id + ".cu")).string();
  if (fs::exists(path, error))
    throw UsageError(path + " already exists; remove it or name another folder.");
  std::ofstream file(path, std::ios::binary);
  file << startFile(e);
  if (!file) throw UsageError("could not write " + path + ".");
  out << "Wrote " << path << ": write " << e.kernel << " there, then run\n  rlab exercise check "
      << e.id << " " << path << "\n";
  return 0;
}

}  // namespace

int exerciseCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  if (c.exerciseAction == "list") {
    if (c.format == Format::Json)
      out << exercisesJson().dump(2) << "\n";
    else
      printExerciseList(out, c.language);
    return 0;
  }
  const Exercise& e = exerciseOrThrow(c.exerciseId);
  if (c.exerciseAction == "start") return startExercise(e, c.exerciseFolder, out);
  if (c.exerciseAction == "show" || c.exerciseAction == "hint") {
    const ExerciseText text = exerciseText(e, c.language);
    if (text.language != c.language)  // every exercise has every language (a test checks)
      err << "rlab: exercise " << e.id << " has no text in " << nativeName(c.language)
          << " yet; here it is in English.\n";
    if (c.exerciseAction == "show")
      printExerciseStatement(e, text, out);
    else
      out << "Hint " << c.hint << " of " << text.hints.size() << " (" << e.id << "):\n\n"
          << text.hints[size_t(c.hint - 1)] << "\n";
    return 0;
  }
  if (c.exerciseAction == "solution") {
    out << solutionFile(e);
    return 0;
  }

  // check and run: the core compiles the file and runs it in a child process.
  ExerciseRequest request;
  request.file = c.exerciseFile;
  request.oneRun = c.exerciseAction == "run";
  request.options = c.params;
  request.caseSeconds = c.caseSeconds;
  request.backend = c.params.backend;
  if (request.backend != BackendChoice::Sim) {  // auto: the GPU where one works, else say why
    const GpuProbe gpu = probeGpu();
    if (!gpu.usable && request.backend == BackendChoice::Gpu) throw GpuUnavailable(gpu.why);
    if (!gpu.usable) err << "rlab: " << gpu.why << " Checking on the simulator.\n";
    request.backend = gpu.usable ? BackendChoice::Gpu : BackendChoice::Sim;
  }
  if (colour)  // a person at a terminal: say what is going on, on one line that updates
    request.progress = [&](const std::string& stage, int done, int total) {
      if (stage == "compiling")
        err << "\rcompiling " << c.exerciseFile << " ..." << std::flush;
      else
        err << "\rchecking: " << done << " of " << total << " cases  " << std::flush;
      return true;
    };
  const ExerciseReport report = checkExercise(e, request);
  if (colour) err << "\r" << std::string(60, ' ') << "\r" << std::flush;
  if (report.verdict == ExerciseVerdict::NotRun) throw std::runtime_error(report.problem);
  if (c.format == Format::Json) {
    nlohmann::json j = exerciseReportJson(e, report);
    if (report.trace) j["run"] = traceJson(*report.trace);
    out << j.dump() << "\n";
  } else {
    if (report.trace) printTraceText(*report.trace, out, colour, c.terminal.width);
    printExerciseReport(e, report, out, colour);
  }
  return report.passed() ? 0 : 1;
}

}  // namespace rlab::cli
