// The array after this step, readable at any n: as many cells as fit with their values, a
// pager and an overview strip of the whole array (where the window is, where this step works)
// when it is longer, block and warp boundaries, and each pair combined as an arc from source to
// target labelled with the thread that made it. Changed cells glow, cells written by working
// threads are outlined. A read that came too early is a red arc with what was read and what
// should have been; a write that landed after such a read is marked at its cell. The atomic
// lesson shows its input with the atomics that have landed so far. A race witness on screen
// frames its two cells: the one read too early and the one its reader wrote.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

struct Mark {
  long long element = -1;
  std::string caption;
  ImU32 colour = 0;
  bool dashed = false;  // a late write: the value is there, but came too late for a reader
};

struct ArrayPicture {
  const std::vector<double>& values;
  ElementType type;
  std::function<bool(size_t)> glows;  // changed in this step
  std::set<int> outlined;             // written by a working thread
  const std::vector<std::pair<int, int>>& pairs;
  const std::vector<CombineRead>* combines = nullptr;  // who combined what, where known
  std::vector<Mark> marks = {};
  std::string array = "a";          // the kernel's name for it
  long long perBlock = 0;           // elements a block holds (boundaries); 0: not drawn
  std::vector<long long> hot = {};  // elements this step wrote: ticks on the overview strip
  long long paddingFrom = -1;       // cells from here hold no input (threads past n)
};

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

// The window's first element for this step: where the step works, unless the learner moved it.
void placeWindow(UiState& ui, const Trace& t, const ArrayPicture& a, long long shown) {
  ArrayWindow& w = ui.arrayWindow;
  const long long count = (long long)a.values.size();
  const bool newRun = w.placedFor != &t;
  if (newRun) w.movedByHand = false;
  const bool moved = newRun || w.placedAtStep != ui.step;
  w.placedFor = &t;
  w.placedAtStep = ui.step;
  if (moved && !w.movedByHand && !a.hot.empty()) {
    bool visible = false;
    for (long long e : a.hot) visible |= e >= w.first && e < w.first + shown;
    // Pages start on a warp where a page holds one, so that the boundaries stay put. A new run
    // starts where its step works, wherever the last run's window stood.
    const long long unit = shown >= 32 ? shown / 32 * 32 : shown;
    if (!visible || newRun) w.first = a.hot.front() / unit * unit;
  }
  w.first = std::clamp(w.first, 0ll, std::max(0ll, count - shown));
}

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

void drawArcs(ImDrawList* draw, const ArrayPicture& a, const Row& r, const Palette& pal) {
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
  if (!a.combines) return;
  // Reads that came too early, over the ordinary arcs: red, with what was read and what should
  // have been.
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

void drawCells(const ArrayPicture& a, const Row& r, const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
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
  // The indices under the cells: every one where they fit, else every 2nd, 4th, ...
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
  // Block and warp boundaries: a thick line where a block starts, a thin one for a warp.
  if (a.perBlock > 0) {
    const float below = r.top + r.cellHeight + font * 1.2f;
    for (long long i = std::max(1ll, r.first); i < r.first + r.shown; ++i) {
      const bool block = i % a.perBlock == 0, warp = a.perBlock > 32 && i % 32 == 0;
      if (!block && !warp) continue;
      const float x = r.x0 + float(i - r.first) * r.cell;
      draw->AddLine(ImVec2(x, r.top - font * 0.4f), ImVec2(x, below + font),
                    block ? pal.accent : pal.muted, block ? pal.line * 1.5f : 1);
      const std::string name = block ? printed(tr("block %lld"), i / a.perBlock)
                                     : printed(tr("warp %lld"), i % a.perBlock / 32);
      placeLabel(draw, {ImVec2(x + 3, below), ImVec2(x + 3, below + font)},
                 block ? pal.accent : pal.muted, name);
    }
  }
  if (a.paddingFrom >= 0 && r.contains(a.paddingFrom)) {
    const float x = r.x0 + float(a.paddingFrom - r.first) * r.cell;
    placeLabel(draw, {ImVec2(x + 3, r.top + r.cellHeight + font * 1.2f)}, pal.muted,
               tr("past n: the identity"));
  }
  // Marks: a frame round the cell and its caption under the indices.
  for (const Mark& m : a.marks) {
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
    const float below = r.top + r.cellHeight + font * 1.2f;
    placeLabel(draw,
               {ImVec2(centre, below), ImVec2(centre, below + font * 1.1f), ImVec2(left, below),
                ImVec2(left + r.cell - w, below), ImVec2(centre, below + font * 2.2f)},
               m.colour, m.caption);
  }
  drawArcs(draw, a, r, pal);
}

}  // namespace

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

