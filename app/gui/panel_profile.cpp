// The Profile tab: the GPU's own counters for the run on screen, as Nsight Compute counted them
// (App::startProfile, on the worker), the simulator's prediction in the next column where the
// lesson has one (bank conflicts, global sectors per request), the counters that prove the
// lesson's point first. Without a GPU or ncu it says why in one sentence and offers what a
// GPU recorded (lessons/engine/gpu_tools/recording.hpp), always labelled with the card and the
// date.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"  // findCudaTool

namespace rlab::gui {

namespace {

// The counters' names and meanings in the UI's language (the core's words are English).
const char* label(Counter c) {
  switch (c) {
    case Counter::DurationUs:
      return tr("duration");
    case Counter::DramReadBytes:
      return tr("DRAM read");
    case Counter::DramWriteBytes:
      return tr("DRAM written");
    case Counter::DramGBs:
      return tr("DRAM throughput");
    case Counter::DramThroughputPct:
      return tr("DRAM throughput, share of peak");
    case Counter::DramReadPct:
      return tr("DRAM read bandwidth, share of peak");
    case Counter::OccupancyPct:
      return tr("achieved occupancy");
    case Counter::L2HitPct:
      return tr("L2 hit rate");
    case Counter::WarpEfficiencyPct:
      return tr("warp execution efficiency");
    case Counter::BranchEfficiencyPct:
      return tr("branch efficiency");
    case Counter::SharedRequests:
      return tr("shared-memory requests");
    case Counter::SharedWavefrontsPerRequest:
      return tr("shared wavefronts per request");
    case Counter::SharedBankConflicts:
      return tr("bank conflicts");
    case Counter::GlobalLoadRequests:
      return tr("global load requests");
    case Counter::GlobalLoadSectorsPerRequest:
      return tr("global load sectors per request");
    case Counter::GlobalStoreRequests:
      return tr("global store requests");
    case Counter::GlobalStoreSectorsPerRequest:
      return tr("global store sectors per request");
  }
  return "";
}

const char* meaning(Counter c) {
  switch (c) {
    case Counter::DurationUs:
      return tr("The kernels' own time on the GPU, every launch added.");
    case Counter::DramReadBytes:
      return tr("Bytes the kernels read from the card's memory (not from its caches).");
    case Counter::DramWriteBytes:
      return tr("Bytes the kernels wrote to the card's memory.");
    case Counter::DramGBs:
      return tr("Bytes read and written in DRAM per second of the kernels' time.");
    case Counter::DramThroughputPct:
      return tr("How busy the card's memory was, against the most it can do.");
    case Counter::DramReadPct:
      return tr(
          "Bytes read per second against the card's peak read bandwidth: the roofline "
          "of a sum.");
    case Counter::OccupancyPct:
      return tr("Warps resident on an SM, on average, against the warps it can hold.");
    case Counter::L2HitPct:
      return tr("Sectors the L2 cache already held when they were asked for.");
    case Counter::WarpEfficiencyPct:
      return tr(
          "Lanes that did an instruction's work, on average, of a warp's 32: idle lanes "
          "of a divergent warp lower it.");
    case Counter::BranchEfficiencyPct:
      return tr("Branches at which every active lane of the warp went the same way.");
    case Counter::SharedRequests:
      return tr(
          "Shared-memory loads and stores, one for each warp that ran such an "
          "instruction.");
    case Counter::SharedWavefrontsPerRequest:
      return tr(
          "Passes a shared-memory request needed: 1 when no two lanes asked one bank for "
          "different words.");
    case Counter::SharedBankConflicts:
      return tr(
          "Extra passes over shared memory because lanes asked one bank for different "
          "words (wavefronts beyond one a request).");
    case Counter::GlobalLoadRequests:
      return tr("Global-memory loads, one for each warp that ran a load instruction.");
    case Counter::GlobalLoadSectorsPerRequest:
      return tr(
          "32-byte sectors a warp's load touched, on average: 4 for 32 lanes reading 4 "
          "consecutive bytes each, more when the addresses scatter.");
    case Counter::GlobalStoreRequests:
      return tr("Global-memory stores, one for each warp that ran a store instruction.");
    case Counter::GlobalStoreSectorsPerRequest:
      return tr("32-byte sectors a warp's store touched, on average.");
  }
  return "";
}

// Nsight Compute where the toolkit puts it (looked for once: a path that does not change).
const std::string& ncuPath() {
  static const std::string path = findCudaTool("ncu");
  return path;
}

// A prediction agrees where it is the same count (within rounding) or ratio (to 1%).
bool agrees(double measured, double predicted) {
  return std::fabs(measured - predicted) <= std::max(0.5, 0.01 * std::fabs(predicted));
}

// The controls' run with every default filled in (the variant, n and block they leave open).
Params controlsRun(const UiState& ui) {
  try {
    return resolve(ui.params).params;
  } catch (const ParamError&) {
    return ui.params;  // refused: the controls say why
  }
}

void drawCounters(App& app, const ProfileReport& report) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const std::vector<Counter>& proof = proofCounters(report.params);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("counters", 3, flags)) {
    ImGui::TableSetupColumn(tr("counter"));
    ImGui::TableSetupColumn(tr("GPU (ncu)"));
    ImGui::TableSetupColumn(tr("simulator"));
    ImGui::TableHeadersRow();
    for (Counter c : shownCounters(report)) {
      const bool proves = std::find(proof.begin(), proof.end(), c) != proof.end();
      const auto measured = report.total.counters.find(c);
      const auto predicted = report.predicted.find(c);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (proves)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "* %s", label(c));
      else
        ImGui::Text("  %s", label(c));
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        wrappedText(meaning(c), false, ImGui::GetFontSize() * 24);
        ImGui::EndTooltip();
      }
      noteWidget(ui, std::string("profile-row:") + info(c).key);
      ImGui::TableNextColumn();
      if (measured != report.total.counters.end())
        ImGui::TextUnformatted(formatCounter(c, measured->second).c_str());
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (predicted == report.predicted.end()) continue;
      const bool both = measured != report.total.counters.end();
      const ImU32 colour = !both                                         ? pal.text
                           : agrees(measured->second, predicted->second) ? pal.right
                                                                         : pal.wrong;
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s",
                         formatCounter(c, predicted->second).c_str());
      noteWidget(ui, std::string("profile-predicted:") + info(c).key);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("%s", tr("* proves the lesson's point; hover a counter for what it shows."));
  if (!report.total.stalls.empty()) {
    ImGui::TextUnformatted(tr("Top warp stall reasons (cycles an issued instruction waited):"));
    for (size_t k = 0; k < report.total.stalls.size() && k < 3; ++k)
      ImGui::BulletText("%.2f  %s", report.total.stalls[k].cyclesPerInstruction,
                        say(report.total.stalls[k].label).c_str());
  }
  for (const ProfiledKernel& k : report.kernels)
    if (!k.lessonKernel)
      ImGui::TextDisabled(tr("Also ran: %s, %d launches"), k.function.c_str(), k.launches);
  if (!report.predictionNote.empty()) wrappedText(say(report.predictionNote), true);
  for (const Message& note : report.notes) wrappedText(say(note), true);
}

