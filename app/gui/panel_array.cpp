// The array after this step: cells with values for small n, bars for more, a heat strip past
// what bars can show. Changed cells glow, cells written by working threads are outlined, and
// each pair combined is a curve from source to target. The atomic lesson shows its input with
// the atomics that have landed so far. A race witness on screen marks its two cells: the one
// read too early and the one its reader wrote.
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

constexpr size_t kCellLimit = 32;   // values printed in cells up to here
constexpr size_t kArcLimit = 256;   // pairs drawn as arcs up to here
constexpr size_t kBarLimit = 4096;  // bars up to here, then a heat strip

struct ArrayPicture {
  const std::vector<double>& values;
  ElementType type;
  std::function<bool(size_t)> glows;  // changed in this step
  std::set<int> outlined;             // written by a working thread
  const std::vector<std::pair<int, int>>& pairs;
  const std::vector<CombineRead>* combines = nullptr;    // what each thread read, where known
  std::vector<std::pair<int, std::string>> marked = {};  // witness cells, with a caption
  std::string array = "a";                               // the kernel's name for it
};

// A witness cell: a thick frame in the colour of a wrong result, and its caption under it.
void drawMark(ImDrawList* draw, ImVec2 p0, ImVec2 p1, const std::string& caption, float below,
              const Palette& pal) {
  draw->AddRect(ImVec2(p0.x - 2, p0.y - 2), ImVec2(p1.x + 2, p1.y + 2), pal.wrong, 3, 0,
                pal.line * 2.5f);
  if (caption.empty()) return;
  const ImVec2 size = ImGui::CalcTextSize(caption.c_str());
  draw->AddText(ImVec2((p0.x + p1.x - size.x) / 2, below), pal.wrong, caption.c_str());
}

// A read that came too early: its arc in the colour of a wrong result, from where the value
// was, with the value the thread really read and the one it should have.
void drawStaleRead(ImDrawList* draw, const ArrayPicture& a, const ValueRead& r, int target,
                   float x0, float slot, float top, float room, const Palette& pal) {
  const ImVec2 from(x0 + (r.element + 0.5f) * slot, top - 2),
      to(x0 + (target + 0.5f) * slot, top - 2);
  const float lift = std::min(room - 4, std::fabs(to.x - from.x) * 0.5f + 8);
  draw->AddBezierCubic(from, ImVec2(from.x, from.y - lift), ImVec2(to.x, to.y - lift), to,
                       pal.wrong, pal.line * 2);
  draw->AddTriangleFilled(ImVec2(to.x - 5, to.y - 8), ImVec2(to.x + 5, to.y - 8), to, pal.wrong);
  const std::string label = printed(tr("read %s, not %s"), formatValue(r.value, a.type).c_str(),
                                    formatValue(r.missed, a.type).c_str());
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  const float middle = (from.x + to.x) / 2;
  draw->AddText(ImVec2(middle - size.x / 2, std::max(top - lift - size.y - 2, top - room)),
                pal.wrong, label.c_str());
}

// Arcs from source to target above the row of elements that starts at x0, `slot` apart.
void drawArcs(ImDrawList* draw, const ArrayPicture& a, float x0, float slot, float top, float room,
              const Palette& pal) {
  if (a.values.size() > kArcLimit) return;
  for (const auto& [source, target] : a.pairs) {
    if (source == target || source < 0 || size_t(source) >= a.values.size() || target < 0 ||
        size_t(target) >= a.values.size())
      continue;
    const ImVec2 from(x0 + (source + 0.5f) * slot, top - 2),
        to(x0 + (target + 0.5f) * slot, top - 2);
    const float lift = std::min(room - 4, std::fabs(to.x - from.x) * 0.5f + 8);
    draw->AddBezierCubic(from, ImVec2(from.x, from.y - lift), ImVec2(to.x, to.y - lift), to,
                         pal.pair, pal.line);
    draw->AddTriangleFilled(ImVec2(to.x - 4, to.y - 7), ImVec2(to.x + 4, to.y - 7), to, pal.pair);
  }
  if (!a.combines) return;
  for (const CombineRead& c : *a.combines)
    for (const ValueRead* r : {&c.source, &c.target})
      if (r->stale && r->element >= 0 && size_t(r->element) < a.values.size() &&
          c.target.element >= 0 && size_t(c.target.element) < a.values.size())
        drawStaleRead(draw, a, *r, c.target.element, x0, slot, top, room, pal);
}

