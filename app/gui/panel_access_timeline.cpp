// The learner's kernel's timeline on the exercise desk (lessons/engine/run/access_timeline.hpp):
// one row per thread, a column for each stretch between its block's barriers, each load and store
// a chip numbered in the order the simulator ran it; the first race's two chips red and joined.
// A chip's line is under the pointer; a click shows it in the editor. Beside it, the array
// (drawLearnerRunPanel's tabs).
#include <algorithm>
#include <cstdlib>
#include <map>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/run/access_timeline.hpp"

namespace rlab::gui {

namespace {

// What a run's timeline needs each frame, measured once: the chips' words and widths, each
// column's left edge.
struct Measured {
  const Trace* trace = nullptr;
  float font = 0;
  Language language = Language::En;
  AccessTimeline tl;
  std::vector<std::string> chipText;  // per access
  std::vector<float> chipWidth;
  std::vector<float> columnLeft;  // from the rows' left, past the names; one more: the end
  float names = 0;
};

const Measured& measure(const Trace& t) {
  static Measured m;
  if (m.trace == &t && m.font == ImGui::GetFontSize() && m.language == uiLanguage()) return m;
  m = Measured{};
  m.trace = &t;
  m.font = ImGui::GetFontSize();
  m.language = uiLanguage();
  m.tl = buildAccessTimeline(t);
  const float pad = m.font * 0.5f;
  for (const MemoryAccess& a : t.accesses) {
    MemoryAccess bare = a;  // the line is under the pointer
    bare.line.clear();
    m.chipText.push_back(say(accessText(bare)));
    m.chipWidth.push_back(ImGui::CalcTextSize(m.chipText.back().c_str()).x + pad);
  }
  for (const AccessRow& row : m.tl.rows)
    m.names = std::max(m.names, ImGui::CalcTextSize(say(row.name).c_str()).x);
  m.names += m.font;
  std::vector<float> width(m.tl.columns.size(), ImGui::CalcTextSize("0000").x);
  for (const AccessRow& row : m.tl.rows)
    for (size_t c = 0; c < row.cells.size(); ++c) {
      float used = 0;
      for (size_t index : row.cells[c]) used += m.chipWidth[index] + pad * 0.5f;
      width[c] = std::max(width[c], used);
    }
  for (size_t c = 0; c < m.tl.columns.size(); ++c)
    width[c] = std::max(width[c], ImGui::CalcTextSize(say(m.tl.columns[c].title).c_str()).x);
  float x = m.names;
  for (float w : width) {
    m.columnLeft.push_back(x);
    x += w + m.font;
  }
  m.columnLeft.push_back(x);
  return m;
}

// A chip's box in the rows' child, `origin` its top left.
ImVec4 chipBox(const Measured& m, const AccessPlace& p, ImVec2 origin, float rowHeight) {
  float x = origin.x + m.columnLeft[size_t(p.column)];
  for (size_t index : m.tl.rows[size_t(p.row)].cells[size_t(p.column)]) {
    if (index == p.access) break;
    x += m.chipWidth[index] + m.font * 0.25f;
  }
  const float y = origin.y + rowHeight * float(p.row) + 2;
  return ImVec4(x, y, x + m.chipWidth[p.access], y + rowHeight - 4);
}

ImU32 chipColour(const MemoryAccess& a, const Palette& pal) {
  return a.kind == MemoryAccess::Kind::Read    ? pal.muted
         : a.kind == MemoryAccess::Kind::Write ? pal.accent
                                               : pal.changed;
}

// One row's name and chips; the chip under the pointer says its line, and a click shows it in
// the editor.
void drawRow(App& app, const Measured& m, int r, ImVec2 origin, float rowHeight,
             const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const AccessRow& row = m.tl.rows[size_t(r)];
  const float y = origin.y + rowHeight * float(r);
  if (r % 2 == 1)
    draw->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + m.columnLeft.back(), y + rowHeight),
                        (pal.cell & 0x00ffffffu) | 0x40000000u);
  const Trace& t = *m.trace;
  for (size_t c = 0; c < row.cells.size(); ++c)
    for (size_t index : row.cells[c]) {
      const AccessPlace place{r, int(c), index};
      const ImVec4 b = chipBox(m, place, origin, rowHeight);
      const bool raced = m.tl.raced(index);
      const MemoryAccess& a = t.accesses[index];
      draw->AddRectFilled(ImVec2(b.x, b.y), ImVec2(b.z, b.w), pal.cell, 3);
      draw->AddRect(ImVec2(b.x, b.y), ImVec2(b.z, b.w), raced ? pal.wrong : chipColour(a, pal), 3,
                    0, raced ? pal.line * 2 : 1);
      draw->AddText(ImVec2(b.x + m.font * 0.25f, b.y + (b.w - b.y - m.font) / 2),
                    raced ? pal.wrong : pal.text, m.chipText[index].c_str());
      if (!ImGui::IsWindowHovered() ||
          !ImGui::IsMouseHoveringRect(ImVec2(b.x, b.y), ImVec2(b.z, b.w)))
        continue;
      ImGui::SetTooltip("%s", say(accessText(a)).c_str());
      const size_t colon = a.line.rfind(':');
      if (colon != std::string::npos && ImGui::IsMouseClicked(0))
        app.ui.exercise.scrollToLine = std::atoi(a.line.c_str() + colon + 1);
    }
  // The thread's name stays at the left, over the chips that scroll under it.
  const float left = origin.x + ImGui::GetScrollX();
  draw->AddRectFilled(ImVec2(left, y), ImVec2(left + m.names - m.font * 0.5f, y + rowHeight),
                      ImGui::GetColorU32(ImGuiCol_WindowBg));
  if (r % 2 == 1)
    draw->AddRectFilled(ImVec2(left, y), ImVec2(left + m.names - m.font * 0.5f, y + rowHeight),
                        (pal.cell & 0x00ffffffu) | 0x40000000u);
  draw->AddText(ImVec2(left, y + (rowHeight - m.font) / 2), pal.text, say(row.name).c_str());
}

}  // namespace

void drawAccessTimelinePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) return;
  const Measured& m = measure(*ui.trace);
  if (!m.tl.available) {
    wrappedText(say(m.tl.why));
    return;
  }
  // One line over the rows, which need the room: the columns' titles, which follow the rows
  // sideways (last frame's scroll), and over the threads' names what the numbers are and the
  // race's two accesses, in words under the pointer (the race's sentence is the run's note too).
  static float rowsScrollX = 0;
  const ImVec2 head = ImGui::GetCursorScreenPos();
  ImDrawList* outside = ImGui::GetWindowDrawList();
  outside->PushClipRect(
      ImVec2(head.x + m.names, head.y),
      ImVec2(head.x + ImGui::GetContentRegionAvail().x, head.y + ImGui::GetTextLineHeight()), true);
  // A column partly in view keeps its title at the left edge, as far as the column goes.
  for (size_t c = 0; c < m.tl.columns.size(); ++c) {
    const std::string title = say(m.tl.columns[c].title);
    const float start = head.x + m.columnLeft[c] - rowsScrollX;
    const float last =
        head.x + m.columnLeft[c + 1] - rowsScrollX - m.font - ImGui::CalcTextSize(title.c_str()).x;
    const float x = std::min(std::max(start, head.x + m.names), std::max(start, last));
    outside->AddText(ImVec2(x, head.y), pal.muted, title.c_str());
  }
  outside->PopClipRect();
  auto marker = [](const char* mark, ImU32 colour, const std::string& words) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
    ImGui::TextUnformatted(mark);
    ImGui::PopStyleColor();
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    wrappedText(words, false, ImGui::GetFontSize() * 30.0f);
    ImGui::EndTooltip();
  };
  marker("(?)", pal.muted, say(m.tl.summary));
  if (!m.tl.race.empty()) {
    ImGui::SameLine();
    marker("(!)", pal.wrong, say(m.tl.race));
  }
  const float rowHeight = ImGui::GetTextLineHeight() + 10;
  ImGui::BeginChild("access rows", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  rowsScrollX = ImGui::GetScrollX();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // A new run opens at its race's first access (for a few frames: a child's scroll is held to
  // the content its last frame had, none on the first).
  static const Trace* placed = nullptr;
  static int framesPlaced = 0;
  framesPlaced = placed == m.trace ? framesPlaced + 1 : 0;
  if (framesPlaced < 3 && m.tl.raceFirst.row >= 0) {
    const ImVec4 first = chipBox(m, m.tl.raceFirst, origin, rowHeight);
    ImGui::SetScrollY(std::max(0.f, rowHeight * float(m.tl.raceFirst.row - 1)));
    ImGui::SetScrollX(std::max(0.f, first.x - origin.x - m.names));
  }
  placed = m.trace;
  ImGuiListClipper clipper;
  clipper.Begin(int(m.tl.rows.size()), rowHeight);
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r)
      drawRow(app, m, r, origin, rowHeight, pal);
  clipper.End();
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(m.columnLeft.back(), rowHeight * float(m.tl.rows.size())));
  if (m.tl.raceFirst.row >= 0 && m.tl.raceSecond.row >= 0) {  // the race's two chips, joined
    const ImVec4 a = chipBox(m, m.tl.raceFirst, origin, rowHeight);
    const ImVec4 b = chipBox(m, m.tl.raceSecond, origin, rowHeight);
    ImGui::GetWindowDrawList()->AddLine(ImVec2((a.x + a.z) / 2, (a.y + a.w) / 2),
                                        ImVec2((b.x + b.z) / 2, (b.y + b.w) / 2), pal.wrong,
                                        pal.line * 2);
  }
  ImGui::EndChild();
}

void drawLearnerRunPanel(App& app) {
  ExerciseState& ex = app.ui.exercise;
  if (!app.ui.trace || app.ui.trace->accesses.empty()) {
    drawArrayPanel(app);
    return;
  }
  if (ImGui::BeginTabBar("learner run", ImGuiTabBarFlags_FittingPolicyScroll)) {
    if (ImGui::BeginTabItem(trId("Array"))) {
      ImGui::BeginChild("learner array");
      drawArrayPanel(app);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    noteWidget(app.ui, "tab:learner-array");
    const ImGuiTabItemFlags flags = ex.showTimeline ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(trId("Timeline"), nullptr, flags)) {
      drawAccessTimelinePanel(app);
      ImGui::EndTabItem();
    }
    noteWidget(app.ui, "tab:learner-timeline");
    ex.showTimeline = false;
    ImGui::EndTabBar();
  }
}

}  // namespace rlab::gui
