// [SECTION] Runs and long work
// [SECTION] Player
// [SECTION] Frame: keys, layout, panels

#include "app/gui/app.hpp"

#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"
#include "lessons/race.hpp"
#include "lessons/run.hpp"
#include "lessons/backends.hpp"
#include "lessons/sanitizer.hpp"

namespace rlab::gui {

App::App() {
  ui.params.lesson = "barrier";
  ui.params.variant = "global";
  ui.params.n = 8;
  const GpuProbe gpu = probeGpu();
  ui.gpuUsable = gpu.usable;
  ui.gpuName = gpu.usable ? gpu.device : gpu.why;
  ui.exerciseFolder = defaultExerciseFolder();
}

// ============================================================================================
// [SECTION] Runs and long work
// ============================================================================================

void App::validate() {
  try {
    resolve(ui.params);
    ui.paramError.clear();
  } catch (const ParamError& e) {
    ui.paramError = e.what();
  }
}

namespace {

// Dear ImGui 1.86 (Debian 12) reads keys through io.KeyMap; 1.87 and later (Ubuntu 24.04)
// name every key in ImGuiKey.
enum class Key { Space, Left, Right, Home, End, P };

bool keyPressed(Key key) {
#if IMGUI_VERSION_NUM >= 18700
  static const ImGuiKey keys[] = {ImGuiKey_Space, ImGuiKey_LeftArrow, ImGuiKey_RightArrow,
                                  ImGuiKey_Home,  ImGuiKey_End,       ImGuiKey_P};
  return ImGui::IsKeyPressed(keys[int(key)], key != Key::P);
#else
  if (key == Key::P) return ImGui::IsKeyPressed('P', false);  // GLFW's key code for P
  static const int keys[] = {ImGuiKey_Space, ImGuiKey_LeftArrow, ImGuiKey_RightArrow, ImGuiKey_Home,
                             ImGuiKey_End};
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(keys[int(key)]));
#endif
}

std::function<void(UiState&)> showTrace(std::shared_ptr<const Trace> trace) {
  return [trace](UiState& ui) {
    const bool sameLesson = ui.trace && ui.trace->params.lesson == trace->params.lesson;
    ui.trace = trace;
    const int last = std::max(0, int(trace->steps.size()) - 1);
    ui.step = sameLesson ? std::min(ui.step, last) : 0;
    if (!sameLesson) ui.playing = false;
    ui.status = trace->backend == "gpu" ? "Ran on " + trace->device : "Ran on the simulator";
    ui.statusIsError = false;
    if (!trace->fallback.empty()) ui.status = trace->fallback;
  };
}

}  // namespace

void App::requestRun() {
  validate();
  ui.rerunWanted = false;
  if (!ui.paramError.empty()) return;
  const Params params = ui.params;
  // A failed GPU call or kernel throws: the worker shows its sentence as an error and keeps
  // every setting and the trace on screen.
  runner_.start("run", [params](JobThread::Job&) -> JobThread::Apply {
    return showTrace(std::make_shared<const Trace>(runLesson(params)));
  });
}

void App::runNow(int step) {
  validate();
  if (!ui.paramError.empty()) return;
  ui.trace = std::make_shared<const Trace>(runLesson(ui.params));
  ui.rerunWanted = false;
  const int count = stepCount();
  ui.step = step < 0 ? count / 2 : std::clamp(step, 0, std::max(0, count - 1));
}

void App::waitForWork() {
  runner_.wait();
  longWork_.wait();
  exerciseWork_.wait();
  runner_.poll(ui);
  longWork_.poll(ui);
  exerciseWork_.poll(ui);
}

void App::startRace() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;
  const int runs = ui.raceRuns;
  longWork_.start("race", [params, runs](JobThread::Job& job) -> JobThread::Apply {
    // The schedule control's lockstep (its default) means "vary it"; any other schedule the
    // learner picked is repeated, and the explorer says which it did.
    const RaceSchedules schedules =
        params.schedule == "lockstep" ? RaceSchedules::Vary : RaceSchedules::AsGiven;
    RaceResult race = runRace(
        params, runs, 10,
        [&](int done) {
          job.progress = float(done) / float(runs);
          return !job.cancel.load();
        },
        schedules);
    return [race = std::move(race)](UiState& ui) { ui.race = {race, std::nullopt}; };
  });
}

void App::startRacecheck() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;  // the run on screen: every control, --values included
  // No sanitizer or no rlab throws GpuUnavailable: the worker shows its sentence.
  longWork_.start("racecheck", [params](JobThread::Job&) -> JobThread::Apply {
    SanitizerReport report = runSanitizer(params, SanitizerTool::Racecheck);
    return [report = std::move(report)](UiState& ui) { ui.race.racecheck = report; };
  });
}

void App::startBench() {
  if (longWork_.busy()) return;
  const bool gpu = ui.params.backend == BackendChoice::Gpu && ui.gpuUsable;
  const ElementType type = ui.params.type;
  longWork_.start("timing", [gpu, type](JobThread::Job& job) -> JobThread::Apply {
    BenchRequest request;
    request.type = type;
    request.reps = 10;
    request.kernels = scalableKernels();
    request.sizes = defaultBenchSizes(gpu);
    const double total = double(request.sizes.size() * request.kernels.size());
    int done = 0;
    const BenchProgress progress = [&](const std::string&, long long) {
      job.progress = float(done++ / total);
      return !job.cancel.load();
    };
    BenchOutcome outcome;
    outcome.gpuTimes = gpu;
    outcome.rows =
        gpu ? benchGpu(request, progress, outcome.device) : benchSimulator(request, progress);
    if (!gpu) outcome.device = "CPU SIMT simulator (simulator throughput, not GPU times)";
    return [outcome](UiState& ui) { ui.bench = outcome; };
  });
}

