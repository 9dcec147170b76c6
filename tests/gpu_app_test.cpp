// The desktop app's frame code on the CUDA device, headless: it starts on the GPU, every lesson
// and variant runs there from the app and is right, the race explorer finds the perturbed race,
// racecheck from the app names the shared-memory race, and the Profile tab profiles the run on
// screen (where ncu is). A binary of its own, skipped (77)
// where no device works; run it on the GPU machine.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "app/gui/app.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "tests/temp_folder.hpp"
#include "tests/app_driver.hpp"
#include "tests/headless_imgui.hpp"

using rlab::gui::App;

namespace {

void frames(App& app, int count = 3) {
  for (int k = 0; k < count; ++k) {
    app.waitForWork();
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    app.frame(1.0f / 60);
    ImGui::Render();
  }
}

}  // namespace

TEST_CASE("gpu app: starts on the GPU, names it, and re-runs a changed control there") {
  HeadlessImGui imgui;
  App app;
  CHECK(app.ui.params.backend == rlab::BackendChoice::Gpu);
  CHECK(rlab::english(app.ui.gpuName).find("compute capability") != std::string::npos);
  frames(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->backend == rlab::BackendChoice::Gpu);
  CHECK(app.ui.trace->correct);
  app.ui.params.barrier = false;  // as the checkbox does: no Run pressed
  app.ui.params.perturb = true;
  app.ui.params.n = 256;
  app.ui.rerunWanted = true;
  frames(app);
  CHECK(app.ui.trace->params.n == 256);
  CHECK(!app.ui.trace->params.barrier);
  CHECK(app.ui.trace->backend == rlab::BackendChoice::Gpu);
}

TEST_CASE("gpu app: every lesson and variant runs on the GPU from the app and is right") {
  HeadlessImGui imgui;
  App app;
  const int devices = rlab::probeGpu().devices;
  for (const rlab::LessonInfo& lesson : rlab::lessons())
    for (const rlab::VariantInfo& variant : lesson.variants) {
      if (lesson.defaultGpus > devices) {  // allreduce on a machine of one GPU
        MESSAGE("skipped " << lesson.id << ": it needs " << lesson.defaultGpus << " GPUs");
        break;
      }
      CAPTURE(lesson.id);
      CAPTURE(variant.id);
      app.ui.params = rlab::Params{};
      app.ui.params.lesson = lesson.id;
      app.ui.params.variant = variant.id;
      app.ui.params.n = lesson.defaultN;
      app.ui.params.backend = rlab::BackendChoice::Gpu;
      app.runNow();
      REQUIRE(app.ui.trace);
      CHECK(app.ui.trace->backend == rlab::BackendChoice::Gpu);
      // Harris's last warp counts on lanes in step (plain: on values nvcc kept in registers);
      // the race lessons test how often it is wrong.
      if (!variant.needsLanesInStep()) CHECK(app.ui.trace->correct);
    }
}

TEST_CASE(
    "gpu app: allreduce asking for more GPUs than there are runs on the simulator, saying why") {
  HeadlessImGui imgui;
  App app;
  const int devices = rlab::probeGpu().devices;
  int asked = 2;
  while (asked <= devices) asked *= 2;
  if (asked > 8) {
    MESSAGE("skipped: this machine has " << devices << " GPUs, as many as the lesson takes");
    return;
  }
  frames(app);
  app.ui.params.lesson = "allreduce";
  app.ui.params.variant = "ring";
  app.ui.params.gpus = asked;
  app.ui.params.n = 8;
  app.ui.params.backend = rlab::BackendChoice::Gpu;  // the GPU chosen in the controls
  app.ui.rerunWanted = true;
  frames(app);
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->params.lesson == "allreduce");
  CHECK(app.ui.trace->backend == rlab::BackendChoice::Sim);
  CHECK(app.ui.trace->correct);
  CHECK(!app.ui.statusIsError);
  CHECK(app.ui.status.find("This machine has " + std::to_string(devices) + " GPU") == 0);
  CHECK(app.ui.params.backend == rlab::BackendChoice::Gpu);  // the choice is kept
}

TEST_CASE("gpu app: the race explorer finds the perturbed race on the GPU") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.barrier = false;
  app.ui.params.perturb = true;
  app.ui.params.n = 256;
  app.ui.raceRuns = 50;
  app.startRace();
  app.waitForWork();
  frames(app);
  CHECK(app.ui.race.result.backend == rlab::BackendChoice::Gpu);
  CHECK(app.ui.race.result.runs == 50);
  CHECK(app.ui.race.result.wrong > 0);
  std::printf("race explorer on the GPU: %d of %d perturbed runs wrong\n", app.ui.race.result.wrong,
              app.ui.race.result.runs);
}

