// [SECTION] Runs and long work
// [SECTION] Player
// [SECTION] Frame: keys, layout, panels

#include "app/gui/app.hpp"

#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/tabs.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/backends/backends.hpp"

namespace rlab::gui {

App::App() {
  resetToDefaults();
  // The real kernel first: on the GPU when one works; the simulator is one click away.
  const GpuProbe gpu = probeGpu();
  ui.gpuUsable = gpu.usable;
  ui.gpuName = gpu.usable ? gpu.device : gpu.why;
  ui.gpuCount = gpu.usable ? gpu.devices : 0;
  if (gpu.usable) ui.params.backend = BackendChoice::Gpu;
}

void App::resetToDefaults() {
  Params defaults = openingRun();
  defaults.backend = ui.gpuUsable ? BackendChoice::Gpu : BackendChoice::Sim;
  ui.params = defaults;
  ui.valuesText[0] = '\0';
  ui.view.presenter = false;
  ui.view.textScale = 1;
  ui.chapter.clear();
  ui.fontsWanted = true;
  ui.rerunWanted = true;
  ui.step = 0;
  ui.exerciseFolder = defaultExerciseFolder();
  ui.progressFile = progressFilePath();
  ui.progressStamp = -1;  // read on the next frame
}

// ============================================================================================
// [SECTION] Runs and long work
// ============================================================================================

void App::validate() {
  try {
    resolve(ui.params);
    ui.paramError = {};
  } catch (const ParamError& e) {
    ui.paramError = e.message();
  }
}

namespace {

// Dear ImGui 1.86 (Debian 12) reads keys through io.KeyMap; 1.87 and later (Ubuntu 24.04)
// name every key in ImGuiKey. Letters are GLFW's key codes, their capitals in ASCII.
enum class Key {
  Space,
  Left,
  Right,
  PageUp,
  PageDown,
  Home,
  End,
  Escape,  // named by ImGui
  P,
  M,
  B,
  R,
  W,
  V,
  A,
  N,
  Plus,
  Minus  // letters and signs
};

bool keyPressed(Key key) {
  const bool repeats = key == Key::Left || key == Key::Right;
#if IMGUI_VERSION_NUM >= 18700
  static const ImGuiKey keys[] = {
      ImGuiKey_Space,    ImGuiKey_LeftArrow, ImGuiKey_RightArrow, ImGuiKey_PageUp,
      ImGuiKey_PageDown, ImGuiKey_Home,      ImGuiKey_End,        ImGuiKey_Escape,
      ImGuiKey_P,        ImGuiKey_M,         ImGuiKey_B,          ImGuiKey_R,
      ImGuiKey_W,        ImGuiKey_V,         ImGuiKey_A,          ImGuiKey_N,
      ImGuiKey_Equal,    ImGuiKey_Minus};
  return ImGui::IsKeyPressed(keys[int(key)], repeats);
#else
  static const int named[] = {ImGuiKey_Space,  ImGuiKey_LeftArrow, ImGuiKey_RightArrow,
                              ImGuiKey_PageUp, ImGuiKey_PageDown,  ImGuiKey_Home,
                              ImGuiKey_End,    ImGuiKey_Escape};
  static const char letters[] = {'P', 'M', 'B', 'R', 'W', 'V', 'A', 'N', '=', '-'};
  if (int(key) < int(Key::P))
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(named[int(key)]), repeats);
  return ImGui::IsKeyPressed(letters[int(key) - int(Key::P)], false);
#endif
}

std::function<void(UiState&)> showTrace(std::shared_ptr<const Trace> trace) {
  return [trace](UiState& ui) {
    const bool sameLesson = ui.trace && ui.trace->params.lesson == trace->params.lesson;
    ui.trace = trace;
    const int last = std::max(0, int(trace->steps.size()) - 1);
    ui.step = sameLesson ? std::min(ui.step, last) : 0;
    if (!sameLesson) ui.playing = false;
    ui.status = trace->backend == BackendChoice::Gpu
                    ? printed(tr("Ran on %s"), say(trace->device).c_str())
                    : tr("Ran on the simulator");
    ui.statusIsError = false;
    if (!trace->fallback.empty()) ui.status = say(trace->fallback);
  };
}

// The memory view's accesses, where the simulator can record them (and only there: elsewhere
// the run would carry a note saying why there are none).
Params withMemory(Params p) {
  Params asked = p;
  asked.memory = true;
  asked.trace = true;
  if (asked.backend == BackendChoice::Sim) {
    const Resolved r = resolve(asked);
    p.memory = recordsMemory(r.params);
  }
  return p;
}

}  // namespace

