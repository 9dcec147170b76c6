// The timing chart: each kernel with a colour of a colour-blind-safe palette and a marker shape
// of its own, the yardsticks (CUB, the CPU loop, the copy roofline) grey or white; the legend has
// every name whole, beside the chart or under it where the panel is narrow.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "app/gui/timing_chart.hpp"

namespace rlab::gui {

namespace {

// The lesson kernels' shapes (the first five) and the yardsticks' (ring: CUB; cross: the CPU
// loop; plus: the copy roofline).
enum class Marker { Circle, Square, TriangleUp, Diamond, TriangleDown, Ring, Cross, Plus };
constexpr int kMarkers = 5;

constexpr int kColourCount = int(std::size(kSeriesColours));

struct Series {
  std::string name;
  BenchRole role = BenchRole::Lesson;
  std::vector<ImVec2> points;  // (n, value), real values
  ImU32 colour = 0;
  Marker marker = Marker::Circle;
  bool dashed = false;
};

// The bench's rows as lines, in the order the bench measured them (the course's). On the
// simulator the CPU loop is not drawn against the kernels: the simulator's times say how fast
// this machine simulates a kernel, not how fast a GPU runs it.
std::vector<Series> seriesOf(const BenchOutcome& bench, bool gbs, const Palette& pal) {
  std::vector<Series> all;
  int lessonCount = 0;
  for (const BenchRow& r : bench.rows) {
    if (r.gpus > 0) continue;
    // Simulated kernels against this machine's own loop: a comparison nobody measured.
    if (!bench.gpuTimes && r.role == BenchRole::CpuLoop) continue;
    const double y = gbs ? r.gbPerSecond : r.ms;
    if (!(y > 0) || !std::isfinite(y)) continue;
    auto found =
        std::find_if(all.begin(), all.end(), [&](const Series& s) { return s.name == r.kernel; });
    if (found == all.end()) {
      Series s;
      s.name = r.kernel;
      s.role = r.role;
      if (r.role == BenchRole::Lesson) {
        // Colour and marker together tell up to 35 kernels apart.
        const int k = lessonCount++;
        s.colour = kSeriesColours[k % kColourCount];
        s.marker = Marker((k + k / kColourCount) % kMarkers);
      } else {
        s.colour = r.role == BenchRole::Cub ? pal.text : pal.muted;
        s.marker = r.role == BenchRole::Cub       ? Marker::Ring
                   : r.role == BenchRole::CpuLoop ? Marker::Cross
                                                  : Marker::Plus;
        s.dashed = r.role != BenchRole::Cub;
      }
      all.push_back(s);
      found = all.end() - 1;
    }
    found->points.emplace_back(float(r.n), float(y));
  }
  return all;
}

void drawMarker(ImDrawList* draw, ImVec2 c, float r, Marker marker, ImU32 colour) {
  switch (marker) {
    case Marker::Circle:
      draw->AddCircleFilled(c, r, colour);
      break;
    case Marker::Square:
      draw->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colour);
      break;
    case Marker::TriangleUp:
      draw->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x - r * 1.1f, c.y + r * 0.8f),
                              ImVec2(c.x + r * 1.1f, c.y + r * 0.8f), colour);
      break;
    case Marker::Diamond:
      draw->AddQuadFilled(ImVec2(c.x, c.y - r * 1.3f), ImVec2(c.x + r * 1.3f, c.y),
                          ImVec2(c.x, c.y + r * 1.3f), ImVec2(c.x - r * 1.3f, c.y), colour);
      break;
    case Marker::TriangleDown:
      draw->AddTriangleFilled(ImVec2(c.x, c.y + r * 1.2f), ImVec2(c.x + r * 1.1f, c.y - r * 0.8f),
                              ImVec2(c.x - r * 1.1f, c.y - r * 0.8f), colour);
      break;
    case Marker::Ring:
      draw->AddCircle(c, r, colour, 0, 2);
      break;
    case Marker::Cross:
      draw->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colour, 2);
      draw->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), colour, 2);
      break;
    case Marker::Plus:
      draw->AddLine(ImVec2(c.x - r * 1.2f, c.y), ImVec2(c.x + r * 1.2f, c.y), colour, 2);
      draw->AddLine(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x, c.y + r * 1.2f), colour, 2);
      break;
  }
}