namespace {

// The whole array as a strip of magnitudes, the window framed; a click or a drag moves it.
void drawOverview(UiState& ui, const ArrayPicture& a, ImVec2 origin, float width, float height,
                  long long shown, const Palette& pal) {
  drawRowOverview(ui, a.values, a.hot, origin, width, height, shown, pal);
}

// How many cells fit, with their values whole: smaller text before paging, up to 64 cells (so
// that a warp's 32 lanes stay on one screen at 1024 pixels); more are shown a window at a time.
struct CellLayout {
  long long shown = 0;
  bool paged = false;
  float textScale = 1;
};
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

// The pager of a long array, on the line it is called on: back, forward, and where the window is.
void drawPager(UiState& ui, const Trace& t, const ArrayPicture& a, const CellLayout& l) {
  placeWindow(ui, t, a, l.shown);
  const long long first = ui.arrayWindow.first;
  drawRowPager(ui, (long long)a.values.size(), l.shown,
               printed(tr("showing %lld-%lld of %lld"), first, first + l.shown - 1,
                       (long long)a.values.size()));
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
  const float overview = l.paged ? font * 0.8f : 0;
  // Under the cells: the indices, then a line for boundaries, marks and the padding's caption.
  const bool captions = a.perBlock > 0 || !a.marks.empty() || a.paddingFrom >= 0;
  const float below = font * (captions ? 2.4f : 1.3f);
  const float cell = l.paged ? width / float(l.shown) : std::min(width / float(count), font * 6.f);
  const float cellHeight = std::min(font * 2.2f, std::max(font * 1.4f, cell));
  // Room above the cells for the arcs; a step without pairs needs none.
  bool arcs = !a.pairs.empty();
  if (a.combines)
    for (const CombineRead& c : *a.combines) arcs |= c.source.stale || c.target.stale;
  const float room = arcs ? std::clamp(height - overview - below - cellHeight - font * 0.5f,
                                       font * 1.6f, font * 6.f)
                          : font * 0.4f;
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

// The step's header line, then the pager on its right where the array is paged.
CellLayout headerAndPager(UiState& ui, const Trace& t, const ArrayPicture& a) {
  const CellLayout l = fitCells(a, ImGui::GetContentRegionAvail().x);
  noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), "step label");
  if (!l.paged) return l;
  const float pager = ImGui::GetFrameHeight() * 2 + ImGui::GetStyle().ItemSpacing.x * 3 +
                      ImGui::CalcTextSize("showing 00000000-00000000 of 00000000").x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + pager < right)
    ImGui::SameLine(right - pager);
  drawPager(ui, t, a, l);
  return l;
}

// Elements a block holds in this step's cells, where the array is indexed by thread and the
// boundaries mean something; 0: not drawn.
long long elementsPerBlock(const Trace& t, const StepSnapshot& s, int step) {
  const LessonInfo& lesson = lessonOrThrow(t.params.lesson);
  switch (lesson.picture) {
    case LessonPicture::Barrier:
    case LessonPicture::WarpGrid:
    case LessonPicture::BlockPartials:
    case LessonPicture::Butterfly:
      break;
    default:
      return 0;
  }
  const VariantInfo* variant = lesson.findVariant(t.params.variant);
  const int perThread = t.params.perThread > 0 ? t.params.perThread
                        : variant              ? variant->defaultPerThread
                                               : 0;
  // The coarsened input, and the steps without the add during the load, hold a block's
  // perThread · block elements; the coarsened steps after the load one value per thread.
  if (perThread > 0 && (step == 0 || !t.params.loadAdd))
    return (long long)t.params.block * perThread;
  return s.values.size() > size_t(t.params.block) || lesson.picture == LessonPicture::WarpGrid
             ? t.params.block
             : 0;
}

