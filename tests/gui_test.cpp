// The desktop app, driven like a person would: a headless ImGui (no window) whose mouse clicks
// the app's own widgets; and real screenshots of every lesson, rendered under Xvfb.
#include <doctest/doctest.h>

#include <imgui.h>
#include <stb/stb_image.h>

#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/settings.hpp"
#include "lessons/engine/backends.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/bench.hpp"
#include "lessons/engine/run.hpp"
#include "lessons/engine/texts.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

using rlab::gui::App;

namespace {

void settle(App& app) {
  for (int k = 0; k < 3; ++k) {
    app.waitForWork();
    frame(app);
  }
}

// The race explorer in front, K runs asked for, one of its buttons clicked and its job done.
void runInRaceExplorer(App& app, int runs, const std::string& button) {
  app.ui.requestTab = rlab::gui::ViewTab::Race;
  frame(app);
  app.ui.raceRuns = runs;
  click(app, button);
  settle(app);
}

}  // namespace

TEST_CASE("gui: clicking the barrier toggle re-runs the race; the step buttons move the player") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.schedule = "stall:4:2:1";
  settle(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.lesson == "barrier");
  CHECK(app.ui.trace->correct);
  CHECK(app.ui.trace->result == 36);

  click(app, "barrier");
  CHECK_FALSE(app.ui.params.barrier);
  settle(app);
  CHECK_FALSE(app.ui.trace->params.barrier);
  CHECK(app.ui.trace->result == 21);  // thread 4 late, no barrier: 15 short
  CHECK_FALSE(app.ui.trace->correct);

  app.stepTo(0);
  click(app, "forward");
  CHECK(app.ui.step == 1);
  click(app, "forward");
  CHECK(app.ui.step == 2);
  click(app, "back");
  CHECK(app.ui.step == 1);
  click(app, "last");
  CHECK(app.ui.step == app.stepCount() - 1);
  click(app, "first");
  CHECK(app.ui.step == 0);
  frame(app, ImVec2(-1, -1), false, ImGuiKey_RightArrow);  // the arrow keys step too
  CHECK(app.ui.step == 1);

  click(app, "barrier");  // and back on
  settle(app);
  CHECK(app.ui.trace->correct);
}

TEST_CASE("gui: choosing a lesson and a variant runs it") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:butterfly");
  settle(app);
  CHECK(app.ui.trace->params.lesson == "butterfly");
  click(app, "variant:shuffle");
  settle(app);
  CHECK(app.ui.trace->params.variant == "shuffle");
  CHECK(app.ui.trace->correct);
}

TEST_CASE("gui: ticking printf re-runs with every third thread printing; its tab lists the lines") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.backend = rlab::BackendChoice::Sim;
  app.ui.params.barrier = false;
  settle(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->kernelOutput.empty());
  app.ui.widgetRects.clear();
  click(app, "printf");
  CHECK(app.ui.params.printing);
  settle(app);
  REQUIRE(app.ui.trace->params.printing);
  // n = 8: threads 0, 3 and 6 print at each of the three levels.
  REQUIRE(app.ui.trace->kernelOutput.size() == 9);
  CHECK(app.ui.trace->kernelOutput.front() == "thread 0, level 1: a[0] = 1");
  // Ticking it brought the Kernel output tab to the front: its heading and every line drawn.
  CHECK(app.ui.widgetRects.count("kernel output count"));
  for (int k = 0; k < 9; ++k)
    CHECK(app.ui.widgetRects.count("kernel output line " + std::to_string(k)));
  CHECK_FALSE(app.ui.widgetRects.count("kernel output line 9"));
  // Remembered across a restart, like perturb.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("rlab-printf-settings-" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::string problem;
  REQUIRE(rlab::gui::saveSettings(path, rlab::gui::settingsOf(app.ui, 1280, 800), problem));
  const auto loaded = rlab::gui::loadSettings(path, problem);
  REQUIRE(loaded);
  CHECK(loaded->params.printing);
  std::filesystem::remove(path);
  // Unticked, the next run prints nothing and the tab says how to get lines.
  click(app, "printf");
  settle(app);
  CHECK(app.ui.trace->kernelOutput.empty());
  app.ui.widgetRects.erase("kernel output count");
  frame(app);
  CHECK_FALSE(app.ui.widgetRects.count("kernel output count"));
}

