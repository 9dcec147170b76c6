// The learner's path through the exercises, shared by rlab and the app: one folder for their
// files and their progress, and what the progress file remembers. No UI.
//
// The folder is $XDG_DATA_HOME/reduction-lab/ (an absolute XDG_DATA_HOME; else
// ~/.local/share/reduction-lab/):
//   exercises/<id>/<id>.cu   the learner's kernel of exercise <id> (RLAB_EXERCISE_DIR, or the
//                            app's --exercise-dir, puts exercises/ elsewhere)
//   progress.json            each exercise's mark: not started, tried, done (with how it passed)
// The progress file is written whole to a temporary file beside it, then renamed over it, so
// a reader never sees half of one; a file that cannot be read is one sentence and a fresh start.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/texts/messages.hpp"

namespace rlab {

// $XDG_DATA_HOME/reduction-lab where XDG_DATA_HOME is an absolute path, else
// $HOME/.local/share/reduction-lab, else "reduction-lab" in the current folder.
std::string learnerDataFolder();
// Where the learner's exercise files live: $RLAB_EXERCISE_DIR, else learnerDataFolder() +
// "/exercises".
std::string learnerExerciseFolder();
// learnerDataFolder() + "/progress.json".
std::string progressFilePath();

// The learner's file of `e` under an exercises folder: FOLDER/<id>/<id>.cu.
std::string learnerFilePath(const Exercise& e, const std::string& folder);

// The learner's file of `e`, looked for where Reduction Lab kept it before this folder was
// shared (see progress.cpp for what is moved and what is read in place).
struct LearnerFile {
  std::string path;       // where it is (or where it goes, when `found` is false)
  bool found = false;     // there is a file at `path`
  std::string movedFrom;  // moved from the app's old place into `path` just now
  bool oldPlace = false;  // `path` is rlab's old place (./ID.cu), read where it is
};
// `folder`: the exercises folder (learnerExerciseFolder() unless told). `here`: the folder
// `rlab exercise start ID` wrote into before (the current folder), or "" to skip it.
LearnerFile findLearnerFile(const Exercise& e, const std::string& folder,
                            const std::string& here = "");

enum class ExerciseMark { NotStarted, Tried, Done };

// "not-started", "tried", "done": the file's words and JSON's.
const char* markKey(ExerciseMark mark);
// The mark in the learner's language: Message("progress.done") ...
Message markWord(ExerciseMark mark);

struct ExerciseProgress {
  ExerciseMark mark = ExerciseMark::NotStarted;
  std::string date;  // YYYY-MM-DD of the pass (done), else of the last try
  BackendChoice backend = BackendChoice::Sim;  // done: where the passing check ran
  int cases = 0;                               // done: the cases it passed (on the GPU: the GPU's)
  int simulatorCases = 0;  // done on the GPU: the simulator's cases of the same check
};

struct Progress {
  std::map<std::string, ExerciseProgress> exercises;  // by exercise id; absent: not started
  // The file could not be read (not JSON, not a progress file, unreadable): one sentence, and
  // this is a fresh start. saveProgress keeps that file aside as progress.json.bad first.
  Message problem;
  bool unreadable = false;

  ExerciseProgress of(const std::string& id) const;
  ExerciseMark markOf(const std::string& id) const { return of(id).mark; }
  int doneCount() const;  // of the course's exercises
};

// A missing file is a fresh start with no problem (nothing was passed yet).
Progress loadProgress(const std::string& path);
// Writes `progress` to `path` (temp file + rename, making the folder); false and `problem`'s
// sentence where it could not.
bool saveProgress(const Progress& progress, const std::string& path, Message& problem);
nlohmann::json progressJson(const Progress& progress);

// Today's date, YYYY-MM-DD, local time.
std::string todayDate();

// The learner started the exercise's file: not started becomes tried (tried and done stay).
void markStarted(Progress& progress, const std::string& id, const std::string& date);
// A full check finished (not a single run): passed is done, with the backend it ran on
// ("sim" or "gpu"), the date and its cases; failed or refused by the compiler is tried (a done
// exercise stays done). Cancelled and not-run checks change nothing.
void recordCheck(Progress& progress, const Exercise& e, const ExerciseReport& report,
                 BackendChoice backend, const std::string& date);

// Load, change, save in one go (what rlab and the app do after a check or a start): the
// progress as it now is; its `problem` holds the sentence of a file that could not be read
// or written.
Progress recordCheckInFile(const std::string& path, const Exercise& e, const ExerciseReport& report,
                           BackendChoice backend);
Progress recordStartInFile(const std::string& path, const std::string& id);

// Every exercise in the course's order: the lessons' order, each lesson's exercises in theirs
// (as `rlab exercise list` and the app's lesson list show them).
std::vector<const Exercise*> courseExercises();
// The first exercise after `after` in the course's order that is not done, going round to the
// start; with `after` empty, the first not done. nullptr: every exercise is done.
const Exercise* nextExercise(const Progress& progress, const std::string& after = "");

}  // namespace rlab