// Every stale read of the step as a sentence: the first, then "and N more" that opens the rest.
void staleReadSentences(UiState& ui, const StepSnapshot& s, const Trace& t, const Palette& pal) {
  const std::vector<Message> stale = staleReads(s, t.params.type);
  if (stale.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.wrong));
  const size_t shown = ui.allStaleReadsShown ? stale.size() : 1;
  for (size_t k = 0; k < shown; ++k)
    wrappedText(printed(tr("stale read: %s"), say(stale[k]).c_str()));
  ImGui::PopStyleColor();
  if (stale.size() == 1) return;
  const std::string more = ui.allStaleReadsShown
                               ? std::string(tr("show only the first"))
                               : printed(tr("and %zu more stale reads"), stale.size() - 1);
  if (ImGui::SmallButton((more + "###stale reads").c_str()))
    ui.allStaleReadsShown = !ui.allStaleReadsShown;
  noteWidget(ui, "stale reads");
}

}  // namespace

float arrayPanelHeight(const App& app, float width) {
  const UiState& ui = app.ui;
  const float line = ImGui::GetTextLineHeightWithSpacing(), font = ImGui::GetFontSize();
  if (!ui.trace || ui.trace->steps.empty()) return line * 3;
  const Trace& t = *ui.trace;
  if (lessonOrThrow(t.params.lesson).picture == LessonPicture::Ranks && t.gpus > 0)
    return line * (2.5f + 1.45f * float(t.gpus));  // the header, then a row per GPU
  // The most any step of the run needs, so that the stage does not move from step to step.
  static const std::vector<std::pair<int, int>> noPairs;
  bool phases = false, stale = false, paged = false, pairs = false;
  float gather = 0;  // the gather step's picture, where the run has one
  for (const StepSnapshot& s : t.steps) {
    if (!s.gathers.empty())
      gather = gatherPictureHeight(s, t.params.type, width - ImGui::GetStyle().WindowPadding.x * 2);
    phases |= s.cells != CellKind::Elements;
    pairs |= !s.pairs.empty();
    for (const CombineRead& c : s.combines) stale |= c.source.stale || c.target.stale;
    const ArrayPicture a{s.values, t.params.type, [](size_t) { return false; }, {}, noPairs};
    paged |= fitCells(a, width - ImGui::GetStyle().WindowPadding.x * 2).paged;
  }
  float height = line * 1.3f;          // the step's header (and the pager beside it)
  if (phases) height += line * 2;      // what the cells are
  if (stale) height += line * 2;       // the first stale read
  if (paged && pairs) height += line;  // the pairs beyond the window
  height += font * ((pairs ? 3.6f : 0.4f) + 2.2f + 2.4f);  // arcs, cells, indices, captions
  if (paged) height += font * 1.6f;                        // the overview strip
  height = std::max(height, line * 1.3f + gather);
  return height + ImGui::GetStyle().WindowPadding.y * 2;
}

void drawArrayPanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("Running..."));
    return;
  }
  const Trace& t = *ui.trace;
  if (t.steps.empty()) {
    // Too large to record step by step (a note under it says up to which n): the sum is the
    // picture.
    ImGui::SetWindowFontScale(1.6f);
    wrappedText(say(resultLine(t)));
    ImGui::SetWindowFontScale(1.0f);
    return;
  }
  if (lessonOrThrow(t.params.lesson).picture == LessonPicture::Ranks && t.gpus > 0) {
    drawRanks(app);  // G buffers, not one array
    return;
  }
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  const StepSnapshot* previous = ui.step > 0 ? &t.steps[size_t(ui.step - 1)] : nullptr;
  static const std::vector<std::pair<int, int>> noPairs;

  if (!t.atomicOrder.empty()) {
    // The input, with the atomics that have landed so far outlined and this one glowing.
    std::set<int> landed;
    for (int k = 0; k < ui.step && k < int(t.atomicOrder.size()); ++k)
      landed.insert(t.atomicOrder[size_t(k)].thread);
    const int current = ui.step > 0 ? t.atomicOrder[size_t(ui.step - 1)].thread : -1;
    ImGui::SetWindowFontScale(1.4f);
    ImGui::Text(tr("total: %s"),
                ui.step > 0 ? formatValue(s.values[0], t.params.type).c_str() : "0");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::SameLine(0, ImGui::GetFontSize());
    if (ui.step > 0)
      ImGui::TextDisabled(tr("%s (%d of %zu landed)"), say(s.label).c_str(), ui.step,
                          t.atomicOrder.size());
    else
      ImGui::TextDisabled("%s", say(s.label).c_str());
    ArrayPicture input{t.steps[0].values, t.params.type,
                       [current](size_t i) { return int(i) == current; }, landed, noPairs};
    if (current >= 0) input.hot = {current};
    const CellLayout l = headerAndPager(ui, t, input);
    drawPicture(ui, input, l, pal);
    return;
  }

  if (ui.step == 0)
    ImGui::Text(tr("the input: %zu values"), s.values.size());
  else if (s.active.empty())
    ImGui::Text(tr("%s   (%zu values)"), say(s.label).c_str(), s.values.size());
  else
    ImGui::Text(
        s.active.size() == 1 ? tr("%s   (%zu thread worked)") : tr("%s   (%zu threads worked)"),
        say(s.label).c_str(), s.active.size());
  // A phase that holds something other than the array says so before its cells.
  const char* holds = nullptr;
  switch (s.cells) {
    case CellKind::Threads:
      holds = tr("The cells are the threads: what each thread holds now, thread 0 first.");
      break;
    case CellKind::WarpTotals:
      holds = tr("The cells are the warps: each warp's total, warp 0 first.");
      break;
    case CellKind::BlockTotals:
      holds = tr("The cells are the blocks: each block's total, block 0 first.");
      break;
    case CellKind::LaneWarpTotals:
      holds =
          tr("The cells are the threads again, but lane l of each warp now holds warp l's "
             "total: the second butterfly runs over the warps' totals.");
      break;
    case CellKind::Elements:
      break;
  }

  // A step that shows another array (the fastest lesson's per-warp totals) changed nothing.
  const bool sameArray = previous && previous->values.size() == s.values.size();
  std::set<int> targets;
  for (const auto& pr : s.pairs) targets.insert(pr.second);
  ArrayPicture picture{s.values,
                       t.params.type,
                       [&](size_t i) { return sameArray && previous->values[i] != s.values[i]; },
                       targets,
                       s.pairs,
                       &s.combines,
                       {},
                       s.array,
                       elementsPerBlock(t, s, ui.step),
                       {},
                       s.paddingFrom};
  for (int target : targets) picture.hot.push_back(target);
  if (app.witnessOnScreen() && ui.race.witness->readFound) {
    // Framed at every step, so that the two cells can be followed; named at the read.
    const EarlyRead& r = ui.race.witness->read;
    const bool atRead = ui.step == r.step;
    picture.marks.push_back({r.element, atRead ? tr("read too early") : "", pal.wrong});
    picture.marks.push_back(
        {r.target, atRead ? printed(tr("by thread %d"), r.reader) : "", pal.wrong});
  }
  if (s.racedElement >= 0)  // a learner's kernel: where its first race shows
    picture.marks.push_back({s.racedElement, tr("raced"), pal.wrong});
  for (const LateWrite& late : lateWrites(t, ui.step))
    picture.marks.push_back(
        {late.element,
         printed(tr("written late: t%d read it first, in step %d"), late.reader, late.readStep),
         pal.wrong, true});
  if (!s.gathers.empty()) {  // coarsening's reads: a column per thread, not the array
    noteLabel(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), "step label");
    drawGatherPicture(app, s);
    return;
  }
  const CellLayout l = headerAndPager(ui, t, picture);
  if (holds) wrappedText(holds, pal.accent);
  staleReadSentences(ui, s, t, pal);
  drawPicture(ui, picture, l, pal);
}

}  // namespace rlab::gui
