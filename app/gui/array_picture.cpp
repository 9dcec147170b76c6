// The array panel's picture: a row of cells with their values, indices, block and warp
// boundaries and marks, the step's pairs as arcs over them, and under a paged array the overview
// strip of the whole array (where the window is, where this step works).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/array_picture.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// A few significant digits and a k, M or G: 12500000 becomes 12.5M (or 13M with two digits).
std::string shortValue(double v, int digits) {
  const char* const suffixes[] = {"", "k", "M", "G", "T"};
  int power = 0;
  double scaled = v;
  while (std::fabs(scaled) >= 999.5 && power < 4) {
    scaled /= 1000;
    ++power;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.*g%s", digits, scaled, suffixes[power]);
  return text;
}

// The widest of these values as a cell prints it, at the current font size.
float widestValue(const std::vector<double>& values, ElementType type) {
  double low = 0, high = 0;
  for (double v : values)
    if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
  float widest = ImGui::CalcTextSize("00").x;
  for (double v : {low, high})
    widest = std::max(widest, ImGui::CalcTextSize(formatValue(v, type).c_str()).x);
  // Float values may run to many digits: past about seven characters they are shortened.
  return std::min(widest, ImGui::CalcTextSize("-0.0000e+00").x);
}

// Cells' text may shrink to this share of the font before the array is paged instead: a warp's
// 32 lanes then stay on one screen at 1024 pixels.
constexpr float kSmallestCellText = 0.7f;

void arc(ImDrawList* draw, ImVec2 from, ImVec2 to, float lift, ImU32 colour, float thickness) {
  draw->AddBezierCubic(from, ImVec2(from.x, from.y - lift), ImVec2(to.x, to.y - lift), to, colour,
                       thickness);
  const float head = std::max(4.f, thickness * 2.5f);
  draw->AddTriangleFilled(ImVec2(to.x - head, to.y - head * 1.7f),
                          ImVec2(to.x + head, to.y - head * 1.7f), to, colour);
}

// A label at an arc's top, or just above or below it, never above `ceiling` (the top of the
// arcs' room: the lines over it are the step's sentences); left out where none is free.
void arcLabel(ImDrawList* draw, float x, float top, float ceiling, ImU32 colour,
              const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float left = x - size.x / 2;
  auto at = [&](float lx, float y) { return ImVec2(lx, std::max(y, ceiling)); };
  placeLabel(
      draw,
      {at(left, top - size.y - 1), at(left, top + 2), at(left, top - size.y * 2 - 2),
       at(left + size.x * 0.6f, top - size.y - 1), at(left - size.x * 0.6f, top - size.y - 1)},
      colour, text);
}

struct Row {
  float x0, cell, top, cellHeight, room;  // room: above the cells, for the arcs
  long long first, shown;
  float textScale = 1;  // of the values in the cells
  float at(long long element) const { return x0 + (float(element - first) + 0.5f) * cell; }
  bool contains(long long element) const { return element >= first && element < first + shown; }
};

// The combine into `target` from `source` in this step, where recorded.
const CombineRead* combineOf(const ArrayPicture& a, int source, int target) {
  if (a.combines)
    for (const CombineRead& c : *a.combines)
      if (c.target.element == target && c.source.element == source) return &c;
  return nullptr;
}

// Each pair combined as an arc from source to target, labelled with the thread that made it.
void drawPairArcs(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  const float edgeLeft = r.x0, edgeRight = r.x0 + r.cell * float(r.shown);
  const float y = r.top - 2, ceiling = r.top - r.room;
  // Pairs with one end beyond the window are named one by one only where they are few; else
  // one line says how many there are.
  int beyond = 0;
  for (const auto& [source, target] : a.pairs)
    beyond += source != target && r.contains(source) != r.contains(target);
  const bool nameBeyond = beyond <= 4;  // else a line over the picture says how many
  // Each arc names the thread that made it, where there are few enough to read the names.
  int inside = 0;
  for (const auto& [source, target] : a.pairs)
    inside += source != target && r.contains(source) && r.contains(target);
  const bool nameThreads = inside <= 12;
  for (const auto& [source, target] : a.pairs) {
    if (source == target) continue;
    const bool in = r.contains(source), out = r.contains(target);
    if (!in && !out) continue;
    const CombineRead* c = combineOf(a, source, target);
    const std::string who = c && nameThreads ? "t" + std::to_string(c->thread) : "";
    if (in && out) {
      if (c && (c->source.stale || c->target.stale)) continue;  // drawn red, below
      const ImVec2 from(r.at(source), y), to(r.at(target), y);
      const float lift = std::min(r.room * 0.8f, std::fabs(to.x - from.x) * 0.5f + 8);
      arc(draw, from, to, lift, pal.pair, pal.line);
      if (!who.empty())
        arcLabel(draw, (from.x + to.x) / 2, y - lift * 0.75f, ceiling, pal.pair, who);
      continue;
    }
    // One end beyond the window: the arc runs to its edge, named with the element and value.
    const bool sourceLeft = source < r.first, targetLeft = target < r.first;
    const float edge = (in ? targetLeft : sourceLeft) ? edgeLeft : edgeRight;
    const ImVec2 inside(r.at(in ? source : target), y), outside(edge, y - r.room * 0.45f);
    // A short stub from the cell towards the edge its partner lies beyond.
    const float reach = std::min(std::fabs(outside.x - inside.x), r.cell * 1.5f);
    const ImVec2 end(inside.x + (outside.x < inside.x ? -reach : reach), y - r.room * 0.35f);
    if (in) {
      draw->AddBezierCubic(inside, ImVec2(inside.x, end.y), ImVec2(inside.x, end.y), end, pal.pair,
                           pal.line);
      if (nameBeyond)
        arcLabel(draw, (inside.x + end.x) / 2, end.y, ceiling, pal.pair,
                 printed(tr("%s to %s[%d]"), who.c_str(), a.array.c_str(), target));
    } else {
      arc(draw, end, inside, r.room * 0.1f, pal.pair, pal.line);
      // The partner's value as the thread read it (the array after the step may hold another).
      const std::string from = printed("%s[%d]", a.array.c_str(), source) +
                               (c ? " = " + formatValue(c->source.value, a.type) : "");
      if (nameBeyond)
        arcLabel(draw, (inside.x + end.x) / 2, end.y, ceiling, pal.pair,
                 printed(tr("%s from %s"), who.c_str(), from.c_str()));
    }
  }
}

// Reads that came too early, over the ordinary arcs: red, with what was read and what should
// have been.
void drawStaleReadArcs(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  const float y = r.top - 2, ceiling = r.top - r.room;
  for (const CombineRead& c : *a.combines)
    for (const ValueRead* read : {&c.source, &c.target}) {
      if (!read->stale || !r.contains(read->element) || !r.contains(c.target.element)) continue;
      const ImVec2 from(r.at(read->element), y), to(r.at(c.target.element), y);
      const float lift = std::min(r.room * 0.9f, std::fabs(to.x - from.x) * 0.5f + 12);
      arc(draw, from, to, lift, pal.wrong, pal.line * 1.6f);
      arcLabel(
          draw, (from.x + to.x) / 2, y - lift * 0.75f, ceiling, pal.wrong,
          printed(tr("t%d read %s, not %s"), c.thread, formatValue(read->value, a.type).c_str(),
                  formatValue(read->missed, a.type).c_str()));
    }
}

void drawArcs(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  drawPairArcs(draw, a, r, pal);
  if (a.combines) drawStaleReadArcs(draw, a, r, pal);
}

// Where the line of captions under the indices starts, below the cells, in font sizes.
constexpr float kCaptionLine = 1.2f;

// The cells with their values: changed cells glow, cells written by working threads are
// outlined.
void drawValues(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  const float font = ImGui::GetFontSize();
  for (long long i = r.first; i < r.first + r.shown; ++i) {
    const float left = r.x0 + float(i - r.first) * r.cell;
    const ImVec2 p0(left + 1, r.top), p1(left + r.cell - 1, r.top + r.cellHeight);
    const bool glow = a.glows(size_t(i)), outline = a.outlined.count(int(i)) > 0;
    const bool padding = a.paddingFrom >= 0 && i >= a.paddingFrom;
    draw->AddRectFilled(p0, p1, glow ? pal.changed : padding ? pal.padding : pal.cell, 3);
    draw->AddRect(p0, p1, outline ? pal.worked : pal.cellBorder, 3, 0, outline ? pal.line * 2 : 1);
    std::string text = formatValue(a.values[size_t(i)], a.type);
    ImVec2 size = ImGui::CalcTextSize(text.c_str());
    for (int digits = 4; size.x * r.textScale > r.cell - 4 && digits >= 2; --digits) {
      text = shortValue(a.values[size_t(i)], digits);
      size = ImGui::CalcTextSize(text.c_str());
    }
    size = ImVec2(size.x * r.textScale, size.y * r.textScale);
    draw->AddText(ImGui::GetFont(), font * r.textScale,
                  ImVec2(p0.x + (r.cell - 2 - size.x) / 2, p0.y + (r.cellHeight - size.y) / 2),
                  glow ? IM_COL32(0, 0, 0, 255) : pal.text, text.c_str());
  }
}

// The indices under the cells: every one where they fit, else every 2nd, 4th, ...
void drawIndices(ImDrawList* draw, const Row& r, const Palette& pal) {
  const float widest = ImGui::CalcTextSize(std::to_string(r.first + r.shown - 1).c_str()).x + 6;
  long long every = 1;
  while (float(every) * r.cell < widest) every *= 2;
  for (long long i = r.first; i < r.first + r.shown; ++i) {
    if (i % every != 0) continue;
    const std::string index = std::to_string(i);
    const float w = ImGui::CalcTextSize(index.c_str()).x;
    placeLabel(
        draw,
        {ImVec2(r.x0 + float(i - r.first) * r.cell + (r.cell - w) / 2, r.top + r.cellHeight + 2)},
        pal.muted, index);
  }
}

// Block and warp boundaries: a thick line where a block starts, a thin one for a warp; and
// where the cells past n start.
void drawBoundaries(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  const float font = ImGui::GetFontSize();
  if (a.perBlock > 0) {
    const float below = r.top + r.cellHeight + font * kCaptionLine;
    for (long long i = std::max(1ll, r.first); i < r.first + r.shown; ++i) {
      const bool block = i % a.perBlock == 0, warp = a.perBlock > 32 && i % 32 == 0;
      if (!block && !warp) continue;
      const float x = r.x0 + float(i - r.first) * r.cell;
      // A cluster's first block names the cluster too: its blocks share their shared memory.
      const bool cluster = block && a.perCluster > 0 && i % a.perCluster == 0;
      draw->AddLine(ImVec2(x, r.top - font * 0.4f), ImVec2(x, below + font),
                    block ? pal.accent : pal.muted,
                    cluster ? pal.line * 3
                    : block ? pal.line * 1.5f
                            : 1);
      const std::string name =
          cluster ? printed(tr("cluster %lld: block %lld"), i / a.perCluster, i / a.perBlock)
          : block ? printed(tr("block %lld"), i / a.perBlock)
                  : printed(tr("warp %lld"), i % a.perBlock / 32);
      placeLabel(draw, {ImVec2(x + 3, below), ImVec2(x + 3, below + font)},
                 block ? pal.accent : pal.muted, name);
    }
  }
  if (a.paddingFrom >= 0 && r.contains(a.paddingFrom)) {
    const float x = r.x0 + float(a.paddingFrom - r.first) * r.cell;
    placeLabel(draw, {ImVec2(x + 3, r.top + r.cellHeight + font * kCaptionLine)}, pal.muted,
               tr("past n: the identity"));
  }
}

// Marks: a frame round the cell and its caption under the indices. A write that landed after a
// read that came too early is dashed.
void drawMarks(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
  const float font = ImGui::GetFontSize();
  for (const CellMark& m : a.marks) {
    if (!r.contains(m.element)) continue;
    const float left = r.x0 + float(m.element - r.first) * r.cell;
    const ImVec2 p0(left - 1, r.top - 2), p1(left + r.cell + 1, r.top + r.cellHeight + 2);
    if (m.dashed) {
      for (float x = p0.x; x < p1.x; x += 8) {
        draw->AddLine(ImVec2(x, p0.y), ImVec2(std::min(x + 4, p1.x), p0.y), m.colour, pal.line * 2);
        draw->AddLine(ImVec2(x, p1.y), ImVec2(std::min(x + 4, p1.x), p1.y), m.colour, pal.line * 2);
      }
      draw->AddLine(p0, ImVec2(p0.x, p1.y), m.colour, pal.line * 2);
      draw->AddLine(ImVec2(p1.x, p0.y), p1, m.colour, pal.line * 2);
    } else {
      draw->AddRect(p0, p1, m.colour, 3, 0, pal.line * 2.5f);
    }
    if (m.caption.empty()) continue;
    const float w = ImGui::CalcTextSize(m.caption.c_str()).x;
    const float centre = left + r.cell / 2 - w / 2;
    const float below = r.top + r.cellHeight + font * kCaptionLine;
    placeLabel(draw,
               {ImVec2(centre, below), ImVec2(centre, below + font * 1.1f), ImVec2(left, below),
                ImVec2(left + r.cell - w, below), ImVec2(centre, below + font * 2.2f)},
               m.colour, m.caption);
  }
}

void drawCells(const ArrayPicture& a, const Row& r, const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  drawValues(draw, a, r, pal);
  drawIndices(draw, r, pal);
  drawBoundaries(draw, a, r, pal);
  drawMarks(draw, a, r, pal);
  drawArcs(draw, a, r, pal);
}

// The whole array as a strip of magnitudes, the window framed; a click or a drag moves it.
void drawOverview(UiState& ui, const ArrayPicture& a, ImVec2 origin, float width, float height,
                  long long shown, const Palette& pal) {
  drawRowOverview(ui, a.values, a.hot, origin, width, height, shown, pal);
}

}  // namespace