void drawLine(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, bool dashed) {
  if (!dashed) {
    draw->AddLine(a, b, colour, thickness);
    return;
  }
  const float length = std::hypot(b.x - a.x, b.y - a.y), dash = 6;
  for (float at = 0; at < length; at += dash * 2) {
    const float end = std::min(length, at + dash);
    draw->AddLine(ImVec2(a.x + (b.x - a.x) * at / length, a.y + (b.y - a.y) * at / length),
                  ImVec2(a.x + (b.x - a.x) * end / length, a.y + (b.y - a.y) * end / length),
                  colour, thickness);
  }
}

std::string powerOfTwo(double n) {
  const int exponent = int(std::lround(std::log2(n)));
  return std::ldexp(1.0, exponent) == n ? "2^" + std::to_string(exponent)
                                        : std::to_string((long long)n);
}

// A time in the unit a person reads it in (ns, µs, ms or s: 1 ns rather than 1e-06 ms), the
// number as %g writes it, or with three significant digits.
std::string timeText(double ms, bool threeDigits) {
  struct Unit {
    double perMs;
    const char* name;
  };
  static const Unit units[] = {{1e6, "ns"}, {1e3, "µs"}, {1, "ms"}, {1e-3, "s"}};
  const double decade = std::floor(std::log10(ms) + 1e-9);
  const Unit& u = decade < -3 ? units[0] : decade < 0 ? units[1] : decade < 3 ? units[2] : units[3];
  const double v = ms * u.perMs;
  char text[48];
  if (threeDigits) return threeSignificant(v) + " " + u.name;
  std::snprintf(text, sizeof text, "%g %s", v, u.name);
  return text;
}

std::string axisValue(double v, bool gbs) {
  if (!gbs) return timeText(v, false);
  char text[32];
  std::snprintf(text, sizeof text, "%g GB/s", v);
  return text;
}

// Whether a bench row is drawn: the yardsticks always, lesson kernels of the lesson on screen
// (every lesson's when asked, or where the lesson on screen has none in the bench).
bool chartShows(const UiState& ui, const BenchRow& r) {
  if (r.role != BenchRole::Lesson || ui.view.chartAllKernels) return true;
  const std::string& lesson = ui.params.lesson;
  auto ofLesson = [&](const BenchRow& row) {
    return row.kernel == lesson || row.kernel.rfind(lesson + " ", 0) == 0;
  };
  if (ofLesson(r)) return true;
  return std::none_of(ui.bench.rows.begin(), ui.bench.rows.end(), ofLesson);
}

// The bench's rows the chart shows, as lines.
std::vector<Series> chartSeries(const UiState& ui, bool gbs, const Palette& pal) {
  BenchOutcome shown = ui.bench;
  shown.rows.clear();
  for (const BenchRow& r : ui.bench.rows)
    if (chartShows(ui, r)) shown.rows.push_back(r);
  return seriesOf(shown, gbs, pal);
}

// The chart's ranges, log-log: x in powers of two of n, y in whole decades of the values.
struct Ranges {
  double xMin = 0;
  double lx0 = 0, lx1 = 0, ly0 = 0, ly1 = 0;
};

Ranges rangesOf(const std::vector<Series>& series) {
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  for (const Series& s : series)
    for (const ImVec2& p : s.points) {
      xMin = std::min(xMin, double(p.x));
      xMax = std::max(xMax, double(p.x));
      yMin = std::min(yMin, double(p.y));
      yMax = std::max(yMax, double(p.y));
    }
  Ranges r;
  r.xMin = xMin;
  r.ly0 = std::floor(std::log10(yMin));
  r.ly1 = std::max(r.ly0 + 1, std::ceil(std::log10(yMax)));
  r.lx0 = std::log2(xMin);
  r.lx1 = std::max(r.lx0 + 1, std::log2(xMax));
  return r;
}

// The plot's corners and ranges: where a point (n, value) is drawn.
struct Plot {
  Ranges r;
  ImVec2 min, max;
  ImVec2 at(double x, double y) const {
    return ImVec2(min.x + float((std::log2(x) - r.lx0) / (r.lx1 - r.lx0)) * (max.x - min.x),
                  max.y - float((std::log10(y) - r.ly0) / (r.ly1 - r.ly0)) * (max.y - min.y));
  }
};

