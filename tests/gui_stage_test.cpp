// The stage (presenter mode and small windows) and the pictures on it, driven in a headless
// ImGui: the keys a clicker and a teacher press, verdicts that never mislead, the controls that
// follow what ran, pictures readable at any n, and labels that never overlap or get cut off.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/tabs.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"

using rlab::gui::App;

namespace {

// A key pressed for one frame, then released.
void press(App& app, int key) {
  frame(app, ImVec2(-1, -1), false, key);
  frame(app);
}

#if IMGUI_VERSION_NUM >= 18700
int letter(char c) {
  return ImGuiKey_A + (c - 'A');
}
#else
int letter(char c) {
  return c;  // the app reads letters as GLFW's key codes, their capitals in ASCII
}
#endif

// Every label of the frame: none overlaps another in its window, and ImGui's own labels (a
// title, a verdict) lie inside their window.
void checkLabels(const std::string& what) {
  const auto& labels = rlab::gui::labelsThisFrame();
  for (size_t i = 0; i < labels.size(); ++i) {
    const auto& a = labels[i];
    if (ImGuiWindow* w = ImGui::FindWindowByName(a.window.c_str())) {
      const ImRect inside = w->InnerClipRect;
      CHECK_MESSAGE((a.min.x >= inside.Min.x - 1 && a.max.x <= inside.Max.x + 1 &&
                     a.min.y >= inside.Min.y - 1 && a.max.y <= inside.Max.y + 1),
                    what << ": \"" << a.text << "\" is cut off by its window " << a.window);
    }
    for (size_t j = i + 1; j < labels.size(); ++j) {
      const auto& b = labels[j];
      if (a.window != b.window) continue;
      const bool overlap = a.min.x < b.max.x - 0.5f && b.min.x < a.max.x - 0.5f &&
                           a.min.y < b.max.y - 0.5f && b.min.y < a.max.y - 0.5f;
      CHECK_MESSAGE(!overlap, what << ": \"" << a.text << "\" overlaps \"" << b.text << "\"");
    }
  }
}

}  // namespace

TEST_CASE("stage: presenter mode takes the stage, M opens the drawer, Esc closes it") {
  HeadlessImGui imgui;
  App app;
  app.ui.view.presenter = true;
  settle(app);
  CHECK(app.onStage());
  CHECK(app.ui.widgetRects.count("drawer"));   // the drawer's button on the bar
  CHECK_FALSE(app.ui.widgetRects.count("n"));  // the controls wait in the drawer
  press(app, letter('M'));
  CHECK(app.ui.view.drawerOpen);
  frame(app);
  CHECK(app.ui.widgetRects.count("drawer:Lessons"));
  press(app, ImGuiKey_Escape);
  CHECK_FALSE(app.ui.view.drawerOpen);
  // A small window takes the stage too; a desk-sized one without presenter mode does not.
  app.ui.view.presenter = false;
  frame(app);
  CHECK_FALSE(app.onStage());
  ImGui::GetIO().DisplaySize = ImVec2(900, 600);
  CHECK(app.onStage());
}

TEST_CASE(
    "stage: a clicker's Page Down and Page Up step, B switches the barrier, W finds a witness") {
  HeadlessImGui imgui;
  App app;
  app.ui.view.presenter = true;
  app.ui.params.schedule = "stall:4:2:1";
  settle(app);
  REQUIRE(app.ui.trace);
  app.stepTo(0);
  press(app, ImGuiKey_PageDown);
  CHECK(app.ui.step == 1);
  press(app, ImGuiKey_PageDown);
  CHECK(app.ui.step == 2);
  press(app, ImGuiKey_PageUp);
  CHECK(app.ui.step == 1);
  press(app, letter('B'));
  CHECK_FALSE(app.ui.params.barrier);
  settle(app);
  CHECK(app.ui.trace->result == 21);
  app.ui.params.schedule = "lockstep";
  app.ui.rerunWanted = true;
  settle(app);
  press(app, letter('W'));
  settle(app);
  REQUIRE(app.ui.race.witness);
  REQUIRE(app.ui.race.witness->found);
  CHECK(app.witnessOnScreen());
}