void App::requestRun() {
  validate();
  ui.rerunWanted = false;
  if (!ui.paramError.empty()) return;
  const Params params = withMemory(paramsToRun());
  // A failed GPU call or kernel throws: the worker shows its sentence as an error and keeps
  // every setting and the trace on screen.
  runner_.start("run", [params](JobThread::Job&) -> JobThread::Apply {
    return showTrace(std::make_shared<const Trace>(runLesson(params)));
  });
}

// The GPU chosen, but the allreduce lesson asks for more GPUs than this machine has: the run
// goes to the simulator the way `--backend auto` does, and its status says why.
Params App::paramsToRun() const {
  Params params = ui.params;
  const LessonInfo* lesson = findLesson(params.lesson);
  const int gpus = params.gpus > 0 ? params.gpus : lesson ? lesson->defaultGpus : 0;
  if (params.backend == BackendChoice::Gpu && gpus > ui.gpuCount)
    params.backend = BackendChoice::Auto;
  return params;
}

void App::runNow(int step) {
  validate();
  if (!ui.paramError.empty()) return;
  ui.trace = std::make_shared<const Trace>(runLesson(withMemory(paramsToRun())));
  ui.rerunWanted = false;
  const int count = stepCount();
  ui.step = step < 0 ? count / 2 : std::clamp(step, 0, std::max(0, count - 1));
}

void App::waitForWork() {
  runner_.wait();
  longWork_.wait();
  exerciseWork_.wait();
  liveRate_.wait();
  pollWork();
}

// What the background jobs finished since the last frame, taken into the UI.
void App::pollWork() {
  runner_.poll(ui);
  longWork_.poll(ui);
  if (ui.pendingChapter) {  // a teacher's chapter passed its check
    const auto checked = std::move(ui.pendingChapter);
    showChapter(checked->path, checked->doc);
  }
  exerciseWork_.poll(ui);
  liveRate_.poll(ui);
}

void App::startFasterPrediction(const text::Block* prediction, const std::string& chapter) {
  if (longWork_.busy() || !ui.gpuUsable) return;
  std::vector<Params> runs;
  try {
    runs = predictionRuns(chapter, *prediction);
  } catch (const ParamError& e) {
    ui.status = say(e.message());
    ui.statusIsError = true;
    return;
  }
  ui.predictions[prediction].waiting = true;
  longWork_.start("timing both", [runs, prediction](JobThread::Job& job) -> JobThread::Apply {
    std::vector<Trace> timed;
    for (Params p : runs) {
      if (job.cancel.load()) break;
      p.backend = BackendChoice::Gpu;
      p.trace = false;
      p.timed = true;
      timed.push_back(runLesson(p));
      job.progress = float(timed.size()) / float(runs.size());
    }
    return [timed, prediction](UiState& ui) {
      Prediction& answer = ui.predictions[prediction];
      answer.waiting = false;
      if (timed.size() != 2) return;
      const double a = timed[0].timings.kernelMs, b = timed[1].timings.kernelMs;
      const int faster = a <= b ? 0 : 1;
      answer.right = answer.choice == faster;
      const std::string times =
          printed(tr("%s took %.4g ms, %s %.4g ms, for n = %lld on %s."),
                  timed[0].params.variant.c_str(), a, timed[1].params.variant.c_str(), b,
                  static_cast<long long>(timed[0].params.n), say(timed[0].device).c_str());
      answer.verdict =
          printed(answer.right ? tr("Yes. %s") : tr("Not on this GPU. %s"), times.c_str());
    };
  });
}

