// The gather step of coarsening, where each thread reads its own elements before the tree: a
// column for each thread holding the elements it read, top to bottom in the order it read them
// (each cell the element's index over the value read there), exactly as the kernel recorded
// each read; the threads' names over the columns, warp and block boundaries between them. A
// row is one turn of the kernel's loop (k), so a warp's neighbouring reads sit side by side.
// More threads than fit are paged with the array panel's pager, its overview strip showing how
// many elements each thread read; more rows than fit (a projector's screen, many elements a
// thread) with a pager of their own under them. The threads' sums are the step after.
#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

constexpr float kIndexScale = 0.62f;  // the element's index, over its value

struct GatherLayout {
  long long threads = 0, shown = 0;  // columns in all, and in the window
  int rows = 0, rowsShown = 0;       // the most reads a thread made, and the rows that fit
  float column = 0, gutter = 0, cellHeight = 0, textScale = 1;
  bool paged = false;
};

const char* caption() {
  return tr(
      "A column per thread: the elements it read, in the order it read them, each cell the "
      "element's index over its value. A row is one turn of the loop (k); grey: past n, not read.");
}

// Rows: the threads' names, then under the cells the boundaries' names, the rows' pager (when
// not all rows fit), and the overview strip (paged).
float rowPagerHeight() {
  return ImGui::GetFrameHeightWithSpacing();
}
float frameAround(const GatherLayout& l, bool moreRows) {
  const float font = ImGui::GetFontSize();
  return (l.paged ? font * 1.2f : 0) + font * 1.3f + font * 1.4f +
         (moreRows ? rowPagerHeight() : 0);
}

GatherLayout layoutGather(const StepSnapshot& s, ElementType type, float width, float height) {
  const float font = ImGui::GetFontSize();
  GatherLayout l;
  l.threads = (long long)s.gathers.size();
  int widestElement = 0;
  float widestValue = ImGui::CalcTextSize("00").x;
  for (const ThreadGather& g : s.gathers) {
    l.rows = std::max(l.rows, int(g.elements.size()));
    for (int e : g.elements) widestElement = std::max(widestElement, e);
    for (double v : g.values)
      widestValue = std::max(widestValue, ImGui::CalcTextSize(formatValue(v, type).c_str()).x);
  }
  const float index = ImGui::CalcTextSize(std::to_string(widestElement).c_str()).x * kIndexScale;
  const float name = ImGui::CalcTextSize(("t" + std::to_string(l.threads - 1)).c_str()).x;
  l.column = std::max({widestValue, index, name}) + font * 0.6f;
  l.gutter =
      ImGui::CalcTextSize(("k=" + std::to_string(std::max(l.rows - 1, 0))).c_str()).x + font * 0.5f;
  l.shown = std::clamp((long long)std::floor((width - l.gutter) / l.column), 1ll,
                       std::max(1ll, l.threads));
  l.paged = l.shown < l.threads;
  // The cells' text may shrink to 0.7 of the font before rows are left out, as the array's
  // cells do.
  const float room = height - frameAround(l, false), fullCell = font * (1 + kIndexScale) + 4;
  l.textScale = std::clamp(room / (float(std::max(l.rows, 1)) * fullCell), 0.7f, 1.f);
  l.cellHeight = fullCell * l.textScale;
  l.rowsShown = std::clamp(int(room / l.cellHeight), 1, std::max(1, l.rows));
  if (l.rowsShown < l.rows)  // the rows' pager takes a line
    l.rowsShown = std::max(1, int((height - frameAround(l, true)) / l.cellHeight));
  return l;
}

// The first thread shown: kept where the learner paged it, else where the window was, within
// the threads.
long long placeThreads(UiState& ui, const Trace& t, const GatherLayout& l) {
  ArrayWindow& w = ui.arrayWindow;
  if (w.placedFor != &t) w.movedByHand = false, w.first = 0, w.firstRow = 0;
  w.placedFor = &t;
  w.placedAtStep = ui.step;
  w.first = std::clamp(w.first, 0ll, std::max(0ll, l.threads - l.shown));
  return w.first;
}

