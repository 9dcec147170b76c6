// Helpers every panel uses.
#include "app/gui/panels.hpp"

namespace rlab::gui {

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void noteWidget(UiState& ui, const std::string& name) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  ui.widgetRects[name] = ImVec4(min.x, min.y, max.x, max.y);
}

}  // namespace rlab::gui