void App::startBench() {
  if (longWork_.busy()) return;
  const bool gpu = ui.params.backend == BackendChoice::Gpu && ui.gpuUsable;
  const ElementType type = ui.params.type;
  // shared coarsened as the controls have it, where they differ from the kernel's own
  const VariantInfo* variant = variantOf(ui.params);
  std::vector<int> perThread;
  bool loadAdd = true;
  if (variant && variant->defaultPerThread > 0 &&
      ((ui.params.perThread > 0 && ui.params.perThread != variant->defaultPerThread) ||
       !ui.params.loadAdd)) {
    perThread = {ui.params.perThread > 0 ? ui.params.perThread : variant->defaultPerThread};
    loadAdd = ui.params.loadAdd;
  }
  longWork_.start(
      "timing", [gpu, type, perThread, loadAdd](JobThread::Job& job) -> JobThread::Apply {
        BenchRequest request;
        request.type = type;
        request.reps = 10;
        request.kernels = scalableKernels();
        request.perThread = perThread;
        request.loadAdd = loadAdd;
        request.sizes = defaultBenchSizes(gpu);
        const double total = double(request.sizes.size() * request.kernels.size());
        int done = 0;
        const BenchProgress progress = [&](const std::string&, long long) {
          job.progress = float(done++ / total);
          return !job.cancel.load();
        };
        BenchOutcome outcome;
        outcome.gpuTimes = gpu;
        outcome.type = type;
        outcome.rows =
            gpu ? benchGpu(request, progress, outcome.device) : benchSimulator(request, progress);
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

bool App::onStage() const {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  // The desk's three columns need about 1000 x 680 pixels of 16-pixel text; presenter mode's
  // larger type never fits them well, so it always takes the stage.
  return ui.view.presenter || size.x < 1000 || size.y < 680;
}

std::vector<ViewTab> App::stageViews() const {
  std::vector<ViewTab> views;
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  for (const auto& [tab, entry] : viewTabs()) {
    if (tab == ViewTab::Timeline && !(lesson && lesson->timeline)) continue;
    if (tab == ViewTab::Scale && !(lesson && lesson->picture == LessonPicture::Ranks)) continue;
    if (tab == ViewTab::KernelOutput && !(ui.trace && !ui.trace->kernelOutput.empty())) continue;
    if (tab == ViewTab::Memory && !(ui.trace && ui.trace->memoryRecorded)) continue;
    views.push_back(tab);
  }
  return views;
}

void App::handleKeys() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (keyPressed(Key::Space)) ui.playing = !ui.playing;
  // Presenter clickers send Page Down and Page Up (some the arrow keys) for next and back.
  if (keyPressed(Key::Right) || keyPressed(Key::PageDown)) stepTo(ui.step + 1);
  if (keyPressed(Key::Left) || keyPressed(Key::PageUp)) stepTo(ui.step - 1);
  if (keyPressed(Key::Home)) stepTo(0);
  if (keyPressed(Key::End)) stepTo(stepCount() - 1);
  if (keyPressed(Key::P) && !io.KeyCtrl) {
    ui.view.presenter = !ui.view.presenter;
    ui.fontsWanted = true;
    applyStyle(ui.view.presenter);
  }
  // Ctrl+= and Ctrl+-: the text size, 60% to 250%.
  const float textScale = ui.view.textScale;
  if (io.KeyCtrl && keyPressed(Key::Plus)) ui.view.textScale = std::min(2.5f, textScale * 1.1f);
  if (io.KeyCtrl && keyPressed(Key::Minus)) ui.view.textScale = std::max(0.6f, textScale / 1.1f);
  if (ui.view.textScale != textScale) ui.fontsWanted = true;
  if (io.KeyCtrl || !ui.exercise.id.empty()) return;
  // The stage's keys: the drawer, and what a teacher does in front of the room.
  if (keyPressed(Key::M)) ui.view.drawerOpen = !ui.view.drawerOpen;
  if (keyPressed(Key::Escape)) ui.view.drawerOpen = false;
  if (keyPressed(Key::R)) requestRun();
  const VariantInfo* variant = variantOf(ui.params);
  if (variant && variant->barrierSwitch) {
    if (keyPressed(Key::B)) {
      ui.params.barrier = !ui.params.barrier;
      ui.rerunWanted = true;
    }
    if (keyPressed(Key::W)) startWitness();
  }
  // The Quiz view's: A shows the answer, N the next question.
  if (ui.view.stageView == ViewTab::Quiz && ui.quiz.quiz) {
    if (keyPressed(Key::A)) showQuizQuestion(ui.quiz.current, true);
    if (keyPressed(Key::N)) showQuizQuestion(ui.quiz.current + 1, false);
  }
  if (keyPressed(Key::V)) {
    const std::vector<ViewTab> views = stageViews();
    auto at = std::find(views.begin(), views.end(), ui.view.stageView);
    ui.view.stageView = at == views.end() || at + 1 == views.end() ? views.front() : *(at + 1);
    ui.requestTab = ui.view.stageView;
  }
}

void App::adoptRun(std::shared_ptr<const Trace> trace, int step) {
  if (!trace) return;
  Params ran = trace->params;
  // What the learner left to the lesson stays so where it gave what ran: an automatic block
  // size keeps following n.
  Params automatic = ran;
  automatic.block = 0;
  try {
    if (ui.params.block == 0 && resolve(automatic).params.block == ran.block) ran.block = 0;
  } catch (const ParamError&) {
  }
  if (ui.params.perThread == 0) {
    const VariantInfo* variant = variantOf(ran);
    if (variant && ran.perThread == variant->defaultPerThread) ran.perThread = 0;
  }
  ran.backend = trace->backend;
  ran.trace = ui.params.trace;
  ran.timed = ui.params.timed;
  ran.memory = ui.params.memory;
  ui.params = ran;
  ui.valuesText[0] = '\0';
  if (!ran.values.empty()) {
    std::string text;
    for (double v : ran.values) text += (text.empty() ? "" : ",") + formatValue(v, ran.type);
    if (text.size() < ui.valuesText.size())
      std::copy(text.begin(), text.end() + 1, ui.valuesText.begin());
  }
  ui.rerunWanted = false;
  ui.trace = std::move(trace);
  // The last step unless one is asked for; 0 where the run kept none (an untraced n).
  const int last = std::max(0, stepCount() - 1);
  ui.step = step < 0 ? last : std::min(step, last);
  ui.playing = false;
}

// ============================================================================================
// [SECTION] Frame: keys, layout, panels
// ============================================================================================

void App::frame(float seconds) {
  setUiLanguage(ui.language);
  beginLabelFrame();
  pollWork();
  followLiveRaceRate();
  watchExerciseFile(seconds);
  watchProgressFile(seconds);
  if (ui.rerunWanted && !runner_.busy()) {
    validate();
    // Small runs follow every control at once, on either backend; larger ones wait for Run.
    if (ui.paramError.empty() && ui.params.n <= kAutoRunLimit) requestRun();
  }

  // An open exercise with a run of the learner's kernel: the keys, the player and the array
  // view work on that run for this frame; the lesson's run comes back at the frame's end.
  struct LearnerRunOnScreen {
    UiState& ui;
    bool swapped;
    explicit LearnerRunOnScreen(UiState& u)
        : ui(u), swapped(!u.exercise.id.empty() && u.exercise.trace) {
      if (swapped) swap();
    }
    ~LearnerRunOnScreen() {
      if (swapped) swap();
    }
    void swap() {
      std::swap(ui.trace, ui.exercise.trace);
      std::swap(ui.step, ui.exercise.step);
      std::swap(ui.playing, ui.exercise.playing);
      std::swap(ui.stepClock, ui.exercise.stepClock);
    }
  } learnerRun(ui);

  handleKeys();
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

  // Under the menu bar: the desk, an exercise, or the stage (layout.cpp). The chapter dialog is
  // drawn after every window, on every way out of the frame.
  const float menuHeight = ui.view.film ? 0 : drawMenuBar(*this);
  struct DialogLast {
    App& app;
    ~DialogLast() {
      drawOpenChapterDialog(app);
      drawExportDialog(app);
    }
  } dialogLast{*this};
  if (onStage() && ui.exercise.id.empty())
    layoutStage(menuHeight);
  else
    layoutDesk(learnerRun.swapped, menuHeight);
}

}  // namespace rlab::gui
