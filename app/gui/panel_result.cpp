// Result, expected, verdict (unmistakable on a projector), and the timings.
#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

void drawResultPanel(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("No run yet.");
    return;
  }
  const Trace& t = *ui.trace;
  const ImVec4 verdictColour = ImGui::ColorConvertU32ToFloat4(t.correct ? pal.right : pal.wrong);
  ImGui::SetWindowFontScale(1.8f);
  ImGui::TextColored(verdictColour, "%s", t.correct ? "CORRECT" : "WRONG");
  ImGui::SetWindowFontScale(1.0f);
  ImGui::Text("result %s   expected %s", formatValue(t.result, t.params.type).c_str(),
              formatValue(t.expected, t.params.type).c_str());
  const std::string off = howFarOff(t);
  if (!off.empty()) ImGui::TextColored(verdictColour, "%s", off.c_str());
  ImGui::TextDisabled("%s", t.device.c_str());
  const Timings& m = t.timings;
  if (m.measured) {
    ImGui::Text("kernel %.4f ms (median of %d), with copies %.3f ms", m.kernelMs, m.repetitions,
                m.withCopiesMs);
    ImGui::Text("%.1f GB/s = %.1f%% of copy bandwidth", m.gbPerSecond, m.copyFraction * 100);
    ImGui::Text("%.1fx the CPU loop, %.2fx CUB", m.cpuMs / m.kernelMs, m.cubRatio);
  } else if (t.backend == "sim") {
    ImGui::TextDisabled("simulated in %.3f s (simulator time, not a GPU time)", m.simSeconds);
  }
  for (const auto& note : t.notes) ImGui::TextWrapped("%s", note.c_str());
}

}  // namespace rlab::gui
