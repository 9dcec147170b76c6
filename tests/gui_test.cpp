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
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

using rlab::gui::App;

namespace {

// The race explorer in front, K runs asked for, one of its buttons clicked and its job done.
void runInRaceExplorer(App& app, int runs, const std::string& button) {
  app.ui.requestTab = rlab::gui::ViewTab::Race;
  frame(app);
  app.ui.raceRuns = runs;
  click(app, button);
  settle(app);
}

}  // namespace

TEST_CASE("gui: clicking the barrier toggle re-runs the race, the step buttons move the player") {
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

TEST_CASE("gui: ticking printf re-runs with every third thread printing, its tab lists the lines") {
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
    "gui: the speed-up table draws under the timing chart, on the simulator, what is missing") {
  HeadlessImGui imgui(ImVec2(1920, 1080));  // room for both (smaller: a tab each)
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

TEST_CASE("gui: subtract shows every kernel's answer, no verdict, a variant without it resets it") {
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
  CHECK(rlab::english(app.ui.trace->steps.at(1).label).find("stride") ==
        0);                          // the tree adds the loads
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

TEST_CASE("gui: an all-reduce's result has a verdict for every GPU, the wrong ones marked") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  click(app, "lesson:allreduce");
  settle(app);
  click(app, "variant:ring");
  settle(app);
  click(app, "gpus:8");
  settle(app);
  REQUIRE(app.ui.trace);
  REQUIRE(app.ui.trace->gpus == 8);
  // The verdict chips drawn in the last frame, by GPU: "right" or "wrong", and where.
  auto verdicts = [&] {
    std::map<std::string, ImVec4> drawn;
    for (const auto& [name, rect] : app.ui.widgetRects)
      if (name.rfind("rank verdict ", 0) == 0) drawn[name] = rect;
    return drawn;
  };
  auto drawFresh = [&] {
    std::erase_if(app.ui.widgetRects,
                  [](const auto& item) { return item.first.rfind("rank verdict ", 0) == 0; });
    frame(app);
    return verdicts();
  };
  const auto right = drawFresh();
  REQUIRE(right.size() == 8);
  for (int r = 0; r < 8; ++r) CHECK(right.count("rank verdict " + std::to_string(r) + ": right"));
  for (auto a = right.begin(); a != right.end(); ++a)  // side by side or on lines of their own
    for (auto b = std::next(a); b != right.end(); ++b)
      CHECK_FALSE((a->second.x < b->second.z && b->second.x < a->second.z &&
                   a->second.y < b->second.w && b->second.y < a->second.w));
  // The same run with GPU 5 off in 3 of its elements: that GPU's chip says so, the rest do not.
  auto broken = std::make_shared<rlab::Trace>(*app.ui.trace);
  broken->correct = false;
  broken->rankWrongElements[5] = 3;
  app.ui.trace = broken;
  const auto wrong = drawFresh();
  REQUIRE(wrong.size() == 8);
  CHECK(wrong.count("rank verdict 5: wrong"));
  CHECK(wrong.count("rank verdict 4: right"));
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
  CHECK(tree == std::vector<std::string>{"lessons/divergence/driver.hpp",
                                         "lessons/engine/run/tree_passes.hpp"});
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
  CHECK(rlab::english(app.ui.paramError).find("1 to 1024") != std::string::npos);
  CHECK(app.ui.trace == before);
}

TEST_CASE("gui: a stall schedule's late thread must be a thread of the block") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  const auto before = app.ui.trace;
  app.ui.params.n = 8;
  app.ui.params.backend = rlab::BackendChoice::Sim;
  app.ui.params.schedule = "stall:9:2:1";  // n = 8: threads 0 to 7
  app.ui.rerunWanted = true;
  settle(app);
  CHECK(
      rlab::english(app.ui.paramError).find("stalls thread 9, but the block has threads 0 to 7.") !=
      std::string::npos);
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

TEST_CASE("gui: settings survive a restart, a damaged or foreign file is ignored with a sentence") {
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

  rlab::gui::setUiLanguage(rlab::Language::En);  // the restart above speaks Chinese
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
