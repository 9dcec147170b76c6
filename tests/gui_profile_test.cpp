// The app's Profile tab and timing chart, driven headless: without a GPU they say why and keep
// the app's state; a profile shows its counters, the lesson's first, beside the simulator's
// prediction; a GPU's recording ($RLAB_RECORDINGS: the hand-written sample) is offered, labelled.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "lessons/engine/gpu_tools/bench.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"

using rlab::gui::App;

namespace {

bool drawn(const App& app, const std::string& widget) {
  return app.ui.widgetRects.count(widget) > 0;
}

void show(App& app, rlab::gui::ViewTab tab) {
  app.ui.requestTab = tab;
  frame(app);
  app.ui.widgetRects.clear();
  frame(app);
}

// Before anything reads the recordings in this process (each test case runs in its own).
void useSampleRecording() {
  setenv("RLAB_RECORDINGS", (std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/recordings").c_str(),
         1);
}

void chooseStrided(App& app) {
  app.ui.params.lesson = "divergence";
  app.ui.params.variant = "strided";
  app.ui.params.n = 64;
  app.ui.params.block = 64;
  settle(app);
}

}  // namespace

TEST_CASE("gui: the Profile tab without a GPU or ncu says why, and a failed start keeps all") {
  HeadlessImGui imgui;
  App app;
  if (app.ui.gpuUsable && !rlab::findCudaTool("ncu").empty()) return;  // it could profile here
  chooseStrided(app);
  REQUIRE(app.ui.trace);
  const auto before = app.ui.trace;
  show(app, rlab::gui::ViewTab::Profile);
  CHECK(drawn(app, "profile-why"));
  CHECK_FALSE(drawn(app, "profile-run"));
  // Asked anyway (as a stale click could): one sentence in the tab, nothing else changes.
  app.startProfile();
  settle(app);
  CHECK_FALSE(app.ui.profile.error.empty());
  CHECK_FALSE(app.ui.profile.report);
  CHECK(app.ui.trace == before);
  CHECK(app.ui.params.variant == "strided");
  app.ui.widgetRects.clear();
  frame(app);
  CHECK(drawn(app, "profile-error"));
}

TEST_CASE("gui: a profile on screen, the lesson's counters first, the prediction beside them") {
  HeadlessImGui imgui;
  App app;
  chooseStrided(app);
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/ncu/details-strided.txt");
  std::stringstream text;
  text << in.rdbuf();
  rlab::ProfileReport report;
  report.params = rlab::resolve(app.ui.params).params;
  report.device = "a GPU of the test";
  rlab::summarizeLaunches(rlab::parseNcuOutput(text.str()).launches, report.params, report);
  report.predicted = rlab::predictOnSimulator(report.params, report.predictionNote);
  app.ui.profile.report = report;
  show(app, rlab::gui::ViewTab::Profile);
  CHECK(drawn(app, "profile-here"));
  for (rlab::Counter c : rlab::proofCounters(report.params))
    CHECK_MESSAGE(drawn(app, std::string("profile-row:") + rlab::info(c).key), rlab::info(c).key);
  CHECK(drawn(app, "profile-predicted:shared_bank_conflicts"));
  // Another lesson on screen: that profile is not this run's, and none is shown for it.
  app.ui.params.lesson = "folding";
  app.ui.params.variant = "default";
  app.ui.params.n = 9;
  app.ui.params.block = 0;
  settle(app);
  show(app, rlab::gui::ViewTab::Profile);
  CHECK_FALSE(drawn(app, "profile-here"));
}

TEST_CASE("gui: without a GPU the Profile tab shows a GPU's recorded profile, labelled") {
  useSampleRecording();
  HeadlessImGui imgui;
  App app;
  if (app.ui.gpuUsable) return;
  chooseStrided(app);
  show(app, rlab::gui::ViewTab::Profile);
  REQUIRE_FALSE(rlab::recordings().empty());  // read first in this process: the sample
  CHECK(drawn(app, "profile-recorded"));
  CHECK(drawn(app, "profile-predicted:shared_bank_conflicts"));
  CHECK(rlab::gui::recordedOnText(rlab::recordings().front().path) ==
        "measured on Sample GPU 9000, 2026-01-02, not on this machine");
}

TEST_CASE("gui: the timing chart without a GPU: kernel times need one, a recording instead") {
  useSampleRecording();
  HeadlessImGui imgui;
  App app;
  if (app.ui.gpuUsable) return;
  settle(app);
  show(app, rlab::gui::ViewTab::Timing);
  CHECK(drawn(app, "timing-needs-gpu"));
  CHECK(drawn(app, "recording"));  // the recordings to choose from
  CHECK(drawn(app, "timing-chart"));
  REQUIRE_FALSE(app.ui.bench.recording.empty());
  CHECK(app.ui.bench.gpuTimes);
  CHECK(app.ui.bench.rows.size() == 10);
  // 1280 x 800: the chart and the table a tab each, the table one click away.
  CHECK(drawn(app, "timing-tab:table"));
  click(app, "timing-tab:table");
  CHECK(drawn(app, "speedup-row:fastest"));  // the recorded GPU's table, every kernel
  CHECK(drawn(app, "speedup-row:cpu loop"));
  click(app, "timing-tab:chart");
  // The simulator's own speed, asked for: no recording, and no CPU loop in the chart's lines.
  rlab::BenchRequest request;
  request.sizes = {64, 256};
  request.kernels = {{"shared", "multiblock"}};
  app.ui.bench = {};
  app.ui.bench.rows = rlab::benchSimulator(request, nullptr);
  app.ui.bench.gpuTimes = false;
  show(app, rlab::gui::ViewTab::Timing);
  CHECK(drawn(app, "timing-needs-gpu"));
  CHECK(drawn(app, "timing-chart"));
  click(app, "timing-tab:table");
  CHECK(drawn(app, "speedup-needs-gpu"));
  CHECK(app.ui.bench.recording.empty());
}
