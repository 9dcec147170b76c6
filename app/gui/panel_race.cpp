// Race explorer: run the lesson K times (K schedules on the simulator), the results as a
// histogram by how far off they were, the share that was wrong, and any wrong run opened in the
// step player. Beside it: the race witness (panel_race_witness.cpp), the share of wrong runs
// against block size and float sums in ulps (panel_race_charts.cpp). Each is a job on the
// worker with progress and Cancel. On a GPU, one run under compute-sanitizer's racecheck: each
// hazard with its kernel and source line.
//
// [SECTION] racecheck report
// [SECTION] Results of K runs
// [SECTION] The panel: buttons, progress, views

#include <algorithm>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

// ============================================================================================
// [SECTION] racecheck report
// ============================================================================================

namespace {

constexpr size_t kShownHazards = 8;
constexpr size_t kListedResults = 8;  // results listed one by one up to here

// "/home/lab/rlab/kernels/barrier.cuh" as learners know it: "kernels/barrier.cuh".
std::string shortPath(const std::string& file) {
  const size_t at = file.rfind("kernels/");
  return at == std::string::npos ? file : file.substr(at);
}

void drawRacecheckReport(UiState& ui, const SanitizerReport& report, const Palette& pal) {
  ImGui::Separator();
  const ImVec4 good = ImGui::ColorConvertU32ToFloat4(pal.right);
  const ImVec4 bad = ImGui::ColorConvertU32ToFloat4(pal.wrong);
  if (report.clean)
    ImGui::TextColored(good, "%s", tr("racecheck: clean"));
  else if (!report.runError.empty())
    ImGui::TextColored(bad, "%s", tr("racecheck: the run failed"));
  else if (report.hazards.size() == 1)
    ImGui::TextColored(bad, tr("racecheck: %zu hazard"), report.hazards.size());
  else
    ImGui::TextColored(bad, tr("racecheck: %zu hazards"), report.hazards.size());
  noteWidget(ui, "racecheck report");
  ImGui::SameLine();
  ImGui::TextDisabled(tr("on %s"), runSetup(report.params, false).c_str());
  if (!report.runError.empty()) wrappedText(say(report.runError));
  for (size_t k = 0; k < report.hazards.size() && k < kShownHazards; ++k) {
    const SanitizerHazard& h = report.hazards[k];
    ImGui::Bullet();
    std::string headline = (h.severity.empty() ? "" : h.severity + ": ") + h.kind;
    if (h.count > 0)
      headline += " " + printed(h.count == 1 ? tr("(%d hazard)") : tr("(%d hazards)"), h.count);
    wrappedText(headline);
    ImGui::Indent();
    if (!h.kernel.empty()) wrappedText(printed(tr("in %s"), h.kernel.c_str()), true);
    bool located = false;
    for (const SanitizerSite& site : h.sites) {
      if (site.file.empty()) continue;
      const std::string file = shortPath(site.file);
      const std::string text =
          site.access.empty()
              ? printed(tr("at %s:%d"), file.c_str(), site.line)
              : printed(tr("%s at %s:%d"), site.access.c_str(), file.c_str(), site.line);
      ImGui::PushID(int(k * 16 + size_t(&site - h.sites.data())));
      const bool marked = ui.markedSourceFile == site.file && ui.markedSourceLine == site.line;
      if (ImGui::Selectable(text.c_str(), marked)) {
        ui.markedSourceFile = site.file;
        ui.markedSourceLine = site.line;
      }
      ImGui::PopID();
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Click: mark this line in the kernel source"));
      if (!located) noteWidget(ui, "hazard site " + std::to_string(k));
      located = true;
    }
    if (!h.sites.empty() && !located)
      ImGui::TextDisabled("%s", tr("no source line: the kernels were built without -lineinfo"));
    if (!h.thread.empty()) ImGui::Text(tr("by %s"), h.thread.c_str());
    ImGui::Unindent();
  }
  if (report.hazards.size() > kShownHazards)
    ImGui::TextDisabled(tr("... and %zu more (rlab check lists them all)"),
                        report.hazards.size() - kShownHazards);
  if (!report.summary.empty()) ImGui::TextDisabled("%s", report.summary.c_str());
  for (const auto& note : report.notes) wrappedText(say(note), true);
  ImGui::Separator();
}

// ============================================================================================
// [SECTION] Results of K runs
// ============================================================================================

void drawResults(App& app, const Palette& pal) {
  UiState& ui = app.ui;
  const RaceResult& race = ui.race.result;
  if (app.longWorkBusy() && app.longWorkLabel() == "racecheck")
    ImGui::TextDisabled("%s", tr("racecheck is running..."));
  if (ui.race.racecheck) drawRacecheckReport(ui, *ui.race.racecheck, pal);
  if (race.runs == 0) {
    wrappedText(tr("Switch the barrier off in the barrier lesson, then race it."), true);
    return;
  }
  const ElementType type = race.params.type;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(race.wrong ? pal.wrong : pal.right),
                     tr("%d of %d runs wrong (%.0f%%)"), race.wrong, race.runs,
                     100.0 * race.wrong / race.runs);
  ImGui::SameLine();
  ImGui::TextDisabled(tr("on %s"), say(race.device).c_str());
  wrappedText(say(race.schedules), true);