// A few significant digits and a k, M or G: 12500000 becomes 12.5M (or 13M with two digits).
// For cells too narrow for the whole value even in small type.
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

void drawCells(const ArrayPicture& a, ImVec2 origin, float width, float height,
               const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const size_t count = a.values.size();
  const float cell =
      std::min(width / float(std::max<size_t>(count, 1)), ImGui::GetFontSize() * 4.5f);
  const float room = std::min(height * 0.5f, cell * 2.5f);
  const float top = origin.y + room;
  const float cellHeight = std::min(cell, ImGui::GetFontSize() * 2.4f);
  for (size_t i = 0; i < count; ++i) {
    const ImVec2 p0(origin.x + i * cell + 1, top),
        p1(origin.x + (i + 1) * cell - 1, top + cellHeight);
    const bool glow = a.glows(i), outline = a.outlined.count(int(i)) > 0;
    draw->AddRectFilled(p0, p1, glow ? pal.changed : pal.cell, 3);
    draw->AddRect(p0, p1, outline ? pal.worked : pal.cellBorder, 3, 0, outline ? pal.line * 2 : 1);
    // A value wider than its cell is drawn smaller, down to 60% of the font, then shortened,
    // rather than left out: on a projector an empty cell reads as "no value".
    std::string text = formatValue(a.values[i], a.type);
    ImVec2 full = ImGui::CalcTextSize(text.c_str());
    float scale = std::min(1.0f, (cell - 6) / std::max(full.x, 1.0f));
    float smallest = 0.6f;
    for (int digits = 3; scale < smallest && digits >= 2; --digits) {
      text = shortValue(a.values[i], digits);
      full = ImGui::CalcTextSize(text.c_str());
      scale = std::min(1.0f, (cell - 6) / std::max(full.x, 1.0f));
      smallest = 0.5f;  // three characters at half the size still read better than nothing
    }
    if (scale >= smallest) {
      const ImVec2 size(full.x * scale, full.y * scale);
      draw->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale,
                    ImVec2(p0.x + (cell - 2 - size.x) / 2, p0.y + (cellHeight - size.y) / 2),
                    glow ? IM_COL32(0, 0, 0, 255) : pal.text, text.c_str());
    }
    const std::string index = std::to_string(i);
    if (ImGui::CalcTextSize(index.c_str()).x < cell - 2)
      draw->AddText(ImVec2(p0.x + 2, p1.y + 2), pal.muted, index.c_str());
  }
  for (const auto& [i, caption] : a.marked)
    if (i >= 0 && size_t(i) < count)
      drawMark(draw, ImVec2(origin.x + i * cell + 1, top),
               ImVec2(origin.x + (i + 1) * cell - 1, top + cellHeight), caption,
               top + cellHeight + ImGui::GetFontSize() + 4, pal);
  drawArcs(draw, a, origin.x, cell, top, room, pal);
}