// ============================================================================================
// [SECTION] Player
// ============================================================================================

int App::stepCount() const {
  return ui.trace ? int(ui.trace->steps.size()) : 0;
}

void App::stepTo(int step) {
  ui.step = std::clamp(step, 0, std::max(0, stepCount() - 1));
  ui.stepClock = 0;
}

// ============================================================================================
// [SECTION] Frame: keys, layout, panels
// ============================================================================================

void App::frame(float seconds) {
  runner_.poll(ui);
  longWork_.poll(ui);
  exerciseWork_.poll(ui);
  watchExerciseFile(seconds);
  if (ui.rerunWanted && !runner_.busy()) {
    validate();
    if (ui.paramError.empty() && ui.params.n <= kAutoRunLimit &&
        ui.params.backend != BackendChoice::Gpu)
      requestRun();
  }

  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput) {
    if (keyPressed(Key::Space)) ui.playing = !ui.playing;
    if (keyPressed(Key::Right)) stepTo(ui.step + 1);
    if (keyPressed(Key::Left)) stepTo(ui.step - 1);
    if (keyPressed(Key::Home)) stepTo(0);
    if (keyPressed(Key::End)) stepTo(stepCount() - 1);
    if (keyPressed(Key::P)) {
      ui.view.presenter = !ui.view.presenter;
      applyStyle(ui.view.presenter);
    }
  }
  if (ui.playing) {
    ui.stepClock += seconds;
    if (ui.stepClock >= 1.0 / ui.stepsPerSecond) {
      ui.stepClock = 0;
      if (ui.step + 1 < stepCount())
        ++ui.step;
      else
        ui.playing = false;
    }
  }

  // Fixed layout: lessons left, the run in the middle, controls, result and source right.
  const float w = io.DisplaySize.x, h = io.DisplaySize.y;
  // Presenter mode's larger type needs wider side columns for the titles and the result.
  const float left = std::floor(w * (ui.view.presenter ? 0.25f : 0.22f));
  const float right = std::floor(w * (ui.view.presenter ? 0.32f : 0.30f));
  const float center = w - left - right;
  const float playerHeight =
      std::floor(ImGui::GetFrameHeight() + ImGui::GetFrameHeightWithSpacing() * 2 +
                 ImGui::GetStyle().WindowPadding.y * 2);
  const float arrayHeight = std::floor((h - playerHeight) * 0.42f);
  const ImGuiWindowFlags fixed =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  auto window = [&](const char* title, ImVec2 pos, ImVec2 size, void (*draw)(App&),
                    ImGuiWindowFlags extra = 0) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    if (ImGui::Begin(title, nullptr, fixed | extra)) draw(*this);
    ImGui::End();
  };
  window("Lessons", {0, 0}, {left, h}, drawLessonsPanel);
  if (!ui.exercise.id.empty()) {  // an exercise: the learner's kernel and its checks
    const float editorWidth = std::floor((w - left) * 0.58f);
    window("Your kernel", {left, 0}, {editorWidth, h}, drawExerciseEditor,
           ImGuiWindowFlags_NoScrollbar);
    window("Run and check", {left + editorWidth, 0}, {w - left - editorWidth, h},
           drawExerciseCheck);
    return;
  }
  const float controlsHeight = std::floor(h * 0.5f), resultHeight = std::floor(h * 0.2f);
  window("Step player", {left, 0}, {center, playerHeight}, drawPlayerPanel,
         ImGuiWindowFlags_NoScrollbar);
  window("Array", {left, playerHeight}, {center, arrayHeight}, drawArrayPanel);
  window(
      "##views", {left, playerHeight + arrayHeight}, {center, h - playerHeight - arrayHeight},
      [](App& app) {
        if (ImGui::BeginTabBar("views")) {
          const char* names[] = {"Lesson view", "Timing chart", "Race explorer"};
          void (*draws[])(App&) = {drawLessonView, drawTimingPanel, drawRacePanel};
          for (int k = 0; k < 3; ++k) {
            const ImGuiTabItemFlags flags =
                app.ui.requestTab == k ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(names[k], nullptr, flags)) {
              draws[k](app);
              ImGui::EndTabItem();
            }
            noteWidget(app.ui, std::string("tab:") + names[k]);
          }
          ImGui::EndTabBar();
        }
        app.ui.requestTab = -1;
      },
      ImGuiWindowFlags_NoTitleBar);
  window("Controls", {left + center, 0}, {right, controlsHeight}, drawControlsPanel);
  window("Result", {left + center, controlsHeight}, {right, resultHeight}, drawResultPanel);
  window("Kernel source", {left + center, controlsHeight + resultHeight},
         {right, h - controlsHeight - resultHeight}, drawSourcePanel,
         ImGuiWindowFlags_HorizontalScrollbar);
}

}  // namespace rlab::gui
