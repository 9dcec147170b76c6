// The stage's bottom strip: the text's sentence for the step on screen, whole (the strip grows
// to hold it, up to a third of the screen, then scrolls), and beside it the verdict.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"

namespace rlab::gui {

namespace {

// The narration's share of the strip; the verdict has the rest.
float narrationWidth(float width) {
  return std::floor(width * 0.66f);
}

}  // namespace

float stageNarrationHeight(App& app, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float text = narrationHeight(app, narrationWidth(width) - style.WindowPadding.x * 2);
  // The verdict: its headline at 1.6 times the size, how far off, and two lines on the race.
  const float verdict = ImGui::GetTextLineHeightWithSpacing() * 4.6f;
  return std::ceil(std::max(text, verdict) + style.WindowPadding.y * 2);
}

void drawStageNarration(App& app) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float left = narrationWidth(width + ImGui::GetStyle().WindowPadding.x * 2);
  ImGui::BeginChild("##narration", ImVec2(left - ImGui::GetStyle().WindowPadding.x, 0));
  drawNarration(app);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##verdict", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
  drawVerdict(app, 1.6f);
  ImGui::EndChild();
}

}  // namespace rlab::gui
