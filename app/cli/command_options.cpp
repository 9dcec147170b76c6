// Every rlab subcommand's options as --help lists them: their names, what they hold and their
// help texts. The order of the add calls is the order of --help and of the manual page.
#include "app/cli/command_options.hpp"

#include <CLI/CLI.hpp>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {

void addLanguageOption(CLI::App* app, std::string& language) {
  app->add_option("--lang", language,
                  "language of the texts and of what rlab says: en, ja or zh (default: locale)");
}

}  // namespace

std::string chapterList() {
  std::string list;
  for (const auto& id : chapterIds()) list += (list.empty() ? "" : ", ") + id;
  return list;
}

void LessonOptions::addTo(CLI::App* app) {
  app->add_option("lesson", lesson, "lesson id: " + lessonIds())->required();
  variantGiven =
      app->add_option("--variant", variant, "variant of the lesson (rlab list shows them)");
  nGiven = app->add_option("--n", n, "number of elements, 1 to 268435456 (or the lesson's limit)");
  blockGiven = app->add_option("--block", block, "threads per block: a power of two up to 1024");
  app->add_option("--op", op, "sum, max, min or product; subtract: a demonstration");
  app->add_option("--type", type, "int or float");
  dataGiven = app->add_option("--data", data,
                              "iota (1..n), ones, random:SEED, or mixed:SEED (mixed magnitudes)");
  valuesGiven = app->add_option("--values", values, "the input itself, e.g. 3,1,4,1,5");
  app->add_flag("--no-barrier", noBarrier, "barrier lesson: switch the barrier off");
  app->add_flag("--no-syncwarp", noSyncwarp,
                "lastwarp syncwarp: take the __syncwarp() calls out of the last warp");
  app->add_flag("--perturb", perturb,
                "barrier, lastwarp, butterfly shared: every third thread pauses each level");
  app->add_flag("--printf", printing,
                "barrier lesson: every third thread calls printf each level; the run shows "
                "the lines");
  delayGiven = app->add_option(
      "--delay", delay,
      "barrier and lastwarp lessons: THREAD:LEVEL, that thread pauses before that level");
  scheduleGiven = app->add_option("--schedule", schedule,
                                  std::string("simulator schedule: ") + sim::kScheduleHelp);
  gpusGiven = app->add_option("--gpus", gpus, "allreduce: how many GPUs, 1, 2, 4 or 8");
  perThreadGiven = app->add_option("--per-thread", perThread,
                                   "shared coarsened: elements each thread combines, 1 to 32 (8)");
  app->add_flag("--no-load-add", noLoadAdd,
                "shared coarsened: no add during the load; the tree's first levels add");
  backendGiven = app->add_option(
      "--backend", backend,
      "sim, gpu or auto (the default: the GPU where one works, else the simulator; with "
      "--schedule, the simulator)");
  app->add_option("--format", format, "text or json");
  app->add_flag("--no-timings", noTimings, "GPU: run once, skip the timing repetitions");
  addLanguageOption(app, language);
}

void ListCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("list", "lessons, variants and parameters");
  command->add_option("--format", format, "text or json");
}

void RunCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("run", "run one lesson and show every step");
  common.addTo(command);
  command->add_flag("--timeline", timeline,
                    "barrier and lastwarp lessons: one row per thread, when each read and wrote, "
                    "reads that came before the write they needed");
  command->add_flag("--launches", launches,
                    "the launches the host code made: grid x block, and the values the lesson's "
                    "driver names (folding: len, reduce, remain)");
  command->add_flag("--memory", memory,
                    "global-memory variants, simulator: per step, the 32-byte sectors each warp's "
                    "load or store touched and the share of them it used");
  command->add_flag("--no-steps", noSteps,
                    "record no steps: the kernels run as they are timed, without the trace buffer "
                    "(rlab profile runs them so)");
}

void RaceCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("race", "run a lesson many times; count wrong results");
  common.addTo(command);
  command->add_option("--runs", runs, "how many runs (schedules on the simulator), 1 to 100000");
  command->add_flag("--witness", witness,
                    "find the smallest stall schedule that makes the run wrong, on the simulator "
                    "(--runs random schedules searched; on a GPU, then forced there --runs times)");
}

void BenchCommandOptions::addTo(CLI::App& app) {
  command =
      app.add_subcommand("bench", "time every lesson kernel against CUB and the copy roofline");
  command->add_option("--lessons", lessons,
                      "lessons to time, e.g. shared,fastest (default: all that scale)");
  command->add_option("--sizes", sizes, "sizes, e.g. 1024,1048576 (default 2^10 to 2^28, x4)");
  command->add_option("--reps", reps, "repetitions per measurement, 1 to 1000");
  command->add_option("--type", type, "int or float");
  command->add_option("--format", format, "text, csv or json");
  command->add_option("--backend", backend, "gpu, sim or auto");
  command->add_option("--per-thread", perThread,
                      "shared coarsened: elements per thread, 1 to 32, a row each, e.g. 1,2,4,8");
  command->add_flag("--no-load-add", noLoadAdd,
                    "shared coarsened: no add during the load; the tree's first levels add");
}

void CheckCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("check", "run a lesson once on the GPU under compute-sanitizer");
  common.addTo(command);
  command->add_option("--tool", tool, "racecheck, memcheck, synccheck or initcheck")->required();
}

void ProfileCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "profile", "run a lesson once on the GPU under Nsight Compute: its counters per kernel");
  common.addTo(command);
  command->add_option("--clock-control", clockControl,
                      "none (default: the clocks as they are) or base (ncu locks them to base)");
}

void RecordCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "record", "measure this GPU once (bench, profiles, race rates) into a recording");
  command->add_option("--only", only, "parts to measure: bench, profile, race (default: all)");
  command->add_option("--sizes", sizes, "bench sizes (default 2^10 to 2^28, x4)");
  command->add_option("--reps", reps, "bench repetitions per measurement, 1 to 1000");
  command->add_option("--runs", runs, "runs of each race setting, 1 to 100000");
  command->add_option("--out", folder, "folder of the card's file (default assets/recordings)");
}

void TourCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "tour",
      "every lesson once, small n, narrated; at a terminal Enter goes on (b: back, q: quit)");
  autoGiven = command->add_option(
      "--auto", autoSeconds,
      "go on by itself after SECONDS at each stop, 0 to 600 (e.g. 2.5; 0: no pause); without a "
      "terminal the tour never pauses");
  addLanguageOption(command, language);
}

void ExportCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "export",
      "a run's steps as the app's stage draws them in presenter mode, for slides and course "
      "pages: an animated GIF, an animated WebP or a PNG a step");
  common.addTo(command);
  command->get_option("lesson")->description(
      "lesson id (" + lessonIds() + "), or a chapter's try link, e.g. try:lesson=barrier&n=8");
  command->add_option("--to", to, "FILE.gif, FILE.webp, or a folder (no extension) for PNGs")
      ->required();
  command->add_option("--size", size, "WIDTHxHEIGHT of each frame (default 1280x800)");
  kernelGiven = command->add_option(
      "--kernel", kernel,
      "FILE.cu, a learner's kernel: the film of its run on the simulator (--n, --block and "
      "--schedule as rlab exercise run takes them); the lesson's place then names the exercise");
  command->add_option("--seconds-per-step", secondsPerStep,
                      "how long a step without a sentence stays, 0.2 to 10 (default 1.2); a "
                      "step with one stays long enough to read it, the last three seconds more");
}

void ModelCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "model", "what a collective costs at a scale no picture shows: the alpha-beta-gamma model");
  command->require_subcommand(1);
  allreduce = command->add_subcommand(
      "allreduce",
      "the all-reduce's time and bus bandwidth by algorithm (recursive doubling, ring, "
      "Rabenseifner, double binary tree), 8 B to 4 GiB per GPU, and which wins");
  allreduce->add_option("--gpus", gpus, "GPUs, 2 to 4096 (default 1024)");
  allreduce->add_option("--per-node", perNode,
                        "GPUs in a node, dividing --gpus (the preset's 8; --gpus: one node)");
  allreduce->add_option("--preset", preset, "the machine's figures: hgx-h100 (the default)");
  allreduce->add_option("--alpha-inside", alphaInside,
                        "microseconds a message takes inside a node (the preset's otherwise)");
  allreduce->add_option("--bandwidth-inside", bandwidthInside,
                        "GB/s one way between two GPUs of a node");
  allreduce->add_option("--alpha-between", alphaBetween,
                        "microseconds a message takes between nodes");
  allreduce->add_option("--bandwidth-between", bandwidthBetween,
                        "GB/s one way between a GPU and another node");
  allreduce->add_option("--combine", combine, "GB/s at which a GPU combines two buffers");
  allreduce->add_option("--format", format, "text or json");
  addLanguageOption(allreduce, language);
}

void QuizCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand(
      "quiz", "questions drawn from real runs: answer them one at a time, or export the bank");
  command->add_option("lesson", lesson, "lesson id (default: every lesson): " + lessonIds());
  seedGiven = command->add_option(
      "--seed", seed, "the quiz's number: the same seed gives the same questions (default: drawn)");
  command->add_option("--count", count, "how many questions, 1 to 200 (default 10)");
  command->add_option("--format", format,
                      "text (asked one at a time), json, moodle (Moodle XML) or gift");
  addLanguageOption(command, language);
}

void LessonCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("lesson", "print a chapter of the course: its text and runs");
  command->add_option("chapter", chapter,
                      "chapter id (" + chapterList() +
                          "), or a teacher's own chapter: a Markdown file (FILE.md); without one, "
                          "the chapters are listed (with --check, every chapter is checked)");
  addLanguageOption(command, language);
  command->add_flag("--no-pager", noPager,
                    "print the chapter whole; at a terminal it is otherwise shown through $PAGER "
                    "(less -FRX where PAGER is not set)");
  command->add_flag("--answers", answers,
                    "the answers to the predictions, each under its question (folded otherwise, "
                    "so that you predict first)");
  command->add_flag("--check", checkChapter,
                    "check the chapter instead of printing it: its format, every try link and "
                    "prediction, and each narration against its run; a problem is FILE:LINE: "
                    "and the reason (exit status 1)");
}

// exercise list | progress | show ID | start ID [DIR] | check ID [FILE] | hint ID K |
// solution ID | run ID FILE | grade ID FILE
void ExerciseCommandOptions::addTo(CLI::App& app) {
  command = app.add_subcommand("exercise", "write the kernel yourself: exercises and checks");
  CLI::App* exercise = command;
  exercise->require_subcommand(1);
  const std::string idHelp = "exercise id (rlab exercise list shows them)";
  list = exercise->add_subcommand("list", "the exercises, lesson by lesson");
  list->add_option("--format", format, "text or json");
  addLanguageOption(list, language);
  progress = exercise->add_subcommand(
      "progress",
      "your path through the course: each lesson's exercises, done or not, and the next");
  progress->add_option("--format", format, "text or json");
  addLanguageOption(progress, language);
  show = exercise->add_subcommand("show", "print the exercise's statement");
  show->add_option("id", id, idHelp)->required();
  addLanguageOption(show, language);
  start = exercise->add_subcommand("start", "write the starting file, ID.cu, into DIR");
  start->add_option("id", id, idHelp)->required();
  start->add_option("dir", folder,
                    "folder to write it into (default: your exercise folder, "
                    "~/.local/share/reduction-lab/exercises/ID, shared with the app)");
  addLanguageOption(start, language);
  check = exercise->add_subcommand("check", "compile FILE and run it through every check");
  check->add_option("id", id, idHelp)->required();
  check->add_option("file", file,
                    "your kernel file (default: the one rlab exercise start ID and the app "
                    "keep in your exercise folder)");
  check->add_option("--format", format, "text or json");
  check->add_option("--case-seconds", caseSeconds,
                    "a case running longer is stopped as a hang, 1 to 600 (default 5)");
  check->add_option("--backend", backend, "sim (default), gpu (NVRTC and the device) or auto");
  addLanguageOption(check, language);
  grade = exercise->add_subcommand(
      "grade", "grade FILE for a course: every case, tests by kind, points, a platform's file");
  grade->add_option("id", id, idHelp)->required();
  grade->add_option("file", file, "the kernel file to grade")->required();
  grade->add_option("--format", format,
                    "text, json, gradescope (results.json) or prairielearn (results.json)");
  grade->add_option("--case-seconds", caseSeconds,
                    "a case running longer is stopped as a hang, 1 to 600 (default 5)");
  grade->add_option("--backend", backend,
                    "sim (default), gpu (the GPU's check is one test more) or auto");
  grade->add_option("--test", gradeTest,
                    "one test only: exit status 0 where it passed (sizes, ends, orders, "
                    "late-threads, races-and-rules, gpu, leaderboard), for graders that score by "
                    "exit status");
  grade->add_flag("--leaderboard", leaderboard,
                  "on a GPU, once every test passed: the whole reduction at 2^24 timed on fresh "
                  "inputs against fastest and CUB (Gradescope's leaderboard)");
  addLanguageOption(grade, language);
  hint = exercise->add_subcommand("hint", "show hint K of the exercise");
  hint->add_option("id", id, idHelp)->required();
  hint->add_option("k", hint_, "which hint, from 1")->required();
  addLanguageOption(hint, language);
  solution = exercise->add_subcommand("solution", "show our solution");
  solution->add_option("id", id, idHelp)->required();
  addLanguageOption(solution, language);
  run = exercise->add_subcommand("run",
                                 "compile FILE and run it once, as a failed check's "
                                 "replay line does");
  run->add_option("id", id, idHelp)->required();
  run->add_option("file", file, "your kernel file")->required();
  nGiven = run->add_option("--n", n, "number of elements");
  blockGiven = run->add_option("--block", block, "threads per block: a power of two up to 1024");
  dataGiven = run->add_option("--data", data,
                              "iota (1..n), ones, random:SEED, or mixed:SEED (mixed magnitudes)");
  valuesGiven = run->add_option("--values", values, "the input itself, e.g. 3,1,4,1,5");
  scheduleGiven = run->add_option("--schedule", schedule,
                                  std::string("simulator schedule: ") + sim::kScheduleHelp);
  run->add_option("--format", format, "text or json");
  run->add_option("--backend", backend, "sim (default), gpu or auto");
  run->add_flag("--timeline", timeline,
                "every load and store of the arrays, thread by thread, in the order the "
                "simulator ran them (beside a GPU's run too)");
  addLanguageOption(run, language);
}

}  // namespace rlab::cli
