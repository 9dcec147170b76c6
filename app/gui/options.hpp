// reduction-lab's command line: every option, in one place that the program parses with and
// the manual page and its tests are generated from (app/docs). No ImGui, no window.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace rlab::gui {

struct CommandLine {
  std::string screenshot, lesson, variant, size = "1280x800", schedule, view = "lesson", type;
  int step = -1;
  long long n = 0;
  bool presenter = false, noBarrier = false;
  bool drawer = false;  // screenshots: the stage's drawer open
  bool noSyncwarp = false;
  int block = 0, gpus = 0, perThread = 0;
  bool noLoadAdd = false;
  std::string op, values;
  std::string code = "kernel";
  std::string language;
  bool resetSettings = false, glInfo = false;
  float textScale = 1;
  int runs = 0;
  bool perturb = false, printing = false;
  std::string exercise, exerciseFile, exerciseAction, exerciseDir;
  int hints = 0;
  std::string chapter;  // a teacher's chapter (Markdown in the lesson format) to open
  // --export: every step into an animation or a folder of PNGs; --film: a screenshot of one of
  // its frames; --run: the run as a try link's keys (lesson=barrier&n=8&barrier=off).
  std::string exportTo, run;
  bool film = false;
  double secondsPerStep = 1.2;
  // --quiz: the Quiz view on the quiz this seed draws, at this question (from 1), answered or not.
  unsigned long long quizSeed = 0;
  int quizQuestion = 1;
  bool quizAnswer = false;
};

// The program's name and one-line description, and its options bound to `into`.
void addCommandLineOptions(CLI::App& cli, CommandLine& into);
inline constexpr const char* kProgramDescription =
    "Reduction Lab: watch real GPU reduction kernels work, step by step.";

}  // namespace rlab::gui
