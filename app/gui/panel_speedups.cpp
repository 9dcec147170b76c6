// The speed-up table under the timing chart: for one measured n, each kernel's time, x the CPU
// loop, x the kernel before it in the course order, x CUB (the seed's table, for this GPU, or
// for the GPU of a recording, so labelled). Read from the bench's rows; fillSpeedUps (the core)
// computed the ratios. It fits the height the chart leaves it: its rows scroll under a header
// that stays.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// The rows of one n, in the bench's order: the CPU loop, CUB, the lessons, the copy roofline.
std::vector<const BenchRow*> rowsOf(const std::vector<BenchRow>& rows, long long n) {
  std::vector<const BenchRow*> out;
  for (const BenchRow& r : rows)
    if (r.n == n && r.gpus == 0) out.push_back(&r);
  return out;
}

// The n the table shows: the one chosen, while it was measured, else the largest measured.
long long shownN(const UiState& ui) {
  long long largest = 0;
  for (const BenchRow& r : ui.bench.rows) {
    if (r.gpus > 0) continue;
    if (r.n == ui.view.speedUpN) return r.n;
    largest = std::max(largest, r.n);
  }
  return largest;
}

std::string sizeText(long long n) {
  const int exponent = int(std::lround(std::log2(double(n))));
  return (n > 0 && (1ll << exponent) == n ? "2^" + std::to_string(exponent) + " = " : "") +
         std::to_string(n);
}

void ratioCell(double v, const char* format) {
  ImGui::TableNextColumn();
  if (v > 0)
    ImGui::Text(format, v);
  else
    ImGui::TextDisabled("-");
}

}  // namespace

float speedUpTableHeight(const UiState& ui) {
  const long long n = shownN(ui);
  if (n == 0) return 0;
  const size_t rows = ui.bench.gpuTimes ? rowsOf(ui.bench.rows, n).size() : 1;
  return ImGui::GetFrameHeightWithSpacing() * float(rows + 4);
}

void drawSpeedUpTable(App& app, float height) {
  UiState& ui = app.ui;
  const long long n = shownN(ui);
  if (n == 0) return;
  const auto& all = ui.bench.rows;
  // Which n: every size measured.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr("Speed-up table at n ="));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  if (ImGui::BeginCombo("##speedup-n", sizeText(n).c_str())) {
    std::vector<long long> sizes;
    for (const BenchRow& r : all)
      if (r.gpus == 0 && std::find(sizes.begin(), sizes.end(), r.n) == sizes.end())
        sizes.push_back(r.n);
    for (long long size : sizes)
      if (ImGui::Selectable(sizeText(size).c_str(), size == n)) ui.view.speedUpN = size;
    ImGui::EndCombo();
  }
  noteWidget(ui, "speedup-n");
  ImGui::SameLine();
  ImGui::TextDisabled("%s, %s", ui.bench.gpuTimes ? ui.bench.device.c_str() : tr("CPU"),
                      name(ui.bench.type));
  if (!ui.bench.recording.empty()) {  // never taken for this machine's
    ImGui::SameLine();
    ImGui::TextDisabled("(%s)", tr("recorded, not measured here"));
  }

  const std::vector<const BenchRow*> rows = rowsOf(all, n);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  const int columns = ui.bench.gpuTimes ? 5 : 2;
  const float frame = ImGui::GetFrameHeightWithSpacing();
  // What is left of `height` under the combo and over the line under the table; never so
  // little that the header and a row would not show.
  const float whole = frame * float(ui.bench.gpuTimes ? rows.size() + 1 : 2);
  const float room = std::max(frame * 3, height - frame * 3);
  if (!ImGui::BeginTable("speedups", columns, flags, ImVec2(0, std::min(whole, room)))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr("kernel"));
  ImGui::TableSetupColumn("ms");
  if (ui.bench.gpuTimes) {
    ImGui::TableSetupColumn(tr("x the CPU loop"));
    ImGui::TableSetupColumn(tr("x the previous kernel"));
    ImGui::TableSetupColumn(tr("x CUB"));
  }
  ImGui::TableHeadersRow();
  for (const BenchRow* r : rows) {
    // On the simulator only the CPU loop is a real time of this machine's work.
    if (!ui.bench.gpuTimes && r->role != BenchRole::CpuLoop) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r->role == BenchRole::CpuLoop ? tr("CPU loop (for i: s += a[i])")
                                                         : r->kernel.c_str());
    noteWidget(ui, "speedup-row:" + r->kernel);
    ImGui::TableNextColumn();
    ImGui::Text("%.4f", r->ms);
    if (!ui.bench.gpuTimes) continue;
    ratioCell(r->cpuRatio, "%.1f");
    ratioCell(r->previousRatio, "%.2f");
    ratioCell(r->role == BenchRole::Lesson ? r->cubRatio : 0, "%.2f");
  }
  ImGui::EndTable();
  if (ui.bench.gpuTimes)
    ImGui::TextDisabled("%s", tr("x: how many times faster than that one (above 1: faster)."));
  else
    wrappedText(tr("Kernel times need a GPU: the simulator's times are CPU times and say "
                   "nothing about a kernel's speed on a GPU. The CPU loop above ran on this "
                   "machine; measure on a machine with an NVIDIA GPU for the kernels' columns."),
                true);
  if (!ui.bench.gpuTimes) noteWidget(ui, "speedup-needs-gpu");
}

}  // namespace rlab::gui
