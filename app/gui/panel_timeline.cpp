// The per-thread timeline (lessons/engine/run/timeline.hpp): one row per thread, the levels as
// columns, each combine a box saying when the thread read and wrote; a late thread's row has a gap,
// and a read that came before the write it needed is red: an arc from where the value it read was
// written, and a dashed line to the write it missed, "read 11 before thread 4 wrote 26".
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/timeline.hpp"

namespace rlab::gui {

namespace {

constexpr int kMaxRows = 256;  // more threads than this: rlab run --timeline lists them all

struct Geometry {
  ImVec2 origin;
  float label = 0, column = 0, row = 0;
  float font = 0;  // the font size outside the rows' child, where the panel measured it
  // A cell's box: within its column, shifted right by its place in the column's order, so
  // that of two combines in one time slot the earlier is the one further left.
  ImVec4 box(int rowIndex, const TimelineCell& c) const {
    const float step = c.inColumn > 1 ? column * 0.4f / float(c.inColumn - 1) : 0;
    const float x = origin.x + label + column * float(c.column) + step * float(c.orderInColumn) + 3;
    const float y = origin.y + row * float(rowIndex) + 2;
    return ImVec4(x, y, x + column * 0.58f - 6, y + row - 5);
  }
};

ImVec2 centreOf(const ImVec4& b) {
  return ImVec2((b.x + b.z) / 2, (b.y + b.w) / 2);
}

void dashedLine(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  const float dash = 6 * thickness;
  for (float s = 0; s < length; s += 2 * dash) {
    const float e = std::min(length, s + dash);
    draw->AddLine(ImVec2(a.x + (b.x - a.x) * s / length, a.y + (b.y - a.y) * s / length),
                  ImVec2(a.x + (b.x - a.x) * e / length, a.y + (b.y - a.y) * e / length), colour,
                  thickness);
  }
}

void arrowHead(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 colour, float size) {
  const float dx = to.x - from.x, dy = to.y - from.y, length = std::max(1.f, std::hypot(dx, dy));
  const float ux = dx / length, uy = dy / length;
  draw->AddTriangleFilled(
      to, ImVec2(to.x - ux * size - uy * size * 0.5f, to.y - uy * size + ux * size * 0.5f),
      ImVec2(to.x - ux * size + uy * size * 0.5f, to.y - uy * size - ux * size * 0.5f), colour);
}

// Where the times come from (the GPU's clock or the simulator's order), and how to read a box.
void drawTimelineHeading(const Timeline& tl, const Palette& pal) {
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(tl.measured ? pal.changed : pal.accent));
  ImGui::TextUnformatted(tl.measured ? tr("Measured on the GPU (clock64)")
                                     : tr("Exact: the simulator's own order"));
  ImGui::PopStyleColor();
  ImGui::SameLine();
  helpMarker(say(tl.clockText).c_str());
  wrappedText(tr("Each box: #R-W, when it read and when it wrote, counting every read and write"),
              true);
}

// The label column, the columns and the rows, sized to the text they hold (origin not yet set).
Geometry timelineGeometry(const Timeline& tl, const Trace& t) {
  Geometry g;
  g.font = ImGui::GetFontSize();
  g.label = ImGui::CalcTextSize(printed(tr("thread %d"), 1023).c_str()).x + g.font * 0.6f;
  // A box is 0.58 of its column and must hold its two lines (presenter mode's larger type
  // included); the rows scroll sideways when the columns then do not fit.
  float widest = 0;
  for (const TimelineRow& row : tl.rows)
    for (const TimelineCell& c : row.cells)
      widest =
          std::max(widest, ImGui::CalcTextSize(cellText(c, t.params.op, t.params.type).c_str()).x);
  g.column = std::max({g.font * 6, (widest + 14) / 0.58f,
                       (ImGui::GetContentRegionAvail().x - g.label) /
                           float(std::max<size_t>(1, tl.columns.size()))});
  g.row = ImGui::GetTextLineHeight() * 2 + 8;
  return g;
}

// The levels' names over their columns, the step in the player's in the accent colour.
void drawColumnHeadings(ImDrawList* draw, const Timeline& tl, const Geometry& g, int step,
                        const Palette& pal) {
  const ImVec2 head = ImGui::GetCursorScreenPos();
  for (size_t c = 0; c < tl.columns.size(); ++c)
    draw->AddText(ImVec2(head.x + g.label + g.column * float(c) + 3, head.y),
                  int(c) + 1 == step ? pal.accent : pal.muted, say(tl.columns[c]).c_str());
  ImGui::Dummy(ImVec2(g.label + g.column * float(tl.columns.size()), ImGui::GetTextLineHeight()));
}

// The grid: every other row shaded, each row's thread named, a line between the columns.
void drawGrid(ImDrawList* draw, const Timeline& tl, const Geometry& g, int rows, float width,
              const Palette& pal) {
  for (int r = 0; r < rows; ++r) {
    const float y = g.origin.y + g.row * float(r);
    if (r % 2 == 1)
      draw->AddRectFilled(ImVec2(g.origin.x, y), ImVec2(g.origin.x + width, y + g.row),
                          (pal.cell & 0x00ffffffu) | 0x40000000u);
    const std::string name = printed(tr("thread %d"), tl.rows[size_t(r)].thread);
    draw->AddText(ImVec2(g.origin.x, y + (g.row - g.font) / 2), pal.text, name.c_str());
  }
  for (size_t c = 0; c <= tl.columns.size(); ++c) {
    const float x = g.origin.x + g.label + g.column * float(c);
    draw->AddLine(ImVec2(x, g.origin.y), ImVec2(x, g.origin.y + g.row * float(rows)),
                  pal.cellBorder, 1);
  }
}

// Each combine's box: when it read and wrote, and what; a late one's gap before it.
void drawCells(ImDrawList* draw, const Timeline& tl, const Trace& t, const Geometry& g, int rows,
               int step, const Palette& pal) {
  for (int r = 0; r < rows; ++r)
    for (const TimelineCell& c : tl.rows[size_t(r)].cells) {
      const ImVec4 b = g.box(r, c);
      if (c.late) {  // the gap: the columns it should have run in, waiting
        const float y = (b.y + b.w) / 2;
        const float from = g.origin.x + g.label + g.column * float(c.level - 1) + 6;
        dashedLine(draw, ImVec2(from, y), ImVec2(b.x, y), pal.changed, pal.line);
        draw->AddText(ImVec2(from, b.y), pal.changed,
                      printed(tr("late: level %d waits"), c.level).c_str());
      }
      const bool current = c.level == step;  // the step in the player: framed
      draw->AddRectFilled(ImVec2(b.x, b.y), ImVec2(b.z, b.w), pal.cell, 4);
      draw->AddRect(ImVec2(b.x, b.y), ImVec2(b.z, b.w),
                    c.staleRead ? pal.wrong
                    : current   ? pal.accent
                                : pal.cellBorder,
                    4, 0, c.staleRead || current ? pal.line * 2 : 1);
      const std::string when = "#" + std::to_string(c.readTick) + "-" + std::to_string(c.writeTick);
      const std::string what = cellText(c, t.params.op, t.params.type);
      draw->PushClipRect(ImVec2(b.x, b.y), ImVec2(b.z, b.w), true);
      draw->AddText(ImVec2(b.x + 4, b.y + 2), pal.muted, when.c_str());
      draw->AddText(ImVec2(b.x + 4, b.y + 2 + ImGui::GetTextLineHeight()),
                    c.staleRead ? pal.wrong : pal.text, what.c_str());
      draw->PopClipRect();
    }
}

// Early reads: where the value came from, and the write it should have waited for.
void drawEarlyReads(ImDrawList* draw, const Timeline& tl, const Geometry& g, int rows,
                    const Palette& pal) {
  for (const TimelineEarlyRead& e : tl.earlyReads) {
    if (e.readerRow >= rows) continue;
    const ImVec4 reader =
        g.box(e.readerRow, tl.rows[size_t(e.readerRow)].cells[size_t(e.readerCell)]);
    const ImVec2 at(reader.x, (reader.y + reader.w) / 2);
    if (e.fromRow >= 0 && e.fromRow < rows) {
      const ImVec4 from = g.box(e.fromRow, tl.rows[size_t(e.fromRow)].cells[size_t(e.fromCell)]);
      const ImVec2 a(from.z, centreOf(from).y);
      const ImVec2 c1(a.x + g.column * 0.3f, a.y), c2(at.x - g.column * 0.3f, at.y);
      draw->AddBezierCubic(a, c1, c2, at, pal.wrong, pal.line * 1.5f);
      arrowHead(draw, c2, at, pal.wrong, g.font * 0.6f);
    }
    if (e.writerRow >= 0 && e.writerRow < rows) {
      const ImVec4 w = g.box(e.writerRow, tl.rows[size_t(e.writerRow)].cells[size_t(e.writerCell)]);
      const ImVec2 a(reader.z - 6, reader.w), z(centreOf(w).x, w.y);
      dashedLine(draw, a, z, pal.wrong, pal.line);
      // The words under the reader's box, ending where it ends: inside the grid.
      const std::string text = say(e.text);
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      const ImVec2 at2(std::max(g.origin.x + g.label, reader.z - size.x - 10), reader.w + 2);
      draw->AddRectFilled(at2, ImVec2(at2.x + size.x + 6, at2.y + size.y + 2),
                          ImGui::GetColorU32(ImGuiCol_WindowBg), 3);
      draw->AddText(ImVec2(at2.x + 3, at2.y + 1), pal.wrong, text.c_str());
    }
  }
}

// Under the rows: the threads left out, each early read in words, and how many reads waited.
void drawTimelineFooter(const Timeline& tl, int rows, const Palette& pal) {
  if (int(tl.rows.size()) > rows)
    ImGui::TextDisabled(tr("The first %d of %zu threads; rlab run --timeline lists them all."),
                        rows, tl.rows.size());
  for (const TimelineEarlyRead& e : tl.earlyReads) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.wrong));
    wrappedText("#" + std::to_string(e.readTick) + " " + say(e.sentence));
    ImGui::PopStyleColor();
  }
  const int needed = tl.readsAfterTheirWrite + tl.readsBeforeTheirWrite;
  if (tl.readsBeforeTheirWrite == 0)
    wrappedText(printed(tr("Every read of a value written at an earlier level (%d) came after "
                           "that write."),
                        needed));
  else
    wrappedText(printed(tr("%d of %d reads of a value written at an earlier level came before "
                           "that write."),
                        tl.readsBeforeTheirWrite, needed));
}

}  // namespace

