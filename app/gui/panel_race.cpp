// Race explorer: run the lesson K times (K schedules on the simulator), the results as a
// histogram, the share that was wrong, and any wrong run opened in the step player. On a GPU,
// one run under compute-sanitizer's racecheck: each hazard with its kernel and source line.
#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

constexpr size_t kShownHazards = 8;

// "/home/lab/rlab/kernels/barrier.cuh" as learners know it: "kernels/barrier.cuh".
std::string shortPath(const std::string& file) {
  const size_t at = file.rfind("kernels/");
  return at == std::string::npos ? file : file.substr(at);
}

void drawRacecheckReport(UiState& ui, const SanitizerReport& report, const Palette& pal) {
  ImGui::Separator();
  const Params& p = report.params;
  const std::string run = p.lesson + " " + p.variant + (p.barrier ? "" : ", barrier off") +
                          (p.perturb ? ", perturbed" : "");
  const ImVec4 good = ImGui::ColorConvertU32ToFloat4(pal.right);
  const ImVec4 bad = ImGui::ColorConvertU32ToFloat4(pal.wrong);
  if (report.clean)
    ImGui::TextColored(good, "racecheck: clean");
  else if (!report.runError.empty())
    ImGui::TextColored(bad, "racecheck: the run failed");
  else
    ImGui::TextColored(bad, "racecheck: %zu %s", report.hazards.size(),
                       report.hazards.size() == 1 ? "hazard" : "hazards");
  noteWidget(ui, "racecheck report");
  ImGui::SameLine();
  ImGui::TextDisabled("on %s", run.c_str());
  if (!report.runError.empty()) ImGui::TextWrapped("%s", report.runError.c_str());
  for (size_t k = 0; k < report.hazards.size() && k < kShownHazards; ++k) {
    const SanitizerHazard& h = report.hazards[k];
    ImGui::Bullet();
    std::string headline = (h.severity.empty() ? "" : h.severity + ": ") + h.kind;
    if (h.count > 0)
      headline += " (" + std::to_string(h.count) + (h.count == 1 ? " hazard)" : " hazards)");
    ImGui::TextWrapped("%s", headline.c_str());
    ImGui::Indent();
    if (!h.kernel.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      ImGui::TextWrapped("in %s", h.kernel.c_str());
      ImGui::PopStyleColor();
    }
    bool located = false;
    for (const SanitizerSite& site : h.sites) {
      if (site.file.empty()) continue;
      located = true;
      ImGui::Text("%s%sat %s:%d", site.access.c_str(), site.access.empty() ? "" : " ",
                  shortPath(site.file).c_str(), site.line);
    }
    if (!h.sites.empty() && !located)
      ImGui::TextDisabled("no source line: the kernels were built without -lineinfo");
    if (!h.thread.empty()) ImGui::Text("by %s", h.thread.c_str());
    ImGui::Unindent();
  }
  if (report.hazards.size() > kShownHazards)
    ImGui::TextDisabled("... and %zu more (rlab check lists them all)",
                        report.hazards.size() - kShownHazards);
  if (!report.summary.empty()) ImGui::TextDisabled("%s", report.summary.c_str());
  for (const auto& note : report.notes) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", note.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
}

}  // namespace

void drawRacePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt("runs", &ui.raceRuns, 50, 500);
  ui.raceRuns = std::clamp(ui.raceRuns, 1, 100000);
  ImGui::SameLine();
  if (app.longWorkBusy() && app.longWorkLabel() == "race") {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 10, 0));
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) app.cancelLongWork();
  } else if (ImGui::Button("Race it")) {
    app.startRace();
  }
  noteWidget(ui, "race");
  if (ui.params.backend == BackendChoice::Gpu && ui.gpuUsable && !app.longWorkBusy()) {
    ImGui::SameLine();
    if (ImGui::Button("racecheck")) app.startRacecheck();
    helpMarker(
        "One run under compute-sanitizer's racecheck. It watches shared memory only: "
        "use the barrier lesson's shared variant to see the race named.");
  }
  helpMarker(
      "On the GPU: the same kernel K times. On the simulator: K random schedules. "
      "Races show as results that differ from run to run.");
  const RaceResult& race = ui.race.result;
  if (app.longWorkBusy() && app.longWorkLabel() == "racecheck")
    ImGui::TextDisabled("racecheck is running...");
  if (ui.race.racecheck) drawRacecheckReport(ui, *ui.race.racecheck, pal);
  if (race.runs == 0) {
    ImGui::TextDisabled("Switch the barrier off in the barrier lesson, then race it.");
    return;
  }
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(race.wrong ? pal.wrong : pal.right),
                     "%d of %d runs wrong (%.0f%%)", race.wrong, race.runs,
                     100.0 * race.wrong / race.runs);
  ImGui::SameLine();
  ImGui::TextDisabled("on %s", race.device.c_str());
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", race.schedules.c_str());
  ImGui::PopTextWrapPos();
  // The most frequent results first; the right one always among them.
  std::vector<std::pair<double, int>> bins(race.histogram.begin(), race.histogram.end());
  std::stable_sort(bins.begin(), bins.end(), [&](const auto& a, const auto& b) {
    if ((a.first == race.expected) != (b.first == race.expected)) return a.first == race.expected;
    return a.second > b.second;
  });
  constexpr size_t kShown = 12;
  int most = 1;
  for (const auto& bin : bins) most = std::max(most, bin.second);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float width = ImGui::GetContentRegionAvail().x * 0.6f;
  for (size_t k = 0; k < bins.size() && k < kShown; ++k) {
    const auto [value, count] = bins[k];
    const bool right = value == race.expected;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float label = ImGui::GetFontSize() * 7;
    ImGui::TextUnformatted(formatValue(value, ui.params.type).c_str());
    draw->AddRectFilled(ImVec2(at.x + label, at.y + 2),
                        ImVec2(at.x + label + width * count / most, at.y + ImGui::GetFontSize()),
                        right ? pal.right : pal.wrong);
    ImGui::SameLine(label + width * count / most + 16);
    ImGui::Text("%d%s", count, right ? "  (right)" : "");
  }
  if (bins.size() > kShown) {
    int rest = 0;
    for (size_t k = kShown; k < bins.size(); ++k) rest += bins[k].second;
    ImGui::TextDisabled("... and %zu other results (%d runs)", bins.size() - kShown, rest);
  }
  if (!race.wrongRuns.empty()) {
    ImGui::TextUnformatted("Open a wrong run in the player:");
    for (size_t k = 0; k < race.wrongRuns.size(); ++k) {
      const auto& run = race.wrongRuns[k];
      const std::string label =
          "result " + formatValue(run->result, run->params.type) + "##" + std::to_string(k);
      if (ImGui::Button(label.c_str())) {
        ui.trace = run;
        ui.step = int(run->steps.size()) - 1;
        ui.playing = false;
      }
      noteWidget(ui, "wrong run " + std::to_string(k));
      if ((k + 1) % 5 != 0) ImGui::SameLine();
    }
  }
}

}  // namespace rlab::gui
