// The race explorer's charts: a histogram of runs by how far off they were, the share of wrong
// runs against block size, and float sums in ulps beside fastest's. They draw what the core
// measured (lessons/engine/races/distribution.hpp) and compute nothing.
//
// [SECTION] Histogram by how far off
// [SECTION] Share of wrong runs against block size
// [SECTION] Float sums in ulps

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

// ============================================================================================
// [SECTION] Histogram by how far off
// ============================================================================================

namespace {

// "-15", "2.5", "+1e+03": offsets with their sign, so that the axis reads short and over.
std::string signedNumber(double v) {
  char text[32];
  v += 0.0;  // no "-0"
  if (v == 0) return "0";
  if (v == std::floor(v) && std::fabs(v) < 1e12)
    std::snprintf(text, sizeof text, "%+.0f", v);
  else
    std::snprintf(text, sizeof text, "%+.3g", v);
  return text;
}

}  // namespace

void drawOffsetHistogram(const OffsetHistogram& h, const Palette& pal, float height,
                         const std::string& axis, const std::vector<ChartMarker>& markers) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const int most = [&] {
    int m = 1;
    for (const OffsetBin& b : h.bins) m = std::max(m, b.right + b.wrong);
    return m;
  }();
  const std::string mostText = std::to_string(most);
  const float left = ImGui::CalcTextSize(mostText.c_str()).x + 8;
  const float top = origin.y + line + 4;  // room for the markers' labels
  const float plotW = std::max(40.f, width - left - 8);
  const float plotH = std::max(30.f, height - 3 * line - 12);
  const float x0 = origin.x + left, base = top + plotH;
  draw->AddLine(ImVec2(x0, base), ImVec2(x0 + plotW, base), pal.cellBorder);
  draw->AddText(ImVec2(origin.x, top - line / 2), pal.muted, mostText.c_str());
  draw->AddText(ImVec2(origin.x + left - 8 - ImGui::CalcTextSize("0").x, base - line), pal.muted,
                "0");
  const size_t count = h.bins.size();
  if (count > 0) {
    const float slot = plotW / float(count);
    const double firstCentre = h.bins.front().centre;
    auto xOf = [&](double offset) {
      return x0 + float((offset - firstCentre) / h.width + 0.5) * slot;
    };
    for (size_t k = 0; k < count; ++k) {
      const OffsetBin& b = h.bins[k];
      const float l = x0 + k * slot + (slot > 4 ? 1 : 0),
                  r = x0 + (k + 1) * slot - (slot > 4 ? 1 : 0);
      const float wrongTop = base - plotH * float(b.wrong) / float(most);
      const float rightTop = wrongTop - plotH * float(b.right) / float(most);
      if (b.wrong) draw->AddRectFilled(ImVec2(l, wrongTop), ImVec2(r, base), pal.wrong);
      if (b.right) draw->AddRectFilled(ImVec2(l, rightTop), ImVec2(r, wrongTop), pal.right);
    }
    // Tick labels at bin centres, as many as fit, always including 0 (the right value).
    float widest = 0;
    for (const OffsetBin& b : h.bins)
      widest = std::max(widest, ImGui::CalcTextSize(signedNumber(b.centre).c_str()).x);
    const long long every = std::max(1LL, (long long)std::ceil((widest + 10) / slot));
    const long long zeroIndex = std::llround(-firstCentre / h.width);
    for (size_t k = 0; k < count; ++k) {
      const long long fromZero = (long long)k - zeroIndex;
      if (fromZero % every != 0) continue;
      const std::string label = signedNumber(h.bins[k].centre);
      const float cx = x0 + (k + 0.5f) * slot, w = ImGui::CalcTextSize(label.c_str()).x;
      draw->AddLine(ImVec2(cx, base), ImVec2(cx, base + 4), pal.cellBorder);
      draw->AddText(ImVec2(std::clamp(cx - w / 2, x0 - left, x0 + plotW - w), base + 4), pal.muted,
                    label.c_str());
    }
    for (const ChartMarker& m : markers) {
      if (!std::isfinite(m.offset)) continue;
      const float x = std::clamp(xOf(m.offset), x0, x0 + plotW);
      draw->AddLine(ImVec2(x, top - 2), ImVec2(x, base), m.colour, pal.line * 1.5f);
      const float w = ImGui::CalcTextSize(m.label.c_str()).x;
      draw->AddText(ImVec2(std::clamp(x - w / 2, origin.x, x0 + plotW - w), top - line - 2),
                    m.colour, m.label.c_str());
    }
  }
  const float axisW = ImGui::CalcTextSize(axis.c_str()).x;
  draw->AddText(ImVec2(x0 + std::max(0.f, (plotW - axisW) / 2), base + line + 6), pal.text,
                axis.c_str());
  ImGui::Dummy(ImVec2(width, height));
}

// ============================================================================================
// [SECTION] Share of wrong runs against block size
// ============================================================================================

