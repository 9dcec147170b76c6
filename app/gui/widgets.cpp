// Helpers every panel uses.
#include <cmath>
#include <sstream>

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

std::string formatValue(double v, ElementType type) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream s;
  if (type == ElementType::Int || (v == std::floor(v) && std::fabs(v) < 1e15))
    s << (long long)v;
  else
    s << v;
  return s.str();
}

}  // namespace rlab::gui