  const OffsetHistogram& bins = ui.race.bins;
  const bool listed = race.histogram.size() <= kListedResults;
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  const float below = (listed ? 2.f : 1.f) * lineH +
                      (race.wrongRuns.empty() ? 0 : 3 * ImGui::GetFrameHeightWithSpacing());
  const float chart =
      std::max(ImGui::GetTextLineHeight() * 8, ImGui::GetContentRegionAvail().y - below - lineH);
  const std::string expected = formatValue(race.expected, type);
  drawOffsetHistogram(bins, pal, chart, printed(tr("how far off: result - %s"), expected.c_str()),
                      {{0, printed(tr("right: %s"), expected.c_str()), pal.right}});
  if (bins.notFinite)
    ImGui::TextDisabled(tr("%d runs gave no finite result (off the axis)"), bins.notFinite);
  if (listed) {
    // Few results: each one exactly, side by side while they fit, the right one in its colour.
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const float gap = 3 * ImGui::GetStyle().ItemSpacing.x;
    bool first = true;
    for (const auto& [value, count] : race.histogram) {
      const std::string item = printed(count == 1 ? tr("%s in %d run") : tr("%s in %d runs"),
                                       formatValue(value, type).c_str(), count);
      const float width = ImGui::CalcTextSize(item.c_str()).x;
      if (!first && ImGui::GetItemRectMax().x + gap + width < right) ImGui::SameLine(0, gap);
      first = false;
      ImGui::TextColored(
          ImGui::ColorConvertU32ToFloat4(value == race.expected ? pal.right : pal.wrong), "%s",
          item.c_str());
    }
  } else {
    wrappedText(printed(tr("%zu different results, from %s to %s off; each bar spans %s"),
                        race.histogram.size(), formatValue(bins.smallest, type).c_str(),
                        formatValue(bins.largest, type).c_str(),
                        formatValue(bins.width, ElementType::Float).c_str()),
                true);
  }
  if (!race.wrongRuns.empty()) {
    ImGui::TextUnformatted(tr("Open a wrong run in the player:"));
    for (size_t k = 0; k < race.wrongRuns.size(); ++k) {
      const auto& run = race.wrongRuns[k];
      const std::string label =
          printed(tr("result %s"), formatValue(run->result, run->params.type).c_str()) + "##" +
          std::to_string(k);
      if (ImGui::Button(label.c_str())) app.adoptRun(run);
      noteWidget(ui, "wrong run " + std::to_string(k));
      if ((k + 1) % 5 != 0 && k + 1 < race.wrongRuns.size()) ImGui::SameLine();
    }
  }
}

// The worker's jobs that belong to the explorer, and what their progress bar says.
const char* raceJobName(const std::string& label) {
  if (label == "race") return tr("Race it");
  if (label == "witness") return tr("Find a witness");
  if (label == "by block") return tr("By block size");
  if (label == "float sums") return tr("Float sums");
  if (label == "racecheck") return "racecheck";
  return nullptr;
}

}  // namespace

