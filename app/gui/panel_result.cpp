// Result, expected, verdict (unmistakable on a projector), and the timings.
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

void drawResultPanel(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("No run yet."));
    return;
  }
  const Trace& t = *ui.trace;
  const ImVec4 verdictColour = ImGui::ColorConvertU32ToFloat4(t.correct ? pal.right : pal.wrong);
  ImGui::SetWindowFontScale(1.8f);
  ImGui::TextColored(verdictColour, "%s", t.correct ? tr("CORRECT") : tr("WRONG"));
  ImGui::SetWindowFontScale(1.0f);
  ImGui::Text(tr("result %s   expected %s"), formatValue(t.result, t.params.type).c_str(),
              formatValue(t.expected, t.params.type).c_str());
  // The core says when a sum is off ("15 short"); the words are the UI's.
  if (!howFarOff(t).empty())
    ImGui::TextColored(verdictColour, t.result < t.expected ? tr("%s short") : tr("%s over"),
                       formatValue(std::fabs(t.expected - t.result), t.params.type).c_str());
  // Barrier off on a GPU: this run is one draw; how often the setting goes wrong here.
  if (ui.liveRate && ui.liveRate->forRun == ui.trace) {
    const LiveRaceRate& rate = *ui.liveRate;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rate.wrong > 0 ? pal.wrong : pal.right),
                       tr("wrong in %d of %d runs on this GPU"), rate.wrong, rate.runs);
  } else if (app.liveRateBusy()) {
    const std::string label = printed(tr("measuring on this GPU: %d of %d runs"),
                                      int(app.liveRateProgress() * kLiveRaceRuns), kLiveRaceRuns);
    ImGui::ProgressBar(app.liveRateProgress(), ImVec2(-1, 0), label.c_str());
  }
  wrappedText(t.device, true);
  const Timings& m = t.timings;
  if (m.measured) {
    wrappedText(printed(tr("kernel %.4f ms (median of %d), with copies %.3f ms"), m.kernelMs,
                        m.repetitions, m.withCopiesMs));
    wrappedText(
        printed(tr("%.1f GB/s = %.1f%% of copy bandwidth"), m.gbPerSecond, m.copyFraction * 100));
    wrappedText(printed(tr("%.1fx the CPU loop, %.2fx CUB"), m.cpuMs / m.kernelMs, m.cubRatio));
  } else if (t.backend == "sim") {
    wrappedText(printed(tr("simulated in %.3f s (simulator time, not a GPU time)"), m.simSeconds),
                true);
  }
  for (const auto& note : t.notes) wrappedText(note);
}

}  // namespace rlab::gui