void drawBars(const ArrayPicture& a, ImVec2 origin, float width, float height, const Palette& pal) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const size_t count = a.values.size();
  double biggest = 0;
  for (double v : a.values)
    if (std::isfinite(v)) biggest = std::max(biggest, std::fabs(v));
  if (biggest == 0) biggest = 1;
  const size_t shown = std::min(count, kBarLimit);
  const float bar = width / float(std::max<size_t>(shown, 1));
  const bool arcs = count <= kArcLimit && !a.pairs.empty();
  const float room = arcs ? height * 0.3f : 0;
  const float base = origin.y + height;
  for (size_t k = 0; k < shown; ++k) {
    const size_t i = count <= kBarLimit ? k : k * count / shown;
    const double v = a.values[i];
    const float frac = std::isfinite(v) ? float(std::fabs(v) / biggest) : 1.f;
    if (count <= kBarLimit) {
      const ImU32 colour = a.glows(i)                 ? pal.changed
                           : a.outlined.count(int(i)) ? pal.worked
                                                      : pal.bar;
      draw->AddRectFilled(ImVec2(origin.x + k * bar, base - frac * (height - room - 4)),
                          ImVec2(origin.x + (k + 1) * bar - (bar > 3 ? 1 : 0), base), colour);
    } else {
      draw->AddRectFilled(ImVec2(origin.x + k * bar, origin.y),
                          ImVec2(origin.x + (k + 1) * bar, base),
                          ImGui::ColorConvertFloat4ToU32(ImVec4(frac, 0.3f, 1 - frac, 1)));
    }
  }
  if (arcs) drawArcs(draw, a, origin.x, bar, origin.y + room, room, pal);
  // Bars may be a pixel wide: each witness cell gets an arrow over it and its own caption line,
  // with the cell's index, instead of a frame.
  if (count <= kBarLimit) {
    float row = origin.y + room;
    for (const auto& [i, caption] : a.marked) {
      if (i < 0 || size_t(i) >= count) continue;
      const float x = origin.x + (i + 0.5f) * bar, size = ImGui::GetFontSize() * 0.5f;
      draw->AddTriangleFilled(ImVec2(x - size, row), ImVec2(x + size, row), ImVec2(x, row + size),
                              pal.wrong);
      draw->AddLine(ImVec2(x, row + size), ImVec2(x, base), pal.wrong, pal.line);
      const std::string text =
          a.array + "[" + std::to_string(i) + "]" + (caption.empty() ? "" : " ") + caption;
      draw->AddText(ImVec2(x + size + 2, row - 2), pal.wrong, text.c_str());
      row += ImGui::GetFontSize() + 2;
    }
  }
  if (count > kBarLimit)
    draw->AddText(origin, pal.text, tr("heat strip: every element's magnitude, sampled"));
}

}  // namespace

void drawArrayPanel(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("Running..."));
    return;
  }
  const Trace& t = *ui.trace;
  if (t.steps.empty()) {
    wrappedText(printed(tr("Steps are recorded up to n = %lld; this run shows its result only."),
                        (long long)lessonOrThrow(t.params.lesson).traceLimit));
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
    const ArrayPicture input{t.steps[0].values, t.params.type,
                             [current](size_t i) { return int(i) == current; }, landed, noPairs};
    const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    if (input.values.size() <= kCellLimit)
      drawCells(input, origin, avail.x, avail.y, pal);
    else
      drawBars(input, origin, avail.x, avail.y, pal);
    ImGui::Dummy(avail);
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
                       s.array};
  if (app.witnessOnScreen() && ui.race.witness->readFound) {
    // Framed at every step, so that the two cells can be followed; named at the read.
    const EarlyRead& r = ui.race.witness->read;
    const bool atRead = ui.step == r.step;
    picture.marked = {{r.element, atRead ? tr("read too early") : ""},
                      {r.target, atRead ? printed(tr("by thread %d"), r.reader) : ""}};
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.wrong));
  for (const Message& stale : staleReads(s, t.params.type))
    wrappedText(printed(tr("stale read: %s"), say(stale).c_str()));
  ImGui::PopStyleColor();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail(ImGui::GetContentRegionAvail().x,
                     std::max(40.f, ImGui::GetContentRegionAvail().y - 4));
  if (s.values.size() <= kCellLimit)
    drawCells(picture, origin, avail.x, avail.y, pal);
  else
    drawBars(picture, origin, avail.x, avail.y, pal);
  ImGui::Dummy(avail);
}

}  // namespace rlab::gui