TEST_CASE(
    "gui: the speed-up table draws under the timing chart; on the simulator, what is missing") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  app.ui.requestTab = rlab::gui::ViewTab::Timing;  // the timing chart
  rlab::BenchRequest request;
  request.sizes = {1024, 4096};
  request.kernels = {{"shared", "multiblock"}, {"shared", "coarsened"}};
  request.reps = 1;
  app.ui.bench.rows = rlab::benchSimulator(request, nullptr);
  app.ui.bench.gpuTimes = false;
  app.ui.widgetRects.clear();
  frame(app);
  frame(app);
  auto drawn = [&](const std::string& widget) { return app.ui.widgetRects.count(widget) > 0; };
  CHECK(drawn("speedup-n"));
  CHECK(drawn("speedup-row:cpu loop"));
  CHECK(drawn("speedup-needs-gpu"));                    // kernel times need a GPU, it says
  CHECK_FALSE(drawn("speedup-row:shared multiblock"));  // simulator times are no GPU times

  // Rows as a GPU's bench leaves them: every kernel with its ratios, and no sentence.
  auto row = [](const std::string& kernel, rlab::BenchRole role, double ms) {
    rlab::BenchRow r;
    r.kernel = kernel;
    r.role = role;
    r.n = 1 << 24;
    r.ms = ms;
    r.cubRatio = 0.5;
    return r;
  };
  app.ui.bench.rows = {row("cpu loop", rlab::BenchRole::CpuLoop, 9.0),
                       row("cub", rlab::BenchRole::Cub, 0.05),
                       row("shared multiblock", rlab::BenchRole::Lesson, 0.3),
                       row("shared coarsened", rlab::BenchRole::Lesson, 0.1)};
  rlab::fillSpeedUps(app.ui.bench.rows);
  app.ui.bench.gpuTimes = true;
  app.ui.bench.device = "a GPU of the test";
  app.ui.widgetRects.clear();
  frame(app);
  frame(app);
  CHECK(drawn("speedup-row:shared multiblock"));
  CHECK(drawn("speedup-row:shared coarsened"));
  CHECK(drawn("speedup-row:cub"));
  CHECK_FALSE(drawn("speedup-needs-gpu"));
  CHECK(app.ui.bench.rows[3].previousRatio == doctest::Approx(3));
}

TEST_CASE("gui: subtract shows every kernel's answer, no verdict; a variant without it resets it") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:divergence");
  settle(app);
  app.ui.params.op = rlab::Op::Subtract;
  app.ui.rerunWanted = true;
  settle(app);
  REQUIRE(app.ui.trace->params.op == rlab::Op::Subtract);
  CHECK_FALSE(app.ui.trace->singleAnswer);
  CHECK(app.ui.trace->otherKernels.size() == rlab::subtractRuns().size());
  click(app, "variant:strided");  // strided does not offer the demonstration
  settle(app);
  CHECK(app.ui.trace->params.variant == "strided");
  CHECK(app.ui.trace->params.op == rlab::Op::Sum);
  CHECK(app.ui.trace->correct);
  CHECK(app.ui.paramError.empty());
}

TEST_CASE("gui: elements per thread and the load add: shown for shared coarsened only, re-run") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:shared");
  settle(app);
  click(app, "variant:multiblock");
  settle(app);
  app.ui.widgetRects.clear();
  frame(app);
  CHECK(app.ui.widgetRects.count("per-thread") == 0);
  click(app, "variant:coarsened");
  settle(app);
  CHECK(app.ui.widgetRects.count("per-thread") == 1);
  CHECK(app.ui.trace->params.perThread == 8);
  CHECK(app.ui.trace->params.loadAdd);
  click(app, "load-add");
  settle(app);
  CHECK_FALSE(app.ui.trace->params.loadAdd);
  CHECK(app.ui.trace->correct);
  CHECK(app.ui.trace->steps.at(1).label.find("stride") == 0);  // the tree adds the loads
  click(app, "variant:multiblock");  // its kernel has no such choice: the run is not refused
  settle(app);
  CHECK(app.ui.trace->params.variant == "multiblock");
  CHECK(app.ui.paramError.empty());
}

