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
#include "app/gui/export_animation.hpp"
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
#include "lessons/engine/system/animation_export.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace {

// What the command line asked for, checked before any window opens.
struct Launch {
  const CLI::App& cli;  // which options were given
  rlab::gui::CommandLine& o;
  std::vector<double> givenValues = {};              // --values, parsed
  std::optional<rlab::Params> givenRun = {};         // --run, parsed
  std::optional<rlab::text::Document> chapter = {};  // --chapter, read and checked
  int width = 0, height = 0;                         // --size
};

// --lesson, --values, --run and --export's path: false, having said why, where one is refused.
bool checkRunOptions(const rlab::gui::CommandLine& o, std::vector<double>& givenValues,
                     std::optional<rlab::Params>& givenRun) {
  if (!o.run.empty() && !o.lesson.empty()) {
    std::cerr << "reduction-lab: --run names the lesson itself (lesson=...); give --run or "
                 "--lesson, not both.\n";
    return false;
  }
  try {
    if (!o.exportTo.empty()) rlab::animationFormatFor(o.exportTo);
    if (!o.run.empty()) givenRun = rlab::paramsFromQuery("", o.run);
  } catch (const rlab::ParamError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return false;
  }
  if (!o.lesson.empty() && o.lesson != rlab::kBasicsChapter && !rlab::findLesson(o.lesson)) {
    std::cerr << "reduction-lab: --lesson '" << o.lesson << "' is not a lesson; choose basics, "
              << rlab::lessonIds() << ".\n";
    return false;
  }
  try {
    if (!o.values.empty()) givenValues = rlab::parseValues(o.values);
  } catch (const rlab::ParamError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return false;
  }
  return true;
}

// A teacher's chapter is checked before any window opens: refused, it says why and where.
bool readChapterOption(const rlab::gui::CommandLine& o,
                       std::optional<rlab::text::Document>& chapter) {
  if (o.chapter.empty()) return true;
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
      return false;
    }
  } catch (const rlab::ParamError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return false;
  }
  return true;
}

// --size as WIDTHxHEIGHT: false, having said why, where it is not one or is out of range.
bool parseSize(const std::string& size, int& width, int& height) {
  char x = 0;
  if (std::sscanf(size.c_str(), "%d%c%d", &width, &x, &height) != 3 || x != 'x' || width < 320 ||
      height < 240 || width > 7680 || height > 4320) {
    std::cerr << "reduction-lab: --size '" << size
              << "' is not allowed; give WIDTHxHEIGHT from 320x240 to 7680x4320.\n";
    return false;
  }
  return true;
}

// The settings file a window remembers its place in, and what it held.
struct Remembered {
  std::string file;     // empty: nothing is remembered
  std::string problem;  // why the file could not be read (or, at the end, written)
  std::optional<rlab::gui::Settings> settings;
};

// A screenshot or an export: drawn off-screen, with nothing of the learner's read or written.
bool offScreen(const rlab::gui::CommandLine& o) {
  return !o.screenshot.empty() || !o.exportTo.empty();
}

Remembered loadRemembered(const rlab::gui::CommandLine& o) {
  // Screenshots show exactly what their options say; a window starts where the learner left.
  const bool remembers = !offScreen(o) && !o.glInfo;
  Remembered r;
  r.file = remembers ? rlab::gui::settingsPath() : "";
  if (!r.file.empty() && o.resetSettings) std::remove(r.file.c_str());
  // A settings file that cannot be used is said in the language asked for, or the locale's.
  rlab::gui::setUiLanguage(o.language.empty() ? rlab::languageFromEnvironment()
                                              : rlab::parseLanguage(o.language));
  if (!r.file.empty()) r.settings = rlab::gui::loadSettings(r.file, r.problem);
  if (!r.problem.empty()) std::cerr << "reduction-lab: " << r.problem << "\n";
  return r;
}

// The window's size and the app's settings at the end, for the next start.
void saveRemembered(Remembered& r, const rlab::gui::Platform& platform, const rlab::gui::App& app) {
  if (r.file.empty()) return;
  int width = 0, height = 0;
  platform.windowSize(width, height);
  if (!rlab::gui::saveSettings(r.file, rlab::gui::settingsOf(app.ui, width, height), r.problem))
    std::cerr << "reduction-lab: " << r.problem << "\n";
}

// The remembered settings, then the options that change how the app looks and speaks.
void applyViewOptions(rlab::gui::App& app, const Launch& l, const Remembered& r) {
  const rlab::gui::CommandLine& o = l.o;
  app.ui.language = rlab::languageFromEnvironment();
  if (r.settings) rlab::gui::applySettings(*r.settings, app.ui);
  if (!r.problem.empty()) {
    app.ui.status = r.problem;
    app.ui.statusIsError = true;
  }
  if (o.presenter || o.film || !o.exportTo.empty()) app.ui.view.presenter = true;
  if (o.film || !o.exportTo.empty()) app.ui.view.film = true;
  if (o.drawer) app.ui.view.drawerOpen = true;
  if (l.cli.count("--text-scale")) app.ui.view.textScale = o.textScale;
  if (!o.language.empty()) app.ui.language = rlab::parseLanguage(o.language);
}

