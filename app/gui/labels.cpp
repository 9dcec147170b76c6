// Labels in pictures that never overlap and are never cut off: each one measured before it is
// drawn, and moved or left out when its place is taken. The frame's labels stay listed with
// their rectangles for the layout tests.
#include <imgui.h>
#include <imgui_internal.h>

#include "app/gui/panels.hpp"

namespace rlab::gui {

namespace {

std::vector<PlacedLabel> g_labels;

bool overlaps(const ImVec2& a0, const ImVec2& a1, const ImVec2& b0, const ImVec2& b1) {
  return a0.x < b1.x && b0.x < a1.x && a0.y < b1.y && b0.y < a1.y;
}

std::string currentWindowName() {
  const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
  return window ? window->Name : "";
}

}  // namespace

void beginLabelFrame() {
  g_labels.clear();
}

const std::vector<PlacedLabel>& labelsThisFrame() {
  return g_labels;
}

bool placeLabel(ImDrawList* draw, std::initializer_list<ImVec2> at, ImU32 colour,
                const std::string& text, float size) {
  if (text.empty()) return true;
  if (size <= 0) size = ImGui::GetFontSize();
  const ImVec2 extent =
      ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str(), text.c_str() + text.size());
  // Inside what the window shows: its clip rectangle, less a pixel for rounding.
  const ImVec2 clip0 = draw->GetClipRectMin(), clip1 = draw->GetClipRectMax();
  const std::string window = currentWindowName();
  for (const ImVec2& p : at) {
    const ImVec2 p1(p.x + extent.x, p.y + extent.y);
    if (p.x < clip0.x - 0.5f || p.y < clip0.y - 0.5f || p1.x > clip1.x + 0.5f ||
        p1.y > clip1.y + 0.5f)
      continue;
    // A gap of a third of a space between labels, so that two never read as one.
    const float gap = size * 0.15f;
    bool free = true;
    for (const PlacedLabel& other : g_labels)
      if (other.window == window &&
          overlaps(ImVec2(p.x - gap, p.y), ImVec2(p1.x + gap, p1.y), other.min, other.max)) {
        free = false;
        break;
      }
    if (!free) continue;
    // On the window's own colour, so that a line drawn before it (its arc) does not cross it.
    const ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    draw->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p1.x + 2, p1.y),
                        ImGui::ColorConvertFloat4ToU32(
                            ImVec4(background.x, background.y, background.z, 1.f)));
    draw->AddText(ImGui::GetFont(), size, p, colour, text.c_str(), text.c_str() + text.size());
    g_labels.push_back({p, p1, text, window});
    return true;
  }
  return false;
}

void noteLabel(ImVec2 min, ImVec2 max, const std::string& text) {
  g_labels.push_back({min, max, text, currentWindowName()});
}

}  // namespace rlab::gui