TEST_CASE("gui: the allreduce lesson: the GPUs control re-runs it, its view draws every rank") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:allreduce");
  settle(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.lesson == "allreduce");
  CHECK(app.ui.trace->gpus == 2);  // the lesson's default
  click(app, "variant:ring");
  settle(app);
  click(app, "gpus:4");
  settle(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.params.gpus == 4);
  CHECK(app.ui.trace->params.gpus == 4);
  CHECK(app.ui.trace->gpus == 4);
  CHECK(app.ui.trace->params.variant == "ring");
  CHECK(app.ui.trace->correct);
  CHECK(app.ui.trace->rankResults.size() == 4);
  // Every step in both views, the lesson view in front: four rows drawn, never an ImGui assert.
  app.ui.requestTab = rlab::gui::ViewTab::LessonView;
  for (int step = 0; step < int(app.ui.trace->steps.size()); ++step) {
    app.ui.step = step;
    app.ui.widgetRects.erase("ranks");
    frame(app);
    REQUIRE(app.ui.widgetRects.count("ranks"));
    const ImVec4 r = app.ui.widgetRects["ranks"];
    CHECK(r.w - r.y > 4 * ImGui::GetFontSize() * 0.6f);  // four rows, at the smallest type
  }
  // Eight GPUs and chunk boxes for large n draw too.
  click(app, "gpus:8");
  app.ui.params.n = 3000;
  app.ui.rerunWanted = true;
  settle(app);
  CHECK(app.ui.trace->gpus == 8);
  CHECK(app.ui.trace->correct);
  app.ui.step = int(app.ui.trace->steps.size()) / 2;
  frame(app);
  // Another lesson runs on one GPU again: the GPUs choice does not follow it there.
  click(app, "lesson:folding");
  settle(app);
  CHECK(app.ui.params.gpus == 0);
  CHECK(app.ui.paramError.empty());
  CHECK(app.ui.trace->params.lesson == "folding");
  CHECK(app.ui.trace->correct);
}

TEST_CASE("gui: the Host code tab shows the driver that ran and the run's launches") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "folding";
  app.ui.params.variant = "double-buffer";
  app.ui.params.n = 13;
  app.ui.rerunWanted = true;
  settle(app);
  REQUIRE(app.ui.trace);
  REQUIRE(app.ui.trace->params.variant == "double-buffer");
  CHECK(app.ui.widgetRects.count("host:launches") == 0);  // the kernel's tab is in front
  click(app, "tab:Host code");
  frame(app);
  CHECK(app.ui.widgetRects.count("host:launches") == 1);
  CHECK(app.ui.trace->launches.size() == 4);
  // The fold picture and the host loop draw every step without tripping over the data.
  app.ui.requestTab = rlab::gui::ViewTab::LessonView;
  for (int step = 0; step < int(app.ui.trace->steps.size()); ++step) {
    app.ui.step = step;
    frame(app);
  }
  // Every lesson's host code is embedded; the tree lessons' helper file comes with theirs.
  for (const rlab::LessonInfo& lesson : rlab::lessons()) {
    const auto files = rlab::gui::hostFiles(lesson);
    CHECK(files.front() == lesson.hostFile);
  }
  const auto tree = rlab::gui::hostFiles(rlab::lessonOrThrow("divergence"));
  CHECK(tree ==
        std::vector<std::string>{"lessons/divergence/driver.hpp", "lessons/engine/tree_passes.hpp"});
  click(app, "tab:Kernel source");
}

TEST_CASE("gui: a failed GPU run keeps the settings and the run on screen") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  const auto before = app.ui.trace;
  app.ui.params.backend = rlab::BackendChoice::Gpu;
  app.ui.params.n = 16;
  rlab::injectGpuFailure(true);  // where a GPU works, it fails now as after a kernel fault
  app.requestRun();
  settle(app);
  rlab::injectGpuFailure(false);
  CHECK(app.ui.trace == before);
  CHECK(app.ui.statusIsError);
  CHECK(app.ui.params.n == 16);
}

