// The desktop app without its window: state, workers, and the frame that draws every panel.
// platform.cpp gives it a GLFW window and OpenGL; the headless test gives it nothing.
#pragma once

#include "app/gui/ui_state.hpp"
#include "app/gui/job_thread.hpp"

namespace rlab::gui {

class App {
 public:
  App();
  // One frame: apply finished work, handle keys, advance the player, draw every panel.
  void frame(float seconds);

  // Runs the current params now (on the worker), unless they are refused.
  void requestRun();
  // Screenshots and tests: run synchronously, then show step `step` (-1: the middle one).
  void runNow(int step = -1);
  // Shows `trace` (a witness, a wrong run of the race explorer) and sets the controls to the run
  // it is, so that what the controls say is what ran and Run repeats it. step -1: the last.
  void adoptRun(std::shared_ptr<const Trace> trace, int step = -1);
  // The race explorer's work (app_races.cpp): the rate, the witness, the charts, racecheck.
  void startRace();
  // The smallest stall schedule that makes the run on screen wrong; then shown in the player.
  void startWitness();
  void showWitness();  // the witness run in the player, at its early read
  bool witnessOnScreen() const;
  void startRateByBlock();  // the share of wrong runs against block size, with and without perturb
  void startFloatSums();    // the run's float sums in ulps, beside fastest's
  void startBench();
  void startRacecheck();  // GPU only: one run under compute-sanitizer's racecheck
  // GPU only: the run on screen under Nsight Compute (app_profile.cpp), its counters into the
  // Profile tab; progress by launches counted, Cancel kills ncu and the run.
  void startProfile();
  // GPU only: times both runs of a "faster" prediction and answers it.
  void startFasterPrediction(const text::Block* prediction, const std::string& chapter);
  // The Quiz view: a quiz of ten questions on the lesson on screen drawn from `seed`, its first
  // question shown; then question `k` (from 0), answered or not. The question's run goes into
  // the player at the step it asks about once answered, at the one before until then.
  void startQuiz(uint64_t seed);
  void showQuizQuestion(int k, bool revealed);
  // Whether the run on screen is a quiz question's whose answer is not shown yet: the verdict
  // waits (it would give the answer away).
  bool quizAnswerHidden() const;
  // An exported film of a learner's run: the exercise's last run becomes the run on screen, on
  // the stage, and the exercise closes (its file saved).
  void putLearnerRunOnStage();
  // File > Export animation: the run on screen into ui.exportDialog's path, drawn by this
  // program again with --export (the stage in presenter mode, the chosen size, the language on
  // screen); progress by frames, Cancel stops it and leaves no file.
  void startExport();
  void cancelLongWork() { longWork_.cancel(); }
  bool longWorkBusy() const { return longWork_.busy(); }
  float longWorkProgress() const { return longWork_.progress(); }
  std::string longWorkLabel() const { return longWork_.label(); }
  bool runBusy() const { return runner_.busy(); }
  // The live race rate of the run on screen: being measured, and how far.
  bool liveRateBusy() const { return liveRate_.busy(); }
  float liveRateProgress() const { return liveRate_.progress(); }
  void waitForWork();

  // Every control, presenter mode, text size and language back to how the app starts.
  void resetToDefaults();
  // Exercises. Opening one loads its file, ui.exerciseFolder/ID/ID.cu (written from the starting
  // file the first time, which marks the exercise tried; a file at the app's old place,
  // ui.exerciseFolder/ID.cu, is moved there first); run and check save the editor's text there
  // first, then compile and
  // run it in the background (the runner is a process of its own: a crash or a hang in the
  // learner's kernel ends that process, not the app).
  void openExercise(const std::string& id);
  void closeExercise();
  bool saveExercise();  // false: it could not be written (ui.status says why)
  void reloadExercise();
  // Replaces the editor's text, as a paste would (tests, and loading a file).
  void setExerciseText(const std::string& text);
  void startExerciseCheck();
  void startExerciseRun();
  void cancelExerciseWork() { exerciseWork_.cancel(); }
  bool exerciseBusy() const { return exerciseWork_.busy(); }
  float exerciseProgress() const { return exerciseWork_.progress(); }
  std::string exerciseStage() const { return exerciseWork_.stage(); }

  // A teacher's chapter: read and checked in the background as `rlab lesson --check` checks it,
  // then listed beside the lessons and shown; refused with its problems (ui.chapterProblems).
  void startChapterCheck(const std::string& path);
  // A chapter already checked (--chapter at start): listed and shown.
  void showChapter(const std::string& path, text::Document doc);

  // The step player's moves.
  void stepTo(int step);
  int stepCount() const;
  // The stage: presenter mode, or a window too small for the desk's three columns.
  bool onStage() const;
  // The views the stage can show under the array for the lesson on screen, in the order V
  // steps through them.
  std::vector<ViewTab> stageViews() const;

  UiState ui;

 private:
  void validate();
  Params paramsToRun() const;
  void handleKeys();
  // The windows of this frame: the desk (three columns), an open exercise, or the stage
  // (layout.cpp), under the menu bar's `top` pixels. `learnerRunOnScreen`: an exercise's run
  // is in the player.
  void layoutDesk(bool learnerRunOnScreen, float top);
  void layoutStage(float top);
  template <class Result>
  void startChart(const char* label, RaceTab tab, std::optional<Result> RaceOutcome::*slot,
                  Result (*measure)(const Params&, int, const std::function<bool(float)>&));
  void watchExerciseFile(float seconds);
  // Once a second: the progress file changed (rlab checked an exercise, say): read it again.
  void watchProgressFile(float seconds);
  // The progress file could not be read or written: its sentence in the status line.
  void sayProgressProblem();
  void startExerciseWork(bool oneRun);
  void pollWork();  // what the background jobs finished, into the UI
  // After each GPU run with the barrier off, kLiveRaceRuns more runs of it in the background.
  void followLiveRaceRate();
  JobThread runner_, longWork_, exerciseWork_, liveRate_;
  std::shared_ptr<const Trace> liveRateFor_;  // the run the measurement under way is for
  bool drawerShown_ = false;                  // the stage's drawer was open last frame
};

// Where the learner's exercise files live unless told (--exercise-dir): the folder rlab uses
// too, learnerExerciseFolder(): $RLAB_EXERCISE_DIR, else $XDG_DATA_HOME/reduction-lab/exercises,
// else ~/.local/share/reduction-lab/exercises.
std::string defaultExerciseFolder();

// Runs of the live race rate beside a GPU run with the barrier off.
inline constexpr int kLiveRaceRuns = 100;

// Largest n that re-runs at once when a control changes.
inline constexpr int64_t kAutoRunLimit = 65536;

}  // namespace rlab::gui
