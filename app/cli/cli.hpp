// rlab: the lessons in a terminal and for scripts.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "lessons/params.hpp"
#include "lessons/trace.hpp"

namespace rlab::cli {

enum class Format { Text, Json, Csv };

struct Command {
  std::string name;  // list, run, tour, race
  Params params;
  Format format = Format::Text;
  int runs = 100;          // race
  int delayMs = 700;       // tour: pause between steps
  std::string lessonsList, sizesList, benchFormat = "text";  // bench
  int reps = 20;
  std::string tool;  // check: racecheck, memcheck, synccheck, initcheck
  std::vector<std::string> lessonArgs;  // check: the run options to pass on
  bool helpShown = false;  // --help printed: nothing else to do
  std::string helpText;
};

// Bad command lines: what() is one line for stderr; the exit code is 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses without running anything. Throws UsageError.
Command parseCommandLine(const std::vector<std::string>& args);

// Runs a parsed command; returns the exit code (0 done, 1 a run that came out wrong in
// `race`... never: race reports, it does not fail; 2 bad input found while running).
int execute(const Command& command, std::ostream& out, std::ostream& err, bool colour);

// Whole program: parse, execute, map errors to one stderr line and exit code 2.
int main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool colour);

// Views of a Trace.
void printTraceText(const Trace& t, std::ostream& out, bool colour);
std::string traceJson(const Trace& t);
std::string lessonsJson();

}  // namespace rlab::cli