// Where the chart's parts go in the space `avail`: the plot with its axes' labels in margins of
// their own, the legend beside it (in as many columns as its height needs) where that leaves the
// plot half the width, else under it.
struct ChartLayout {
  float keyWidth = 0;  // a legend entry: line sample and marker, then the name
  float left = 0;      // the margin of the value axis's labels
  bool beside = false;
  int legendRows = 0;
  float legendBelow = 0, plotHeight = 0;
  ImVec2 origin = {}, plotMin = {}, plotMax = {};
  float thickness = 0, markerSize = 0;  // the series' lines and markers, in the legend too
};

ChartLayout layOutChart(const std::vector<Series>& series, const Ranges& r, bool gbs, ImVec2 avail,
                        const Palette& pal) {
  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  ChartLayout l;
  float labelWidth = 0;
  for (double d = r.ly0; d <= r.ly1; ++d)
    labelWidth =
        std::max(labelWidth, ImGui::CalcTextSize(axisValue(std::pow(10, d), gbs).c_str()).x);
  float nameWidth = 0;
  for (const Series& s : series)
    nameWidth = std::max(nameWidth, ImGui::CalcTextSize(s.name.c_str()).x);
  const float keyWidth = l.keyWidth = nameWidth + font * 3.3f;
  const float left = l.left = labelWidth + font * 0.6f, bottom = line + 2, top = font * 0.6f;
  const float minPlot = line * 6;
  // Beside: as many columns as the chart's height needs.
  const float chartHeight = std::max(minPlot + top + bottom, avail.y);
  const int rowsBeside = std::max(1, int((chartHeight - top - bottom) / line));
  const int columnsBeside = (int(series.size()) + rowsBeside - 1) / rowsBeside;
  const bool beside = l.beside = avail.x - float(columnsBeside) * keyWidth >= avail.x * 0.5f;
  const int columns = beside ? columnsBeside : std::max(1, int((avail.x - left) / keyWidth));
  const int rows = (int(series.size()) + columns - 1) / columns;
  l.legendRows = beside ? rowsBeside : rows;
  l.legendBelow = beside ? 0.f : float(rows) * line + 4;
  l.plotHeight = std::max(minPlot + top + bottom, chartHeight - l.legendBelow);
  const ImVec2 origin = l.origin = ImGui::GetCursorScreenPos();
  l.plotMin = ImVec2(origin.x + left, origin.y + top);
  l.plotMax = ImVec2(origin.x + (beside ? avail.x - float(columns) * keyWidth - font * 0.5f
                                        : avail.x - font * 0.5f),
                     origin.y + l.plotHeight - bottom);
  l.thickness = pal.line * 1.3f;
  l.markerSize = std::max(3.f, font * 0.22f);
  return l;
}

// Every decade a grid line; labels as often as they fit.
void drawValueAxis(ImDrawList* draw, const Plot& plot, bool gbs, const Palette& pal) {
  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  const Ranges& r = plot.r;
  const int every =
      std::max(1, int(std::ceil((r.ly1 - r.ly0 + 1) * line / (plot.max.y - plot.min.y))));
  for (double d = r.ly0; d <= r.ly1; ++d) {
    const float y = plot.at(r.xMin, std::pow(10, d)).y;
    draw->AddLine(ImVec2(plot.min.x, y), ImVec2(plot.max.x, y), pal.cell);
    if (int(d - r.ly0) % every != 0) continue;
    const std::string label = axisValue(std::pow(10, d), gbs);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(plot.min.x - size.x - font * 0.3f, y - size.y / 2), pal.muted,
                  label.c_str());
  }
}