TEST_CASE("gui: a witness sets the controls to the run it is, so Run repeats it") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.barrier = false;
  settle(app);
  REQUIRE(app.ui.trace);
  app.startWitness();
  settle(app);
  REQUIRE(app.ui.race.witness);
  REQUIRE(app.ui.race.witness->found);
  const std::string witness = app.ui.race.witness->trace->params.schedule;
  CHECK(witness.rfind("stall:", 0) == 0);
  CHECK(app.ui.params.schedule == witness);  // the controls say what ran
  CHECK(app.ui.params.backend == rlab::BackendChoice::Sim);
  CHECK(app.ui.params.block == 0);  // still automatic: it gave the block that ran
  const double result = app.ui.trace->result;
  app.requestRun();
  settle(app);
  CHECK(app.ui.trace->params.schedule == witness);  // Run repeated the witness
  CHECK(app.ui.trace->result == result);
  CHECK_FALSE(app.ui.trace->correct);
}

TEST_CASE("gui: a racy run that came out right is never a bare CORRECT") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.barrier = false;  // barrier global, n = 8, lockstep: right this time
  settle(app);
  REQUIRE(app.ui.trace);
  REQUIRE(app.ui.trace->correct);
  const rlab::gui::Verdict v = rlab::gui::verdictOf(app);
  CHECK(v.kind == rlab::gui::Verdict::Kind::RightThisTime);
  CHECK(v.headline != "CORRECT");
  REQUIRE(app.ui.liveRate);  // how often it goes wrong, measured beside it
  CHECK(app.ui.liveRate->forRun == app.ui.trace);
  CHECK(app.ui.liveRate->runs == rlab::gui::kLiveRaceRuns);
  CHECK(app.ui.liveRate->wrong > 0);
  CHECK(v.rate.find("wrong in " + std::to_string(app.ui.liveRate->wrong) + " of 100") !=
        std::string::npos);
  // With the barrier on, CORRECT is plain again.
  app.ui.params.barrier = true;
  app.ui.rerunWanted = true;
  settle(app);
  CHECK(rlab::gui::verdictOf(app).kind == rlab::gui::Verdict::Kind::Correct);
}

TEST_CASE("gui: the barrier lesson's suggestion is a button that sets the controls and runs") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.barrier = false;
  app.ui.params.n = 16;
  app.ui.requestTab = rlab::gui::ViewTab::LessonView;
  settle(app);
  click(app, "suggestion:try:n=8&barrier=off&schedule=stall:4:2:1&backend=sim");
  settle(app);
  CHECK(app.ui.params.n == 8);
  CHECK(app.ui.params.schedule == "stall:4:2:1");
  CHECK(app.ui.trace->result == 21);
}

TEST_CASE("gui: butterfly shuffle at n = 8 shows all 32 lanes, the partners of lanes 0-7 hold 0") {
  rlab::Params p;
  p.lesson = "butterfly";
  p.variant = "shuffle";
  p.n = 8;
  p.backend = rlab::BackendChoice::Sim;
  const rlab::Trace t = rlab::runLesson(p);
  REQUIRE(t.steps.size() == 12);  // the input, 5 in the warp, the warps' totals, 5 across them
  for (const rlab::StepSnapshot& s : t.steps) {
    CHECK(s.values.size() == 32);  // every lane, those past n too
    CHECK(s.paddingFrom == 8);
  }
  // Step 1, lane ^ 16: lane 0 adds lane 16's 0 and lane 16 adds lane 0's 1: both drawn.
  const auto& pairs = t.steps[1].pairs;
  CHECK(std::count(pairs.begin(), pairs.end(), std::make_pair(16, 0)) == 1);
  CHECK(std::count(pairs.begin(), pairs.end(), std::make_pair(0, 16)) == 1);
  CHECK(t.steps[1].values[16] == 1);
  CHECK(t.steps[5].values[0] == 36);
  CHECK(t.steps[5].values[31] == 36);  // every lane holds the warp's total
  // The phase over the warps' totals is labelled as such, and its partners are real lanes.
  CHECK(t.steps[6].cells == rlab::CellKind::LaneWarpTotals);
  CHECK(t.steps[6].values[0] == 36);
  CHECK(t.steps[6].values[1] == 0);  // one warp: lane 1 holds no warp's total
  for (size_t k = 7; k < t.steps.size(); ++k)
    for (const auto& [source, target] : t.steps[k].pairs) CHECK(source != target);
  CHECK(t.steps.back().values[4] == 36);
  CHECK(t.correct);
}

