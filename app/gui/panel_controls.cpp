// Parameters of the run. Every change re-runs small cases at once; a refused value says why.
#include <algorithm>
#include <cstring>

#include "app/gui/panels.hpp"
#include "app/gui/settings.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

// The controls speak of "n", not the command line's "--n".
std::string withoutDashes(std::string text) {
  for (size_t at; (at = text.find("--")) != std::string::npos;) text.erase(at, 2);
  return text;
}

template <class E>
bool comboOf(const char* label, E& value, std::initializer_list<E> options) {
  bool changed = false;
  if (ImGui::BeginCombo(label, name(value))) {
    for (E option : options)
      if (ImGui::Selectable(name(option), option == value) && option != value) {
        value = option;
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

// The four reduction operators, and subtract where the variant offers its demonstration.
bool operatorCombo(Params& p, const VariantInfo* variant) {
  auto label = [](Op op) { return op == Op::Subtract ? tr("subtract (demonstration)") : name(op); };
  bool changed = false;
  if (ImGui::BeginCombo("op", label(p.op))) {
    for (Op option : {Op::Sum, Op::Max, Op::Min, Op::Product, Op::Subtract}) {
      if (option == Op::Subtract && !(variant && variant->offersSubtract)) continue;
      if (ImGui::Selectable(label(option), option == p.op) && option != p.op) {
        p.op = option;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  helpMarker(printed(tr("Subtract is not associative: each kernel's order of operations gives "
                        "its own answer. Offered by %s to show why a reduction needs an "
                        "associative operator with an identity."),
                     subtractRunsText().c_str())
                 .c_str());
  return changed;
}

void scheduleControls(UiState& ui) {
  sim::Schedule s;
  try {
    s = sim::Schedule::parse(ui.params.schedule);
  } catch (const std::invalid_argument&) {
  }
  // In the order of sim::Schedule::Kind.
  const char* kinds[] = {"lockstep",     "sequential", "reverse", "random",
                         "warps-random", "stall",      "lane",    "lanes-random"};
  int kind = int(s.kind);
  bool changed = ImGui::Combo("schedule", &kind, kinds, 8);
  helpMarker(
      tr("How the simulator picks who runs next. lockstep: rounds, every thread to its next "
         "barrier in thread order. random / warps-random: a seeded shuffle. stall: thread T "
         "sits out K rounds from round R. lane: thread T sits out K rounds after its warp step "
         "S, where the lanes of a warp meet with no barrier. lanes-random: the lanes of each "
         "warp in a random order, now and then one held back at a warp step."));
  noteWidget(ui, "schedule");
  int seed = int(s.seed), t = int(s.stallThread), r = int(std::max(1u, s.stallRound)),
      k = int(s.stallRounds);
  s.kind = sim::Schedule::Kind(kind);
  if (s.kind == sim::Schedule::Kind::Random || s.kind == sim::Schedule::Kind::WarpsRandom ||
      s.kind == sim::Schedule::Kind::LanesRandom)
    changed |= ImGui::InputInt(trId("seed"), &seed);
  if (s.kind == sim::Schedule::Kind::Stall || s.kind == sim::Schedule::Kind::Lane) {
    changed |= ImGui::InputInt(trId("late thread T"), &t);
    changed |= ImGui::InputInt(
        s.kind == sim::Schedule::Kind::Lane ? trId("after warp step S") : trId("from round R"), &r);
    changed |= ImGui::InputInt(trId("for K rounds"), &k);
  }
  if (!changed) return;
  switch (s.kind) {
    case sim::Schedule::Kind::Random:
      ui.params.schedule = "random:" + std::to_string(std::max(0, seed));
      break;
    case sim::Schedule::Kind::WarpsRandom:
    case sim::Schedule::Kind::LanesRandom:
      ui.params.schedule = std::string(kinds[kind]) + ":" + std::to_string(std::max(0, seed));
      break;
    case sim::Schedule::Kind::Stall:
    case sim::Schedule::Kind::Lane:
      ui.params.schedule = std::string(kinds[kind]) + ":" + std::to_string(std::max(0, t)) + ":" +
                           std::to_string(std::max(1, r)) + ":" + std::to_string(std::max(0, k));
      break;
    default:
      ui.params.schedule = kinds[kind];
  }
  ui.rerunWanted = true;
}

// Backend: the GPU when one works, the simulator always.
bool backendControls(UiState& ui) {
  Params& p = ui.params;
  int backend = p.backend == BackendChoice::Gpu ? 1 : 0;
  if (ImGui::RadioButton(trId("Simulator"), backend == 0)) backend = 0;
  noteWidget(ui, "backend:sim");
  ImGui::SameLine();
  if (!ui.gpuUsable) ImGui::BeginDisabled();
  if (ImGui::RadioButton("GPU", backend == 1)) backend = 1;
  noteWidget(ui, "backend:gpu");
  if (!ui.gpuUsable) ImGui::EndDisabled();
  ImGui::SameLine();
  const std::string gpuName = say(ui.gpuName);
  ImGui::TextDisabled("%s", ui.gpuUsable ? gpuName.c_str() : tr("(no GPU here)"));
  if (!ui.gpuUsable && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", gpuName.c_str());
  if ((backend == 1) != (p.backend == BackendChoice::Gpu)) {
    p.backend = backend == 1 ? BackendChoice::Gpu : BackendChoice::Sim;
    return true;
  }
  return false;
}

bool sizeControl(UiState& ui) {
  Params& p = ui.params;
  bool changed = false;
  long long n = p.n;
  if (ImGui::InputScalar("n", ImGuiDataType_S64, &n, nullptr, nullptr, "%lld",
                         ImGuiInputTextFlags_EnterReturnsTrue) ||
      (ImGui::IsItemDeactivatedAfterEdit() && n != p.n)) {
    p.n = n;
    p.values.clear();
    ui.valuesText[0] = '\0';
    changed = true;
  }
  noteWidget(ui, "n");
  helpMarker(tr("Number of elements. The app draws up to 4096 of them; runs go up to 2^28."));
  return changed;
}

// allreduce: the GPUs taking part, each with n elements.
bool gpuCountControls(UiState& ui, const LessonInfo& lesson) {
  Params& p = ui.params;
  bool changed = false;
  const int gpus = p.gpus > 0 ? p.gpus : lesson.defaultGpus;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("GPUs"));
  for (int g : {1, 2, 4, 8}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(std::to_string(g).c_str(), gpus == g) && gpus != g) {
      p.gpus = g;
      p.values.clear();  // n values per GPU no longer split evenly
      ui.valuesText[0] = '\0';
      changed = true;
    }
    noteWidget(ui, "gpus:" + std::to_string(g));
  }
  helpMarker(
      tr("How many GPUs (ranks) take part; each holds n elements. The simulator runs "
         "them as virtual GPUs."));
  if (p.backend == BackendChoice::Gpu && gpus > ui.gpuCount)
    wrappedText(printed(tr("This machine has %d GPU(s), so the run of %d goes to the simulator."),
                        ui.gpuCount, gpus),
                palette(ui.view.presenter).muted);
  return changed;
}

bool blockCombo(Params& p) {
  bool changed = false;
  const std::string blockLabel = p.block == 0 ? std::string(tr("auto")) : std::to_string(p.block);
  if (ImGui::BeginCombo("block", blockLabel.c_str())) {
    if (ImGui::Selectable(trId("auto"), p.block == 0)) {
      p.block = 0;
      changed = true;
    }
    for (int b = 1; b <= 1024; b *= 2)
      if (ImGui::Selectable(std::to_string(b).c_str(), p.block == b)) {
        p.block = b;
        changed = true;
      }
    ImGui::EndCombo();
  }
  helpMarker(
      tr("Threads per block: a power of two up to 1024. auto: the smallest that covers n, "
         "at most 256."));
  return changed;
}

// The data set, its seed, and values typed in.
bool dataControls(UiState& ui, const LessonInfo* lesson) {
  Params& p = ui.params;
  bool changed = false;
  // What runs when no data set was chosen: the lesson's own (mixed magnitudes for the atomic
  // lesson's floats).
  const std::string shown =
      !p.data.empty() ? p.data
      : p.type == ElementType::Float && lesson && !lesson->defaultFloatData.empty()
          ? lesson->defaultFloatData
          : "iota";
  const char* dataKinds[] = {"iota", "ones", "random", "mixed"};
  int data = shown == "ones"                  ? 1
             : shown.rfind("random:", 0) == 0 ? 2
             : shown.rfind("mixed:", 0) == 0  ? 3
                                              : 0;
  if (ImGui::Combo("data", &data, dataKinds, 4)) {
    p.data = data >= 2 ? std::string(dataKinds[data]) + ":1" : dataKinds[data];
    p.values.clear();
    changed = true;
  }
  helpMarker(
      tr("mixed: values of mixed magnitude, whose float sum changes with the order of "
         "the additions."));
  if (data >= 2) {
    const std::string kind = dataKinds[data];
    int seed = std::atoi(shown.c_str() + kind.size() + 1);
    if (ImGui::InputInt(trId("data seed"), &seed)) {
      p.data = kind + ":" + std::to_string(std::max(0, seed));
      changed = true;
    }
  }
  char* valuesText = ui.valuesText.data();
  if (ImGui::InputTextWithHint("values", tr("e.g. 3,1,4,1,5"), valuesText, ui.valuesText.size(),
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
    try {
      p.values = std::strlen(valuesText) ? parseValues(valuesText) : std::vector<double>{};
      if (!p.values.empty()) p.n = valuesPerRank(p);
      changed = true;
    } catch (const ParamError& e) {
      ui.paramError = e.message();
    }
  }
  return changed;
}

// The block's barrier and the warp's, where the variant can switch them.
bool barrierSwitches(UiState& ui, const LessonInfo* lesson, const VariantInfo* variant) {
  Params& p = ui.params;
  bool changed = false;
  if (variant && variant->barrierSwitch) {
    ImGui::Separator();
    if (ImGui::Checkbox(trId("barrier (__syncthreads)"), &p.barrier)) changed = true;
    noteWidget(ui, "barrier");
    helpMarker(lesson->switchableBarrier
                   ? tr("Switch the barrier off and a thread may read its neighbour before the "
                        "neighbour has finished the level below.")
                   : tr("Switch off the barrier between the reads and the writes and a thread may "
                        "overwrite its slot before its partner has read the old value."));
  }
  if (variant && variant->warpSynchronous) {  // lastwarp: the warp's barrier, beside the block's
    ImGui::Separator();
    bool on = variant->syncwarpSwitch && p.syncwarp;
    ImGui::BeginDisabled(!variant->syncwarpSwitch);
    if (ImGui::Checkbox(trId("warp barrier (__syncwarp)"), &on)) {
      p.syncwarp = on;
      changed = true;
    }
    ImGui::EndDisabled();
    noteWidget(ui, "syncwarp");
    helpMarker(variant->syncwarpSwitch
                   ? tr("Take __syncwarp() out of the last warp and a lane may read a partial "
                        "before the lane that adds into it has written it, or after it has "
                        "already overwritten it.")
                   : tr("This kernel has no __syncwarp(): it counts on the lanes of the warp "
                        "staying in step. The variant syncwarp is the same code with it."));
  }
  return changed;
}

// shared coarsened: the elements each thread combines before the tree, and how it loads them.
bool coarseningControls(UiState& ui, const VariantInfo& variant) {
  Params& p = ui.params;
  bool changed = false;
  ImGui::Separator();
  int perThread = p.perThread > 0 ? p.perThread : variant.defaultPerThread;
  if (ImGui::SliderInt(trId("elements per thread"), &perThread, 1, kMaxPerThread) &&
      perThread != p.perThread) {
    p.perThread = perThread;
    changed = true;
  }
  noteWidget(ui, "per-thread");
  helpMarker(
      tr("Each thread combines this many elements before the tree starts: that many "
         "times fewer blocks, trees and atomics. rlab bench --per-thread times each."));
  if (ImGui::Checkbox(trId("add during the load"), &p.loadAdd)) changed = true;
  noteWidget(ui, "load-add");
  helpMarker(
      tr("Off: each thread copies its elements into shared memory as they are, and the "
         "tree's first levels add them."));
  return changed;
}

// perturb and printf: slowing some threads down, the way printing from them does.
bool slowdownSwitches(UiState& ui, const LessonInfo* lesson, const VariantInfo* variant) {
  Params& p = ui.params;
  bool changed = false;
  if (variant && variant->perturbs) {
    if (ImGui::Checkbox("perturb", &p.perturb)) changed = true;
    helpMarker(tr("Every third thread pauses each level, as printing from some threads does."));
  }
  if (lesson && lesson->switchableBarrier) {
    ImGui::SameLine();
    if (ImGui::Checkbox("printf", &p.printing)) {
      changed = true;
      if (p.printing) ui.requestTab = ViewTab::KernelOutput;  // where the lines will be
    }
    noteWidget(ui, "printf");
    helpMarker(
        tr("Every third thread calls printf at each level: its thread, level and value. "
           "The lines are in the \"Kernel output\" tab; printing slows those threads "
           "down."));
  }
  return changed;
}

// The simulator's schedule, or why there is none to choose.
void scheduleSection(UiState& ui, const LessonInfo* lesson) {
  if (lesson && lesson->defaultGpus > 0) {
    // Each rank's combine is one element per thread with no barrier: no schedule changes it.
    wrappedText(tr("The ranks copy and combine in a fixed order; no thread schedule changes "
                   "this lesson's steps."),
                true);
  } else if (ui.params.backend != BackendChoice::Gpu) {
    scheduleControls(ui);
  } else {
    wrappedText(tr("The GPU schedules its threads itself. Schedules (a late thread, stall rounds) "
                   "that replay a race step by step are the simulator's: choose Simulator above."),
                true);
  }
}

// Run, what the last run or a refused value said, the keys, and Reset settings.
void runAndStatus(App& app) {
  UiState& ui = app.ui;
  ImGui::Spacing();
  if (ImGui::Button(app.runBusy() ? trId("Running...") : trId("Run"))) app.requestRun();
  noteWidget(ui, "run");
  if (ui.params.n > kAutoRunLimit) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("press Run for this one"));
  }
  if (!ui.paramError.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(palette(ui.view.presenter).wrong));
    wrappedText(withoutDashes(say(ui.paramError)));
    ImGui::PopStyleColor();
  } else if (!ui.status.empty()) {
    if (ui.statusIsError)
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::ColorConvertU32ToFloat4(palette(ui.view.presenter).wrong));
    wrappedText(ui.status);
    if (ui.statusIsError) ImGui::PopStyleColor();
  }
  wrappedText(tr("Keys: Space play, arrows step, P presenter mode, Ctrl+= Ctrl+- text size"), true);
  if (ImGui::SmallButton(trId("Reset settings"))) app.resetToDefaults();
  noteWidget(ui, "reset");
  helpMarker(
      tr("Every control, presenter mode, text size and language as the app first starts. "
         "The app remembers them across restarts otherwise."));
}

// The height the panel's content took when last drawn (0: never drawn yet).
float g_controlsNeed = 0;

}  // namespace

void drawControlsPanel(App& app) {
  UiState& ui = app.ui;
  Params& p = ui.params;
  const LessonInfo* lesson = findLesson(p.lesson);
  bool changed = false;
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  changed |= backendControls(ui);
  changed |= sizeControl(ui);
  if (lesson && lesson->defaultGpus > 0) changed |= gpuCountControls(ui, *lesson);
  changed |= blockCombo(p);
  const VariantInfo* variant = variantOf(p);
  changed |= operatorCombo(p, variant);
  changed |= comboOf("type", p.type, {ElementType::Int, ElementType::Float});
  changed |= dataControls(ui, lesson);
  changed |= barrierSwitches(ui, lesson, variant);
  if (variant && variant->defaultPerThread > 0) changed |= coarseningControls(ui, *variant);
  changed |= slowdownSwitches(ui, lesson, variant);
  scheduleSection(ui, lesson);
  ImGui::PopItemWidth();

  if (changed) ui.rerunWanted = true;
  runAndStatus(app);
  g_controlsNeed = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
}

float controlsPanelHeight() {
  return g_controlsNeed;
}

}  // namespace rlab::gui
