// Where the panels go: the desk (lessons left, the run in the middle, controls, result and code
// right), an open exercise (the editor and its checks), and the stage (presenter mode and small
// windows: the picture and the narration fill the screen, everything else waits in a drawer).
#include <algorithm>
#include <cmath>

#include "app/gui/app.hpp"
#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/tabs.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

constexpr ImGuiWindowFlags kFixed =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;

// The windows of a layout lie under the menu bar: positions are from its lower edge.
float g_top = 0;

void window(App& app, const char* title, ImVec2 pos, ImVec2 size, void (*draw)(App&),
            ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos(ImVec2(pos.x, pos.y + g_top));
  ImGui::SetNextWindowSize(size);
  if (ImGui::Begin(title, nullptr, kFixed | extra)) draw(app);
  ImGui::End();
}

// `text`'s width in the code font (the editor's).
float codeTextWidth(const char* text) {
  ImFont* code = codeFont();
  if (code) ImGui::PushFont(code);
  const float width = ImGui::CalcTextSize(text).x;
  if (code) ImGui::PopFont();
  return width;
}

}  // namespace

void App::layoutDesk(bool learnerRunOnScreen, float top) {
  const ImGuiIO& io = ImGui::GetIO();
  g_top = top;
  const float w = io.DisplaySize.x, h = io.DisplaySize.y - top;
  // An open exercise's statement and hints take the left column: wider then.
  const float left = std::floor(w * (ui.exercise.id.empty() ? 0.22f : 0.32f));
  const float right = std::floor(w * 0.30f);
  const float center = w - left - right;
  // The player, and under it the text's sentence for this step (three lines of it).
  const float playerHeight =
      std::floor(ImGui::GetFrameHeight() +
                 ImGui::GetFrameHeightWithSpacing() * (speedSliderOnItsOwnRow(center) ? 3 : 2) +
                 ImGui::GetTextLineHeight() * 4.1f + ImGui::GetStyle().WindowPadding.y * 2);
  const float arrayHeight = std::floor((h - playerHeight) * 0.42f);
  window(*this, trId("Lessons"), {0, 0}, {left, h}, drawLessonsPanel);
  if (!ui.exercise.id.empty()) {  // an exercise: the learner's kernel and its checks
    const float rest = w - left;
    float editorWidth = std::floor(rest * 0.6f);
    // Where the kernel's longest line does not fit beside the checks (a laptop's screen), the
    // editor takes the whole width, as tall as the kernel needs, and Run and check goes under
    // it, beside the steps.
    const ImVec2 editorNeeds = exerciseEditorSizeFor(ui.exercise.text);
    // Stacked, it goes back beside the checks with four characters to spare.
    const float spare = ui.exercise.editorStacked ? codeTextWidth("0000") : 0.f;
    const bool stacked = editorNeeds.x > editorWidth - spare;
    ui.exercise.editorStacked = stacked;
    // Stacked, the steps and the checks share the band under the editor about evenly.
    const float stepsWidth = stacked ? std::floor(rest * 0.55f) : editorWidth;
    if (stacked) editorWidth = rest;
    // Under the editor, once the kernel has run: its steps, the array and the timeline; the
    // stacked editor then takes at most half the height (it scrolls), so presenter type
    // leaves the run some rows.
    const float stepsHeight = learnerRunOnScreen ? std::floor(h * 0.42f) : 0.f;
    const float editorHeight =
        std::clamp(editorNeeds.y, h * 0.4f, h * (stepsHeight > 0 ? 0.5f : 0.66f));
    const float underHeight =
        stacked ? std::max(stepsHeight, std::floor(h - editorHeight)) : stepsHeight;
    window(*this, trId("Your kernel"), {left, 0}, {editorWidth, h - underHeight},
           drawExerciseEditor, ImGuiWindowFlags_NoScrollbar);
    if (learnerRunOnScreen) {  // no lesson text speaks of the learner's steps: no narration
      const float bareHeight = std::floor(ImGui::GetFrameHeight() +
                                          ImGui::GetFrameHeightWithSpacing() *
                                              (speedSliderOnItsOwnRow(stepsWidth) ? 3 : 2) +
                                          ImGui::GetStyle().WindowPadding.y * 2);
      window(*this, trId("Step player"), {left, h - underHeight}, {stepsWidth, bareHeight},
             drawPlayerPanel, ImGuiWindowFlags_NoScrollbar);
      window(*this, trId("Your run"), {left, h - underHeight + bareHeight},
             {stepsWidth, underHeight - bareHeight}, drawLearnerRunPanel);
    }
    if (stacked) {
      const float checkLeft = learnerRunOnScreen ? stepsWidth : 0.f;
      window(*this, trId("Run and check"), {left + checkLeft, h - underHeight},
             {rest - checkLeft, underHeight}, drawExerciseCheck);
    } else {
      window(*this, trId("Run and check"), {left + editorWidth, 0}, {rest - editorWidth, h},
             drawExerciseCheck);
    }
    return;
  }
  // The controls as tall as their content (a stall schedule adds three rows), so that Run and
  // Reset settings stay in view on a laptop's screen; the code under them gives the room.
  const float controlsNeed = controlsPanelHeight();
  const float controlsHeight =
      std::floor(controlsNeed > 0 ? std::clamp(controlsNeed, h * 0.4f, h * 0.62f) : h * 0.5f);
  const float resultHeight = std::floor(h * 0.2f);
  window(*this, trId("Step player"), {left, 0}, {center, playerHeight}, drawPlayerPanel,
         ImGuiWindowFlags_NoScrollbar);
  window(*this, trId("Array"), {left, playerHeight}, {center, arrayHeight}, drawArrayPanel);
  window(*this, "##views", {left, playerHeight + arrayHeight},
         {center, h - playerHeight - arrayHeight}, drawViewTabs, ImGuiWindowFlags_NoTitleBar);
  window(*this, trId("Controls"), {left + center, 0}, {right, controlsHeight}, drawControlsPanel);
  window(*this, trId("Result"), {left + center, controlsHeight}, {right, resultHeight},
         drawResultPanel);
  // The kernel and the host code that launched it, side by side as tabs.
  window(*this, "##code", {left + center, controlsHeight + resultHeight},
         {right, h - controlsHeight - resultHeight}, drawCodeTabs, ImGuiWindowFlags_NoTitleBar);
}

