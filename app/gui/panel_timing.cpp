// Time (or GB/s) against n, log-log, one line per kernel (the chart: timing_chart.cpp), measured
// by rlab bench's engine on a worker thread with a progress bar and Cancel, or read from a GPU's
// recording where this machine has none (labelled with the card and the date); the speed-up
// table at one n under it.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "app/gui/timing_chart.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"

namespace rlab::gui {

namespace {

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
    drawTimingChart(ui, room - table - ImGui::GetStyle().ItemSpacing.y, pal);
    drawSpeedUpTable(app, table);
    return;
  }
  if (ImGui::BeginTabBar("timing-parts")) {
    const bool chart = ImGui::BeginTabItem(trId("Chart"));
    noteWidget(ui, "timing-tab:chart");  // the tab itself, before what it holds
    if (chart) {
      drawTimingChart(ui, ImGui::GetContentRegionAvail().y, pal);
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