CellLayout fitCells(const ArrayPicture& a, float width) {
  const float font = ImGui::GetFontSize();
  const long long count = (long long)a.values.size();
  const float pad = font * 0.35f, widest = widestValue(a.values, a.type);
  CellLayout l;
  long long fit = std::max(1ll, (long long)std::floor(width / (widest + pad)));
  if (fit < count && count <= 64) {
    const float scale = std::max(kSmallestCellText, (width / float(count) - pad) / widest);
    if (float(count) * (widest * scale + pad) <= width) l.textScale = scale, fit = count;
  }
  l.paged = count > fit;
  l.shown = std::min(count, fit);
  return l;
}

// The cells in the space left in the window, and the strip under them when they are paged.
void drawPicture(UiState& ui, const ArrayPicture& a, const CellLayout& l, const Palette& pal) {
  const float font = ImGui::GetFontSize();
  const long long count = (long long)a.values.size();
  const float width = ImGui::GetContentRegionAvail().x;
  if (l.paged && ImGui::IsWindowHovered() && ImGui::GetIO().MouseWheel != 0) {
    ArrayWindow& w = ui.arrayWindow;
    w.first =
        std::clamp(w.first - (long long)ImGui::GetIO().MouseWheel * std::max(1ll, l.shown / 4), 0ll,
                   count - l.shown);
    w.movedByHand = true;
  }
  const long long first = l.paged ? ui.arrayWindow.first : 0;
  // Pairs with one end beyond the window, where too many to name one by one (drawArcs): a line
  // of their own over the picture, where no arc crosses it.
  int beyond = 0;
  for (const auto& [source, target] : a.pairs)
    beyond += source != target && ((source >= first && source < first + l.shown) !=
                                   (target >= first && target < first + l.shown));
  if (beyond > 4)
    wrappedText(
        printed(tr("%d pairs reach beyond the window: page to see their other ends"), beyond),
        pal.muted);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float height = std::max(font * 5, ImGui::GetContentRegionAvail().y - 4);
  const float overview = l.paged ? font * kOverviewHeight : 0;
  // Under the cells: the indices, then a line for boundaries, marks and the padding's caption.
  const bool captions = a.perBlock > 0 || !a.marks.empty() || a.paddingFrom >= 0;
  const float below = font * (captions ? kCaptionsBelow : kIndicesBelow);
  const float cell = l.paged ? width / float(l.shown) : std::min(width / float(count), font * 6.f);
  const float cellHeight =
      std::min(font * kMostCellHeight, std::max(font * kLeastCellHeight, cell));
  // Room above the cells for the arcs; a step without pairs needs none.
  bool arcs = !a.pairs.empty();
  if (a.combines)
    for (const CombineRead& c : *a.combines) arcs |= c.source.stale || c.target.stale;
  const float room = arcs ? std::clamp(height - overview - below - cellHeight - font * 0.5f,
                                       font * kLeastArcsRoom, font * kMostArcsRoom)
                          : font * kNoArcsRoom;
  Row row{origin.x, cell, origin.y + room, cellHeight, room, first, l.shown};
  row.textScale = l.textScale;
  drawCells(a, row, pal);
  const float used = row.top + cellHeight + below - origin.y;
  if (l.paged)
    drawOverview(ui, a, ImVec2(origin.x, origin.y + used + font * 0.3f), width, overview, l.shown,
                 pal);
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, used + overview + font * 0.4f));
}

}  // namespace rlab::gui