TEST_CASE("gui: refused values say why at the controls and run nothing") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  const auto before = app.ui.trace;
  app.ui.params.n = 5000;  // the barrier lesson is one block: at most 1024
  app.ui.rerunWanted = true;
  settle(app);
  CHECK(app.ui.paramError.find("1 to 1024") != std::string::npos);
  CHECK(app.ui.trace == before);
}

TEST_CASE("gui: Find a witness loads the witness run into the player at its early read") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "barrier");  // off
  settle(app);
  runInRaceExplorer(app, 50, "witness");
  REQUIRE(app.ui.race.witness);
  const rlab::Witness& w = *app.ui.race.witness;
  REQUIRE(w.found);
  CHECK(w.stall.rounds == 1);
  CHECK(app.witnessOnScreen());
  CHECK(app.ui.trace == w.trace);
  CHECK(app.ui.step == w.read.step);
  CHECK_FALSE(app.ui.trace->correct);
  frame(app);
  CHECK(app.ui.widgetRects.count("witness schedule"));  // its tab is in front

  // Another run on screen: the witness stays in its tab, one click brings its run back.
  app.stepTo(0);
  app.ui.rerunWanted = true;
  settle(app);
  CHECK_FALSE(app.witnessOnScreen());
  click(app, "show witness");
  CHECK(app.witnessOnScreen());
}

TEST_CASE("gui: the share of wrong runs by block size is a job with progress and Cancel") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  app.ui.params.barrier = false;
  runInRaceExplorer(app, 2, "by block");
  REQUIRE(app.ui.race.byBlock);
  CHECK(app.ui.race.byBlock->points.size() == 6);
  CHECK_FALSE(app.ui.race.byBlock->onGpu);

  app.ui.raceRuns = 100000;  // long enough to be cancelled while it runs
  click(app, "by block");
  CHECK(app.longWorkBusy());
  click(app, "race cancel");
  settle(app);
  CHECK_FALSE(app.longWorkBusy());
  CHECK(app.ui.race.byBlock->cancelled);
  CHECK(app.ui.race.byBlock->points.size() < 6);
}

TEST_CASE("gui: float sums in ulps, for a float run") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:atomic");
  settle(app);
  app.ui.params.type = rlab::ElementType::Float;
  app.ui.params.n = 5000;
  runInRaceExplorer(app, 6, "float sums");
  REQUIRE(app.ui.race.floatSums);
  CHECK(app.ui.race.floatSums->runs == 6);
  CHECK(app.ui.race.floatSums->fastestSums.size() == 1);
}

#ifdef RLAB_GUI_BINARY
namespace {
bool noXvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") != 0;
}

// A PNG the app wrote: its size and how many colours every seventh pixel shows.
struct Picture {
  int width = 0, height = 0;
  size_t colours = 0;
};

Picture readPicture(const std::string& png) {
  Picture picture;
  int channels = 0;
  unsigned char* pixels = stbi_load(png.c_str(), &picture.width, &picture.height, &channels, 4);
  REQUIRE(pixels);
  std::set<unsigned> colours;
  for (int i = 0; i < picture.width * picture.height; i += 7) {
    unsigned c;
    std::memcpy(&c, pixels + size_t(i) * 4, 4);
    colours.insert(c);
  }
  stbi_image_free(pixels);
  picture.colours = colours.size();
  return picture;
}

// Renders `options` off-screen into `png` and counts its colours (every 7th pixel): a screen of
// text, cells and panels has many, a blank one a few.
size_t coloursOfScreenshot(const std::filesystem::path& png, const std::string& options,
                           int width = 1000, int height = 700) {
  std::filesystem::remove(png);
  const std::string command = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              png.string() + " " + options;
  CAPTURE(command);
  REQUIRE(std::system(command.c_str()) == 0);
  const Picture picture = readPicture(png.string());
  CHECK(picture.width == width);
  CHECK(picture.height == height);
  return picture.colours;
}
}  // namespace