// share/reduction-lab/fonts.txt of this installation (or build folder); without it the
// app draws with ImGui's built-in font.
std::string fontsList() {
  const std::string fonts = rlab::dataFile("fonts.txt");
  if (fonts.empty())
    std::cerr << "reduction-lab: no fonts list (fonts.txt) in " << rlab::dataFolders()
              << "; drawing with ImGui's built-in font.\n";
  return fonts;
}

// Between frames: the atlas at the size text now needs, with the language's glyphs.
void loadFontsIfWanted(rlab::gui::App& app, rlab::gui::Platform& platform,
                       const std::string& fonts) {
  if (!app.ui.fontsWanted) return;
  rlab::gui::setDisplayScale(platform.contentScale(), app.ui.view.textScale);
  rlab::gui::setFontPixels(13, false);  // textPixels' base for a loaded font
  const float pixels = std::round(rlab::gui::textPixels(app.ui.view.presenter));
  const bool loaded =
      rlab::gui::loadFonts(fonts, pixels, app.ui.language, rlab::gui::glyphText(app.ui.language));
  rlab::gui::setFontPixels(loaded ? pixels : 13, !loaded);
  platform.reloadFontTexture();
  rlab::gui::applyStyle(app.ui.view.presenter);
  app.ui.fontsWanted = false;
}

