// Helpers every panel uses.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "lessons/texts.hpp"

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

void wrappedText(const std::string& text, bool disabled) {
  if (disabled)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
  const char* s = text.c_str();
  size_t begin = 0, end = 0;  // the line so far
  for (const text::Word& word : text::words(text)) {
    if (word.newline) {
      ImGui::TextUnformatted(s + begin, s + end);
      begin = end = word.end;
    } else if (end > begin && ImGui::CalcTextSize(s + begin, s + word.end).x > width) {
      ImGui::TextUnformatted(s + begin, s + end);
      begin = word.begin;  // the spaces before it stay at the break
      end = word.end;
    } else {
      if (end == begin) begin = word.begin;
      end = word.end;
    }
  }
  ImGui::TextUnformatted(s + begin, s + end);
  if (disabled) ImGui::PopStyleColor();
}

}  // namespace rlab::gui