// Why this machine cannot profile the run on screen, in one sentence; empty where it can.
std::string whyNoProfile(const UiState& ui) {
  const LessonInfo* lesson = findLesson(ui.params.lesson);
  if (lesson && lesson->defaultGpus > 0)
    return tr("Profiling reads the counters of one GPU; this lesson runs across GPUs.");
  if (!ui.gpuUsable)
    return printed(tr("%s Profiling reads an NVIDIA GPU's own counters with Nsight Compute."),
                   say(ui.gpuName).c_str());
  if (ncuPath().empty())
    return tr(
        "Nsight Compute (ncu) was found neither beside nvcc, in /usr/local/cuda/bin nor "
        "on PATH: install the CUDA toolkit's Nsight Compute to profile a run.");
  return "";
}

}  // namespace

std::string recordedOnText(const std::string& path) {
  for (const Recording& r : recordings())
    if (r.path == path)
      return r.date.empty() ? printed(tr("measured on %s, not on this machine"), r.card.c_str())
                            : printed(tr("measured on %s, %s, not on this machine"), r.card.c_str(),
                                      r.date.c_str());
  return path;
}

namespace {

// Profile this run with Nsight Compute (its progress and Cancel while it counts), or why not.
void drawProfileButton(App& app, const std::string& why) {
  UiState& ui = app.ui;
  const bool profiling = app.longWorkBusy() && app.longWorkLabel() == "profile";
  if (profiling) {
    ImGui::ProgressBar(app.longWorkProgress(), ImVec2(ImGui::GetFontSize() * 14, 0),
                       tr("Nsight Compute is counting"));
    ImGui::SameLine();
    if (ImGui::Button(trId("Cancel"))) app.cancelLongWork();
    noteWidget(ui, "profile-cancel");
  } else if (why.empty()) {
    const bool busy = app.longWorkBusy();
    if (busy) ImGui::BeginDisabled();
    if (ImGui::Button(trId("Profile this run"))) app.startProfile();
    noteWidget(ui, "profile-run");
    if (busy) ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled(tr("with Nsight Compute on %s, clocks as they are"),
                        say(ui.gpuName).c_str());
  } else {
    wrappedText(why, true);
    noteWidget(ui, "profile-why");
  }
}

// What a GPU recorded of the run on screen, labelled with the card and the date; a choice of
// recordings where there are several.
void drawRecordedProfile(App& app, const Params& shown, const std::string& why) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const std::vector<Recording>& all = recordings();
  std::vector<const Recording*> usable;
  for (const Recording& r : all)
    if (r.problem.empty()) usable.push_back(&r);
  if (usable.empty()) {
    ImGui::TextDisabled("%s", why.empty() ? tr("No profile yet: profile the run on screen.")
                                          : tr("No GPU recording is built into this program."));
    return;
  }
  ui.recording = std::clamp(ui.recording, 0, int(usable.size()) - 1);
  const Recording& recording = *usable[size_t(ui.recording)];
  if (usable.size() > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    if (ImGui::BeginCombo("##profile-recording", recording.card.c_str())) {
      for (size_t k = 0; k < usable.size(); ++k)
        if (ImGui::Selectable(usable[k]->card.c_str(), int(k) == ui.recording))
          ui.recording = int(k);
      ImGui::EndCombo();
    }
    ImGui::SameLine();
  }
  ProfileReport recorded;
  bool exact = false;
  if (!recordedProfile(recording, shown, recorded, exact)) {
    wrappedText(printed(tr("The recording of %s has no profile of %s %s."), recording.card.c_str(),
                        shown.lesson.c_str(), shown.variant.c_str()),
                true);
    return;
  }
  wrappedText(printed(tr("Recorded: %s."), recordedOnText(recording.path).c_str()), pal.accent);
  noteWidget(ui, "profile-recorded");
  if (!exact)
    wrappedText(printed(tr("The recording has this variant at n = %lld, block %d (the run on "
                           "screen: n = %lld)."),
                        static_cast<long long>(recorded.params.n), recorded.params.block,
                        static_cast<long long>(shown.n)),
                true);
  drawCounters(app, recorded);
}

}  // namespace

void drawProfilePanel(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const std::string why = whyNoProfile(ui);
  drawProfileButton(app, why);
  if (!ui.profile.error.empty()) {
    wrappedText(say(ui.profile.error), pal.wrong);
    noteWidget(ui, "profile-error");
  }
  ImGui::Separator();

  // What this machine profiled, while it is of the lesson and variant on screen.
  const Params shown = controlsRun(ui);
  if (ui.profile.report && ui.profile.report->params.lesson == shown.lesson &&
      ui.profile.report->params.variant == shown.variant) {
    const ProfileReport& r = *ui.profile.report;
    wrappedText(printed(tr("Profiled here on %s: %s, block %d, %s."), r.device.c_str(),
                        runSetup(r.params).c_str(), r.params.block, name(r.params.type)),
                true);
    noteWidget(ui, "profile-here");
    drawCounters(app, r);
    return;
  }
  // Otherwise what a GPU recorded, labelled.
  drawRecordedProfile(app, shown, why);
}

}  // namespace rlab::gui
