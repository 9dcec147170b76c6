// Result, expected, verdict (unmistakable on a projector; verdict.cpp), and the timings.
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// --op subtract: no verdict, but what every kernel that offers it gave for the same data, so
// the learner sees the orders disagree.
void drawAnswersWithoutVerdict(const Trace& t, const Palette& pal) {
  ImGui::SetWindowFontScale(1.8f);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "%s", tr("NO SINGLE ANSWER"));
  ImGui::SetWindowFontScale(1.0f);
  wrappedText(say(resultLine(t)));
  if (t.otherKernels.empty()) return;
  wrappedText(tr("The same data through every kernel that offers subtract:"));
  if (!ImGui::BeginTable("answers", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg))
    return;
  for (const KernelAnswer& a : t.otherKernels) {
    const bool thisRun = a.lesson == t.params.lesson && a.variant == t.params.variant;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string kernel = a.lesson + " " + a.variant;
    if (thisRun)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "%s", kernel.c_str());
    else
      ImGui::TextUnformatted(kernel.c_str());
    ImGui::TableNextColumn();
    if (!a.notRun.empty()) {
      ImGui::TextDisabled("%s", tr("not run"));
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", say(a.notRun).c_str());
    } else if (thisRun)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), tr("%s (this run)"),
                         formatValue(a.result, t.params.type).c_str());
    else
      ImGui::TextUnformatted(formatValue(a.result, t.params.type).c_str());
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(tr("host loop"));
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(formatValue(t.expected, t.params.type).c_str());
  ImGui::EndTable();
}

}  // namespace

void drawRunFacts(const Trace& t) {
  wrappedText(say(t.device), true);
  for (const Message& line : timingLines(t)) wrappedText(say(line), !t.timings.measured);
  for (const auto& note : t.notes) wrappedText(say(note));
}

void drawResultPanel(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  if (!ui.trace) {
    ImGui::TextDisabled("%s", tr("No run yet."));
    return;
  }
  const Trace& t = *ui.trace;
  if (!t.singleAnswer) {
    drawAnswersWithoutVerdict(t, pal);
    drawRunFacts(t);
    return;
  }
  if (t.gpus > 0) {  // a vector on every GPU: a verdict for each (panel_ranks.cpp)
    drawRankVerdicts(app);
  } else {
    drawVerdict(app, 1.8f);
    // The result line is the core's sentence, as rlab says it.
    wrappedText(say(resultLine(t)));
  }
  drawRunFacts(t);
}

}  // namespace rlab::gui
