// The pager of a row too long for its window: back and forward a page with where the window is,
// and the overview strip of the whole row that frames the window and moves it on a click or a
// drag. The array panel draws them; the gather step's picture borrows them for its threads.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"

namespace rlab::gui {

void drawRowOverview(UiState& ui, const std::vector<double>& values,
                     const std::vector<long long>& hot, ImVec2 origin, float width, float height,
                     long long shown, const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const long long count = (long long)values.size();
  double biggest = 0;
  for (double v : values)
    if (std::isfinite(v)) biggest = std::max(biggest, std::fabs(v));
  if (biggest == 0) biggest = 1;
  const int bins = int(std::min<long long>(count, std::max(1.f, width / 2)));
  const float bin = width / float(bins);
  for (int b = 0; b < bins; ++b) {
    const long long begin = count * b / bins, end = std::max(begin + 1, count * (b + 1) / bins);
    double peak = 0;
    for (long long i = begin; i < end; ++i)
      if (std::isfinite(values[size_t(i)])) peak = std::max(peak, std::fabs(values[size_t(i)]));
    const float h = std::max(1.f, float(peak / biggest) * (height - 2));
    draw->AddRectFilled(ImVec2(origin.x + b * bin, origin.y + height - h),
                        ImVec2(origin.x + (b + 1) * bin, origin.y + height), pal.bar);
  }
  for (long long e : hot) {
    const float x = origin.x + width * (float(e) + 0.5f) / float(count);
    draw->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + height * 0.35f), pal.changed, 2);
  }
  const long long first = ui.arrayWindow.first;
  const float x0 = origin.x + width * float(first) / float(count),
              x1 = origin.x + width * float(first + shown) / float(count);
  draw->AddRect(ImVec2(x0, origin.y - 1), ImVec2(std::max(x1, x0 + 3), origin.y + height + 1),
                pal.text, 0, 0, pal.line * 1.2f);
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##overview", ImVec2(width, height));
  noteWidget(ui, "array overview");
  if (ImGui::IsItemActive()) {
    const float at = (ImGui::GetIO().MousePos.x - origin.x) / width;
    ui.arrayWindow.first =
        std::clamp((long long)(at * float(count)) - shown / 2, 0ll, std::max(0ll, count - shown));
    ui.arrayWindow.movedByHand = true;
  }
}

bool drawPager(UiState& ui, long long& first, long long count, long long shown,
               const std::string& showing, const std::string& name, bool upAndDown) {
  const long long before = first;
  const std::string back = name + " back", forward = name + " forward";
  if (ImGui::ArrowButton(("##" + back).c_str(), upAndDown ? ImGuiDir_Up : ImGuiDir_Left))
    first = std::max(0ll, first - shown);
  noteWidget(ui, back);
  ImGui::SameLine();
  if (ImGui::ArrowButton(("##" + forward).c_str(), upAndDown ? ImGuiDir_Down : ImGuiDir_Right))
    first = std::max(0ll, std::min(count - shown, first + shown));
  noteWidget(ui, forward);
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(showing.c_str());
  noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), name);
  return first != before;
}

void drawRowPager(UiState& ui, long long count, long long shown, const std::string& showing) {
  if (drawPager(ui, ui.arrayWindow.first, count, shown, showing, "array page"))
    ui.arrayWindow.movedByHand = true;
}

}  // namespace rlab::gui
