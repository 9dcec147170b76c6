// The App's quiz: questions drawn from real runs of the lesson on screen, each shown with its run
// in the player (adoptRun), at the step before the one it asks about until its answer is shown.
#include <algorithm>

#include "app/gui/app.hpp"
#include "app/gui/strings.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

constexpr int kQuizQuestions = 10;

}  // namespace

void App::startQuiz(uint64_t seed) {
  const std::string lesson = findLesson(ui.params.lesson) ? ui.params.lesson : "";
  try {
    ui.quiz.quiz = std::make_shared<const Quiz>(makeQuiz(seed, kQuizQuestions, lesson));
  } catch (const ParamError& e) {
    ui.status = say(messageOf(e));
    ui.statusIsError = true;
    return;
  }
  const std::string text = std::to_string(seed);
  std::copy_n(text.c_str(), std::min(text.size() + 1, ui.quiz.seedText.size()),
              ui.quiz.seedText.begin());
  showQuizQuestion(0, false);
}

void App::showQuizQuestion(int k, bool revealed) {
  if (!ui.quiz.quiz || ui.quiz.quiz->questions.empty()) return;
  const std::vector<Question>& questions = ui.quiz.quiz->questions;
  ui.quiz.current = std::clamp(k, 0, int(questions.size()) - 1);
  ui.quiz.revealed = revealed;
  const Question& q = questions[size_t(ui.quiz.current)];
  ui.playing = false;
  adoptRun(q.trace, revealed ? q.step : std::max(0, q.step - 1));
}

bool App::quizAnswerHidden() const {
  if (!ui.quiz.quiz || ui.quiz.revealed || !ui.trace) return false;
  const std::vector<Question>& questions = ui.quiz.quiz->questions;
  return size_t(ui.quiz.current) < questions.size() &&
         questions[size_t(ui.quiz.current)].trace == ui.trace;
}

}  // namespace rlab::gui
