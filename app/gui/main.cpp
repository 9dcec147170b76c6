// reduction-lab: the desktop app. With --screenshot it renders a few frames off-screen and
// writes a PNG instead of opening a window (tests and the README's images use it).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <iostream>
#include <optional>

#include "app/gui/app.hpp"
#include "app/gui/tabs.hpp"
#include "app/gui/platform.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts.hpp"

namespace {

std::string fontsList(const char* argv0) {
  // Beside the source tree this binary was built from, then beside the binary.
  const std::string fromSource = std::string(RLAB_SOURCE_DIR) + "/assets/fonts.txt";
  if (std::FILE* f = std::fopen(fromSource.c_str(), "r")) {
    std::fclose(f);
    return fromSource;
  }
  std::string self = argv0;
  return self.substr(0, self.find_last_of('/') + 1) + "assets/fonts.txt";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Reduction Lab: watch real GPU reduction kernels work, step by step.",
               "reduction-lab"};
  std::string screenshot, lesson, variant, size = "1280x800", schedule, view = "lesson", type;
  int step = -1;
  long long n = 0;
  bool presenter = false, noBarrier = false;
  cli.add_option("--screenshot", screenshot, "render off-screen and write this PNG, then exit");
  cli.add_option("--lesson", lesson, "lesson to show: " + rlab::lessonIds());
  cli.add_option("--variant", variant, "the lesson's variant");
  cli.add_option("--n", n, "number of elements");
  int block = 0;
  cli.add_option("--block", block, "threads per block (default: the lesson's)");
  int gpus = 0;
  cli.add_option("--gpus", gpus, "allreduce: the GPUs taking part, 1, 2, 4 or 8")
      ->check(CLI::IsMember({1, 2, 4, 8}));
  int perThread = 0;
  cli.add_option("--per-thread", perThread, "shared coarsened: elements per thread, 1 to 32")
      ->check(CLI::Range(1, 32));
  bool noLoadAdd = false;
  cli.add_flag("--no-load-add", noLoadAdd,
               "shared coarsened: no add during the load; the tree's first levels add");
  cli.add_option("--step", step, "step to show (default: the middle one)");
  cli.add_option("--type", type, "element type: int or float")
      ->check(CLI::IsMember({"int", "float"}));
  std::string op, values;
  cli.add_option("--op", op, "operator: sum, max, min or product; subtract: a demonstration")
      ->check(CLI::IsMember({"sum", "max", "min", "product", "subtract"}));
  cli.add_option("--values", values, "the values to reduce, e.g. 3,1,4,1,5 (sets n)");
  cli.add_option("--size", size, "window size, WIDTHxHEIGHT (default 1280x800)");
  cli.add_flag("--presenter", presenter, "large type and high contrast for a projector");
  cli.add_flag("--no-barrier", noBarrier, "barrier lesson: switch the barrier off");
  cli.add_option("--schedule", schedule, "simulator schedule, e.g. stall:4:2:1");
  cli.add_option("--view", view,
                 "screenshot: the lesson's text or view, the per-thread timeline, or a finished "
                 "timing chart, race, race witness, wrong share by block size, float sums in "
                 "ulps, the kernel's printf output, or the memory view (sectors per warp)")
      ->check(CLI::IsMember({"text", "lesson", "timing", "race", "witness", "by-block",
                             "float-sums", "timeline", "output", "memory"}));
  std::string code = "kernel";
  cli.add_option("--code", code, "screenshot: the kernel source or the host code that launched it")
      ->check(CLI::IsMember({"kernel", "host"}));
  std::string language;
  cli.add_option("--lang", language, "language of the lesson texts: en, ja or zh (default: locale)")
      ->check(CLI::IsMember({"en", "ja", "zh"}));
  bool resetSettings = false, glInfo = false;
  cli.add_flag("--gl-info", glInfo,
               "print who draws the window (OpenGL vendor, renderer, version), then exit");
  cli.add_flag("--reset-settings", resetSettings,
               "forget the remembered settings and start afresh");
  float textScale = 1;
  cli.add_option("--text-scale", textScale, "text size, 0.6 to 2.5 (Ctrl+= and Ctrl+- change it)")
      ->check(CLI::Range(0.6f, 2.5f));
  int runs = 0;
  cli.add_option("--runs", runs, "race explorer: runs (the app's default: 200)")
      ->check(CLI::Range(1, 100000));
  bool perturb = false;
  cli.add_flag("--perturb", perturb, "barrier lesson: every third thread pauses each level");
  bool printing = false;
  cli.add_flag("--printf", printing,
               "barrier lesson: every third thread calls printf each level (the Kernel output "
               "tab shows the lines)");
  std::string exercise, exerciseFile, exerciseAction, exerciseDir;
  int hints = 0;
  cli.add_option("--exercise", exercise, "open this exercise in the editor");
  cli.add_option(
      "--exercise-dir", exerciseDir,
      "where your exercise files live (default: ~/.local/share/reduction-lab/exercises)");
  cli.add_option("--exercise-file", exerciseFile, "edit this file instead of the exercise's own");
  cli.add_option("--exercise-action", exerciseAction, "screenshot: check or run it first")
      ->check(CLI::IsMember({"check", "run"}));
  cli.add_option("--hints", hints, "screenshot: open this many hints");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  std::vector<double> givenValues;
  try {
    if (!values.empty()) givenValues = rlab::parseValues(values);
  } catch (const rlab::ParamError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return 2;
  }
  int width = 0, height = 0;
  char x = 0;
  if (std::sscanf(size.c_str(), "%d%c%d", &width, &x, &height) != 3 || x != 'x' || width < 320 ||
      height < 240 || width > 7680 || height > 4320) {
    std::cerr << "reduction-lab: --size '" << size
              << "' is not allowed; give WIDTHxHEIGHT from 320x240 to 7680x4320.\n";
    return 2;
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  try {
    // Screenshots show exactly what their options say; a window starts where the learner left.
    const bool remembers = screenshot.empty() && !glInfo;
    const std::string settingsFile = remembers ? rlab::gui::settingsPath() : "";
    std::string settingsProblem;
    std::optional<rlab::gui::Settings> remembered;
    if (!settingsFile.empty() && resetSettings) std::remove(settingsFile.c_str());
    // A settings file that cannot be used is said in the language asked for, or the locale's.
    rlab::gui::setUiLanguage(language.empty() ? rlab::languageFromEnvironment()
                                              : rlab::parseLanguage(language));
    if (!settingsFile.empty()) remembered = rlab::gui::loadSettings(settingsFile, settingsProblem);
    if (!settingsProblem.empty()) std::cerr << "reduction-lab: " << settingsProblem << "\n";
    if (remembered && !cli.count("--size")) {
      width = remembered->width;
      height = remembered->height;
    }
    rlab::gui::Platform platform(width, height, screenshot.empty() && !glInfo);
    if (glInfo) {
      std::cout << platform.renderer() << "\n";
      return 0;
    }
    rlab::gui::App app;
    app.ui.language = rlab::languageFromEnvironment();
    if (remembered) rlab::gui::applySettings(*remembered, app.ui);
    if (!settingsProblem.empty()) {
      app.ui.status = settingsProblem;
      app.ui.statusIsError = true;
    }
    if (presenter) app.ui.view.presenter = true;
    if (cli.count("--text-scale")) app.ui.view.textScale = textScale;
    if (!language.empty()) app.ui.language = rlab::parseLanguage(language);
    const std::string fonts = fontsList(argv[0]);
    // Between frames: the atlas at the size text now needs, with the language's glyphs.
    auto fontsIfWanted = [&] {
      if (!app.ui.fontsWanted) return;
      rlab::gui::setDisplayScale(platform.contentScale(), app.ui.view.textScale);
      rlab::gui::setFontPixels(13, false);  // textPixels' base for a loaded font
      const float pixels = std::round(rlab::gui::textPixels(app.ui.view.presenter));
      const bool loaded = rlab::gui::loadFonts(fonts, pixels, app.ui.language,
                                               rlab::gui::glyphText(app.ui.language));
      rlab::gui::setFontPixels(loaded ? pixels : 13, !loaded);
      platform.reloadFontTexture();
      rlab::gui::applyStyle(app.ui.view.presenter);
      app.ui.fontsWanted = false;
    };
    fontsIfWanted();
    if (!lesson.empty()) {
      app.ui.params.lesson = lesson;
      app.ui.params.variant = variant;
      const rlab::LessonInfo* info = rlab::findLesson(lesson);
      app.ui.params.n = info ? info->defaultN : 1;
      app.ui.params.perThread = 0;  // the kernel's own, unless --per-thread says
      app.ui.params.loadAdd = true;
    }
    if (n) app.ui.params.n = n;
    if (block) app.ui.params.block = block;
    if (gpus) app.ui.params.gpus = gpus;
    if (perThread) app.ui.params.perThread = perThread;
    if (noLoadAdd) app.ui.params.loadAdd = false;
    if (type == "float") app.ui.params.type = rlab::ElementType::Float;
    if (!op.empty()) app.ui.params.op = rlab::parseOp(op);
    if (!values.empty()) {
      app.ui.params.values = givenValues;
      app.ui.params.n = int64_t(givenValues.size());
      values.resize(std::min(values.size(), app.ui.valuesText.size() - 1));
      std::copy(values.begin(), values.end(), app.ui.valuesText.begin());
      app.ui.valuesText[values.size()] = '\0';
    }
    if (noBarrier) app.ui.params.barrier = false;
    if (perturb) app.ui.params.perturb = true;
    if (printing) app.ui.params.printing = true;
    if (runs) app.ui.raceRuns = runs;
    if (!schedule.empty()) app.ui.params.schedule = schedule;
    if (!exerciseDir.empty()) app.ui.exerciseFolder = exerciseDir;
    if (!exercise.empty()) {
      if (!rlab::findExercise(exercise)) {
        std::cerr << "reduction-lab: --exercise '" << exercise << "' does not exist; choose one of "
                  << rlab::exerciseIds() << ".\n";
        return 2;
      }
      app.openExercise(exercise);
      if (!exerciseFile.empty()) {
        app.ui.exercise.file = exerciseFile;
        app.reloadExercise();
      }
      app.ui.exercise.hintsOpen = hints;
      // --n, --block and --schedule are the exercise's Run options too.
      rlab::Params& run = app.ui.exercise.runOptions;
      if (n) run.n = n;
      if (block) run.block = block;
      if (!schedule.empty()) run.schedule = schedule;
    }

    if (!screenshot.empty()) {
      app.runNow(step);
      if (!app.ui.paramError.empty()) {
        std::cerr << "reduction-lab: " << rlab::gui::say(app.ui.paramError) << "\n";
        return 2;
      }
      if (view == "race") app.startRace();
      if (view == "witness") app.startWitness();
      if (view == "by-block") app.startRateByBlock();
      if (view == "float-sums") app.startFloatSums();
      if (view == "timing") app.startBench();
      if (exerciseAction == "check") app.startExerciseCheck();
      if (exerciseAction == "run") app.startExerciseRun();
      app.waitForWork();
      if (rlab::gui::ExerciseState& ex = app.ui.exercise; ex.trace) {  // the learner's run
        const int count = int(ex.trace->steps.size());
        ex.step = step < 0 ? count / 2 : std::clamp(step, 0, count - 1);
      }
      // The job refused or failed: say why.
      if (app.ui.statusIsError && view != "lesson" && view != "text" && view != "timeline" &&
          view != "output" && view != "memory") {
        std::cerr << "reduction-lab: " << app.ui.status << "\n";
        return 2;
      }
      app.ui.requestTab = rlab::gui::viewTabFor(view);
      app.ui.requestCodeTab =
          code == "host" ? rlab::gui::CodeTab::Host : rlab::gui::CodeTab::Kernel;
      std::vector<unsigned char> pixels;
      for (int frame = 0; frame < 4; ++frame) {  // a few frames: layout settles after the first
        fontsIfWanted();
        platform.beginFrame();
        app.frame(1.f / 60);
        pixels = platform.endFrameOffscreen(width, height);
        // What the first frame started (a GPU race's live rate) finishes before the picture.
        if (frame == 0) app.waitForWork();
      }
      if (!rlab::gui::writePng(screenshot, width, height, pixels)) {
        std::cerr << "reduction-lab: could not write " << screenshot << ".\n";
        return 1;
      }
      return 0;
    }
    auto last = std::chrono::steady_clock::now();
    while (!platform.shouldClose()) {
      fontsIfWanted();
      platform.beginFrame();
      const auto now = std::chrono::steady_clock::now();
      app.frame(std::chrono::duration<float>(now - last).count());
      last = now;
      platform.endFrame();
    }
    if (!settingsFile.empty()) {
      platform.windowSize(width, height);
      if (!rlab::gui::saveSettings(settingsFile, rlab::gui::settingsOf(app.ui, width, height),
                                   settingsProblem))
        std::cerr << "reduction-lab: " << settingsProblem << "\n";
    }
  } catch (const rlab::gui::NoDisplay& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  ImGui::DestroyContext();
  return 0;
}