// Rows firstRow to firstRow + rowsShown - 1 of the threads first to first + shown - 1.
void drawColumns(const StepSnapshot& s, const Trace& t, const GatherLayout& l, long long first,
                 int firstRow, ImVec2 origin, const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float x0 = origin.x + l.gutter, top = origin.y + font * 1.3f;
  const float bottom = top + float(l.rowsShown) * l.cellHeight;
  for (int k = 0; k < l.rowsShown; ++k) {
    const std::string row = "k=" + std::to_string(firstRow + k);
    placeLabel(draw,
               {ImVec2(origin.x, top + float(k) * l.cellHeight + l.cellHeight / 2 - font / 2)},
               pal.muted, row);
  }
  for (long long thread = first; thread < first + l.shown; ++thread) {
    const float left = x0 + float(thread - first) * l.column;
    const std::string name = "t" + std::to_string(thread);
    const float nameWidth = ImGui::CalcTextSize(name.c_str()).x;
    placeLabel(draw, {ImVec2(left + (l.column - nameWidth) / 2, origin.y)}, pal.text, name);
    const ThreadGather& g = s.gathers[size_t(thread)];
    for (int k = 0; k < l.rowsShown; ++k) {
      const ImVec2 p0(left + 1, top + float(k) * l.cellHeight + 1),
          p1(left + l.column - 1, top + float(k + 1) * l.cellHeight - 1);
      const size_t r = size_t(firstRow + k);
      const bool read = r < g.elements.size();
      draw->AddRectFilled(p0, p1, read ? pal.cell : pal.padding, 3);
      draw->AddRect(p0, p1, read ? pal.worked : pal.cellBorder, 3, 0, read ? pal.line * 1.5f : 1);
      if (!read) continue;
      // Inside the cell, which is as wide as the widest of them: not labels that could move.
      const std::string index = std::to_string(g.elements[r]);
      const std::string value = formatValue(g.values[r], t.params.type);
      const float small = kIndexScale * l.textScale;
      const float indexWidth = ImGui::CalcTextSize(index.c_str()).x * small;
      const float valueWidth = ImGui::CalcTextSize(value.c_str()).x * l.textScale;
      draw->AddText(ImGui::GetFont(), font * small,
                    ImVec2(left + (l.column - indexWidth) / 2, p0.y + 1), pal.muted, index.c_str());
      draw->AddText(ImGui::GetFont(), font * l.textScale,
                    ImVec2(left + (l.column - valueWidth) / 2, p0.y + 1 + font * small), pal.text,
                    value.c_str());
    }
  }
  // Block and warp boundaries: a thick line where a block starts, a thin one for a warp.
  const long long block = t.params.block;
  for (long long thread = std::max(1ll, first); thread < first + l.shown; ++thread) {
    const bool blockStart = thread % block == 0, warp = block > 32 && thread % 32 == 0;
    if (!blockStart && !warp) continue;
    const float x = x0 + float(thread - first) * l.column;
    draw->AddLine(ImVec2(x, top - font * 0.3f), ImVec2(x, bottom + font * 1.2f),
                  blockStart ? pal.accent : pal.muted, blockStart ? pal.line * 1.5f : 1);
    const std::string name = blockStart ? printed(tr("block %lld"), thread / block)
                                        : printed(tr("warp %lld"), thread % block / 32);
    placeLabel(draw, {ImVec2(x + 3, bottom + 2)}, blockStart ? pal.accent : pal.muted, name);
  }
}

// Up and down a page of rows, and which rows are shown.
void drawRowsPager(UiState& ui, const GatherLayout& l, ImVec2 at) {
  long long& firstRow = ui.arrayWindow.firstRow;
  ImGui::SetCursorScreenPos(at);
  drawPager(ui, firstRow, l.rows, l.rowsShown,
            printed(tr("reads k=%d to k=%d of k=0 to k=%d"), int(firstRow),
                    int(firstRow) + l.rowsShown - 1, l.rows - 1),
            "gather rows", true);
}

}  // namespace

float gatherPictureHeight(const StepSnapshot& s, ElementType type, float width) {
  const float font = ImGui::GetFontSize();
  const GatherLayout l = layoutGather(s, type, width, font * 1000);
  const float captionHeight = ImGui::CalcTextSize(caption(), nullptr, false, width).y;
  return captionHeight + ImGui::GetStyle().ItemSpacing.y * 2 + frameAround(l, false) +
         float(std::min(l.rows, 8)) * l.cellHeight;
}

void drawGatherPicture(App& app, const StepSnapshot& s) {
  UiState& ui = app.ui;
  const Trace& t = *ui.trace;
  const Palette& pal = palette(ui.view.presenter);
  const float width = ImGui::GetContentRegionAvail().x, font = ImGui::GetFontSize();
  // The pager beside the step's header where it fits, else under it; then the caption.
  GatherLayout l = layoutGather(s, t.params.type, width, 1e6f);
  const long long first = placeThreads(ui, t, l);
  if (l.paged) {
    const std::string showing =
        printed(tr("threads %lld-%lld of %lld"), first, first + l.shown - 1, l.threads);
    const float pager = ImGui::GetFrameHeight() * 2 + ImGui::GetStyle().ItemSpacing.x * 3 +
                        ImGui::CalcTextSize(showing.c_str()).x;
    const float right = ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + pager < right)
      ImGui::SameLine(right - pager);
    drawRowPager(ui, l.threads, l.shown, showing);
  }
  wrappedText(caption(), pal.accent);
  l = layoutGather(s, t.params.type, width, ImGui::GetContentRegionAvail().y - font * 0.5f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  long long& firstRow = ui.arrayWindow.firstRow;
  firstRow = std::clamp(firstRow, 0ll, (long long)std::max(0, l.rows - l.rowsShown));
  drawColumns(s, t, l, first, int(firstRow), origin, pal);
  const float cells = font * 1.3f + float(l.rowsShown) * l.cellHeight + font * 1.4f;
  if (l.rowsShown < l.rows) drawRowsPager(ui, l, ImVec2(origin.x, origin.y + cells));
  const float used = cells + (l.rowsShown < l.rows ? rowPagerHeight() : 0);
  if (l.paged) {
    std::vector<double> reads;  // the strip: how many elements each thread read
    for (const ThreadGather& g : s.gathers) reads.push_back(double(g.elements.size()));
    drawRowOverview(ui, reads, {}, ImVec2(origin.x, origin.y + used), width, font * 0.8f, l.shown,
                    pal);
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, used + (l.paged ? font * 1.2f : 0)));
}

}  // namespace rlab::gui
