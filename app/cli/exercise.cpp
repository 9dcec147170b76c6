// rlab exercise: list the exercises with the learner's marks, print one's statement, write a
// starting file, check a learner's file (or run it once, as a failed check's replay line does),
// show a hint or our solution. The statement and hints are in the chosen language (--lang, else
// the locale). A start and a full check are remembered in the learner's progress
// (lessons/engine/exercise/progress.hpp); after a pass the next exercise is offered.
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/progress.hpp"

namespace rlab::cli {

namespace fs = std::filesystem;

namespace {

// A progress file that could not be read or written: its sentence on stderr, and the command
// goes on (a fresh start).
void sayProgressProblem(const Progress& progress, std::ostream& err, Language language) {
  if (!progress.problem.empty()) err << "rlab: " << render(progress.problem, language) << "\n";
}

// `folder` empty: the learner's folder, FOLDER/ID/ID.cu, which the app opens too; a file there
// from before is the learner's work, so it is named rather than refused.
int startExercise(const Exercise& e, const std::string& given, std::ostream& out, std::ostream& err,
                  Language language) {
  std::error_code error;
  const bool own = given.empty();
  std::string path;
  if (own) {
    const std::string exercises = learnerExerciseFolder();
    const LearnerFile found = findLearnerFile(e, exercises);
    if (!found.movedFrom.empty())
      err << "rlab: "
          << render(
                 Message("view.exercise-moved", {{"from", found.movedFrom}, {"path", found.path}}),
                 language)
          << "\n";
    if (found.found) {
      sayProgressProblem(recordStartInFile(progressFilePath(), e.id), err, language);
      out << render(Message("view.exercise-already-started",
                            {{"path", found.path}, {"kernel", e.kernel}}),
                    language)
          << "\n  rlab exercise check " << e.id << "\n";
      return 0;
    }
    path = found.path;
  }
  const std::string folder = own ? fs::path(path).parent_path().string() : given;
  // A folder that does not exist yet is made, with any missing parents, as mkdir -p would.
  if (!fs::is_directory(folder, error)) {
    if (fs::exists(folder, error))
      throw UsageError(
          Message("usage.file-not-folder", {{"folder", folder}, {"file", e.id + ".cu"}}));
    fs::create_directories(folder, error);
    if (error)
      throw UsageError(
          Message("usage.cannot-create-folder", {{"folder", folder}, {"why", error.message()}}));
    if (!own) out << render(Message("view.folder-created", {{"folder", folder}}), language) << "\n";
  }
  if (!own) path = (fs::path(folder) / (e.id + ".cu")).string();
  if (fs::exists(path, error)) throw UsageError(Message("usage.file-exists", {{"path", path}}));
  std::ofstream file(path, std::ios::binary);
  file << startFile(e);
  if (!file) throw UsageError(Message("usage.cannot-write", {{"path", path}}));
  file.close();
  sayProgressProblem(recordStartInFile(progressFilePath(), e.id), err, language);
  // In the learner's folder, rlab exercise check finds the file by itself.
  out << render(Message("view.exercise-started", {{"path", path}, {"kernel", e.kernel}}), language)
      << "\n  rlab exercise check " << e.id << (own ? "" : " " + path) << "\n";
  return 0;
}

// The file `rlab exercise check ID` (no FILE) checks: the learner's, in the shared folder, or
// where rlab and the app kept it before (findLearnerFile says which it moves and which it reads
// in place); a UsageError where there is none.
std::string learnersOwnFile(const Exercise& e, std::ostream& err, Language language) {
  const std::string folder = learnerExerciseFolder();
  const LearnerFile found = findLearnerFile(e, folder, fs::current_path().string());
  if (!found.found)
    throw UsageError(Message("usage.no-learner-file", {{"exercise", e.id}, {"folder", folder}}));
  if (!found.movedFrom.empty())
    err << "rlab: "
        << render(Message("view.exercise-moved", {{"from", found.movedFrom}, {"path", found.path}}),
                  language)
        << "\n";
  if (found.oldPlace)
    err << "rlab: "
        << render(Message("view.exercise-old-place", {{"path", found.path}, {"folder", folder}}),
                  language)
        << "\n";
  return found.path;
}

// rlab exercise list: every exercise with the learner's mark.
int listExercises(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  const Progress progress = loadProgress(progressFilePath());
  sayProgressProblem(progress, err, c.language);
  if (c.format == Format::Json)
    out << exercisesJson(progress).dump(2) << "\n";
  else
    printExerciseList(out, c.language, progress, colour, c.terminal.width);
  return 0;
}

// rlab exercise show and hint: the statement, or one hint, in the command's language.
int showExercise(const Exercise& e, const Command& c, std::ostream& out, std::ostream& err) {
  const ExerciseText text = exerciseText(e, c.language);
  if (text.language != c.language)  // every exercise has every language (a test checks)
    err << "rlab: "
        << render(Message("view.exercise-in-english",
                          {{"exercise", e.id}, {"language", nativeName(c.language)}}),
                  c.language)
        << "\n";
  if (c.exerciseAction == "show") {
    printExerciseStatement(e, text, out, c.language, c.terminal.width);
    return 0;
  }
  // The hint as a chapter's text is printed: wrapped, its code as code, under its heading.
  const std::string heading =
      render(Message("view.exercise-hint",
                     {{"hint", c.hint}, {"hints", text.hints.size()}, {"exercise", e.id}}),
             c.language);
  printChapterText(text::parse("# " + heading + "\n\n" + text.hints[size_t(c.hint - 1)] + "\n"),
                   e.lesson, out, c.language, c.terminal.width);
  return 0;
}

// rlab exercise solution: our solution's file.
int printSolution(const Exercise& e, const Command& c, std::ostream& out) {
  // The code is the same in every language: a reader of another one is told its comments are
  // English, in a comment of its own, so the output still compiles.
  if (c.language != Language::En)
    out << "// "
        << render(Message("view.exercise-solution-comments", {{"exercise", e.id}}), c.language)
        << "\n";
  out << solutionFile(e);
  return 0;
}

// The backend a check runs on: --backend's, with auto made the GPU or the simulator.
BackendChoice checkBackend(const Command& c, std::ostream& err) {
  BackendChoice backend = c.params.backend;
  if (backend != BackendChoice::Sim) {  // auto: the GPU where one works, else say why
    const GpuProbe gpu = probeGpu();
    if (!gpu.usable && backend == BackendChoice::Gpu) throw GpuUnavailable(gpu.why);
    if (!gpu.usable)
      err << "rlab: "
          << render(Message("view.exercise-on-simulator", {{"why", gpu.why}}), c.language) << "\n";
    backend = gpu.usable ? BackendChoice::Gpu : BackendChoice::Sim;
  }
  return backend;
}

// A check's or run's report, as JSON or as text; after a passed full check, the next exercise.
void printCheckReport(const Exercise& e, const ExerciseReport& report,
                      const std::optional<Progress>& progress, const Command& c, std::ostream& out,
                      bool colour) {
  const bool offerNext = progress && report.passed();
  if (c.format == Format::Json) {
    nlohmann::json j = exerciseReportJson(e, report);
    if (report.trace) j["run"] = traceJson(*report.trace);
    if (report.trace && c.timeline) j["timeline"] = accessTimelineJson(*report.trace);
    if (offerNext) {
      const Exercise* next = nextExercise(*progress, e.id);
      j["next"] = next ? nlohmann::json(next->id) : nlohmann::json();
    }
    out << j.dump() << "\n";
  } else {
    if (report.trace) printTraceText(*report.trace, out, colour, c.language, c.terminal.width);
    if (report.trace && c.timeline)
      printAccessTimelineText(*report.trace, out, colour, c.language, c.terminal.width);
    printExerciseReport(e, report, out, colour, c.language, c.terminal.width);
    if (offerNext) {
      out << "\n";
      printNextExercise(out, *progress, e.id, c.language);
    }
  }
}

// rlab exercise check and run: the core compiles the file and runs it in a child process.
int checkExerciseFile(const Exercise& e, const Command& c, std::ostream& out, std::ostream& err,
                      bool colour) {
  ExerciseRequest request;
  request.file = c.exerciseFile.empty() ? learnersOwnFile(e, err, c.language) : c.exerciseFile;
  request.oneRun = c.exerciseAction == "run";
  request.options = c.params;
  request.caseSeconds = c.caseSeconds;
  request.backend = checkBackend(c, err);
  if (colour)  // a person at a terminal: say what is going on, on one line that updates
    request.progress = [&](const std::string& stage, int done, int total) {
      if (stage == "compiling")
        err << "\rcompiling " << request.file << " ..." << std::flush;
      else
        err << "\rchecking: " << done << " of " << total << " cases  " << std::flush;
      return true;
    };
  const ExerciseReport report = checkExercise(e, request);
  if (colour) err << "\r" << std::string(60, ' ') << "\r" << std::flush;
  if (report.verdict == ExerciseVerdict::NotRun) throw MessageError(report.problem);
  // A full check is the learner's progress: done where it passed, tried where it did not.
  std::optional<Progress> progress;
  if (!request.oneRun) {
    progress = recordCheckInFile(progressFilePath(), e, report, request.backend);
    sayProgressProblem(*progress, err, c.language);
  }
  printCheckReport(e, report, progress, c, out, colour);
  return report.passed() ? 0 : 1;
}

}  // namespace

int exerciseCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour) {
  if (c.exerciseAction == "progress") return exerciseProgressCommand(c, out, err, colour);
  if (c.exerciseAction == "list") return listExercises(c, out, err, colour);
  const Exercise& e = exerciseOrThrow(c.exerciseId);
  if (c.exerciseAction == "start") return startExercise(e, c.exerciseFolder, out, err, c.language);
  if (c.exerciseAction == "show" || c.exerciseAction == "hint") return showExercise(e, c, out, err);
  if (c.exerciseAction == "solution") return printSolution(e, c, out);
  if (c.exerciseAction == "grade") return gradeExerciseFile(e, c, out, err, checkBackend(c, err));
  return checkExerciseFile(e, c, out, err, colour);
}

}  // namespace rlab::cli
