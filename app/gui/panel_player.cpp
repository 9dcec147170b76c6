// Step player: scrubber, play/pause, step back and forward, speed.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"

namespace rlab::gui {

namespace {

// Play and Pause share one button, as wide as the wider word in this language.
float playButtonWidth() {
  return std::max(ImGui::CalcTextSize(tr("Pause")).x, ImGui::CalcTextSize(tr("Play")).x) +
         ImGui::GetStyle().FramePadding.x * 2;
}

float speedLabelWidth() {
  return ImGui::CalcTextSize(tr("steps/s")).x + ImGui::GetStyle().ItemInnerSpacing.x;
}

float narrowestSpeedSlider() {
  return ImGui::GetFontSize() * 3;
}

}  // namespace

bool speedSliderOnItsOwnRow(float panelWidth) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float buttons = playButtonWidth() + style.ItemSpacing.x * 5;
  for (const char* face : {"|<", "<", ">", ">|"})
    buttons += ImGui::CalcTextSize(face).x + style.FramePadding.x * 2;
  return panelWidth - style.WindowPadding.x * 2 - buttons <
         narrowestSpeedSlider() + speedLabelWidth();
}

void drawPlayerPanel(App& app) {
  UiState& ui = app.ui;
  const int count = app.stepCount();
  if (ImGui::Button("|<")) app.stepTo(0);
  noteWidget(ui, "first");
  ImGui::SameLine();
  if (ImGui::Button("<")) app.stepTo(ui.step - 1);
  noteWidget(ui, "back");
  ImGui::SameLine();
  // One ID for both faces, and one width: the wider of the two words in this language.
  const float playWidth = playButtonWidth();
  const std::string play = std::string(ui.playing ? tr("Pause") : tr("Play")) + "###play";
  if (ImGui::Button(play.c_str(), ImVec2(playWidth, 0))) {
    if (!ui.playing && ui.step + 1 >= count) app.stepTo(0);
    ui.playing = !ui.playing;
  }
  noteWidget(ui, "play");
  ImGui::SameLine();
  if (ImGui::Button(">")) app.stepTo(ui.step + 1);
  noteWidget(ui, "forward");
  ImGui::SameLine();
  if (ImGui::Button(">|")) app.stepTo(count - 1);
  noteWidget(ui, "last");
  ImGui::SameLine();
  // The speed slider gives way to its label where the row is short (presenter mode); where
  // even its narrowest beside the label does not fit (a narrow panel, a long label: "ステップ/秒"
  // in presenter type), both go under the buttons, the label whole.
  const float speedLabel = speedLabelWidth(), narrowest = narrowestSpeedSlider();
  if (speedSliderOnItsOwnRow(ImGui::GetWindowWidth())) ImGui::NewLine();
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - speedLabel, narrowest,
                                     ImGui::GetFontSize() * 7));
  ImGui::SliderFloat(trId("steps/s"), &ui.stepsPerSecond, 0.25f, 10.f, "%.2f");
  // The step beside the scrubber, not on it, where its handle would cover it; the array view
  // says what the step did.
  const std::string where = count == 0 ? std::string(tr("no steps recorded"))
                                       : printed(tr("step %d of %d"), ui.step, count - 1);
  int step = ui.step;
  ImGui::SetNextItemWidth(
      std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionAvail().x -
                                             ImGui::CalcTextSize(where.c_str()).x -
                                             ImGui::GetStyle().ItemSpacing.x));
  if (ImGui::SliderInt("##scrub", &step, 0, std::max(0, count - 1), "")) app.stepTo(step);
  noteWidget(ui, "scrubber");
  ImGui::SameLine();
  ImGui::TextUnformatted(where.c_str());
  // The text's sentence for this step, in what is left of the window (scrolls when longer).
  ImGui::BeginChild("##narration");
  drawNarration(app);
  ImGui::EndChild();
}

}  // namespace rlab::gui
