// The Quiz view: a question drawn from a real run, large enough for the back of a room, its
// choices, and on A (or the button) the answer, why, and the step it asked about in the array.
// A teacher projects "quiz 1207": the same seed gives the same questions in every language.
#include <cstdlib>
#include <random>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"

namespace rlab::gui {

namespace {

// The seed box and New quiz: a typed seed, or one drawn where the box is empty.
void drawQuizSeed(App& app) {
  QuizView& v = app.ui.quiz;
  ImGui::TextUnformatted(tr("Quiz"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  const bool entered =
      ImGui::InputText("##quiz seed", v.seedText.data(), v.seedText.size(),
                       ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button(trId("New quiz")) || entered) {
    const unsigned long long typed = std::strtoull(v.seedText.data(), nullptr, 10);
    app.startQuiz(typed ? typed : std::random_device{}() % 100000 + 1);
  }
  noteWidget(app.ui, "new quiz");
}

// The question's place in the quiz and the button for what comes next, on the seed's row so
// that they stay in sight however long the question; then the question, its choices, and once
// shown the answer and why; the run's command line last, for whoever wants to replay it.
void drawQuestion(App& app, const Question& q) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  ImGui::Text(tr("question %d of %d"), ui.quiz.current + 1, int(ui.quiz.quiz->questions.size()));
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  if (!ui.quiz.revealed) {
    if (ImGui::Button(trId("Show the answer (A)"))) app.showQuizQuestion(ui.quiz.current, true);
    noteWidget(app.ui, "quiz answer");
  } else {
    ImGui::BeginDisabled(ui.quiz.current + 1 >= int(ui.quiz.quiz->questions.size()));
    if (ImGui::Button(trId("Next question (N)"))) app.showQuizQuestion(ui.quiz.current + 1, false);
    ImGui::EndDisabled();
    noteWidget(app.ui, "quiz next");
  }
  ImGui::SetWindowFontScale(1.4f);
  wrappedText(say(q.text), pal.text);
  for (size_t k = 0; k < q.choices.size(); ++k) {
    const bool right = ui.quiz.revealed && int(k) == q.rightChoice;
    wrappedText(choiceLetter(int(k)) + ")  " + say(q.choices[k]), right ? pal.right : pal.text);
  }
  if (ui.quiz.revealed)
    wrappedText(printed(tr("Answer: %s"), say(rightAnswer(q)).c_str()), pal.right);
  ImGui::SetWindowFontScale(1.0f);
  if (ui.quiz.revealed) wrappedText(say(q.reason), pal.text);
  wrappedText(q.command, true);
}

}  // namespace

void drawQuizPanel(App& app) {
  drawQuizSeed(app);
  const QuizView& v = app.ui.quiz;
  if (!v.quiz || v.quiz->questions.empty()) {
    wrappedText(tr("Questions drawn from real runs of this lesson, answered from the same runs. "
                   "The same number gives the same quiz in every language: type one, or press "
                   "New quiz for a fresh one."),
                true);
    return;
  }
  drawQuestion(app, v.quiz->questions[size_t(v.current)]);
}

}  // namespace rlab::gui