// The lesson and its run's parameters as the options give them.
void applyRunOptions(rlab::gui::App& app, Launch& l) {
  rlab::gui::CommandLine& o = l.o;
  if (o.lesson == rlab::kBasicsChapter) {  // a chapter with no run: shown in the text view
    app.ui.chapter = rlab::kBasicsChapter;
    o.lesson.clear();
    if (!l.cli.count("--view")) o.view = "text";
  }
  if (!o.lesson.empty()) {
    app.ui.params.lesson = o.lesson;
    app.ui.params.variant = o.variant;
    const rlab::LessonInfo* info = rlab::findLesson(o.lesson);
    app.ui.params.n = info ? info->defaultN : 1;
    app.ui.params.perThread = 0;  // the kernel's own, unless --per-thread says
    app.ui.params.loadAdd = true;
  }
  if (l.givenRun) app.ui.params = *l.givenRun;
  if (o.n) app.ui.params.n = o.n;
  if (o.block) app.ui.params.block = o.block;
  if (o.gpus) app.ui.params.gpus = o.gpus;
  if (o.perThread) app.ui.params.perThread = o.perThread;
  if (o.noLoadAdd) app.ui.params.loadAdd = false;
  if (o.type == "float") app.ui.params.type = rlab::ElementType::Float;
  if (!o.op.empty()) app.ui.params.op = rlab::parseOp(o.op);
  if (!o.values.empty()) {
    app.ui.params.values = l.givenValues;
    app.ui.params.n = int64_t(l.givenValues.size());
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
}

// The exercise the options open, with its file, hints and Run options: false, having said why,
// where there is no such exercise.
bool openExerciseOption(rlab::gui::App& app, const rlab::gui::CommandLine& o) {
  if (!o.exerciseDir.empty()) app.ui.exerciseFolder = o.exerciseDir;
  if (o.exercise.empty()) return true;
  if (!rlab::findExercise(o.exercise)) {
    std::cerr << "reduction-lab: --exercise '" << o.exercise << "' does not exist; choose one of "
              << rlab::exerciseIds() << ".\n";
    return false;
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
  return true;
}

// A screenshot's run and the job its view shows, finished before the picture: false, having
// said why, where the run was refused or the job failed.
bool runScreenshotWork(rlab::gui::App& app, const rlab::gui::CommandLine& o) {
  app.runNow(o.step);
  if (!app.ui.paramError.empty()) {
    std::cerr << "reduction-lab: " << rlab::gui::say(app.ui.paramError) << "\n";
    return false;
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
    ex.showTimeline = o.view == "timeline";
  }
  // The job refused or failed: say why.
  if (app.ui.statusIsError && o.view != "lesson" && o.view != "text" && o.view != "timeline" &&
      o.view != "output" && o.view != "memory" && o.view != "profile") {
    std::cerr << "reduction-lab: " << app.ui.status << "\n";
    return false;
  }
  return true;
}

// One picture of the app as it is now, off-screen: a few frames, for layout settles after the
// first; what the first frame started (a GPU race's live rate) finishes before the picture.
std::vector<unsigned char> renderSettled(rlab::gui::App& app, rlab::gui::Platform& platform,
                                         const std::string& fonts, const Launch& l) {
  std::vector<unsigned char> pixels;
  for (int frame = 0; frame < 4; ++frame) {
    loadFontsIfWanted(app, platform, fonts);
    platform.beginFrame();
    app.frame(1.f / 60);
    pixels = platform.endFrameOffscreen(l.width, l.height);
    if (frame == 0) app.waitForWork();
  }
  return pixels;
}

// --quiz: the Quiz view on that quiz's question, over the run on screen.
void openQuizOption(rlab::gui::App& app, const rlab::gui::CommandLine& o) {
  if (!o.quizSeed) return;
  app.startQuiz(o.quizSeed);
  app.showQuizQuestion(o.quizQuestion - 1, o.quizAnswer);
  app.ui.view.stageView = rlab::gui::ViewTab::Quiz;
  app.ui.requestTab = rlab::gui::ViewTab::Quiz;
}

// --screenshot: the view asked for, rendered off-screen into a PNG; the exit status.
int takeScreenshot(rlab::gui::App& app, rlab::gui::Platform& platform, const std::string& fonts,
                   const Launch& l) {
  const rlab::gui::CommandLine& o = l.o;
  if (!runScreenshotWork(app, o)) return 2;
  app.ui.requestTab = rlab::gui::viewTabFor(o.view);
  openQuizOption(app, o);
  app.ui.requestCodeTab = o.code == "host" ? rlab::gui::CodeTab::Host : rlab::gui::CodeTab::Kernel;
  const std::vector<unsigned char> pixels = renderSettled(app, platform, fonts, l);
  if (!rlab::gui::writePng(o.screenshot, l.width, l.height, pixels)) {
    std::cerr << "reduction-lab: could not write " << o.screenshot << ".\n";
    return 1;
  }
  return 0;
}

// The window's frames until it is closed.
void runWindow(rlab::gui::App& app, rlab::gui::Platform& platform, const std::string& fonts) {
  auto last = std::chrono::steady_clock::now();
  while (!platform.shouldClose()) {
    loadFontsIfWanted(app, platform, fonts);
    platform.beginFrame();
    const auto now = std::chrono::steady_clock::now();
    app.frame(std::chrono::duration<float>(now - last).count());
    last = now;
    platform.endFrame();
  }
}

// The window (or the screenshot, or --gl-info) and the app in it: the exit status where the
// program ends early, nothing where the window was closed.
std::optional<int> runApp(Launch& l) {
  rlab::gui::CommandLine& o = l.o;
  Remembered remembered = loadRemembered(o);
  if (remembered.settings && !l.cli.count("--size")) {
    l.width = remembered.settings->width;
    l.height = remembered.settings->height;
  }
  rlab::gui::Platform platform(l.width, l.height, !offScreen(o) && !o.glInfo);
  if (o.glInfo) {
    std::cout << platform.renderer() << "\n";
    return 0;
  }
  rlab::gui::App app;
  // Off-screen work (a screenshot, an export) leaves the learner's marks alone.
  if (offScreen(o)) app.ui.progressFile.clear();
  applyViewOptions(app, l, remembered);
  const std::string fonts = fontsList();
  loadFontsIfWanted(app, platform, fonts);
  applyRunOptions(app, l);
  if (!openExerciseOption(app, o)) return 2;

  if (l.chapter) {
    app.showChapter(o.chapter, std::move(*l.chapter));
    if (!l.cli.count("--view")) o.view = "text";  // a screenshot shows the chapter opened
  }
  if (!o.screenshot.empty()) return takeScreenshot(app, platform, fonts, l);
  if (!o.exportTo.empty()) {
    if (!o.exercise.empty()) o.exerciseAction = "run";  // an exercise's film is of its run
    if (!runScreenshotWork(app, o)) return 2;
    if (!o.exercise.empty()) {  // the learner's run, on the stage like a lesson's
      if (!app.ui.exercise.trace) {
        std::cerr << "reduction-lab: " << app.ui.status << "\n";
        return 2;
      }
      app.putLearnerRunOnStage();
    }
    app.ui.requestTab = rlab::gui::viewTabFor(o.view);
    return rlab::gui::exportAnimation(app, {o.exportTo, l.width, l.height, o.secondsPerStep},
                                      [&] { return renderSettled(app, platform, fonts, l); });
  }
  if (o.quizSeed) {  // the quiz's run, not the first run's, on screen when the window opens
    app.runNow();
    openQuizOption(app, o);
  }
  runWindow(app, platform, fonts);
  saveRemembered(remembered, platform, app);
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{rlab::gui::kProgramDescription, "reduction-lab"};
  rlab::gui::CommandLine o;
  rlab::gui::addCommandLineOptions(cli, o);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  Launch launch{cli, o};
  if (!checkRunOptions(o, launch.givenValues, launch.givenRun) ||
      !readChapterOption(o, launch.chapter) || !parseSize(o.size, launch.width, launch.height))
    return 2;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  try {
    if (const std::optional<int> status = runApp(launch)) return *status;
  } catch (const rlab::gui::NoDisplay& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  ImGui::DestroyContext();
  return 0;
}
