// rlab: the lessons in a terminal and for scripts. parse.cpp reads the command line into a
// Command; one file per subcommand runs it through the core and prints a view of the result.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/params.hpp"
#include "lessons/engine/sanitizer.hpp"
#include "lessons/engine/texts.hpp"

namespace rlab::cli {

enum class Format { Text, Json, Csv };

struct Command {
  std::string name;  // list, run, race, bench, check, tour, lesson, exercise
  Params params;     // run, race, check; bench: its type and backend
  Format format = Format::Text;
  int runs = 100;                                 // race
  bool scheduleGiven = false;                     // race: repeat --schedule instead of varying
  bool witness = false;                           // race: find the smallest failing schedule
  bool timeline = false;                          // run: the per-thread timeline too
  bool launches = false;                          // run: the table of the run's launches too
  std::vector<std::string> benchLessons;          // bench: empty: every lesson that scales
  std::vector<long long> benchSizes;              // bench: empty: the default sweep
  std::vector<int> benchPerThread;                // bench: shared coarsened's K; empty: its own
  bool benchLoadAdd = true;                       // bench: shared coarsened adds while loading
  int reps = 20;                                  // bench
  SanitizerTool tool = SanitizerTool::Racecheck;  // check
  int delayMs = 700;                              // tour: pause between steps
  Language language = Language::En;  // the language of the texts and of every sentence said
  std::string chapter;               // lesson: which chapter to print
  // exercise: the action (list, show, start, check, hint, solution, run) and what it names; run
  // takes its n, block, data or values and schedule from params
  std::string exerciseAction;
  std::string exerciseId, exerciseFile, exerciseFolder;
  int hint = 0;
  double caseSeconds = 5;
  bool helpShown = false;  // --help printed: nothing else to do
  std::string helpText;
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

// Runs a parsed command; returns the exit code: 0 done (a race with wrong runs and a check that
// found hazards are done too), 1 a check whose run failed under the sanitizer.
int execute(const Command& command, std::ostream& out, std::ostream& err, bool colour);

// Whole program: parse, execute, map errors to one stderr line and exit code 2 (bad input, no
// GPU) or 1 (a kernel that could not finish, anything else).
int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool colour);

}  // namespace rlab::cli