void drawRateByBlock(const RateByBlock& rate, const Palette& pal) {
  const Params& p = rate.params;
  wrappedText(printed(tr("Share of wrong runs against the block size: %s %s, n = block, %s"),
                      p.lesson.c_str(), p.variant.c_str(),
                      p.barrier ? tr("barrier on") : tr("barrier off")));
  if (rate.onGpu)
    wrappedText(
        printed(tr("Measured on %s. %s"), say(rate.device).c_str(), say(rate.schedules).c_str()),
        true);
  else
    wrappedText(printed(tr("On the CPU SIMT simulator over random schedules in which a warp's "
                           "lanes move together, not on a GPU. At every point: %s"),
                        say(rate.schedules).c_str()),
                true);
  if (rate.cancelled) wrappedText(tr("Cancelled: the points measured before it."), true);
  if (rate.points.empty()) return;

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legendH = 2 * line + 10;  // the legend, then room for the labels over 100%
  const float left = ImGui::CalcTextSize("100%").x + 8;
  const float plotW = std::max(60.f, avail.x - left - 16);
  const float plotH = std::max(60.f, avail.y - legendH - 2 * line - 16);
  const float x0 = origin.x + left, y0 = origin.y + legendH, base = y0 + plotH;
  const int blocks = int(std::size(kRateBlocks));
  auto xOf = [&](int block) {
    const float k = std::log2(float(block) / float(kRateBlocks[0]));
    return x0 + plotW * (k + 0.5f) / float(blocks);
  };
  auto yOf = [&](double share) { return base - float(share) * plotH; };
  for (double share : {0.0, 0.5, 1.0}) {
    draw->AddLine(ImVec2(x0, yOf(share)), ImVec2(x0 + plotW, yOf(share)), pal.cell);
    char label[16];
    std::snprintf(label, sizeof label, "%.0f%%", share * 100);
    draw->AddText(ImVec2(origin.x, yOf(share) - line / 2), pal.muted, label);
  }
  for (int block : kRateBlocks) {
    const std::string label = std::to_string(block);
    draw->AddText(ImVec2(xOf(block) - ImGui::CalcTextSize(label.c_str()).x / 2, base + 4),
                  pal.muted, label.c_str());
  }
  const char* axis = tr("threads in the block (n = block)");
  draw->AddText(ImVec2(x0 + (plotW - ImGui::CalcTextSize(axis).x) / 2, base + line + 8), pal.text,
                axis);
  struct Series {
    const char* name;
    ImU32 colour;
    bool perturbed;
  };
  const Series series[] = {{tr("without perturb"), pal.bar, false},
                           {tr("with perturb (every third thread pauses)"), pal.accent, true}};
  float legendX = x0;
  for (const Series& s : series) {
    draw->AddRectFilled(ImVec2(legendX, origin.y + 4), ImVec2(legendX + 12, origin.y + 14),
                        s.colour);
    draw->AddText(ImVec2(legendX + 16, origin.y), pal.text, s.name);
    legendX += 32 + ImGui::CalcTextSize(s.name).x;
    ImVec2 previous;
    for (size_t k = 0; k < rate.points.size(); ++k) {
      const BlockRate& b = rate.points[k];
      const int runs = s.perturbed ? b.runsPerturbed : b.runs;
      const int wrong = s.perturbed ? b.wrongPerturbed : b.wrong;
      if (runs == 0) continue;
      const ImVec2 at(xOf(b.block), yOf(double(wrong) / runs));
      if (k > 0) draw->AddLine(previous, at, s.colour, pal.line * 1.5f);
      draw->AddCircleFilled(at, 4 * pal.line, s.colour);
      const std::string label = std::to_string(wrong) + "/" + std::to_string(runs);
      // Labels of the two series on either side of their point, so that equal shares stay
      // readable.
      const float dy = s.perturbed ? -line - 4 : 4;
      draw->AddText(ImVec2(at.x - ImGui::CalcTextSize(label.c_str()).x / 2,
                           std::clamp(at.y + dy, y0 - line, base - line)),
                    s.colour, label.c_str());
      previous = at;
    }
  }
  ImGui::Dummy(ImVec2(avail.x, legendH + plotH + 2 * line + 12));
}

// ============================================================================================
// [SECTION] Float sums in ulps
// ============================================================================================

void drawFloatSums(const FloatSumSpread& s, const Palette& pal) {
  const Params& p = s.params;
  wrappedText(printed(tr("Float sums of %s (n = %lld, data %s) in ulps from the exact sum %.9g"),
                      p.lesson.c_str(), (long long)p.n,
                      p.values.empty() ? p.data.c_str() : "values", s.exact));
  wrappedText(
      printed(tr("One ulp there is %g, the gap between neighbouring floats. The exact sum "
                 "is computed exactly (partials that carry no rounding). %d runs on %s. %s"),
              s.ulp, s.runs, say(s.device).c_str(), say(s.schedules).c_str()),
      true);
  if (s.cancelled) wrappedText(tr("Cancelled before the fastest runs."), true);
  std::vector<ChartMarker> markers;
  if (s.fastestSums.size() == 1)
    markers.push_back({s.fastestUlps.front(),
                       printed(tr("fastest: %s ulps"), signedNumber(s.fastestUlps.front()).c_str()),
                       pal.accent});
  const float chart =
      std::max(ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 3,
               ImGui::GetTextLineHeight() * 7);
  drawOffsetHistogram(s.ulps, pal, chart, tr("ulps from the exact sum"), markers);
  wrappedText(printed(tr("%s: %zu different float sums in %d runs, from %s to %s ulps"),
                      p.lesson.c_str(), s.sums.size(), s.runs,
                      signedNumber(s.ulps.smallest).c_str(), signedNumber(s.ulps.largest).c_str()));
  if (s.fastestRuns > 0) {
    char sum[32];
    std::snprintf(sum, sizeof sum, "%.9g", s.fastestSums.front().first);
    if (s.fastestSums.size() == 1)
      wrappedText(printed(tr("fastest: the same sum %s in all %d runs (%s ulps): its order of "
                             "additions is fixed"),
                          sum, s.fastestRuns, signedNumber(s.fastestUlps.front()).c_str()),
                  pal.accent);
    else
      wrappedText(printed(tr("fastest: %zu different sums in %d runs"), s.fastestSums.size(),
                          s.fastestRuns),
                  pal.accent);
  }
}

}  // namespace rlab::gui
