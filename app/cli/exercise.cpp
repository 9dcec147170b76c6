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

int startExercise(const Exercise& e, const std::string& folder, std::ostream& out,
                  Language language) {
  std::error_code error;
  // A folder that does not exist yet is made, with any missing parents, as mkdir -p would.
  if (!fs::is_directory(folder, error)) {
    if (fs::exists(folder, error))
      throw UsageError(
          Message("usage.file-not-folder", {{"folder", folder}, {"file", e.id + ".cu"}}));
    fs::create_directories(folder, error);
    if (error)
      throw UsageError(
          Message("usage.cannot-create-folder", {{"folder", folder}, {"why", error.message()}}));
    out << render(Message("view.folder-created", {{"folder", folder}}), language) << "\n";
  }
  const std::string path = (fs::path(folder) / (e.id + ".cu")).string();
  if (fs::exists(path, error)) throw UsageError(Message("usage.file-exists", {{"path", path}}));
  std::ofstream file(path, std::ios::binary);
  file << startFile(e);
  if (!file) throw UsageError(Message("usage.cannot-write", {{"path", path}}));
  out << render(Message("view.exercise-started", {{"path", path}, {"kernel", e.kernel}}), language)
      << "\n  rlab exercise check " << e.id << " " << path << "\n";
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
  if (c.exerciseAction == "start") return startExercise(e, c.exerciseFolder, out, c.language);
  if (c.exerciseAction == "show" || c.exerciseAction == "hint") {
    const ExerciseText text = exerciseText(e, c.language);
    if (text.language != c.language)  // every exercise has every language (a test checks)
      err << "rlab: "
          << render(Message("view.exercise-in-english",
                            {{"exercise", e.id}, {"language", nativeName(c.language)}}),
                    c.language)
          << "\n";
    if (c.exerciseAction == "show")
      printExerciseStatement(e, text, out, c.language);
    else
      out << render(Message("view.exercise-hint",
                            {{"hint", c.hint}, {"hints", text.hints.size()}, {"exercise", e.id}}),
                    c.language)
          << "\n\n"
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
    if (!gpu.usable)
      err << "rlab: "
          << render(Message("view.exercise-on-simulator", {{"why", gpu.why}}), c.language) << "\n";
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
  if (report.verdict == ExerciseVerdict::NotRun) throw MessageError(report.problem);
  if (c.format == Format::Json) {
    nlohmann::json j = exerciseReportJson(e, report);
    if (report.trace) j["run"] = traceJson(*report.trace);
    out << j.dump() << "\n";
  } else {
    if (report.trace) printTraceText(*report.trace, out, colour, c.language, c.terminal.width);
    printExerciseReport(e, report, out, colour, c.language);
  }
  return report.passed() ? 0 : 1;
}

}  // namespace rlab::cli