TEST_CASE("gpu app: racecheck from the app names the shared-memory race and its line") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.variant = "shared";
  app.ui.params.barrier = false;
  app.ui.params.n = 256;
  app.startRacecheck();
  app.waitForWork();
  frames(app);
  REQUIRE(app.ui.race.racecheck);
  const auto& report = *app.ui.race.racecheck;
  INFO(report.runError);
  CHECK(!report.clean);
  bool named = false;
  for (const auto& hazard : report.hazards)
    for (const auto& site : hazard.sites) named |= site.file == "barrier.cuh" && site.line > 0;
  CHECK(named);

  // A click on the first hazard's line marks that line in the source panel.
  app.ui.requestTab = rlab::gui::ViewTab::Race;  // the race explorer, where the report is
  frames(app);
  click(app, "hazard site 0");
  const auto& first = report.hazards.front();
  auto site = first.sites.begin();
  while (site != first.sites.end() && site->file.empty()) ++site;
  REQUIRE(site != first.sites.end());
  CHECK(app.ui.markedSourceFile == site->file);
  CHECK(app.ui.markedSourceLine == site->line);
}

TEST_CASE("gpu app: a GPU run with the barrier off is followed by its live race rate") {
  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "barrier";
  app.ui.params.variant = "global";
  app.ui.params.n = 256;
  app.ui.params.barrier = false;
  app.ui.params.perturb = true;
  app.ui.rerunWanted = true;
  frames(app, 6);  // the run, then the rate in the background, then applied
  REQUIRE(app.ui.trace);
  CHECK(app.ui.trace->backend == rlab::BackendChoice::Gpu);
  REQUIRE(app.ui.liveRate);
  CHECK(app.ui.liveRate->forRun == app.ui.trace);
  CHECK(app.ui.liveRate->runs == rlab::gui::kLiveRaceRuns);
  MESSAGE("perturbed, barrier off: wrong in " << app.ui.liveRate->wrong << " of "
                                              << app.ui.liveRate->runs << " runs");
  CHECK(app.ui.liveRate->wrong > 0);
  // The barrier back on: no rate is measured for that run.
  app.ui.params.barrier = true;
  app.ui.rerunWanted = true;
  frames(app, 6);
  CHECK_FALSE(app.ui.liveRate->forRun == app.ui.trace);
}

TEST_CASE("gpu app: an exercise checked on the GPU from the app: our solution passes there") {
  HeadlessImGui imgui(ImVec2(1280, 1600));
  App app;
  const TempFolder scratch("gpu-app-exercises");
  app.ui.exerciseFolder = (scratch / "exercises").string();
  app.ui.progressFile = (scratch / "progress.json").string();  // not the real home's
  frames(app);
  app.openExercise("one-queue");
  app.setExerciseText(rlab::solutionFile(rlab::exerciseOrThrow("one-queue")));
  frames(app);
  click(app, "exercise:gpu");
  CHECK(app.ui.exercise.onGpu);
  click(app, "exercise:check");
  frames(app);
  REQUIRE(app.ui.exercise.report);
  const auto& r = *app.ui.exercise.report;
  CHECK_MESSAGE(r.passed(),
                rlab::english(r.summary())
                    << " " << rlab::english(r.problem) << " "
                    << (r.failures.empty() ? ""
                                           : rlab::english(rlab::withReplay(r.failures.front()))));
  CHECK(app.ui.exercise.reportOnGpu);
}

TEST_CASE(
    "gpu app: the Profile tab profiles the run on screen, the simulator's prediction beside") {
  if (rlab::findCudaTool("ncu").empty()) {
    MESSAGE("no ncu beside nvcc, in /usr/local/cuda/bin or on PATH: nothing profiled");
    return;
  }
  HeadlessImGui imgui;
  App app;
  app.ui.params.lesson = "divergence";
  app.ui.params.variant = "strided";
  app.ui.params.n = 64;
  app.ui.params.block = 64;
  app.ui.rerunWanted = true;
  frames(app);
  app.ui.requestTab = rlab::gui::ViewTab::Profile;
  frames(app);
  click(app, "profile-run");
  app.waitForWork();
  frames(app);
  INFO(english(app.ui.profile.error));
  REQUIRE(app.ui.profile.report);
  const rlab::ProfileReport& r = *app.ui.profile.report;
  REQUIRE(r.total.counters.count(rlab::Counter::SharedBankConflicts));
  REQUIRE(r.predicted.count(rlab::Counter::SharedBankConflicts));
  CHECK(r.total.counters.at(rlab::Counter::SharedBankConflicts) ==
        r.predicted.at(rlab::Counter::SharedBankConflicts));
  CHECK(app.ui.widgetRects.count("profile-here"));
  CHECK(app.ui.trace->params.variant == "strided");  // the run on screen stays
  std::printf(
      "Profile tab, divergence strided n = 64: bank conflicts %g on the GPU, %g predicted\n",
      r.total.counters.at(rlab::Counter::SharedBankConflicts),
      r.predicted.at(rlab::Counter::SharedBankConflicts));
}

int main(int argc, char** argv) {
  const rlab::GpuProbe gpu = rlab::probeGpu();
  if (!gpu.usable) {
    std::printf("GPU app tests skipped: %s\n", rlab::english(gpu.why).c_str());
    return 77;
  }
  std::printf("GPU app tests on %s\n", rlab::english(gpu.device).c_str());
  doctest::Context context(argc, argv);
  return context.run();
}
