// rlab quiz: questions drawn from real runs (lessons/engine/quiz/quiz.hpp), asked one at a time
// in a terminal, each answer judged and followed by its reason and the run drawn up to the step
// asked about as rlab run draws it; or the bank written as JSON, Moodle XML or GIFT. Its options'
// fill is here, beside it.
#include <CLI/CLI.hpp>
#include <istream>
#include <ostream>
#include <random>

#include "app/cli/command_options.hpp"
#include "app/cli/parse_values.hpp"
#include "app/cli/subcommands.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/quiz/quiz.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::cli {

namespace {

// A seed short enough to say to a class and write on a board.
constexpr int64_t kMostDrawnSeed = 99999;

// The command line that asks the same quiz again.
std::string quizAgain(const Command& c) {
  std::string line = "rlab quiz";
  if (!c.params.lesson.empty()) line += " " + c.params.lesson;
  line += " --seed " + std::to_string(c.quizSeed) + " --count " + std::to_string(c.quizCount);
  if (c.language != Language::En) line += " --lang " + std::string(code(c.language));
  return line;
}

void printQuestion(const Question& q, const Command& c, std::ostream& out) {
  const int width = c.terminal.width;
  auto say = [&](const Message& m) { return render(m, c.language); };
  out << "\n";
  printWrapped(say(Message("quiz.heading", {{"number", q.number}, {"count", c.quizCount}})), "", "",
               width, out);
  printWrapped(say(Message("quiz.run", {{"command", q.command}})), "", "    ", width, out);
  printWrapped(say(q.text), "", "", width, out);
  for (size_t k = 0; k < q.choices.size(); ++k)
    printWrapped(choiceLetter(int(k)) + ") " + say(q.choices[k]), "  ", "     ", width, out);
}

// The run up to the step the question asked about, as rlab run draws it (its result too).
void printRunUpTo(const Question& q, const Command& c, std::ostream& out, bool colour) {
  Trace shown = *q.trace;
  if (size_t(q.step) + 1 < shown.steps.size()) shown.steps.resize(size_t(q.step) + 1);
  out << "\n";
  printTraceText(shown, out, colour, c.language, c.terminal.width);
}

// Asks until an answer can be read; false where the answers ended first.
bool askOne(const Question& q, const Command& c, std::ostream& out, bool colour, bool& right) {
  auto say = [&](const Message& m) { return render(m, c.language); };
  printQuestion(q, c, out);
  for (;;) {
    out << say(Message("quiz.prompt")) << " " << std::flush;
    std::string line;
    if (!c.terminal.answers || !std::getline(*c.terminal.answers, line)) {
      out << "\n";
      return false;
    }
    // Answers from a pipe or a file were not typed on this screen: shown after their prompt, so
    // that the transcript reads as the terminal's would.
    if (!c.terminal.keys) out << line << "\n";
    const TypedAnswer a = judge(q, line);
    if (!a.readable) {
      printWrapped(say(a.problem), "", "", c.terminal.width, out);
      printQuestion(q, c, out);
      continue;
    }
    right = a.right;
    printWrapped(
        say(right ? Message("quiz.right") : Message("quiz.wrong", {{"answer", rightAnswer(q)}})),
        "", "", c.terminal.width, out);
    printWrapped(say(q.reason), "", "", c.terminal.width, out);
    printRunUpTo(q, c, out, colour);
    return true;
  }
}

}  // namespace

void QuizCommandOptions::fill(Command& c) const {
  c.name = "quiz";
  c.language = languageOrLocale(language);
  if (!lesson.empty()) c.params.lesson = lessonOrThrow(lesson).id;
  if (format != "text" && format != "json" && format != "moodle" && format != "gift")
    throw UsageError(
        Message("usage.bad-format", {{"format", format}, {"formats", "text, json, moodle, gift"}}));
  c.quizFormat = format;
  c.quizCount = int(parseInteger("--count", count, 1, kMostQuizQuestions));
  if (seedGiven->count() > 0)
    c.quizSeed = uint64_t(parseInteger("--seed", seed, 0, 999999999999999999));
  else
    c.quizSeed = uint64_t(std::random_device{}() % kMostDrawnSeed) + 1;
}

int quizCommand(const Command& c, std::ostream& out, std::ostream&, bool colour) {
  const Quiz quiz = makeQuiz(c.quizSeed, c.quizCount, c.params.lesson);
  if (c.quizFormat == "json") out << quizJson(quiz, c.language);
  if (c.quizFormat == "moodle") out << quizMoodleXml(quiz, c.language);
  if (c.quizFormat == "gift") out << quizGift(quiz, c.language);
  if (c.quizFormat != "text") return 0;
  auto say = [&](const Message& m) { return render(m, c.language); };
  printWrapped(
      say(Message("quiz.again", {{"seed", std::to_string(c.quizSeed)}, {"command", quizAgain(c)}})),
      "", "", c.terminal.width, out);
  int asked = 0, rightCount = 0;
  for (const Question& q : quiz.questions) {
    bool right = false;
    if (!askOne(q, c, out, colour, right)) {
      printWrapped(say(Message("quiz.answers-ended")), "", "", c.terminal.width, out);
      break;
    }
    ++asked;
    rightCount += right ? 1 : 0;
  }
  out << "\n";
  printWrapped(say(Message("quiz.score", {{"right", rightCount}, {"asked", asked}})), "", "",
               c.terminal.width, out);
  return 0;
}

}  // namespace rlab::cli
