// The App's exercise work: the learner's file on disk, saved before every run and reloaded
// when it changes there, and the check or run in the background.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/progress.hpp"

namespace rlab::gui {

namespace fs = std::filesystem;

namespace {

long long stampOf(const std::string& path) {
  std::error_code error;
  const auto time = fs::last_write_time(path, error);
  return error ? 0 : (long long)time.time_since_epoch().count();
}

bool readText(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream all;
  all << in.rdbuf();
  text = all.str();
  return true;
}

}  // namespace

std::string defaultExerciseFolder() {
  return learnerExerciseFolder();
}

void App::openExercise(const std::string& id) {
  const Exercise* e = findExercise(id);
  if (!e) return;
  ExerciseState& ex = ui.exercise;
  if (ex.id == id) return;
  if (!ex.id.empty() && ex.dirty) saveExercise();
  ex = ExerciseState{};
  ex.id = id;
  // The file rlab exercise start writes and rlab exercise check finds too; one at the app's old
  // place is moved here (findLearnerFile).
  const LearnerFile found = findLearnerFile(*e, ui.exerciseFolder);
  ex.file = found.path;
  if (!found.movedFrom.empty()) {
    ui.status = say(Message("view.exercise-moved", {{"from", found.movedFrom}, {"path", ex.file}}));
    ui.statusIsError = false;
  }
  if (!found.found) {
    std::error_code error;
    fs::create_directories(fs::path(ex.file).parent_path(), error);
    std::ofstream(ex.file, std::ios::binary) << startFile(*e);
    if (!ui.progressFile.empty()) {
      ui.progress = recordStartInFile(ui.progressFile, id);
      sayProgressProblem();
    }
  }
  reloadExercise();
  ui.params.lesson = e->lesson;
  ui.params.variant = e->variant;
  ui.params.gpus = 0;       // exercises run on one GPU
  ui.params.perThread = 0;  // the lesson kernel's own elements per thread
  ui.params.loadAdd = true;
}

void App::sayProgressProblem() {
  if (ui.progress.problem.empty()) return;
  ui.status = say(ui.progress.problem);
  ui.statusIsError = true;
}

// Once a second, as the learner's own editor is watched: rlab may have checked an exercise.
void App::watchProgressFile(float seconds) {
  ui.progressClock += seconds;
  if (ui.progressFile.empty() || (ui.progressStamp >= 0 && ui.progressClock < 1.0)) return;
  ui.progressClock = 0;
  const long long stamp = stampOf(ui.progressFile);
  if (stamp == ui.progressStamp) return;
  ui.progressStamp = stamp;
  ui.progress = loadProgress(ui.progressFile);
  sayProgressProblem();
}

void App::putLearnerRunOnStage() {
  std::shared_ptr<const Trace> run = ui.exercise.trace;
  if (!run) return;
  closeExercise();
  adoptRun(std::move(run), 0);
}

void App::closeExercise() {
  if (ui.exercise.dirty) saveExercise();
  ui.exercise = ExerciseState{};
}

void App::reloadExercise() {
  ExerciseState& ex = ui.exercise;
  if (!readText(ex.file, ex.text)) {
    ui.status = printed(tr("Could not read %s."), ex.file.c_str());
    ui.statusIsError = true;
    return;
  }
  ex.fileStamp = stampOf(ex.file);
  ex.dirty = false;
  ex.changedOnDisk = false;
  ++ex.textGeneration;
}

void App::setExerciseText(const std::string& text) {
  ui.exercise.text = text;
  ui.exercise.dirty = true;
  ++ui.exercise.textGeneration;
}

bool App::saveExercise() {
  ExerciseState& ex = ui.exercise;
  std::ofstream out(ex.file, std::ios::binary | std::ios::trunc);
  out << ex.text;
  out.close();
  if (!out) {
    ui.status = printed(tr("Could not write %s."), ex.file.c_str());
    ui.statusIsError = true;
    return false;
  }
  ex.fileStamp = stampOf(ex.file);
  ex.dirty = false;
  ex.changedOnDisk = false;
  return true;
}

// Twice a second: a file the learner changed in their own editor is loaded, unless the text
// here was edited too; then they choose (the editor panel asks).
void App::watchExerciseFile(float seconds) {
  ExerciseState& ex = ui.exercise;
  if (ex.id.empty()) return;
  ex.diskClock += seconds;
  if (ex.diskClock < 0.5) return;
  ex.diskClock = 0;
  const long long stamp = stampOf(ex.file);
  if (stamp == 0 || stamp == ex.fileStamp) return;
  if (ex.dirty) {
    ex.changedOnDisk = true;
    return;
  }
  reloadExercise();
  ui.status = printed(tr("Reloaded %s: it changed on disk."), ex.file.c_str());
  ui.statusIsError = false;
}

void App::startExerciseWork(bool oneRun) {
  ExerciseState& ex = ui.exercise;
  const Exercise* e = findExercise(ex.id);
  if (!e || exerciseWork_.busy() || !saveExercise()) return;
  ExerciseRequest request;
  request.file = ex.file;
  request.oneRun = oneRun;
  request.options = ex.runOptions;
  request.caseSeconds = ex.caseSeconds;
  const bool onGpu = ex.onGpu && ui.gpuUsable;
  request.backend = onGpu ? BackendChoice::Gpu : BackendChoice::Sim;
  if (oneRun) {
    try {
      exerciseRunParams(*e, request.options);
      ex.runOptionsError.clear();
    } catch (const ParamError& error) {
      ex.runOptionsError = error.what();
      return;
    }
  }
  const std::string progressFile = ui.progressFile;
  exerciseWork_.start(
      oneRun ? "run" : "check",
      [e, request, oneRun, onGpu, progressFile](JobThread::Job& job) mutable -> JobThread::Apply {
        request.progress = [&job](const std::string& stage, int done, int total) {
          job.stage = stage == "compiling" ? "compiling" : "checking";
          job.progress = total > 0 ? float(done) / float(total) : 0.f;
          return !job.cancel.load();
        };
        ExerciseReport report = checkExercise(*e, request);
        // A full check is the learner's progress (done, or tried), written here on the worker;
        // the app takes the marks when the check is applied.
        std::optional<Progress> progress;
        if (!oneRun && !progressFile.empty())
          progress = recordCheckInFile(progressFile, *e, report, request.backend);
        return [report = std::move(report), progress = std::move(progress), oneRun, onGpu,
                id = e->id](UiState& ui) {
          if (progress) {
            ui.progress = *progress;
            if (!progress->problem.empty()) {
              ui.status = say(progress->problem);
              ui.statusIsError = true;
            }
          }
          ExerciseState& ex = ui.exercise;
          if (ex.id != id) return;  // another exercise was opened meanwhile
          if (report.verdict == ExerciseVerdict::NotRun) {
            ui.status = say(report.problem);
            ui.statusIsError = true;
          }
          ex.passed = ex.passed || (report.passed() && !oneRun);
          ex.report = report;
          ex.reportIsRun = oneRun;
          ex.reportOnGpu = onGpu;
          if (oneRun) {  // the new run's steps, from the start
            ex.trace = report.trace;
            ex.step = 0;
            ex.playing = false;
          }
        };
      });
}

void App::startExerciseCheck() {
  startExerciseWork(false);
}

void App::startExerciseRun() {
  startExerciseWork(true);
}

}  // namespace rlab::gui
