// Step player: scrubber, play/pause, step back and forward, speed.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"

namespace rlab::gui {

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
  const float playWidth =
      std::max(ImGui::CalcTextSize(tr("Pause")).x, ImGui::CalcTextSize(tr("Play")).x) +
      ImGui::GetStyle().FramePadding.x * 2;
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
  // The speed slider gives way to its label where the row is short (presenter mode).
  const float speedLabel =
      ImGui::CalcTextSize(tr("steps/s")).x + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetNextItemWidth(std::clamp(ImGui::GetContentRegionAvail().x - speedLabel,
                                     ImGui::GetFontSize() * 3, ImGui::GetFontSize() * 7));
  ImGui::SliderFloat(trId("steps/s"), &ui.stepsPerSecond, 0.25f, 10.f, "%.2f");
  int step = ui.step;
  ImGui::SetNextItemWidth(-1);
  // The slider's format: its %d is the step; the label comes from the core, its % doubled.
  const std::string description = count > 0 ? say(ui.trace->steps[size_t(ui.step)].label) : "";
  std::string label;
  for (char c : description) label += c == '%' ? "%%" : std::string(1, c);
  std::string format = count == 0 ? std::string(tr("no steps recorded"))
                                  : printed(tr("step %%d of %d: %s"), count - 1, label.c_str());
  // Too long for the slider (which also cuts its text at 63 bytes, a Japanese or Chinese
  // character being 3): the step alone in it, and the description on a line of its own under
  // it, so that no language loses it.
  const std::string shown = printed(format.c_str(), ui.step);
  const bool fits = shown.size() <= 63 &&
                    ImGui::CalcTextSize(shown.c_str()).x <=
                        ImGui::GetContentRegionAvail().x - ImGui::GetStyle().FramePadding.x * 2;
  if (count > 0 && !fits) format = printed(tr("step %%d of %d"), count - 1);
  if (ImGui::SliderInt("##scrub", &step, 0, std::max(0, count - 1), format.c_str()))
    app.stepTo(step);
  noteWidget(ui, "scrubber");
  if (count > 0 && !fits) wrappedText(description);
  // The text's sentence for this step, in what is left of the window (scrolls when longer).
  ImGui::BeginChild("##narration");
  drawNarration(app);
  ImGui::EndChild();
}

}  // namespace rlab::gui