TEST_CASE("gui: at n = 1000 the array shows a window of readable cells and an overview strip") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "shared";
  app.ui.params.variant = "coarsened";
  app.ui.params.n = 1000;
  settle(app);
  app.stepTo(0);
  frame(app);
  CHECK(app.ui.widgetRects.count("array overview"));
  CHECK(app.ui.widgetRects.count("array page forward"));
  const long long first = app.ui.arrayWindow.first;
  click(app, "array page forward");
  CHECK(app.ui.arrayWindow.first > first);
  CHECK(app.ui.arrayWindow.movedByHand);
}

TEST_CASE("stage: coarsening's reads, a column per thread from the run's record, at 1280x800") {
  // 400 high: a window where 8 rows of reads do not fit, so that their pager is needed.
  for (const float height : {800.f, 400.f})
    for (const long long n : {8ll, 1000ll, 65536ll}) {
      CAPTURE(n);
      CAPTURE(height);
      HeadlessImGui imgui(ImVec2(1280, height));
      App app;
      app.ui.view.presenter = true;
      app.ui.params.lesson = "shared";
      app.ui.params.variant = "coarsened";
      app.ui.params.n = n;
      settle(app);
      app.stepTo(1);
      frame(app);
      REQUIRE(app.ui.trace);
      const auto& gathers = app.ui.trace->steps.at(1).gathers;
      REQUIRE_FALSE(gathers.empty());
      std::set<std::string> drawn;
      for (const auto& label : rlab::gui::labelsThisFrame()) drawn.insert(label.text);
      CHECK(drawn.count("t0"));
      CHECK(drawn.count("k=0"));
      // Every read thread 0 made has its row: drawn, or reached with the rows' pager.
      const int reads = int(gathers[0].elements.size());
      const std::string last = "k=" + std::to_string(reads - 1);
      for (int page = 0; page < reads && !drawn.count(last); ++page) {
        REQUIRE(app.ui.widgetRects.count("gather rows forward"));
        click(app, "gather rows forward");
        frame(app);
        drawn.clear();
        for (const auto& label : rlab::gui::labelsThisFrame()) drawn.insert(label.text);
        checkLabels("shared coarsened gather at n = " + std::to_string(n) + ", rows paged");
      }
      CHECK(drawn.count(last));
      if (n == 65536 && height < 500) CHECK(app.ui.arrayWindow.firstRow > 0);
      if (n > 8) CHECK(app.ui.widgetRects.count("array page forward"));
      checkLabels("shared coarsened gather at n = " + std::to_string(n));
    }
}