// ============================================================================================
// [SECTION] The panel: buttons, progress, views
// ============================================================================================

namespace {

// The number of runs, then the running job's progress and Cancel, or the buttons that start one.
void drawRaceButtons(App& app, const LessonInfo* lesson) {
  UiState& ui = app.ui;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt(trId("runs"), &ui.raceRuns, 50, 500);
  ui.raceRuns = std::clamp(ui.raceRuns, 1, 100000);
  helpMarker(
      tr("Race it: the same kernel K times (on the simulator, K random schedules); races show as "
         "results that differ from run to run. Find a witness: the smallest stall schedule that "
         "makes this run wrong, searched on the simulator (K random schedules first). By block "
         "size: K runs at each block size, with and without perturb. Float sums: K float sums in "
         "ulps from the exact sum, beside the fastest kernel's."));
  const char* job = app.longWorkBusy() ? raceJobName(app.longWorkLabel()) : nullptr;
  if (job) {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 10, 0), job);
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelLongWork();
    noteWidget(ui, "race cancel");
    return;
  }
  ImGui::BeginDisabled(app.longWorkBusy());  // the timing chart's job holds the worker
  if (ImGui::Button(trId("Race it"))) app.startRace();
  noteWidget(ui, "race");
  ImGui::SameLine();
  if (ImGui::Button(trId("Find a witness"))) app.startWitness();
  noteWidget(ui, "witness");
  if (lesson && lesson->switchableBarrier) {
    ImGui::SameLine();
    if (ImGui::Button(trId("By block size"))) app.startRateByBlock();
    noteWidget(ui, "by block");
  }
  if (ui.params.type == ElementType::Float) {
    ImGui::SameLine();
    if (ImGui::Button(trId("Float sums"))) app.startFloatSums();
    noteWidget(ui, "float sums");
  }
  if (ui.params.backend == BackendChoice::Gpu && ui.gpuUsable) {
    ImGui::SameLine();
    if (ImGui::Button("racecheck")) app.startRacecheck();
    helpMarker(
        tr("One run under compute-sanitizer's racecheck. It watches shared memory only: use the "
           "barrier lesson's shared variant to see the race named."));
  }
  ImGui::EndDisabled();
}

// The views as tabs: Results always, Witness, By block size and Float sums once their jobs ran.
void drawRaceViews(App& app, const Palette& pal) {
  UiState& ui = app.ui;
  if (!ImGui::BeginTabBar("race views")) return;
  struct View {
    const char* name;   // the tests' name for it
    const char* label;  // in the UI's language, the name as its ImGui ID
    RaceTab tab;
    bool shown;
  };
  const View views[] = {
      {"Results", trId("Results"), RaceTab::Results, true},
      {"Witness", trId("Witness"), RaceTab::Witness, ui.race.witness.has_value()},
      {"By block size", trId("By block size"), RaceTab::ByBlock, ui.race.byBlock.has_value()},
      {"Float sums", trId("Float sums"), RaceTab::FloatSums, ui.race.floatSums.has_value()}};
  for (const View& v : views) {
    if (!v.shown) continue;
    const ImGuiTabItemFlags flags = ui.requestRaceTab == v.tab ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(v.label, nullptr, flags)) {
      switch (v.tab) {
        case RaceTab::Results:
          drawResults(app, pal);
          break;
        case RaceTab::Witness:
          drawWitness(app, *ui.race.witness, pal);
          break;
        case RaceTab::ByBlock:
          drawRateByBlock(*ui.race.byBlock, pal);
          break;
        case RaceTab::FloatSums:
          drawFloatSums(*ui.race.floatSums, pal);
          break;
      }
      ImGui::EndTabItem();
    }
    noteWidget(ui, std::string("race tab:") + v.name);
  }
  ImGui::EndTabBar();
  ui.requestRaceTab.reset();
}

}  // namespace

void drawRacePanel(App& app) {
  const Palette& pal = palette(app.ui.view.presenter);
  const LessonInfo* lesson = findLesson(app.ui.params.lesson);
  drawRaceButtons(app, lesson);
  drawRaceViews(app, pal);
}

}  // namespace rlab::gui
