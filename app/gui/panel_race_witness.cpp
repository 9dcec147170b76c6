// The race witness, as found by the core (lessons/witness.hpp): the smallest stall schedule that
// makes the run wrong, the read that came too early, the two kernel lines, how it was shown to
// be the smallest, the rlab line that replays it, and the same failure as a pause on a GPU. The
// witness run itself is in the step player, its cells marked in the array view and its lines in
// the source panel.
#include <cstdio>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

void wrappedDisabled(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void wrappedColoured(ImU32 colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

std::string plural(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// A line of text the learner can select and copy (a read-only input field).
void copyableLine(const char* id, const std::string& text) {
  std::vector<char> buffer(text.begin(), text.end());
  buffer.push_back('\0');
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText(id, buffer.data(), buffer.size(), ImGuiInputTextFlags_ReadOnly);
}

}  // namespace

void drawWitness(App& app, const Witness& w, const Palette& pal) {
  UiState& ui = app.ui;
  const Params& p = w.params;
  wrappedDisabled(p.lesson + " " + p.variant + ", n = " + std::to_string(p.n) +
                  (p.barrier ? ", barrier on" : ", barrier off") +
                  (p.perturb ? ", perturbed" : "") + ": searched on the simulator, " +
                  plural(w.tried, "run", "runs") + " in all.");
  if (!w.found) {
    wrappedColoured(w.cancelled ? pal.muted : pal.right, "No witness. " + w.why);
    return;
  }
  const StallSchedule& s = w.stall;
  ImGui::SetWindowFontScale(1.3f);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), "%s", s.str().c_str());
  ImGui::SetWindowFontScale(1.0f);
  noteWidget(ui, "witness schedule");
  ImGui::SameLine();
  if (s.rounds == 0)
    ImGui::TextWrapped("No thread need be late: the run is wrong under lockstep as it stands.");
  else
    ImGui::TextWrapped("thread %d sits out %s from round %d; every other thread runs in lockstep.",
                       s.thread, plural(s.rounds, "round", "rounds").c_str(), s.from);

  if (w.readFound) {
    const EarlyRead& r = w.read;
    ImGui::TextWrapped(r.afterOverwrite
                           ? "The read that came too late, after the value was overwritten, in "
                             "step %d (%s):"
                           : "The read that came too early, in step %d (%s):",
                       r.step, r.stepLabel.c_str());
    wrappedColoured(pal.wrong, "  " + r.text);
    std::string lines;
    if (w.readLine.line)
      lines += w.readLine.file + ":" + std::to_string(w.readLine.line) + " the read";
    if (w.barrierLine.line)
      lines += std::string(lines.empty() ? "" : ",  ") + "line " +
               std::to_string(w.barrierLine.line) + " the barrier it needed (" +
               (p.barrier ? "on" : "off") + ")";
    if (!lines.empty()) wrappedDisabled("  " + lines + ": marked in the kernel source.");
  } else {
    wrappedDisabled("The witness run shows no read that came too early in its steps.");
  }
  if (w.trace) {
    const Trace& t = *w.trace;
    const std::string off = howFarOff(t);
    ImGui::Text("result %s, expected %s%s", formatValue(t.result, p.type).c_str(),
                formatValue(t.expected, p.type).c_str(), off.empty() ? "" : (": " + off).c_str());
    if (!app.witnessOnScreen()) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Show in the player")) app.showWitness();
      noteWidget(ui, "show witness");
    }
  }

  // How it was shown to be small.
  std::string how = "First wrong under " + w.firstWrong + " (after " +
                    plural(w.searched, "schedule", "schedules") + ").";
  if (s.rounds > 0) {
    std::string smaller = s.rounds == 1 ? "lockstep" : "";
    for (const StallSchedule& o : w.oneStepSmaller)
      smaller += (smaller.empty() ? "" : ", ") + o.str();
    how += " One step smaller, each right: " + smaller + ".";
    how += w.smallest && w.smallerTotal == 0
               ? " The smallest: no stall schedule is smaller but lockstep."
           : w.smallest ? " The smallest: all " + std::to_string(w.smallerChecked) +
                              " stall schedules of a smaller size were run, and none is wrong."
                        : " Not shown to be the smallest: the " + std::to_string(w.smallerTotal) +
                              " stall schedules of a smaller size are more than the search runs.";
  }
  wrappedDisabled(how);
  ImGui::TextUnformatted("Replay:");
  ImGui::SameLine();
  copyableLine("##replay", w.replay);

  // The same failure as a pause, on the simulator and on a GPU.
  const Params& d = w.delayed;
  if (d.delayThread >= 0) {
    ImGui::TextWrapped(
        "As a pause: thread %d waits before level %d (--delay %s). On the simulator, lockstep "
        "with it gives %s: %s.",
        d.delayThread, d.delayLevel, delayText(d).c_str(),
        formatValue(w.delayResultOnSimulator, p.type).c_str(),
        w.delayWrongOnSimulator ? "wrong, as the witness" : "right");
    const GpuForcing& g = w.gpu;
    if (g.ran)
      wrappedColoured(g.wrongDelayed ? pal.wrong : pal.right,
                      "Forced on this GPU (" + g.device + "): wrong in " +
                          std::to_string(g.wrongDelayed) + " of " + std::to_string(g.runs) +
                          " runs, against " + std::to_string(g.wrongPlain) + " of " +
                          std::to_string(g.runs) + " without the delay.");
    else if (!g.why.empty())
      wrappedDisabled("Not forced on a GPU: " + g.why);
    else {
      ImGui::TextUnformatted("On a GPU:");
      ImGui::SameLine();
      copyableLine("##delay", w.delayCommand);
    }
  }
}

}  // namespace rlab::gui