void drawTimelinePanel(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) return;
  const Trace& t = *ui.trace;
  if (!lessonOrThrow(t.params.lesson).timeline) {
    wrappedText(
        tr("The timeline is for the barrier and lastwarp lessons: their kernels stamp when "
           "each thread read and wrote."));
    return;
  }
  const Timeline tl = buildTimeline(t);
  if (!tl.available) {
    wrappedText(say(tl.why));
    return;
  }
  drawTimelineHeading(tl, pal);

  Geometry g = timelineGeometry(tl, t);
  // Column headings, then the rows in a scrolling child.
  drawColumnHeadings(ImGui::GetWindowDrawList(), tl, g, ui.step, pal);
  const int rows = std::min<int>(int(tl.rows.size()), kMaxRows);
  const float footer = ImGui::GetTextLineHeightWithSpacing() * float(2 + tl.earlyReads.size());
  ImGui::BeginChild("timeline rows",
                    ImVec2(0, std::max(g.row * 2, ImGui::GetContentRegionAvail().y - footer)),
                    false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  g.origin = ImGui::GetCursorScreenPos();
  const float width = g.label + g.column * float(tl.columns.size());
  drawGrid(draw, tl, g, rows, width, pal);
  drawCells(draw, tl, t, g, rows, ui.step, pal);
  drawEarlyReads(draw, tl, g, rows, pal);
  ImGui::Dummy(ImVec2(width, g.row * float(rows)));
  ImGui::EndChild();
  drawTimelineFooter(tl, rows, pal);
}

}  // namespace rlab::gui