// The stage, top to bottom: a bar with the lesson, the player and the teacher's buttons; the
// array; the view chosen for under it (the lesson's own picture unless V chose another); the
// step's narration, whole, beside the verdict. The drawer, when open, lies over the left side.
void App::layoutStage(float top) {
  const ImGuiIO& io = ImGui::GetIO();
  g_top = top;
  const float w = io.DisplaySize.x, h = io.DisplaySize.y - top;
  // The stage's windows never come in front of the drawer.
  const ImGuiWindowFlags behind = ImGuiWindowFlags_NoBringToFrontOnFocus |
                                  ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar;
  const float barHeight = stageBarHeight(*this, w);
  // A learner's own kernel (an exported film of it) has no lesson view, and its last step's
  // caption (the race it had) may be long: the array takes what the caption leaves.
  const bool learner = ui.trace && !ui.trace->exercise.empty();
  const float narrationHeight =
      std::clamp(stageNarrationHeight(*this, w), ImGui::GetTextLineHeight() * 3.f,
                 h * (learner ? 0.6f : 0.36f));
  const float pictureHeight = h - barHeight - narrationHeight;
  // The array as tall as this step needs (its header, arcs, cells, captions, the overview of a
  // long one), within limits; the view under it gets the rest.
  // A view of its own (the timeline, the race explorer, the text) gets at least as much.
  // The all-reduce's rows, one per GPU, are the lesson: they may take three quarters.
  // So may coarsening's reads, a row for each turn of the loop.
  const bool ranks = ui.trace && ui.trace->gpus > 0 && ui.view.stageView != ViewTab::Scale;
  const bool gather = ui.trace && size_t(ui.step) < ui.trace->steps.size() &&
                      !ui.trace->steps[size_t(ui.step)].gathers.empty();
  const float most = ranks || gather                            ? 0.75f
                     : ui.view.stageView == ViewTab::LessonView ? 0.56f
                                                                : 0.45f;
  const float arrayHeight =
      learner ? pictureHeight
              : std::floor(std::clamp(arrayPanelHeight(*this, w), pictureHeight * 0.3f,
                                      pictureHeight * most));
  window(*this, "##stage bar", {0, 0}, {w, barHeight}, drawStageBar, behind);
  window(*this, "##stage array", {0, barHeight}, {w, arrayHeight}, drawArrayPanel,
         behind & ~ImGuiWindowFlags_NoScrollbar);
  if (pictureHeight - arrayHeight > 1)
    window(*this, "##stage view", {0, barHeight + arrayHeight}, {w, pictureHeight - arrayHeight},
           drawStageView, behind & ~ImGuiWindowFlags_NoScrollbar);
  if (!stageNarrationEmpty(*this, w))
    window(*this, "##stage narration", {0, h - narrationHeight}, {w, narrationHeight},
           drawStageNarration, behind & ~ImGuiWindowFlags_NoScrollbar);
  if (ui.view.drawerOpen) {
    const float drawerWidth = std::floor(std::clamp(w * 0.42f, std::min(w, 420.f), w));
    if (!drawerShown_) ImGui::SetNextWindowFocus();  // in front of the stage as it opens
    window(*this, "##drawer", {0, barHeight}, {drawerWidth, h - barHeight}, drawDrawer,
           ImGuiWindowFlags_NoTitleBar);
  }
  drawerShown_ = ui.view.drawerOpen;
}

}  // namespace rlab::gui