// The sizes measured under the plot, as powers of two; n labels that would overlap are left
// out.
void drawSizeAxis(ImDrawList* draw, const Plot& plot, const std::vector<Series>& series,
                  const Palette& pal) {
  const float font = ImGui::GetFontSize();
  float lastRight = -1e9f;
  for (const Series& s : series)
    for (const ImVec2& p : s.points) {
      if (&s != &series.front()) break;  // every series has the same sizes: the first one's
      const std::string label = powerOfTwo(p.x);
      const ImVec2 size = ImGui::CalcTextSize(label.c_str());
      const float cx = plot.at(p.x, std::pow(10, plot.r.ly0)).x;
      if (cx - size.x / 2 <= lastRight + font * 0.5f) continue;
      draw->AddLine(ImVec2(cx, plot.max.y), ImVec2(cx, plot.max.y + 3), pal.muted);
      draw->AddText(ImVec2(cx - size.x / 2, plot.max.y + 3), pal.muted, label.c_str());
      lastRight = cx + size.x / 2;
    }
}

// The point under the mouse, where one is near enough.
struct Hovered {
  const Series* series = nullptr;
  ImVec2 point;
};

// Each series as a line with a marker at every point; the point nearest the mouse.
Hovered drawSeries(ImDrawList* draw, const Plot& plot, const ChartLayout& l,
                   const std::vector<Series>& series) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  Hovered hovered;
  float nearest = ImGui::GetFontSize() * 0.6f;
  for (const Series& s : series) {
    for (size_t i = 1; i < s.points.size(); ++i)
      drawLine(draw, plot.at(s.points[i - 1].x, s.points[i - 1].y),
               plot.at(s.points[i].x, s.points[i].y), s.colour, l.thickness, s.dashed);
    for (const ImVec2& p : s.points) {
      const ImVec2 c = plot.at(p.x, p.y);
      drawMarker(draw, c, l.markerSize, s.marker, s.colour);
      const float d = std::hypot(mouse.x - c.x, mouse.y - c.y);
      if (d < nearest) nearest = d, hovered.series = &s, hovered.point = p;
    }
  }
  return hovered;
}

// The legend: a line sample with the marker, then the whole name.
void drawLegend(ImDrawList* draw, const ChartLayout& l, const std::vector<Series>& series,
                const Palette& pal) {
  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 legendOrigin = l.beside ? ImVec2(l.plotMax.x + font * 0.5f, l.plotMin.y)
                                       : ImVec2(l.origin.x + l.left, l.origin.y + l.plotHeight + 4);
  for (size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    const int column = int(k) / l.legendRows, row = int(k) % l.legendRows;
    const ImVec2 key(legendOrigin.x + float(column) * l.keyWidth,
                     legendOrigin.y + float(row) * line);
    const float mid = key.y + line / 2;
    drawLine(draw, ImVec2(key.x, mid), ImVec2(key.x + font * 1.8f, mid), s.colour, l.thickness,
             s.dashed);
    drawMarker(draw, ImVec2(key.x + font * 0.9f, mid), l.markerSize, s.marker, s.colour);
    draw->AddText(ImVec2(key.x + font * 2.3f, key.y + (line - font) / 2), pal.text, s.name.c_str());
  }
}

}  // namespace

void drawTimingChart(UiState& ui, float height, const Palette& pal) {
  const bool gbs = ui.view.chartShowsGBs;
  const std::vector<Series> series = chartSeries(ui, gbs, pal);
  if (series.empty()) return;
  const Ranges ranges = rangesOf(series);

  ImGui::BeginChild("chart", ImVec2(0, height), false);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ChartLayout l = layOutChart(series, ranges, gbs, avail, pal);
  const Plot plot{ranges, l.plotMin, l.plotMax};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRect(plot.min, plot.max, pal.cellBorder);
  drawValueAxis(draw, plot, gbs, pal);
  drawSizeAxis(draw, plot, series, pal);
  const Hovered hovered = drawSeries(draw, plot, l, series);
  drawLegend(draw, l, series, pal);
  ImGui::Dummy(ImVec2(avail.x, l.plotHeight + l.legendBelow));
  noteWidget(ui, "timing-chart");
  if (hovered.series) {
    const std::string value =
        gbs ? threeSignificant(hovered.point.y) + " GB/s" : timeText(hovered.point.y, true);
    ImGui::BeginTooltip();
    ImGui::Text("%s, n = %s: %s", hovered.series->name.c_str(), powerOfTwo(hovered.point.x).c_str(),
                value.c_str());
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
}

}  // namespace rlab::gui
