// The verdict on the run on screen, the same words on the desk's result panel and on the stage:
// a racy setting that happened to give the right answer is never a bare CORRECT.
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

Verdict verdictOf(const App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  Verdict v;
  if (!ui.trace) return v;
  const Trace& t = *ui.trace;
  if (!t.singleAnswer) {
    v.kind = Verdict::Kind::NoSingleAnswer;
    v.headline = tr("NO SINGLE ANSWER");
    v.colour = pal.accent;
    return v;
  }
  const bool racy = runMayRace(t.params) && t.exercise.empty();
  v.kind = !t.correct ? Verdict::Kind::Wrong
           : racy     ? Verdict::Kind::RightThisTime
                      : Verdict::Kind::Correct;
  v.headline = v.kind == Verdict::Kind::Wrong           ? tr("WRONG")
               : v.kind == Verdict::Kind::RightThisTime ? tr("RIGHT THIS TIME")
                                                        : tr("CORRECT");
  v.colour = v.kind == Verdict::Kind::Wrong           ? pal.wrong
             : v.kind == Verdict::Kind::RightThisTime ? pal.accent
                                                      : pal.right;
  // How far off a sum is ("15 short"): the core's sentence, as rlab says it.
  if (const Message off = howFarOff(t); !off.empty()) v.detail = say(off);
  if (!racy) return v;
  // A barrier off, or a warp that needs its lanes in step: this run is one draw. How often the
  // setting goes wrong, once measured.
  if (ui.liveRate && ui.liveRate->forRun == ui.trace) {
    const LiveRaceRate& rate = *ui.liveRate;
    v.rate = printed(rate.onGpu ? tr("This setting can race: wrong in %d of %d runs on this GPU.")
                                : tr("This setting can race: wrong in %d of %d runs under random "
                                     "schedules of the simulator."),
                     rate.wrong, rate.runs);
  } else {
    v.rate = tr("This setting can race: the result depends on how the threads happen to run.");
    v.measuring = app.liveRateBusy();
  }
  return v;
}

void drawVerdict(App& app, float headlineScale) {
  if (app.quizAnswerHidden()) return;
  const Verdict v = verdictOf(app);
  if (v.headline.empty()) return;
  ImGui::SetWindowFontScale(headlineScale);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(v.colour), "%s", v.headline.c_str());
  const ImVec2 headline0 = ImGui::GetItemRectMin(), headline1 = ImGui::GetItemRectMax();
  ImGui::SetWindowFontScale(1.0f);
  noteLabel(headline0, headline1, v.headline);
  if (!v.detail.empty()) {  // beside the headline, on its baseline
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::SetCursorScreenPos(
        ImVec2(ImGui::GetCursorScreenPos().x,
               headline1.y - ImGui::GetTextLineHeight() - (headline1.y - headline0.y) * 0.08f));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(v.colour), "%s", v.detail.c_str());
  }
  if (v.rate.empty()) return;
  wrappedText(v.rate,
              v.kind == Verdict::Kind::Wrong ? v.colour : palette(app.ui.view.presenter).text);
  if (v.measuring) {
    const std::string label = printed(tr("measuring: %d of %d runs"),
                                      int(app.liveRateProgress() * kLiveRaceRuns), kLiveRaceRuns);
    ImGui::ProgressBar(app.liveRateProgress(), ImVec2(-1, 0), label.c_str());
  }
}

}  // namespace rlab::gui
