// Time (or GB/s) against n, log-log, one line per kernel, measured by rlab bench's engine on a
// worker thread with a progress bar and Cancel, or read from a GPU's recording where this
// machine has none (labelled with the card and the date); the speed-up table at one n under it.
// Each kernel has a colour of a colour-blind-safe palette and a marker shape of its own, the
// yardsticks (CUB, the CPU loop, the copy roofline) grey or white; the legend has every name
// whole, beside the chart or under it where the panel is narrow; the axes' labels sit in
// margins of their own. On the simulator the CPU loop is not drawn against the kernels: the
// simulator's times say how fast this machine simulates a kernel, not how fast a GPU runs it.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"

namespace rlab::gui {

namespace {

// The lesson kernels' shapes (the first five) and the yardsticks' (ring: CUB; cross: the CPU
// loop; plus: the copy roofline).
enum class Marker { Circle, Square, TriangleUp, Diamond, TriangleDown, Ring, Cross, Plus };
constexpr int kMarkers = 5;

// Okabe and Ito's colours, which stay apart for the common kinds of colour blindness (black
// left out on a dark background, blue lightened to be seen on it).
constexpr ImU32 kColours[] = {IM_COL32(230, 159, 0, 255),  IM_COL32(86, 180, 233, 255),
                              IM_COL32(0, 158, 115, 255),  IM_COL32(240, 228, 66, 255),
                              IM_COL32(60, 140, 230, 255), IM_COL32(213, 94, 0, 255),
                              IM_COL32(204, 121, 167, 255)};
constexpr int kColourCount = int(sizeof kColours / sizeof kColours[0]);

struct Series {
  std::string name;
  BenchRole role = BenchRole::Lesson;
  std::vector<ImVec2> points;  // (n, value), real values
  ImU32 colour = 0;
  Marker marker = Marker::Circle;
  bool dashed = false;
};

// The bench's rows as lines, in the order the bench measured them (the course's).
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
        s.colour = kColours[k % kColourCount];
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

// The recording's rows of the chosen type into the chart.
void showRecording(UiState& ui, const Recording& r) {
  ui.bench.rows = recordedBench(r, ui.params.type);
  ui.bench.device = r.card;
  ui.bench.gpuTimes = true;
  ui.bench.type = ui.params.type;
  ui.bench.recording = r.path;
}

std::vector<const Recording*> recordingsWithBench() {
  std::vector<const Recording*> found;
  for (const Recording& r : recordings())
    if (r.problem.empty() && r.data.contains("bench")) found.push_back(&r);
  return found;
}

// Widgets in a row that go on to the next line where the row has no room for them.
void nextInRow(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// Without a GPU: the recordings to show instead, and the simulator's own speed as a last
// choice. Shows the chosen recording at first and again when the type control changes.
void drawRecordingChoice(App& app) {
  UiState& ui = app.ui;
  const std::vector<const Recording*> recorded = recordingsWithBench();
  if (!recorded.empty()) {
    ui.recording = std::clamp(ui.recording, 0, int(recorded.size()) - 1);
    const Recording& chosen = *recorded[size_t(ui.recording)];
    if (ui.bench.rows.empty() ||
        (!ui.bench.recording.empty() &&
         (ui.bench.type != ui.params.type || ui.bench.recording != chosen.path)))
      showRecording(ui, chosen);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Recorded on"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    if (ImGui::BeginCombo("##recording", chosen.card.c_str())) {
      for (size_t k = 0; k < recorded.size(); ++k)
        if (ImGui::Selectable(recorded[k]->card.c_str(), int(k) == ui.recording)) {
          ui.recording = int(k);
          showRecording(ui, *recorded[k]);
        }
      ImGui::EndCombo();
    }
    noteWidget(ui, "recording");
    nextInRow(ImGui::CalcTextSize(tr("Measure the simulator's own speed")).x +
              ImGui::GetFontSize());
  }
  if (ImGui::SmallButton(trId("Measure the simulator's own speed"))) app.startBench();
  noteWidget(ui, "bench");
}

// Where the chart's figures come from, in one paragraph; kernel times need a GPU, it says where
// there is none here.
void drawSource(UiState& ui, bool gpuHere, const Palette& pal) {
  std::string why;
  if (!gpuHere)
    why = ui.gpuUsable ? tr("Kernel times need the GPU: choose GPU in the controls to measure "
                            "them here.")
          : recordingsWithBench().empty()
              ? tr("Kernel times need a GPU: this machine has none, and no GPU recording is "
                   "built in.")
              : tr("Kernel times need a GPU, and this machine has none: here is "
                   "what a GPU recorded.");
  if (!ui.bench.rows.empty() && !ui.bench.recording.empty()) {
    // The label says it all in a line; why there are no times of this machine, on hover of the
    // (?) before it.
    if (!why.empty()) {
      ImGui::TextDisabled("(?)");
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        wrappedText(why, false, ImGui::GetFontSize() * 24);
        ImGui::EndTooltip();
      }
      noteWidget(ui, "timing-needs-gpu");
      ImGui::SameLine();
    }
    wrappedText(printed(tr("%s, %s: kernel times on that GPU."),
                        recordedOnText(ui.bench.recording).c_str(), name(ui.bench.type)),
                pal.accent);
    return;
  }
  if (!ui.bench.rows.empty() && !ui.bench.gpuTimes)
    wrappedText((why.empty() ? "" : why + " ") +
                    tr("Shown: how long this machine took to simulate each kernel, not a GPU's "
                       "time (so no CPU loop beside them)."),
                true);
  else if (!ui.bench.rows.empty())
    wrappedText(ui.bench.device, true);
  else if (!why.empty())
    wrappedText(why, true);
  noteWidget(ui, why.empty() ? "timing-source" : "timing-needs-gpu");
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

// The chart in `height` pixels: the plot with its axes' labels in margins of their own, the
// legend beside it (in as many columns as its height needs) where that leaves the plot half
// the width, else under it; past the height, the chart scrolls within it.
void drawChart(UiState& ui, float height, const Palette& pal) {
  BenchOutcome shown = ui.bench;
  shown.rows.clear();
  for (const BenchRow& r : ui.bench.rows)
    if (chartShows(ui, r)) shown.rows.push_back(r);
  const bool gbs = ui.view.chartShowsGBs;
  const std::vector<Series> series = seriesOf(shown, gbs, pal);
  if (series.empty()) return;
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  for (const Series& s : series)
    for (const ImVec2& p : s.points) {
      xMin = std::min(xMin, double(p.x));
      xMax = std::max(xMax, double(p.x));
      yMin = std::min(yMin, double(p.y));
      yMax = std::max(yMax, double(p.y));
    }
  const double ly0 = std::floor(std::log10(yMin)),
               ly1 = std::max(ly0 + 1, std::ceil(std::log10(yMax)));
  const double lx0 = std::log2(xMin), lx1 = std::max(lx0 + 1, std::log2(xMax));

  ImGui::BeginChild("chart", ImVec2(0, height), false);
  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  float labelWidth = 0;
  for (double d = ly0; d <= ly1; ++d)
    labelWidth =
        std::max(labelWidth, ImGui::CalcTextSize(axisValue(std::pow(10, d), gbs).c_str()).x);
  float nameWidth = 0;
  for (const Series& s : series)
    nameWidth = std::max(nameWidth, ImGui::CalcTextSize(s.name.c_str()).x);
  const float keyWidth = nameWidth + font * 3.3f;  // line sample and marker, then the name
  const float left = labelWidth + font * 0.6f, bottom = line + 2, top = font * 0.6f;
  const float minPlot = line * 6;
  // Beside: as many columns as the chart's height needs.
  const float chartHeight = std::max(minPlot + top + bottom, avail.y);
  const int rowsBeside = std::max(1, int((chartHeight - top - bottom) / line));
  const int columnsBeside = (int(series.size()) + rowsBeside - 1) / rowsBeside;
  const bool beside = avail.x - float(columnsBeside) * keyWidth >= avail.x * 0.5f;
  const int columns = beside ? columnsBeside : std::max(1, int((avail.x - left) / keyWidth));
  const int rows = (int(series.size()) + columns - 1) / columns;
  const float legendBelow = beside ? 0.f : float(rows) * line + 4;
  const float plotHeight = std::max(minPlot + top + bottom, chartHeight - legendBelow);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 plotMin(origin.x + left, origin.y + top);
  const ImVec2 plotMax(origin.x + (beside ? avail.x - float(columns) * keyWidth - font * 0.5f
                                          : avail.x - font * 0.5f),
                       origin.y + plotHeight - bottom);
  auto at = [&](double x, double y) {
    return ImVec2(plotMin.x + float((std::log2(x) - lx0) / (lx1 - lx0)) * (plotMax.x - plotMin.x),
                  plotMax.y - float((std::log10(y) - ly0) / (ly1 - ly0)) * (plotMax.y - plotMin.y));
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRect(plotMin, plotMax, pal.cellBorder);
  // Every decade a grid line; labels as often as they fit.
  const int every = std::max(1, int(std::ceil((ly1 - ly0 + 1) * line / (plotMax.y - plotMin.y))));
  for (double d = ly0; d <= ly1; ++d) {
    const float y = at(xMin, std::pow(10, d)).y;
    draw->AddLine(ImVec2(plotMin.x, y), ImVec2(plotMax.x, y), pal.cell);
    if (int(d - ly0) % every != 0) continue;
    const std::string label = axisValue(std::pow(10, d), gbs);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    draw->AddText(ImVec2(plotMin.x - size.x - font * 0.3f, y - size.y / 2), pal.muted,
                  label.c_str());
  }
  float lastRight = -1e9f;  // n labels that would overlap are left out
  for (const Series& s : series)
    for (const ImVec2& p : s.points) {
      if (&s != &series.front()) break;  // every series has the same sizes: the first one's
      const std::string label = powerOfTwo(p.x);
      const ImVec2 size = ImGui::CalcTextSize(label.c_str());
      const float cx = at(p.x, std::pow(10, ly0)).x;
      if (cx - size.x / 2 <= lastRight + font * 0.5f) continue;
      draw->AddLine(ImVec2(cx, plotMax.y), ImVec2(cx, plotMax.y + 3), pal.muted);
      draw->AddText(ImVec2(cx - size.x / 2, plotMax.y + 3), pal.muted, label.c_str());
      lastRight = cx + size.x / 2;
    }
  const float thickness = pal.line * 1.3f, markerSize = std::max(3.f, font * 0.22f);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Series* hovered = nullptr;
  ImVec2 hoveredPoint;
  float nearest = font * 0.6f;
  for (const Series& s : series) {
    for (size_t i = 1; i < s.points.size(); ++i)
      drawLine(draw, at(s.points[i - 1].x, s.points[i - 1].y), at(s.points[i].x, s.points[i].y),
               s.colour, thickness, s.dashed);
    for (const ImVec2& p : s.points) {
      const ImVec2 c = at(p.x, p.y);
      drawMarker(draw, c, markerSize, s.marker, s.colour);
      const float d = std::hypot(mouse.x - c.x, mouse.y - c.y);
      if (d < nearest) nearest = d, hovered = &s, hoveredPoint = p;
    }
  }
  // The legend: a line sample with the marker, then the whole name.
  const ImVec2 legendOrigin = beside ? ImVec2(plotMax.x + font * 0.5f, plotMin.y)
                                     : ImVec2(origin.x + left, origin.y + plotHeight + 4);
  const int legendRows = beside ? rowsBeside : rows;
  for (size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    const int column = int(k) / legendRows, row = int(k) % legendRows;
    const ImVec2 key(legendOrigin.x + float(column) * keyWidth, legendOrigin.y + float(row) * line);
    const float mid = key.y + line / 2;
    drawLine(draw, ImVec2(key.x, mid), ImVec2(key.x + font * 1.8f, mid), s.colour, thickness,
             s.dashed);
    drawMarker(draw, ImVec2(key.x + font * 0.9f, mid), markerSize, s.marker, s.colour);
    draw->AddText(ImVec2(key.x + font * 2.3f, key.y + (line - font) / 2), pal.text, s.name.c_str());
  }
  ImGui::Dummy(ImVec2(avail.x, plotHeight + legendBelow));
  noteWidget(ui, "timing-chart");
  if (hovered) {
    const std::string value =
        gbs ? threeSignificant(hoveredPoint.y) + " GB/s" : timeText(hoveredPoint.y, true);
    ImGui::BeginTooltip();
    ImGui::Text("%s, n = %s: %s", hovered->name.c_str(), powerOfTwo(hoveredPoint.x).c_str(),
                value.c_str());
    ImGui::EndTooltip();
  }
  ImGui::EndChild();
}

}  // namespace

void drawTimingPanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const bool gpuHere = ui.params.backend == BackendChoice::Gpu && ui.gpuUsable;
  if (app.longWorkBusy() && app.longWorkLabel() == "timing") {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 14, 0));
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelLongWork();
  } else if (gpuHere) {
    if (ImGui::Button(trId("Measure every kernel"))) app.startBench();
    noteWidget(ui, "bench");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("on the GPU, 2^10 to 2^28"));
  } else {
    drawRecordingChoice(app);
  }
  nextInRow(ImGui::GetFontSize() * 4);
  ImGui::Checkbox("GB/s", &ui.view.chartShowsGBs);
  nextInRow(ImGui::CalcTextSize(tr("every lesson's kernels")).x + ImGui::GetFontSize() * 2);
  ImGui::Checkbox(trId("every lesson's kernels"), &ui.view.chartAllKernels);
  noteWidget(ui, "chart-all-kernels");
  drawSource(ui, gpuHere, pal);
  if (ui.bench.rows.empty()) {
    ImGui::TextDisabled("%s", tr("No measurements yet."));
    return;
  }
  // The chart above the speed-up table where the panel holds both; else each in a tab of its
  // own, so that the table is never below the visible area.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float room = ImGui::GetContentRegionAvail().y;
  if (room >= line * 24) {
    const float table = std::min(speedUpTableHeight(ui), std::max(room * 0.4f, line * 8));
    drawChart(ui, room - table - ImGui::GetStyle().ItemSpacing.y, pal);
    drawSpeedUpTable(app, table);
    return;
  }
  if (ImGui::BeginTabBar("timing-parts")) {
    const bool chart = ImGui::BeginTabItem(trId("Chart"));
    noteWidget(ui, "timing-tab:chart");  // the tab itself, before what it holds
    if (chart) {
      drawChart(ui, ImGui::GetContentRegionAvail().y, pal);
      ImGui::EndTabItem();
    }
    const bool table = ImGui::BeginTabItem(trId("Speed-up table"));
    noteWidget(ui, "timing-tab:table");
    if (table) {
      drawSpeedUpTable(app, ImGui::GetContentRegionAvail().y);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}

}  // namespace rlab::gui
