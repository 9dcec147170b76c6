// rlab: the lessons in a terminal and for scripts. parse.cpp reads the command line into a
// Command; one file per subcommand runs it through the core and prints a view of the result.
#pragma once

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/terminal.hpp"
#include "lessons/engine/run/allreduce_model.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace CLI {
class App;
}

namespace rlab::cli {

enum class Format { Text, Json, Csv };

// What rlab writes to and reads from, as the program finds them (main.cpp): tests give their
// own.
struct Terminal {
  bool colour = false;        // ANSI colours: stdout is a terminal and NO_COLOR is not set
  int width = kDefaultWidth;  // terminalWidth(): COLUMNS, the terminal's, or 80
  // stdin and stdout are both terminals: a person is there, and the tour waits for their keys
  // between stops. nullptr: nobody to wait for.
  std::istream* keys = nullptr;
  // Standard input, a terminal or a pipe: where rlab quiz reads its answers, a line each.
  // nullptr: no answers to read (the quiz ends at once with its score).
  std::istream* answers = nullptr;
  // How the tour pauses between stops under --auto: empty, the clock (sleeps that long).
  std::function<void(double seconds)> wait;
  // Shows a long text a screen at a time (stdout is a terminal: showInPager); false where it
  // could not, and the text is printed as it is. Empty: no pager.
  std::function<bool(const std::string& text)> pager;
};

struct Command {
  std::string name;  // list, run, race, bench, check, profile, record, tour, lesson, exercise
  Params params;     // run, race, check, profile; bench: its type and backend
  Resolved run;      // run: params resolved, with the lesson's descriptors
  Format format = Format::Text;
  int runs = 100;                                 // race; record: runs of each race setting
  bool scheduleGiven = false;                     // race: repeat --schedule instead of varying
  bool witness = false;                           // race: find the smallest failing schedule
  bool timeline = false;                          // run: the per-thread timeline too
  bool launches = false;                          // run: the table of the run's launches too
  std::vector<std::string> benchLessons;          // bench: empty: every lesson that scales
  std::vector<long long> benchSizes;              // bench: empty: the default sweep
  std::vector<int> benchPerThread;                // bench: shared coarsened's K; empty: its own
  bool benchLoadAdd = true;                       // bench: shared coarsened adds while loading
  int reps = 20;                                  // bench, record
  SanitizerTool tool = SanitizerTool::Racecheck;  // check
  // tour: seconds between stops without waiting for a key (--auto); negative: wait for a key
  // where there is a person at a terminal, else do not pause at all
  double autoSeconds = -1;
  std::string clockControl = "none";               // profile: ncu's --clock-control
  std::vector<RecordPart> recordParts;             // record: what to measure (its --only)
  std::string recordFolder = "assets/recordings";  // record: where the card's file goes
  Language language = Language::En;  // the language of the texts and of every sentence said
  std::string chapter;               // lesson: which chapter to print (an id or a file)
  bool chapterIsFile = false;        // lesson: a teacher's own chapter, a Markdown file
  bool pager = true;                 // lesson: through the terminal's pager (--no-pager: not)
  bool answers = false;              // lesson: the folded answers unfolded, under their questions
  bool checkChapter = false;         // lesson: check it instead of printing it
  // exercise: the action (list, progress, show, start, check, hint, solution, run) and what it
  // names; run takes its n, block, data or values and schedule from params. exerciseFolder
  // (start) and exerciseFile (check) empty: the learner's own, in the folder rlab and the app
  // share (lessons/engine/exercise/progress.hpp)
  std::string exerciseAction;
  std::string exerciseId, exerciseFile, exerciseFolder;
  int hint = 0;
  double caseSeconds = 5;
  std::string gradePlatform;  // exercise grade --format gradescope or prairielearn
  std::string gradeTest;      // exercise grade --test: that test's verdict is the exit status
  bool gradeLeaderboard = false;  // exercise grade --leaderboard
  AllReduceMachine model;     // model allreduce: the machine
  // quiz: its seed (given, or drawn and printed so that the quiz can be asked again), how many
  // questions, and what it writes: text asks them one at a time; json, moodle and gift write
  // the bank. Its lesson is params.lesson (empty: every lesson).
  uint64_t quizSeed = 0;
  int quizCount = 10;
  std::string quizFormat = "text";
  // export: the file (or folder) and each frame's size; a step with no sentence stays
  // secondsPerStep. The run is params.
  std::string exportTo;
  int exportWidth = 1280, exportHeight = 800;
  double secondsPerStep = 1.2;
  bool helpShown = false;  // --help printed: nothing else to do
  std::string helpText;
  Terminal terminal;  // not from the command line: main's
};

// Bad command lines: one line for stderr, in the command's language; the exit code is 2.
class UsageError : public std::runtime_error, public MessageCarrier {
 public:
  explicit UsageError(Message message)
      : std::runtime_error(english(message)), MessageCarrier(std::move(message)) {}
  explicit UsageError(const std::string& text) : UsageError(verbatim(text)) {}
};

// The language a command line asks for (--lang, else the locale): what its errors are said in,
// also when the command line itself is wrong.
Language languageOf(const std::vector<std::string>& args);

// Parses without running anything. Throws UsageError.
Command parseCommandLine(const std::vector<std::string>& args);
// Builds the command line's options and subcommands and hands them to `describe` instead of
// parsing: the manual page and the shell completion are generated from them (app/docs).
void describeCommandLine(const std::function<void(const CLI::App&)>& describe);

// Runs a parsed command; returns the exit code: 0 done (a race with wrong runs and a check that
// found hazards are done too), 1 a check whose run failed under the sanitizer.
int execute(const Command& command, std::ostream& out, std::ostream& err, bool colour);

// Whole program: parse, execute, map errors to one stderr line and exit code 2 (bad input, no
// GPU) or 1 (a kernel that could not finish, anything else).
int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
         const Terminal& terminal);
// The same with output that is no terminal, 80 columns wide (scripts and tests).
inline int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                bool colour) {
  return main(args, out, err, Terminal{colour, kDefaultWidth, nullptr, nullptr, {}, {}});
}

}  // namespace rlab::cli
