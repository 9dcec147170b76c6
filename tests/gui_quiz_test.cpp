// The Quiz view: the quiz a seed draws, each question's run in the player at the step before the
// one it asks about and its verdict held back until the answer is shown; the same questions as
// rlab quiz's for that seed; a screenshot of it in presenter type.
#include <doctest/doctest.h>

#include <imgui.h>

#include "app/gui/app.hpp"
#include "lessons/engine/quiz/quiz.hpp"
#include "tests/app_driver.hpp"
#include "tests/gui_screenshot.hpp"
#include "tests/headless_imgui.hpp"
#include "tests/temp_folder.hpp"

using rlab::gui::App;

TEST_CASE("gui: the Quiz view asks the seed's questions, the answer and its step on demand") {
  HeadlessImGui imgui;
  App app;
  settle(app);
  REQUIRE(app.ui.params.lesson == "barrier");
  app.ui.view.stageView = rlab::gui::ViewTab::Quiz;
  app.ui.requestTab = rlab::gui::ViewTab::Quiz;  // the desk's tab, in front
  app.startQuiz(1207);
  REQUIRE(app.ui.quiz.quiz);
  const rlab::Quiz same = rlab::makeQuiz(1207, 10, "barrier");  // rlab quiz barrier --seed 1207
  REQUIRE(app.ui.quiz.quiz->questions.size() == same.questions.size());
  for (size_t k = 0; k < same.questions.size(); ++k) {
    CAPTURE(k);
    CHECK(app.ui.quiz.quiz->questions[k].command == same.questions[k].command);
    CHECK(app.ui.quiz.quiz->questions[k].answer == same.questions[k].answer);
  }
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    const rlab::Question& q = app.ui.quiz.quiz->questions[size_t(k)];
    // Asked: the question's run, at the step before the one it asks about, no verdict yet.
    CHECK(app.ui.trace == q.trace);
    CHECK(app.ui.step == std::max(0, q.step - 1));
    CHECK(app.quizAnswerHidden());
    frame(app);
    click(app, "quiz answer");
    CHECK(app.ui.quiz.revealed);
    CHECK(app.ui.step == q.step);
    CHECK_FALSE(app.quizAnswerHidden());
    frame(app);
    click(app, "quiz next");
    CHECK(app.ui.quiz.current == k + 1);
    CHECK_FALSE(app.ui.quiz.revealed);
  }
  // Another run on screen is not the question's: its verdict shows.
  app.requestRun();
  settle(app);
  CHECK_FALSE(app.quizAnswerHidden());
}

TEST_CASE("gui: a screenshot of the Quiz view in presenter type, asked and answered" *
          doctest::skip(noXvfb())) {
  const TempFolder dir("quiz-screens");
  for (const char* answered : {"", " --quiz-answer"})
    for (const char* language : {"en", "ja", "zh"}) {
      const auto png = dir / (std::string(language) + (*answered ? "-answered" : "") + ".png");
      CHECK(
          coloursOfScreenshot(png,
                              std::string("--lesson barrier --presenter --size 1280x800 --lang ") +
                                  language + " --quiz 1207 --quiz-question 4" + answered,
                              1280, 800) > 40);
    }
}
