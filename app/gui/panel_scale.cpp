// The all-reduce at a scale no picture shows (lessons/engine/run/allreduce_model.hpp): the
// α-β-γ model's time against the bytes per GPU, log-log, one line per algorithm, for the GPUs
// and the GPUs per node chosen here, with the sizes where the fastest changes marked.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/run/allreduce_model.hpp"

namespace rlab::gui {

namespace {

// The timing chart's colours, four that read apart on the dark background.
constexpr ImU32 kLineColours[] = {kSeriesColours[0], kSeriesColours[1], kSeriesColours[2],
                                  kSeriesColours[6]};

// The machine's size: GPUs (powers of two) and GPUs per node (1: a node each; all: one node).
void drawScaleControls(ScaleView& s) {
  static const int gpus[] = {2, 4, 8, 16, 64, 256, 1024, 4096};
  ImGui::TextUnformatted(tr("GPUs"));
  for (int g : gpus) {
    ImGui::SameLine();
    if (ImGui::RadioButton(std::to_string(g).c_str(), s.gpus == g)) s.gpus = g;
  }
  ImGui::TextUnformatted(tr("GPUs per node"));
  for (int g : {1, 4, 8}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(printed("%d##node", g).c_str(), s.perNode == g)) s.perNode = g;
  }
  ImGui::SameLine();
  if (ImGui::RadioButton(tr("all in one node"), s.perNode == 0)) s.perNode = 0;
}

// x: log2 of the bytes, 3 to 32; y: log10 of the seconds, over the table's range.
struct Axes {
  ImVec2 min, max;
  double lowY = 0, highY = 1;
  ImVec2 at(double bytes, double seconds) const {
    const float x = float((std::log2(bytes) - 3) / 29);
    const float y = float((std::log10(seconds) - lowY) / (highY - lowY));
    return ImVec2(min.x + x * (max.x - min.x), max.y - y * (max.y - min.y));
  }
};

void drawAxes(ImDrawList* draw, const Axes& a, const Palette& pal) {
  draw->AddRect(a.min, a.max, pal.cellBorder);
  for (int power = 3; power <= 32; power += 5) {  // 8 B, 256 B, 8 KiB, 256 KiB, 8 MiB, 256 MiB
    const ImVec2 p = a.at(std::ldexp(1.0, power), std::pow(10.0, a.lowY));
    draw->AddLine(ImVec2(p.x, a.min.y), ImVec2(p.x, a.max.y),
                  (pal.cellBorder & 0x00ffffffu) | 0x50000000u);
    draw->AddText(ImVec2(p.x - 10, a.max.y + 2), pal.muted,
                  byteSizeText(std::ldexp(1.0, power)).c_str());
  }
  for (double decade = std::ceil(a.lowY); decade <= a.highY; ++decade) {
    const ImVec2 p = a.at(8, std::pow(10.0, decade));
    draw->AddLine(ImVec2(a.min.x, p.y), ImVec2(a.max.x, p.y),
                  (pal.cellBorder & 0x00ffffffu) | 0x50000000u);
    const double seconds = std::pow(10.0, decade);
    const std::string label = seconds < 1e-3 ? shortNumber(seconds * 1e6) + " µs"
                              : seconds < 1  ? shortNumber(seconds * 1e3) + " ms"
                                             : shortNumber(seconds) + " s";
    const float width = ImGui::CalcTextSize(label.c_str()).x;
    draw->AddText(ImVec2(a.min.x - width - 6, p.y - ImGui::GetFontSize() / 2), pal.muted,
                  label.c_str());
  }
}

}  // namespace

void drawScalePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  ScaleView& s = ui.scale;
  drawScaleControls(s);
  AllReduceMachine m = allReducePreset("hgx-h100", s.gpus);
  m.perNode = s.perNode;
  const std::vector<AllReduceModelRow> rows = allReduceModelTable(m);
  // On the stage the machine's sentence waits under the pointer: the chart needs the room.
  if (ui.view.presenter) {
    helpMarker(say(allReduceMachineText(m)).c_str());
    ImGui::SameLine();
  } else {
    wrappedText(say(allReduceMachineText(m)), true);
  }
  wrappedText(say(allReduceCrossovers(rows)), pal.accent);
  // The legend on one line, then the chart in what is left.
  for (size_t k = 0; k < std::size(kAllReduceAlgorithms); ++k) {
    if (k) ImGui::SameLine(0, ImGui::GetFontSize());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y + h / 2),
                                        ImVec2(p.x + h * 1.5f, p.y + h / 2), kLineColours[k],
                                        pal.line * 2);
    ImGui::Dummy(ImVec2(h * 1.6f, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(say(allReduceAlgorithmText(kAllReduceAlgorithms[k])).c_str());
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  if (avail.y < font * 4) return;
  Axes a;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  a.min = ImVec2(origin.x + font * 4.5f, origin.y + font * 0.5f);
  a.max = ImVec2(origin.x + avail.x - font, origin.y + avail.y - font * 1.6f);
  double low = INFINITY, high = 0;
  for (const AllReduceModelRow& row : rows)
    for (double t : row.seconds) low = std::min(low, t), high = std::max(high, t);
  a.lowY = std::floor(std::log10(low));
  a.highY = std::ceil(std::log10(high));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  drawAxes(draw, a, pal);
  for (size_t k = 0; k < std::size(kAllReduceAlgorithms); ++k)
    for (size_t r = 1; r < rows.size(); ++r)
      draw->AddLine(a.at(rows[r - 1].bytes, rows[r - 1].seconds[k]),
                    a.at(rows[r].bytes, rows[r].seconds[k]), kLineColours[k], pal.line * 2);
  for (size_t r = 1; r < rows.size(); ++r)  // where the fastest changes: a line up the chart
    if (rows[r].best != rows[r - 1].best) {
      const ImVec2 p = a.at(rows[r].bytes, std::pow(10.0, a.highY));
      draw->AddLine(p, ImVec2(p.x, a.max.y), pal.accent, pal.line);
      draw->AddText(ImVec2(p.x + 4, a.min.y + 2), pal.accent, byteSizeText(rows[r].bytes).c_str());
    }
  ImGui::Dummy(avail);
}

}  // namespace rlab::gui
