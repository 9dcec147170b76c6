// The open exercise's statement, its hints one at a time, and our solution: open after a
// passing check, or on a second click that says the learner wants it anyway. The statement
// and hints are in the UI's language (English where the exercise lacks that file).
#include <sstream>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/exercise/exercises.hpp"

namespace rlab::gui {

void drawExerciseText(App& app) {
  UiState& ui = app.ui;
  ExerciseState& ex = ui.exercise;
  const Palette& pal = palette(ui.view.presenter);
  const Exercise* e = findExercise(ex.id);
  if (!e) return;
  const ExerciseText text = exerciseText(*e, ui.language);
  ImGui::PushTextWrapPos(0);
  if (text.language != ui.language)
    wrappedText(printed(tr("This exercise has no text in %s yet; here it is in English."),
                        nativeName(ui.language)),
                true);
  drawMarkdown(app, "# " + text.title);
  drawMarkdown(app, text.statement);

  for (int k = 0; k < ex.hintsOpen && k < int(text.hints.size()); ++k) {
    ImGui::Separator();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), tr("Hint %d"), k + 1);
    drawMarkdown(app, text.hints[size_t(k)]);
  }
  if (ex.hintsOpen < int(text.hints.size())) {
    const std::string label =
        printed(tr("Show hint %d of %zu"), ex.hintsOpen + 1, text.hints.size()) + "###hint";
    if (ImGui::Button(label.c_str())) ++ex.hintsOpen;
    noteWidget(ui, "exercise:hint");
  }

  ImGui::Separator();
  if (!ex.solutionShown) {
    if (ImGui::Button(trId("Show our solution"))) {
      if (ex.passed || ex.solutionAsked)
        ex.solutionShown = true;
      else
        ex.solutionAsked = true;
    }
    noteWidget(ui, "exercise:solution");
    if (ex.solutionAsked && !ex.passed)
      wrappedText(tr("Your kernel has not passed the check yet. Click again to see ours anyway."),
                  true);
  } else {
    ImGui::TextDisabled(tr("Our solution (%s/solution.cu):"), e->folder.c_str());
    if (ImFont* code = codeFont()) ImGui::PushFont(code);
    std::istringstream lines(solutionFile(*e));
    for (std::string line; std::getline(lines, line);) drawCodeLine(line, pal);
    if (codeFont()) ImGui::PopFont();
  }
  ImGui::PopTextWrapPos();
}

}  // namespace rlab::gui
