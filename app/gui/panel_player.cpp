// Step player: scrubber, play/pause, step back and forward, speed.
#include "app/gui/panels.hpp"

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
  if (ImGui::Button(ui.playing ? "Pause" : "Play ")) {
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
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::SliderFloat("steps/s", &ui.stepsPerSecond, 0.25f, 10.f, "%.2f");
  int step = ui.step;
  ImGui::SetNextItemWidth(-1);
  const std::string format = count == 0 ? std::string("no steps recorded")
                                        : "step %d of " + std::to_string(count - 1) + ": " +
                                              ui.trace->steps[ui.step].label;
  if (ImGui::SliderInt("##scrub", &step, 0, std::max(0, count - 1), format.c_str()))
    app.stepTo(step);
  noteWidget(ui, "scrubber");
  // The text's sentence for this step, in what is left of the window (scrolls when longer).
  ImGui::BeginChild("##narration");
  drawNarration(app);
  ImGui::EndChild();
}

}  // namespace rlab::gui
