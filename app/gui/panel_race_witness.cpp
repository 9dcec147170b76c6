// The race witness, as found by the core (lessons/engine/races/witness.hpp): the smallest stall
// schedule that makes the run wrong, the read that came too early, the two kernel lines, how it was
// shown to be the smallest, the rlab line that replays it, and the same failure as a pause on a
// GPU. The witness run itself is in the step player, its cells marked in the array view and its
// lines in the source panel.
#include <cmath>
#include <cstdio>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// A line of text the learner can select and copy (a read-only input field).
void copyableLine(const char* id, const std::string& text) {
  std::vector<char> buffer(text.begin(), text.end());
  buffer.push_back('\0');
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText(id, buffer.data(), buffer.size(), ImGuiInputTextFlags_ReadOnly);
}

// Sentences one after another: a space after Latin text, none after Japanese or Chinese.
void addSentence(std::string& text, const std::string& sentence) {
  if (!text.empty() && static_cast<unsigned char>(text.back()) < 0x80) text += ' ';
  text += sentence;
}

// How the witness was shown to be small: the search, the schedules one step smaller, and
// whether every smaller one was run.
std::string howItWasShown(const Witness& w) {
  const StallSchedule& s = w.stall;
  std::string how = printed(w.searched == 1 ? tr("First wrong under %s (after %d schedule).")
                                            : tr("First wrong under %s (after %d schedules)."),
                            w.firstWrong.c_str(), w.searched);
  if (s.rounds == 0) return how;
  std::string smaller = s.rounds == 1 ? "lockstep" : "";
  for (const StallSchedule& o : w.oneStepSmaller)
    smaller += (smaller.empty() ? "" : ", ") + o.str();
  addSentence(how, printed(tr("One step smaller, each right: %s."), smaller.c_str()));
  if (w.smallest && w.smallerTotal == 0)
    addSentence(how, s.lane ? tr("The smallest: no lane schedule is smaller but lockstep.")
                            : tr("The smallest: no stall schedule is smaller but lockstep."));
  else if (w.smallest)
    addSentence(how, printed(s.lane ? tr("The smallest: all %d lane schedules of a smaller size "
                                         "were run, and none is wrong.")
                                    : tr("The smallest: all %d stall schedules of a smaller size "
                                         "were run, and none is wrong."),
                             w.smallerChecked));
  else
    addSentence(how, printed(s.lane ? tr("Not shown to be the smallest: the %lld lane schedules "
                                         "of a smaller size are more than the search runs.")
                                    : tr("Not shown to be the smallest: the %lld stall schedules "
                                         "of a smaller size are more than the search runs."),
                             w.smallerTotal));
  return how;
}

// The schedule in words, beside it: which thread sits out how many rounds, and from when.
void drawScheduleSentence(const StallSchedule& s) {
  if (s.rounds == 0)
    wrappedText(tr("No thread need be late: the run is wrong under lockstep as it stands."));
  else if (s.lane)
    wrappedText(printed(s.rounds == 1 ? tr("thread %d (lane %d of warp %d) sits out %d round "
                                           "after its warp step %d; every other thread runs in "
                                           "lockstep.")
                                      : tr("thread %d (lane %d of warp %d) sits out %d rounds "
                                           "after its warp step %d; every other thread runs in "
                                           "lockstep."),
                        s.thread, s.thread % 32, s.thread / 32, s.rounds, s.from));
  else
    wrappedText(printed(s.rounds == 1 ? tr("thread %d sits out %d round from round %d; every "
                                           "other thread runs in lockstep.")
                                      : tr("thread %d sits out %d rounds from round %d; every "
                                           "other thread runs in lockstep."),
                        s.thread, s.rounds, s.from));
}

