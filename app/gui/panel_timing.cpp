// Time (or GB/s) against n, log-log, one line per kernel, measured by rlab bench's engine on a
// worker thread with a progress bar and Cancel; the speed-up table at one n under it.
#include <algorithm>
#include <cmath>
#include <map>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

void drawTimingPanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (app.longWorkBusy() && app.longWorkLabel() == "timing") {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 14, 0));
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelLongWork();
  } else {
    if (ImGui::Button(trId("Measure every kernel"))) app.startBench();
    noteWidget(ui, "bench");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", ui.params.backend == BackendChoice::Gpu && ui.gpuUsable
                                  ? tr("on the GPU, 2^10 to 2^28")
                                  : tr("on the simulator, 2^10 to 2^16 (not GPU times)"));
  }
  ImGui::SameLine();
  ImGui::Checkbox("GB/s", &ui.view.chartShowsGBs);
  const auto& rows = ui.bench.rows;
  if (rows.empty()) {
    ImGui::TextDisabled("%s", tr("No measurements yet."));
    return;
  }
  wrappedText(ui.bench.gpuTimes ? ui.bench.device
                                : tr("CPU SIMT simulator (simulator throughput, not GPU times)"),
              true);

  std::map<std::string, std::vector<std::pair<double, double>>> lines;
  double xMin = 1e30, xMax = 0, yMin = 1e30, yMax = 0;
  for (const BenchRow& r : rows) {
    const double y = ui.view.chartShowsGBs ? r.gbPerSecond : r.ms;
    if (!(y > 0) || !std::isfinite(y)) continue;
    lines[r.kernel].emplace_back(double(r.n), y);
    xMin = std::min(xMin, double(r.n));
    xMax = std::max(xMax, double(r.n));
    yMin = std::min(yMin, y);
    yMax = std::max(yMax, y);
  }
  if (lines.empty()) return;
  const float legend = ImGui::GetFontSize() * 11;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis = ImGui::GetTextLineHeightWithSpacing();  // room for the n labels below
  const float table = speedUpTableHeight(ui);                // under the chart
  // The chart is never shorter than its legend beside it: where the table leaves less room, the
  // panel scrolls to the table instead of squeezing the chart.
  const float legendHeight = float(lines.size()) * ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 plot(std::max(50.f, avail.x - legend),
                    std::max(legendHeight - axis, avail.y - axis - 4 - table));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const double lx0 = std::log10(xMin), lx1 = std::log10(std::max(xMax, xMin * 10));
  const double ly0 = std::floor(std::log10(yMin)), ly1 = std::ceil(std::log10(yMax * 1.01));
  auto at = [&](double x, double y) {
    return ImVec2(origin.x + float((std::log10(x) - lx0) / (lx1 - lx0)) * plot.x,
                  origin.y + plot.y - float((std::log10(y) - ly0) / (ly1 - ly0)) * plot.y);
  };
  draw->AddRect(origin, ImVec2(origin.x + plot.x, origin.y + plot.y), pal.cellBorder);
  for (double d = ly0; d <= ly1; ++d) {
    const ImVec2 p = at(xMin, std::pow(10, d));
    draw->AddLine(ImVec2(origin.x, p.y), ImVec2(origin.x + plot.x, p.y), pal.cell);
    char label[32];
    std::snprintf(label, sizeof label, ui.view.chartShowsGBs ? "%g GB/s" : "%g ms",
                  std::pow(10, d));
    const float below = d == ly0 ? -ImGui::GetFontSize() - 1 : 1;  // the lowest sits above its line
    draw->AddText(ImVec2(origin.x + 3, p.y + below), pal.muted, label);
  }
  for (double x = xMin; x <= xMax * 1.001; x *= 4) {
    const ImVec2 p = at(x, std::pow(10, ly0));
    char label[32];
    std::snprintf(label, sizeof label, "2^%d", int(std::lround(std::log2(x))));
    draw->AddText(ImVec2(p.x - ImGui::CalcTextSize(label).x / 2, origin.y + plot.y + 2), pal.muted,
                  label);
  }
  int k = 0;
  for (const auto& [kernel, points] : lines) {
    const ImU32 colour = ImGui::ColorConvertFloat4ToU32(
        ImColor::HSV(float(k) / float(lines.size()), 0.7f, 1.0f).Value);
    for (size_t i = 1; i < points.size(); ++i)
      draw->AddLine(at(points[i - 1].first, points[i - 1].second),
                    at(points[i].first, points[i].second), colour, pal.line * 1.3f);
    const ImVec2 key(origin.x + plot.x + 8, origin.y + k * ImGui::GetTextLineHeightWithSpacing());
    draw->AddRectFilled(ImVec2(key.x, key.y + 4), ImVec2(key.x + 12, key.y + 12), colour);
    draw->AddText(ImVec2(key.x + 16, key.y), pal.text, kernel.c_str());
    ++k;
  }
  // The table goes under the chart and under its legend, whichever is longer.
  ImGui::Dummy(ImVec2(avail.x, std::max(plot.y + axis, legendHeight)));
  drawSpeedUpTable(app);
}

}  // namespace rlab::gui
