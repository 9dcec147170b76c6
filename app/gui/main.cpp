// reduction-lab: the desktop app. With --screenshot it renders a few frames off-screen and
// writes a PNG instead of opening a window (tests and the images of the README and the manual
// use it).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <iostream>
#include <optional>

#include "app/gui/app.hpp"
#include "app/gui/options.hpp"
#include "app/gui/tabs.hpp"
#include "app/gui/platform.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/texts/chapter_check.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/system/installation.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

int main(int argc, char** argv) {
  CLI::App cli{rlab::gui::kProgramDescription, "reduction-lab"};
  rlab::gui::CommandLine o;
  rlab::gui::addCommandLineOptions(cli, o);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  if (!o.lesson.empty() && o.lesson != "basics" && !rlab::findLesson(o.lesson)) {
    std::cerr << "reduction-lab: --lesson '" << o.lesson << "' is not a lesson; choose basics, "
              << rlab::lessonIds() << ".\n";
    return 2;
  }
  std::vector<double> givenValues;
  try {
    if (!o.values.empty()) givenValues = rlab::parseValues(o.values);
  } catch (const rlab::ParamError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return 2;
  }
  // A teacher's chapter is checked before any window opens: refused, it says why and where.
  std::optional<rlab::text::Document> chapter;
  if (!o.chapter.empty()) {
    try {
      const rlab::Language language =
          o.language.empty() ? rlab::languageFromEnvironment() : rlab::parseLanguage(o.language);
      chapter = rlab::readChapterFile(o.chapter);
      const auto problems =
          rlab::checkChapter(*chapter, std::filesystem::path(o.chapter).filename().string());
      for (const auto& problem : problems)
        std::cerr << rlab::problemLine(o.chapter, problem, language) << "\n";
      if (!problems.empty()) {
        std::cerr << "reduction-lab: "
                  << rlab::render(rlab::Message("chapter.refused-check-again",
                                                {{"path", o.chapter}, {"count", problems.size()}}),
                                  language)
                  << "\n";
        return 2;
      }
    } catch (const rlab::ParamError& e) {
      std::cerr << "reduction-lab: " << e.what() << "\n";
      return 2;
    }
  }
  int width = 0, height = 0;
  char x = 0;
  if (std::sscanf(o.size.c_str(), "%d%c%d", &width, &x, &height) != 3 || x != 'x' || width < 320 ||
      height < 240 || width > 7680 || height > 4320) {
    std::cerr << "reduction-lab: --size '" << o.size
              << "' is not allowed; give WIDTHxHEIGHT from 320x240 to 7680x4320.\n";
    return 2;
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  try {
    // Screenshots show exactly what their options say; a window starts where the learner left.
    const bool remembers = o.screenshot.empty() && !o.glInfo;
    const std::string settingsFile = remembers ? rlab::gui::settingsPath() : "";
    std::string settingsProblem;
    std::optional<rlab::gui::Settings> remembered;
    if (!settingsFile.empty() && o.resetSettings) std::remove(settingsFile.c_str());
    // A settings file that cannot be used is said in the language asked for, or the locale's.
    rlab::gui::setUiLanguage(o.language.empty() ? rlab::languageFromEnvironment()
                                                : rlab::parseLanguage(o.language));
    if (!settingsFile.empty()) remembered = rlab::gui::loadSettings(settingsFile, settingsProblem);
    if (!settingsProblem.empty()) std::cerr << "reduction-lab: " << settingsProblem << "\n";
    if (remembered && !cli.count("--size")) {
      width = remembered->width;
      height = remembered->height;
    }
    rlab::gui::Platform platform(width, height, o.screenshot.empty() && !o.glInfo);
    if (o.glInfo) {
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
    if (o.presenter) app.ui.view.presenter = true;
    if (o.drawer) app.ui.view.drawerOpen = true;
    if (cli.count("--text-scale")) app.ui.view.textScale = o.textScale;
    if (!o.language.empty()) app.ui.language = rlab::parseLanguage(o.language);
    // share/reduction-lab/fonts.txt of this installation (or build folder); without it the
    // app draws with ImGui's built-in font.
    const std::string fonts = rlab::dataFile("fonts.txt");
    if (fonts.empty())
      std::cerr << "reduction-lab: no fonts list (fonts.txt) in " << rlab::dataFolders()
                << "; drawing with ImGui's built-in font.\n";
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
    if (o.lesson == "basics") {  // a chapter with no run: shown in the text view
      app.ui.chapter = "basics";
      o.lesson.clear();
      if (!cli.count("--view")) o.view = "text";
    }
    if (!o.lesson.empty()) {
      app.ui.params.lesson = o.lesson;
      app.ui.params.variant = o.variant;
      const rlab::LessonInfo* info = rlab::findLesson(o.lesson);
      app.ui.params.n = info ? info->defaultN : 1;
      app.ui.params.perThread = 0;  // the kernel's own, unless --per-thread says
      app.ui.params.loadAdd = true;
    }
    if (o.n) app.ui.params.n = o.n;
    if (o.block) app.ui.params.block = o.block;
    if (o.gpus) app.ui.params.gpus = o.gpus;
    if (o.perThread) app.ui.params.perThread = o.perThread;
    if (o.noLoadAdd) app.ui.params.loadAdd = false;
    if (o.type == "float") app.ui.params.type = rlab::ElementType::Float;
    if (!o.op.empty()) app.ui.params.op = rlab::parseOp(o.op);
    if (!o.values.empty()) {
      app.ui.params.values = givenValues;
      app.ui.params.n = int64_t(givenValues.size());
      o.values.resize(std::min(o.values.size(), app.ui.valuesText.size() - 1));
      std::copy(o.values.begin(), o.values.end(), app.ui.valuesText.begin());
      app.ui.valuesText[o.values.size()] = '\0';
    }
    if (o.noBarrier) app.ui.params.barrier = false;
    if (o.noSyncwarp) app.ui.params.syncwarp = false;
    if (o.perturb) app.ui.params.perturb = true;
    if (o.printing) app.ui.params.printing = true;
    if (o.runs) app.ui.raceRuns = o.runs;
    if (!o.schedule.empty()) app.ui.params.schedule = o.schedule;
    if (!o.exerciseDir.empty()) app.ui.exerciseFolder = o.exerciseDir;
    if (!o.exercise.empty()) {
      if (!rlab::findExercise(o.exercise)) {
        std::cerr << "reduction-lab: --exercise '" << o.exercise
                  << "' does not exist; choose one of " << rlab::exerciseIds() << ".\n";
        return 2;
      }
      app.openExercise(o.exercise);
      if (!o.exerciseFile.empty()) {
        app.ui.exercise.file = o.exerciseFile;
        app.reloadExercise();
      }
      app.ui.exercise.hintsOpen = o.hints;
      // --n, --block and --schedule are the exercise's Run options too.
      rlab::Params& run = app.ui.exercise.runOptions;
      if (o.n) run.n = o.n;
      if (o.block) run.block = o.block;
      if (!o.schedule.empty()) run.schedule = o.schedule;
    }

    if (chapter) {
      app.showChapter(o.chapter, std::move(*chapter));
      if (!cli.count("--view")) o.view = "text";  // a screenshot shows the chapter opened
    }
    if (!o.screenshot.empty()) {
      app.runNow(o.step);
      if (!app.ui.paramError.empty()) {
        std::cerr << "reduction-lab: " << rlab::gui::say(app.ui.paramError) << "\n";
        return 2;
      }
      if (o.view == "race") app.startRace();
      if (o.view == "witness") app.startWitness();
      if (o.view == "by-block") app.startRateByBlock();
      if (o.view == "float-sums") app.startFloatSums();
      // Without a GPU the chart shows a GPU's recording where one is built in, as it opens.
      if (o.view == "timing" && (app.ui.gpuUsable || rlab::recordings().empty())) app.startBench();
      if (o.view == "profile" && app.ui.gpuUsable && !rlab::findCudaTool("ncu").empty())
        app.startProfile();
      if (o.exerciseAction == "check") app.startExerciseCheck();
      if (o.exerciseAction == "run") app.startExerciseRun();
      app.waitForWork();
      if (rlab::gui::ExerciseState& ex = app.ui.exercise; ex.trace) {  // the learner's run
        const int count = int(ex.trace->steps.size());
        ex.step = o.step < 0 ? count / 2 : std::clamp(o.step, 0, std::max(0, count - 1));
      }
      // The job refused or failed: say why.
      if (app.ui.statusIsError && o.view != "lesson" && o.view != "text" && o.view != "timeline" &&
          o.view != "output" && o.view != "memory" && o.view != "profile") {
        std::cerr << "reduction-lab: " << app.ui.status << "\n";
        return 2;
      }
      app.ui.requestTab = rlab::gui::viewTabFor(o.view);
      app.ui.requestCodeTab =
          o.code == "host" ? rlab::gui::CodeTab::Host : rlab::gui::CodeTab::Kernel;
      std::vector<unsigned char> pixels;
      for (int frame = 0; frame < 4; ++frame) {  // a few frames: layout settles after the first
        fontsIfWanted();
        platform.beginFrame();
        app.frame(1.f / 60);
        pixels = platform.endFrameOffscreen(width, height);
        // What the first frame started (a GPU race's live rate) finishes before the picture.
        if (frame == 0) app.waitForWork();
      }
      if (!rlab::gui::writePng(o.screenshot, width, height, pixels)) {
        std::cerr << "reduction-lab: could not write " << o.screenshot << ".\n";
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
