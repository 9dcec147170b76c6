#include "app/gui/options.hpp"

#include <CLI/CLI.hpp>

#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

void addExportOptions(CLI::App& cli, CommandLine& o) {
  cli.add_option("--export", o.exportTo,
                 "render every step of the run off-screen, as the stage in presenter mode draws "
                 "it, into an animated GIF (.gif), an animated WebP (.webp) or a folder of PNGs "
                 "(a path without an extension), then exit");
  cli.add_flag("--film", o.film,
               "screenshot: the frame --export draws for the step, the stage alone (no menu, "
               "no buttons; the verdict on the last step)");
  cli.add_option("--seconds-per-step", o.secondsPerStep,
                 "export: how long a step without a sentence stays, 0.2 to 10 (default 1.2); a "
                 "step with one stays as long as it takes to read, the last three seconds more")
      ->check(CLI::Range(0.2, 10.0));
  cli.add_option("--run", o.run,
                 "the run as a try link's keys, e.g. lesson=barrier&n=8&barrier=off (rlab "
                 "export passes this)");
}

void addQuizOptions(CLI::App& cli, CommandLine& o) {
  cli.add_option("--quiz", o.quizSeed,
                 "open the Quiz view on the quiz this number draws for the lesson (rlab quiz "
                 "LESSON --seed draws the same questions)")
      ->check(CLI::Range(1ULL, 1000000000000ULL));
  cli.add_option("--quiz-question", o.quizQuestion, "the quiz's question to show, from 1")
      ->check(CLI::Range(1, 10));
  cli.add_flag("--quiz-answer", o.quizAnswer, "the question's answer shown, and its step");
}

}  // namespace

void addCommandLineOptions(CLI::App& cli, CommandLine& o) {
  cli.add_option("--screenshot", o.screenshot, "render off-screen and write this PNG, then exit");
  addExportOptions(cli, o);
  cli.add_option("--lesson", o.lesson,
                 "lesson to show: basics (the opening chapter), " + lessonIds());
  cli.add_option("--variant", o.variant, "the lesson's variant");
  cli.add_option("--n", o.n, "number of elements");
  cli.add_option("--block", o.block, "threads per block (default: the lesson's)");
  cli.add_option("--gpus", o.gpus, "allreduce: the GPUs taking part, 1, 2, 4 or 8")
      ->check(CLI::IsMember({1, 2, 4, 8}));
  cli.add_option("--per-thread", o.perThread, "shared coarsened: elements per thread, 1 to 32")
      ->check(CLI::Range(1, 32));
  cli.add_flag("--no-load-add", o.noLoadAdd,
               "shared coarsened: no add during the load; the tree's first levels add");
  cli.add_option("--step", o.step, "step to show (default: the middle one)");
  cli.add_option("--type", o.type, "element type: int or float")
      ->check(CLI::IsMember({"int", "float"}));
  cli.add_option("--op", o.op, "operator: sum, max, min or product; subtract: a demonstration")
      ->check(CLI::IsMember({"sum", "max", "min", "product", "subtract"}));
  cli.add_option("--values", o.values, "the values to reduce, e.g. 3,1,4,1,5 (sets n)");
  cli.add_option("--size", o.size, "window size, WIDTHxHEIGHT (default 1280x800)");
  cli.add_flag("--presenter", o.presenter,
               "presenter mode: the stage layout, large type and high contrast for a projector");
  cli.add_flag("--drawer", o.drawer,
               "screenshot: the stage's drawer open (lessons, controls, code)");
  cli.add_flag("--no-barrier", o.noBarrier, "barrier lesson: switch the barrier off");
  cli.add_option("--schedule", o.schedule, "simulator schedule, e.g. stall:4:2:1");
  cli.add_option("--view", o.view,
                 "screenshot: the lesson's text or view, the per-thread timeline, or a finished "
                 "timing chart, race, race witness, wrong share by block size, float sums in "
                 "ulps, the kernel's printf output, the memory view (sectors per warp), or the "
                 "profile (the GPU's counters under Nsight Compute, or a GPU's recording), or the "
                 "all-reduce's model at scale, or the quiz")
      ->check(CLI::IsMember({"text", "lesson", "timing", "race", "witness", "by-block",
                             "float-sums", "timeline", "output", "memory", "profile", "scale",
                             "quiz"}));
  cli.add_option("--code", o.code,
                 "screenshot: the kernel source or the host code that launched it")
      ->check(CLI::IsMember({"kernel", "host"}));
  cli.add_option("--lang", o.language,
                 "language of the lesson texts: en, ja or zh (default: locale)")
      ->check(CLI::IsMember({"en", "ja", "zh"}));
  cli.add_flag("--gl-info", o.glInfo,
               "print who draws the window (OpenGL vendor, renderer, version), then exit");
  cli.add_flag("--reset-settings", o.resetSettings,
               "forget the remembered settings and start afresh");
  cli.add_option("--text-scale", o.textScale, "text size, 0.6 to 2.5 (Ctrl+= and Ctrl+- change it)")
      ->check(CLI::Range(0.6f, 2.5f));
  cli.add_option("--runs", o.runs, "race explorer: runs (the app's default: 200)")
      ->check(CLI::Range(1, 100000));
  cli.add_flag("--no-syncwarp", o.noSyncwarp, "lastwarp syncwarp: take __syncwarp() out");
  cli.add_flag("--perturb", o.perturb,
               "barrier, lastwarp, butterfly shared: every third thread pauses each level");
  cli.add_flag("--printf", o.printing,
               "barrier lesson: every third thread calls printf each level (the Kernel output "
               "tab shows the lines)");
  cli.add_option("--exercise", o.exercise, "open this exercise in the editor");
  cli.add_option(
      "--exercise-dir", o.exerciseDir,
      "where your exercise files live (default: ~/.local/share/reduction-lab/exercises)");
  cli.add_option("--exercise-file", o.exerciseFile, "edit this file instead of the exercise's own");
  cli.add_option("--exercise-action", o.exerciseAction, "screenshot: check or run it first")
      ->check(CLI::IsMember({"check", "run"}));
  cli.add_option("--hints", o.hints, "screenshot: open this many hints");
  cli.add_option("--chapter", o.chapter,
                 "open this Markdown file, a chapter in the lesson format (try links, steps, "
                 "predictions, folded answers), beside the built-in lessons; checked first as "
                 "rlab lesson --check checks it");
  addQuizOptions(cli, o);
}

}  // namespace rlab::gui
