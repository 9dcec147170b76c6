// The stage's bottom strip: the text's sentence for the step on screen, whole (the strip grows
// to hold it, up to a third of the screen, then scrolls), and beside it the verdict.
#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// The narration's share of the strip; the verdict has the rest.
float narrationWidth(float width) {
  return std::floor(width * 0.66f);
}

// A learner's kernel has no lesson text: a film of its run ends on what the run noted (how its
// steps were taken, the race it had), beside the verdict.
std::string learnerFilmCaption(const App& app) {
  const UiState& ui = app.ui;
  if (!ui.view.film || !ui.trace || ui.trace->exercise.empty() || ui.step + 1 < app.stepCount())
    return "";
  std::string caption;
  for (const Message& note : ui.trace->notes) caption += (caption.empty() ? "" : "\n") + say(note);
  return caption;
}

}  // namespace

float stageNarrationHeight(App& app, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float textWidth = narrationWidth(width) - style.WindowPadding.x * 2;
  const std::string caption = learnerFilmCaption(app);
  const float text = caption.empty()
                         ? narrationHeight(app, textWidth)
                         : ImGui::CalcTextSize(caption.c_str(), nullptr, false, textWidth).y;
  // The verdict: its headline at 1.6 times the size and how far off, then two lines on the race
  // where the setting can race. A bare CORRECT needs its headline only: the picture gets the
  // rest of the screen.
  const float lines =
      app.ui.trace && app.ui.trace->gpus == 0 && verdictOf(app).rate.empty() ? 1.8f : 4.6f;
  const float verdict = ImGui::GetTextLineHeightWithSpacing() * lines;
  return std::ceil(std::max(text, verdict) + style.WindowPadding.y * 2);
}

bool stageNarrationEmpty(App& app, float width) {
  if (!app.ui.view.film || app.ui.step + 1 >= app.stepCount()) return false;
  const float textWidth = narrationWidth(width) - ImGui::GetStyle().WindowPadding.x * 2;
  return learnerFilmCaption(app).empty() && narrationHeight(app, textWidth) <= 0;
}

namespace {

// A vector on every GPU: one headline, then every GPU whose vector is wrong, or that all are
// right (the Result panel draws a badge for each GPU; eight of them do not fit here).
void drawStageRankVerdict(App& app) {
  const Trace& t = *app.ui.trace;
  const Palette& pal = palette(app.ui.view.presenter);
  const ImVec4 colour = ImGui::ColorConvertU32ToFloat4(t.correct ? pal.right : pal.wrong);
  ImGui::SetWindowFontScale(1.6f);
  ImGui::TextColored(colour, "%s", t.correct ? tr("CORRECT") : tr("WRONG"));
  ImGui::SetWindowFontScale(1.0f);
  int wrongRanks = 0;
  for (int r = 0; r < t.gpus; ++r) {
    const bool known = size_t(r) < t.rankWrongElements.size();
    const long long wrong = known ? t.rankWrongElements[size_t(r)] : t.params.n;
    if (wrong == 0) continue;
    ++wrongRanks;
    ImGui::TextColored(colour, tr("GPU %d: %lld wrong"), r, wrong);
  }
  if (wrongRanks == 0) ImGui::TextColored(colour, tr("all %d GPUs right"), t.gpus);
}

}  // namespace

void drawStageNarration(App& app) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float left = narrationWidth(width + ImGui::GetStyle().WindowPadding.x * 2);
  ImGui::BeginChild("##narration", ImVec2(left - ImGui::GetStyle().WindowPadding.x, 0));
  if (const std::string caption = learnerFilmCaption(app); !caption.empty())
    wrappedText(caption);
  else
    drawNarration(app);
  ImGui::EndChild();
  // A film tells the story before it gives the verdict: on the last step only.
  if (app.ui.view.film && app.ui.step + 1 < app.stepCount()) return;
  ImGui::SameLine();
  ImGui::BeginChild("##verdict", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
  if (app.ui.trace && app.ui.trace->gpus > 0)
    drawStageRankVerdict(app);
  else
    drawVerdict(app, 1.6f);
  ImGui::EndChild();
}

}  // namespace rlab::gui