TEST_CASE("gui: a screenshot of every lesson at a middle step, of the asked size, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  for (const char* lesson :
       {"atomic", "folding", "barrier", "divergence", "shared", "butterfly", "fastest"}) {
    for (const char* presenter : {"", " --presenter"}) {
      const auto png = dir / (std::string(lesson) + (*presenter ? "-presenter" : "") + ".png");
      CHECK(coloursOfScreenshot(
                png, std::string("--lesson ") + lesson + " --size 1000x700" + presenter) > 40);
    }
  }
}

TEST_CASE("gui: screenshots of the allreduce lesson for 2, 4 and 8 GPUs, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  for (const char* gpus : {"2", "4", "8"})
    for (const char* n : {"8", "3000"})
      for (const char* presenter : {"", " --presenter"}) {
        const auto png = dir / (std::string("allreduce-") + gpus + "-" + n +
                                (*presenter ? "-presenter" : "") + ".png");
        CHECK(coloursOfScreenshot(png,
                                  std::string("--lesson allreduce --variant ring --gpus ") + gpus +
                                      " --n " + n + " --size 1280x800" + presenter,
                                  1280, 800) > 40);
      }
  // A number of GPUs the lesson does not take is refused in one sentence, before any window.
  const std::string refused = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              (dir / "refused.png").string() +
                              " --lesson allreduce --gpus 3 2>/dev/null";
  CHECK(std::system(refused.c_str()) != 0);
}

TEST_CASE("gui: --gl-info names who draws the window and the OpenGL version" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("gl-info");
  const auto out = dir / "gl-info.txt";
  const std::string command =
      std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --gl-info > " + out.string();
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(out);
  std::string line;
  REQUIRE(std::getline(in, line));
  CAPTURE(line);
  // "VENDOR, RENDERER, OpenGL 3.3 or newer": Xvfb's is Mesa's llvmpipe.
  const size_t version = line.find(", OpenGL ");
  REQUIRE(version != std::string::npos);
  CHECK(line.compare(version + 9, 1, "3") >= 0);
  CHECK(line.find(", ") < version);
}

TEST_CASE("gui: screenshots of the race explorer's witness and charts, not blank" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  const std::pair<const char*, const char*> views[] = {
      {"witness", "--lesson barrier --n 64 --no-barrier"},
      {"by-block", "--lesson barrier --no-barrier --runs 2"},
      {"float-sums", "--lesson atomic --type float --n 3000 --runs 3"},
      {"output", "--lesson barrier --n 64 --no-barrier --printf"}};
  for (const auto& [view, options] : views)
    CHECK(coloursOfScreenshot(dir / (std::string("race-") + view + ".png"),
                              std::string("--size 1000x700 --view ") + view + " " + options) > 40);
}
#endif