TEST_CASE("stage: no two labels overlap and none is cut off, for every lesson at three sizes") {
  for (const ImVec2 size : {ImVec2(1024, 768), ImVec2(1280, 800), ImVec2(1920, 1080)}) {
    HeadlessImGui imgui(size);
    App app;
    app.ui.view.presenter = true;
    for (const rlab::LessonInfo& lesson : rlab::lessons())
      for (const rlab::VariantInfo& variant : lesson.variants) {
        app.ui.params = rlab::Params{};
        app.ui.params.lesson = lesson.id;
        app.ui.params.variant = variant.id;
        app.ui.params.n = lesson.defaultN;
        app.ui.params.backend = rlab::BackendChoice::Sim;
        app.ui.rerunWanted = true;
        settle(app);
        for (int step = 0; step < app.stepCount(); ++step) {
          app.stepTo(step);
          frame(app);
          checkLabels(lesson.id + " " + variant.id + " at " + std::to_string(int(size.x)) +
                      " step " + std::to_string(step));
        }
      }
  }
}

TEST_CASE("desk: every tab shows its whole label on a laptop's screen, in every language") {
  for (const ImVec2 size : {ImVec2(1280, 800), ImVec2(1366, 768)})
    for (const rlab::Language language : rlab::kLanguages) {
      rlab::gui::setUiLanguage(language);
      HeadlessImGui imgui(size);
      App app;
      app.ui.view.presenter = false;
      settle(app);
      frame(app);
      const float padding = ImGui::GetStyle().FramePadding.x * 2;
      for (const auto& [tab, entry] : rlab::gui::viewTabs()) {
        const auto found = app.ui.widgetRects.find(std::string("tab:") + entry.name);
        REQUIRE(found != app.ui.widgetRects.end());
        const float width = found->second.z - found->second.x;
        const float label = ImGui::CalcTextSize(entry.label(), nullptr, true).x;
        CHECK_MESSAGE(width >= label + padding - 1, entry.name << " at " << size.x << "x" << size.y
                                                               << " in " << rlab::code(language)
                                                               << ": " << width << " < " << label);
      }
    }
  rlab::gui::setUiLanguage(rlab::Language::En);
}

TEST_CASE("desk: Run and Reset settings stay in view with a stall schedule's rows, on a laptop") {
  for (const ImVec2 size : {ImVec2(1280, 800), ImVec2(1366, 768)}) {
    HeadlessImGui imgui(size);
    App app;
    app.ui.view.presenter = false;
    app.ui.params.lesson = "barrier";
    app.ui.params.barrier = false;
    app.ui.params.schedule = "stall:4:2:1";
    app.ui.rerunWanted = true;
    settle(app);
    frame(app);  // the layout takes the controls' height from the frame before
    ImGuiWindow* controls = ImGui::FindWindowByName(rlab::gui::trId("Controls"));
    REQUIRE(controls);
    for (const char* widget : {"run", "reset"}) {
      const auto found = app.ui.widgetRects.find(widget);
      REQUIRE(found != app.ui.widgetRects.end());
      CHECK_MESSAGE(found->second.w <= controls->InnerClipRect.Max.y + 0.5f,
                    widget << " at " << size.x << "x" << size.y << " ends at " << found->second.w
                           << ", the panel at " << controls->InnerClipRect.Max.y);
    }
  }
}

TEST_CASE(
    "gui: a new run's array window starts where its step works, not where the last one stood") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "shared";
  app.ui.params.variant = "multiblock";
  app.ui.params.n = 1000;
  settle(app);
  app.stepTo(1);  // the load: every thread of every block works
  frame(app);
  const long long start = app.ui.arrayWindow.first;
  click(app, "array page forward");
  click(app, "array page forward");
  const long long paged = app.ui.arrayWindow.first;
  REQUIRE(paged > start);
  app.ui.params.data = "random:3";  // another run of the same size
  app.ui.rerunWanted = true;
  settle(app);
  frame(app);
  CHECK_FALSE(app.ui.arrayWindow.movedByHand);
  CHECK(app.ui.arrayWindow.first < paged);
}

TEST_CASE("gui: a run that kept no steps is adopted at step 0, not -1") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  auto untraced = std::make_shared<rlab::Trace>(*app.ui.trace);
  untraced->steps.clear();
  app.adoptRun(untraced);
  CHECK(app.ui.step == 0);
  frame(app);  // and every panel draws it
}