// The read that came too early (or too late), and the kernel lines marked in the source.
void drawEarlyRead(const Witness& w, const Palette& pal) {
  if (w.readFound) {
    const EarlyRead& r = w.read;
    wrappedText(printed(r.afterOverwrite
                            ? tr("The read that came too late, after the value was overwritten, "
                                 "in step %d (%s):")
                            : tr("The read that came too early, in step %d (%s):"),
                        r.step, say(r.stepLabel).c_str()));
    wrappedText("  " + say(r.text), pal.wrong);
    std::string lines;
    if (w.combineLine.line)
      lines += printed(tr("%s:%d the combine that read it"), w.combineLine.file.c_str(),
                       w.combineLine.line);
    if (w.barrierLine.line)
      lines += std::string(lines.empty() ? "" : ",  ") +
               printed(w.barrierOn ? tr("line %d the barrier it needed (on)")
                                   : tr("line %d the barrier it needed (off)"),
                       w.barrierLine.line);
    if (!lines.empty())
      wrappedText("  " + printed(tr("%s: marked in the kernel source."), lines.c_str()), true);
  } else {
    wrappedText(tr("The witness run shows no read that came too early in its steps."), true);
  }
}

// The witness run's result against the expected one, and the button that opens it in the player.
void drawWitnessResult(App& app, const Witness& w) {
  const Params& p = w.params;
  const Trace& t = *w.trace;
  // The core says when a sum is off ("15 short"); the words are the UI's.
  const std::string off =
      howFarOff(t).empty() ? ""
                           : printed(t.result < t.expected ? tr("%s short") : tr("%s over"),
                                     formatValue(std::fabs(t.expected - t.result), p.type).c_str());
  const std::string result = formatValue(t.result, p.type);
  const std::string expected = formatValue(t.expected, p.type);
  if (off.empty())
    ImGui::Text(tr("result %s, expected %s"), result.c_str(), expected.c_str());
  else
    ImGui::Text(tr("result %s, expected %s: %s"), result.c_str(), expected.c_str(), off.c_str());
  if (!app.witnessOnScreen()) {
    ImGui::SameLine();
    if (ImGui::SmallButton(trId("Show in the player"))) app.showWitness();
    noteWidget(app.ui, "show witness");
  }
}

// The same failure as a pause, on the simulator and on a GPU.
void drawAsAPause(const Witness& w, const Palette& pal) {
  const Params& p = w.params;
  const Params& d = w.delayed;
  if (d.delayThread < 0) return;
  wrappedText(printed(tr("As a pause: thread %d waits before level %d (--delay %s). On the "
                         "simulator, lockstep with it gives %s: %s."),
                      d.delayThread, d.delayLevel, delayText(d).c_str(),
                      formatValue(w.delayResultOnSimulator, p.type).c_str(),
                      w.delayWrongOnSimulator ? tr("wrong, as the witness") : tr("right")));
  const GpuForcing& g = w.gpu;
  if (g.ran)
    wrappedText(printed(tr("Forced on this GPU (%s): wrong in %d of %d runs, against %d of %d "
                           "without the delay."),
                        say(g.device).c_str(), g.wrongDelayed, g.runs, g.wrongPlain, g.runs),
                g.wrongDelayed ? pal.wrong : pal.right);
  else if (!g.why.empty())
    wrappedText(printed(tr("Not forced on a GPU: %s"), say(g.why).c_str()), true);
  else {
    ImGui::TextUnformatted(tr("On a GPU:"));
    ImGui::SameLine();
    copyableLine("##delay", w.delayCommand);
  }
}

}  // namespace

void drawWitness(App& app, const Witness& w, const Palette& pal) {
  UiState& ui = app.ui;
  const Params& p = w.params;
  wrappedText(printed(w.tried == 1 ? tr("%s: searched on the simulator, %d run in all.")
                                   : tr("%s: searched on the simulator, %d runs in all."),
                      runSetup(p).c_str(), w.tried),
              true);
  if (!w.found) {
    wrappedText(printed(tr("No witness. %s"), say(w.why).c_str()),
                w.cancelled ? pal.muted : pal.right);
    return;
  }
  const StallSchedule& s = w.stall;
  ImGui::SetWindowFontScale(1.3f);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.wrong), "%s", s.str().c_str());
  ImGui::SetWindowFontScale(1.0f);
  noteWidget(ui, "witness schedule");
  ImGui::SameLine();
  drawScheduleSentence(s);

  drawEarlyRead(w, pal);
  if (w.trace) drawWitnessResult(app, w);

  wrappedText(howItWasShown(w), true);
  ImGui::TextUnformatted(tr("Replay:"));
  ImGui::SameLine();
  copyableLine("##replay", w.replay);

  drawAsAPause(w, pal);
}

}  // namespace rlab::gui
