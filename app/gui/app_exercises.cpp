// The App's exercise work: the learner's file on disk, saved before every run and reloaded
// when it changes there, and the check or run in the background.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"

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
  if (const char* chosen = std::getenv("RLAB_EXERCISE_DIR"); chosen && *chosen) return chosen;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
    return std::string(data) + "/reduction-lab/exercises";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.local/share/reduction-lab/exercises";
  return "reduction-lab-exercises";
}

void App::openExercise(const std::string& id) {
  const Exercise* e = findExercise(id);
  if (!e) return;
  ExerciseState& ex = ui.exercise;
  if (ex.id == id) return;
  if (!ex.id.empty() && ex.dirty) saveExercise();
  ex = ExerciseState{};
  ex.id = id;
  ex.file = (fs::path(ui.exerciseFolder) / (id + ".cu")).string();
  std::error_code error;
  if (!fs::exists(ex.file, error)) {
    fs::create_directories(ui.exerciseFolder, error);
    std::ofstream(ex.file, std::ios::binary) << startFile(*e);
  }
  reloadExercise();
  ui.params.lesson = e->lesson;
  ui.params.variant = e->variant;
  ui.params.gpus = 0;       // exercises run on one GPU
  ui.params.perThread = 0;  // the lesson kernel's own elements per thread
  ui.params.loadAdd = true;
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
  exerciseWork_.start(oneRun ? "run" : "check",
                      [e, request, oneRun, onGpu](JobThread::Job& job) mutable -> JobThread::Apply {
                        request.progress = [&job](const std::string& stage, int done, int total) {
                          job.stage = stage == "compiling" ? "compiling" : "checking";
                          job.progress = total > 0 ? float(done) / float(total) : 0.f;
                          return !job.cancel.load();
                        };
                        ExerciseReport report = checkExercise(*e, request);
                        return
                            [report = std::move(report), oneRun, onGpu, id = e->id](UiState& ui) {
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