namespace {
// The first block of a kind in a chapter, looking inside folded blocks too.
const rlab::text::Block* findBlock(const std::vector<rlab::text::Block>& blocks,
                                   rlab::text::Block::Kind kind, const std::string& predictKind) {
  for (const auto& b : blocks) {
    if (b.kind == kind && (predictKind.empty() || b.predictKind == predictKind)) return &b;
    if (const auto* inside = findBlock(b.children, kind, predictKind)) return inside;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("gui: a try link in the lesson text sets the controls and runs it") {
  HeadlessImGui imgui(ImVec2(1280, 12000));  // tall enough that the whole text is on screen
  App app;
  app.ui.language = rlab::Language::En;
  settle(app);
  const auto links = rlab::text::tryLinks(*rlab::text::chapter("barrier", rlab::Language::En));
  REQUIRE(!links.empty());
  const auto& link = links.back();
  click(app, "try:" + link.query);
  settle(app);
  const rlab::Params wanted = rlab::paramsFromQuery("barrier", link.query);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.n == rlab::resolve(wanted).params.n);
  CHECK(app.ui.trace->params.barrier == wanted.barrier);
  CHECK(app.ui.trace->params.variant == rlab::resolve(wanted).params.variant);
}

TEST_CASE("gui: a prediction is answered from the run it asks for") {
  HeadlessImGui imgui(ImVec2(1280, 12000));
  App app;
  app.ui.language = rlab::Language::En;
  settle(app);
  const auto* doc = rlab::text::chapter("barrier", rlab::Language::En);
  const auto* predict = findBlock(doc->blocks, rlab::text::Block::Kind::Predict, "result");
  REQUIRE(predict);
  const rlab::Trace truth = rlab::runLesson(rlab::predictionRuns("barrier", *predict).front());
  for (bool guessRight : {false, true}) {
    auto& answer = app.ui.predictions[predict];
    const std::string typed = guessRight ? rlab::formatValue(truth.result, truth.params.type)
                                         : rlab::formatValue(truth.result + 1, truth.params.type);
    std::snprintf(answer.answer.data(), answer.answer.size(), "%s", typed.c_str());
    click(app, "predict:" + predict->query);
    settle(app);
    settle(app);
    CHECK(!answer.waiting);
    CHECK(answer.right == guessRight);
    CHECK(answer.verdict.find(rlab::formatValue(truth.result, truth.params.type)) !=
          std::string::npos);
  }
}

TEST_CASE("gui: settings survive a restart; a damaged or foreign file is ignored with a sentence") {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("rlab-settings-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const std::string path = (folder / "reduction-lab" / "settings.json").string();
  std::string problem;
  CHECK(!rlab::gui::loadSettings(path, problem));  // no file yet: nothing to say
  CHECK(problem.empty());

  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "folding";
  app.ui.params.variant = "";
  app.ui.params.values = {7, 9, 11, 13, 5};
  app.ui.params.op = rlab::Op::Max;
  app.ui.params.backend = rlab::BackendChoice::Sim;
  app.ui.view.presenter = true;
  app.ui.view.textScale = 1.5f;
  app.ui.language = rlab::Language::Zh;
  REQUIRE(rlab::gui::saveSettings(path, rlab::gui::settingsOf(app.ui, 1600, 900), problem));

  App restarted;
  const auto loaded = rlab::gui::loadSettings(path, problem);
  INFO(problem);
  REQUIRE(loaded);
  rlab::gui::applySettings(*loaded, restarted.ui);
  CHECK(restarted.ui.params.lesson == "folding");
  CHECK(restarted.ui.params.values == std::vector<double>{7, 9, 11, 13, 5});
  CHECK(restarted.ui.params.op == rlab::Op::Max);
  CHECK(std::string(restarted.ui.valuesText.data()) == "7,9,11,13,5");
  CHECK(restarted.ui.view.presenter);
  CHECK(restarted.ui.view.textScale == 1.5f);
  CHECK(restarted.ui.language == rlab::Language::Zh);
  CHECK(loaded->width == 1600);
  settle(restarted);
  CHECK(restarted.ui.trace->result == 13);

  // allreduce: the number of GPUs is remembered, and --values split over them gives n per GPU.
  app.ui.params = rlab::Params{};
  app.ui.params.lesson = "allreduce";
  app.ui.params.gpus = 4;
  app.ui.params.values = {1, 2, 3, 4, 5, 6, 7, 8};
  REQUIRE(rlab::gui::saveSettings(path, rlab::gui::settingsOf(app.ui, 1280, 800), problem));
  const auto ranks = rlab::gui::loadSettings(path, problem);
  INFO(problem);
  REQUIRE(ranks);
  CHECK(ranks->params.gpus == 4);
  CHECK(ranks->params.n == 2);

  for (const char* broken : {"{\"params\": ", "[1, 2, 3]", "{\"params\": {\"lesson\": 7}}",
                             "\xff\xfe not json at all"}) {
    std::ofstream(path, std::ios::trunc) << broken;
    CHECK(!rlab::gui::loadSettings(path, problem));
    CHECK(problem.find(path) != std::string::npos);
    CHECK(problem.find("starts with its defaults") != std::string::npos);
  }
  // A lesson that no longer exists is refused like any other bad value.
  auto gone = rlab::gui::settingsOf(app.ui, 1600, 900);
  gone.params.lesson = "warp-magic";
  REQUIRE(rlab::gui::saveSettings(path, gone, problem));
  CHECK(!rlab::gui::loadSettings(path, problem));
  CHECK(problem.find("warp-magic") != std::string::npos);
  std::filesystem::remove_all(folder);
}
// ---- Exercises in the app ----------------------------------------------------------------------

namespace {

// An app whose exercise files live in a folder of their own.
struct ExerciseApp {
  ExerciseApp() {
    std::filesystem::remove_all(folder.path);  // the app writes the folder itself
    app.ui.exerciseFolder = folder.str();
  }
  TempFolder folder{"gui-exercises"};
  HeadlessImGui imgui{ImVec2(1280, 1600)};  // tall: every hint's button in view
  App app;
};

std::string fixture(const char* name) {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("gui: Run once puts the learner's own steps in the player under the editor") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  const auto lessonRun = app.ui.trace;
  const int lessonStep = app.ui.step;
  REQUIRE(lessonRun);
  app.openExercise("tree-in-shared");
  app.setExerciseText(rlab::solutionFile(rlab::exerciseOrThrow("tree-in-shared")));
  app.ui.exercise.runOptions.n = 8;
  app.ui.exercise.runOptions.block = 8;
  click(app, "exercise:run");
  settle(app);
  REQUIRE(app.ui.exercise.trace);
  CHECK(app.ui.exercise.trace->steps.size() == 6);  // input, 4 barriers, out[]
  click(app, "forward");
  click(app, "forward");
  CHECK(app.ui.exercise.step == 2);
  CHECK(app.ui.step == lessonStep);  // the lesson's player did not move ...
  CHECK(app.ui.trace == lessonRun);  // ... and its run waits behind the exercise
  app.closeExercise();
  settle(app);
  CHECK(app.ui.trace == lessonRun);
}

TEST_CASE("gui: an exercise opens in the editor with its starting file, and passes once solved") {
  ExerciseApp t;
  App& app = t.app;
  settle(app);
  click(app, "exercise:fold-any-length");
  const rlab::Exercise& e = rlab::exerciseOrThrow("fold-any-length");
  REQUIRE(app.ui.exercise.id == e.id);
  CHECK(app.ui.exercise.text == rlab::startFile(e));
  CHECK(std::filesystem::exists(t.folder / "fold-any-length.cu"));
  click(app, "exercise:editor");  // the editor is there and takes focus

  app.setExerciseText(rlab::solutionFile(e));  // as if pasted
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK_MESSAGE(app.ui.exercise.report->passed(), app.ui.exercise.report->summary());
  CHECK(app.ui.exercise.passed);
  CHECK_FALSE(app.ui.exercise.dirty);  // saved before the check

  // The solution opens at once after a pass; hints one at a time.
  click(app, "exercise:solution");
  CHECK(app.ui.exercise.solutionShown);
  click(app, "exercise:hint");
  click(app, "exercise:hint");
  CHECK(app.ui.exercise.hintsOpen == 2);

  click(app, "lesson:folding");  // back to the lesson
  CHECK(app.ui.exercise.id.empty());
}

TEST_CASE("gui: a compile error comes back at its line; a crash leaves the app running") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("one-queue");
  app.setExerciseText(fixture("compile_error.cu"));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::CompileError);
  REQUIRE_FALSE(app.ui.exercise.report->diagnostics.empty());
  CHECK(app.ui.exercise.report->diagnostics.front().line == 5);

  app.setExerciseText(fixture("null_pointer.cu"));
  click(app, "exercise:check");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  REQUIRE(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::Failed);
  CHECK(app.ui.exercise.report->failures.front().find("used a null pointer") != std::string::npos);
  CHECK(app.ui.exercise.text == fixture("null_pointer.cu"));  // the text is kept

  // The solution asks once before it opens without a pass.
  click(app, "exercise:solution");
  CHECK_FALSE(app.ui.exercise.solutionShown);
  click(app, "exercise:solution");
  CHECK(app.ui.exercise.solutionShown);
}

TEST_CASE("gui: a file changed on disk is reloaded, or the learner chooses when both changed") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("one-queue");
  const std::string file = app.ui.exercise.file;
  const auto later = [&](const std::string& text) {
    std::ofstream(file, std::ios::trunc) << text;
    std::filesystem::last_write_time(
        file, std::filesystem::last_write_time(file) + std::chrono::seconds(2));
    for (int k = 0; k < 40; ++k) frame(app);  // the app looks twice a second
  };
  later("// edited elsewhere\n");
  CHECK(app.ui.exercise.text == "// edited elsewhere\n");
  CHECK_FALSE(app.ui.exercise.changedOnDisk);

  app.setExerciseText(app.ui.exercise.text + "// and here\n");
  later("// edited elsewhere again\n");
  CHECK(app.ui.exercise.changedOnDisk);
  CHECK(app.ui.exercise.text == "// edited elsewhere\n// and here\n");  // nothing lost
}

TEST_CASE("gui: a check that never ends can be cancelled") {
  ExerciseApp t;
  App& app = t.app;
  app.openExercise("fold-any-length");
  app.setExerciseText(fixture("never_ends.cu"));
  // No case limit can end the check first, however slow the machine: only Cancel can.
  app.ui.exercise.caseSeconds = 3600;
  click(app, "exercise:check");
  while (app.exerciseStage() != "checking") {
    REQUIRE(app.exerciseBusy());  // compiling, then checking: never done by itself
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    frame(app);
  }
  click(app, "exercise:cancel");
  settle(app);
  REQUIRE(app.ui.exercise.report);
  CHECK(app.ui.exercise.report->verdict == rlab::ExerciseVerdict::Cancelled);
}

#ifdef RLAB_GUI_BINARY
TEST_CASE("gui: a screenshot of an exercise after its check, not blank" * doctest::skip(noXvfb())) {
  const TempFolder dir("exercise-screenshot");
  const auto png = dir / "exercise.png";
  const std::string command = std::string("xvfb-run -a ") + RLAB_GUI_BINARY + " --screenshot " +
                              png.string() + " --exercise fold-any-length --exercise-dir " +
                              dir.str() + " --exercise-action check --hints 1 --size 1000x700";
  CAPTURE(command);
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(std::filesystem::exists(dir / "fold-any-length.cu"));  // the starting file, written
  CHECK(readPicture(png.string()).colours > 40);
}
#endif

TEST_CASE("gui: the lesson text's memory link opens the Memory view on the simulator's sectors") {
  HeadlessImGui imgui(ImVec2(1280, 12000));  // tall enough that the whole text is on screen
  App app;
  app.ui.language = rlab::Language::En;
  settle(app);
  click(app, "lesson:divergence");
  settle(app);
  std::string query;
  for (const auto& link :
       rlab::text::tryLinks(*rlab::text::chapter("divergence", rlab::Language::En)))
    if (link.query.find("memory") != std::string::npos &&
        link.query.find("barrier") != std::string::npos)
      query = link.query;
  REQUIRE(!query.empty());
  click(app, "try:" + query);
  settle(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.lesson == "barrier");
  CHECK(app.ui.trace->memoryRecorded);
  // The Memory tab is in front: its block and warp controls are drawn, at every step and warp.
  for (int warp : {0, 1})
    for (int step = 0; step < int(app.ui.trace->steps.size()); ++step) {
      app.ui.step = step;
      app.ui.memoryWarp = warp;
      app.ui.widgetRects.erase("memory warp");
      frame(app);
      CHECK(app.ui.widgetRects.count("memory warp") == (step > 0 ? 1u : 0u));
    }
  // Step 1, warp 0: 16 lanes, 4 sectors for 64 useful bytes in each request.
  REQUIRE(app.ui.trace->steps.size() > 1);
  for (const auto& r : app.ui.trace->steps[1].memory) {
    CHECK(r.sectors == 4);
    CHECK(r.usefulBytes == 64);
  }
  // A shared-memory variant records nothing and says where its cost shows instead.
  click(app, "lesson:divergence");
  settle(app);
  app.ui.requestTab = rlab::gui::ViewTab::Memory;
  app.ui.widgetRects.erase("memory warp");
  frame(app);
  frame(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.lesson == "divergence");
  CHECK_FALSE(app.ui.trace->memoryRecorded);
  CHECK(app.ui.widgetRects.count("memory warp") == 0);
}

TEST_CASE("gui: a screenshot of the Memory view, not blank" * doctest::skip(noXvfb())) {
  const TempFolder dir("screenshots");
  CHECK(coloursOfScreenshot(dir / "memory.png",
                            "--lesson barrier --variant global --n 64 --step 2 --view memory "
                            "--size 1000x700") > 40);
}
