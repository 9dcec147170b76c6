// Every rlab subcommand's options, a struct each: addTo declares them (command_options.cpp: names
// and help texts, in the order --help lists them); fill reads what was given into a Command
// (parse.cpp, where every value is checked).
#pragma once

#include <string>

#include "app/cli/cli.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace rlab::cli {

// The chapter ids, as a list in a sentence: "basics, atomic, folding, ...".
std::string chapterList();

// Options every lesson command (run, race, check) takes, gathered as text. An option given
// with an empty value is refused like any other bad value, never taken as "not given".
struct LessonOptions {
  std::string lesson, variant, n, block, op = "sum", type = "int", data, values, schedule,
                                         backend = "auto", format = "text", language, delay, gpus,
                                         perThread;
  bool noBarrier = false, noSyncwarp = false, perturb = false, printing = false, noTimings = false,
       noLoadAdd = false;
  CLI::Option *variantGiven = nullptr, *nGiven = nullptr, *blockGiven = nullptr,
              *dataGiven = nullptr, *valuesGiven = nullptr, *scheduleGiven = nullptr,
              *delayGiven = nullptr, *backendGiven = nullptr, *gpusGiven = nullptr,
              *perThreadGiven = nullptr;

  void addTo(CLI::App* app);
  Params asked() const;   // what the options say, each checked on its own
  Params params() const;  // asked(), checked against the lesson too (resolve)
};

// In each subcommand's struct, `command` is the subcommand addTo added to rlab's app: its
// parsed() says which one the command line gave.

struct ListCommandOptions {
  CLI::App* command = nullptr;
  std::string format = "text";

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

struct RunCommandOptions {
  CLI::App* command = nullptr;
  LessonOptions common;
  bool timeline = false, launches = false, memory = false, noSteps = false;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

struct RaceCommandOptions {
  CLI::App* command = nullptr;
  LessonOptions common;
  std::string runs = "100";
  bool witness = false;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

struct BenchCommandOptions {
  CLI::App* command = nullptr;
  std::string lessons, sizes, reps = "20", type = "int", format = "text", backend = "auto",
                              perThread;
  bool noLoadAdd = false;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// check and profile run on the GPU only: their fill sets the lesson options' backend to gpu.
struct CheckCommandOptions {
  CLI::App* command = nullptr;
  LessonOptions common;
  std::string tool;

  void addTo(CLI::App& app);
  void fill(Command& c);
};

struct ProfileCommandOptions {
  CLI::App* command = nullptr;
  LessonOptions common;
  std::string clockControl = "none";

  void addTo(CLI::App& app);
  void fill(Command& c);
};

struct RecordCommandOptions {
  CLI::App* command = nullptr;
  std::string only, sizes, reps = "20", runs = "200", folder = "assets/recordings";

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

struct TourCommandOptions {
  CLI::App* command = nullptr;
  std::string autoSeconds, language;
  CLI::Option* autoGiven = nullptr;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// rlab export: a run's steps as the app's stage draws them, into a GIF, a WebP or PNGs. Its
// lesson may be a chapter's try link (try:lesson=barrier&n=8).
struct ExportCommandOptions {
  CLI::App* command = nullptr;
  LessonOptions common;
  std::string to, size = "1280x800", secondsPerStep = "1.2", kernel;
  CLI::Option* kernelGiven = nullptr;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// rlab model allreduce: the α-β-γ model's times at a scale this machine is not.
struct ModelCommandOptions {
  CLI::App *command = nullptr, *allreduce = nullptr;
  std::string gpus = "1024", perNode, preset = "hgx-h100", alphaInside, bandwidthInside,
              alphaBetween, bandwidthBetween, combine, format = "text", language;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// rlab quiz: questions drawn from real runs, asked one at a time or written as a bank. Its
// fill is in app/cli/quiz.cpp, beside the command.
struct QuizCommandOptions {
  CLI::App* command = nullptr;
  std::string lesson, seed, count = "10", format = "text", language;
  CLI::Option* seedGiven = nullptr;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// rlab lesson: a chapter of the course, printed or checked.
struct LessonCommandOptions {
  CLI::App* command = nullptr;
  std::string chapter, language;
  bool checkChapter = false, noPager = false, answers = false;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

// rlab exercise and its actions. The exercise id is checked here; the file by the core.
struct ExerciseCommandOptions {
  CLI::App *command = nullptr, *list = nullptr, *progress = nullptr, *show = nullptr,
           *start = nullptr, *check = nullptr, *hint = nullptr, *solution = nullptr, *run = nullptr,
           *grade = nullptr;
  // folder and file empty: the learner's folder, shared with the app (exercise/progress.hpp)
  std::string id, file, folder, hint_ = "", format = "text", caseSeconds = "5", n, block, data,
                                values, schedule, backend = "sim", language;
  CLI::Option *nGiven = nullptr, *blockGiven = nullptr, *dataGiven = nullptr,
              *valuesGiven = nullptr, *scheduleGiven = nullptr;
  bool timeline = false;
  std::string gradeTest;  // grade --test
  bool leaderboard = false;

  void addTo(CLI::App& app);
  void fill(Command& c) const;
};

}  // namespace rlab::cli
