// The open exercise's statement, its hints one at a time, and our solution: open after a
// passing check, or on a second click that says the learner wants it anyway.
#include <sstream>

#include "app/gui/panels.hpp"
#include "lessons/exercises.hpp"

namespace rlab::gui {

void drawExerciseText(App& app) {
  UiState& ui = app.ui;
  ExerciseState& ex = ui.exercise;
  const Palette& pal = palette(ui.view.presenter);
  const Exercise* e = findExercise(ex.id);
  if (!e) return;
  const ExerciseText text = exerciseText(*e);
  ImGui::PushTextWrapPos(0);
  drawMarkdown(app, "# " + text.title);
  drawMarkdown(app, text.statement);

  for (int k = 0; k < ex.hintsOpen && k < int(text.hints.size()); ++k) {
    ImGui::Separator();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "Hint %d", k + 1);
    drawMarkdown(app, text.hints[size_t(k)]);
  }
  if (ex.hintsOpen < int(text.hints.size())) {
    const std::string label = "Show hint " + std::to_string(ex.hintsOpen + 1) + " of " +
                              std::to_string(text.hints.size());
    if (ImGui::Button(label.c_str())) ++ex.hintsOpen;
    noteWidget(ui, "exercise:hint");
  }

  ImGui::Separator();
  if (!ex.solutionShown) {
    if (ImGui::Button("Show our solution")) {
      if (ex.passed || ex.solutionAsked)
        ex.solutionShown = true;
      else
        ex.solutionAsked = true;
    }
    noteWidget(ui, "exercise:solution");
    if (ex.solutionAsked && !ex.passed)
      ImGui::TextDisabled(
          "Your kernel has not passed the check yet. Click again to see ours "
          "anyway.");
  } else {
    ImGui::TextDisabled("Our solution (%s/solution.cu):", e->folder.c_str());
    if (ImFont* code = codeFont()) ImGui::PushFont(code);
    std::istringstream lines(solutionFile(*e));
    for (std::string line; std::getline(lines, line);) drawCodeLine(line, pal);
    if (codeFont()) ImGui::PopFont();
  }
  ImGui::PopTextWrapPos();
}

}  // namespace rlab::gui
