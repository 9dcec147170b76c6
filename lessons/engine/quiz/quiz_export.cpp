// A quiz as a question bank for a learning platform, every sentence in one language: JSON for
// scripts, Moodle XML (numerical, multichoice and shortanswer questions, each with its general
// feedback, the reason) and GIFT, which Moodle and other platforms import too.
#include <nlohmann/json.hpp>

#include "lessons/engine/quiz/quiz.hpp"

namespace rlab {

namespace {

using nlohmann::json;

// What a platform shows as the question: the question, then the run's command line as code.
std::string questionHtml(const Question& q, Language language) {
  return "<p>" + xmlEscaped(render(q.text, language)) + "</p><p><code>" + xmlEscaped(q.command) +
         "</code></p>";
}

std::string questionName(const Quiz& quiz, const Question& q, Language language) {
  return render(Message("quiz.question-name", {{"seed", std::to_string(quiz.seed)},
                                               {"number", q.number},
                                               {"lesson", q.run.lesson}}),
                language);
}

// The ways a set may be typed into a short-answer box, which compares text: "0, 4", "0,4", "0 4".
std::vector<std::string> setSpellings(const Question& q) {
  std::string spaced, packed;
  for (int v : q.answerSet) {
    spaced += (spaced.empty() ? "" : " ") + std::to_string(v);
    packed += (packed.empty() ? "" : ",") + std::to_string(v);
  }
  std::vector<std::string> spellings = {answerText(q)};
  for (const std::string& s : {packed, spaced})
    if (s != spellings.front()) spellings.push_back(s);
  return spellings;
}

json questionJson(const Question& q, Language language) {
  json j = {{"number", q.number},
            {"lesson", q.run.lesson},
            {"variant", q.run.variant},
            {"command", q.command},
            {"kind", name(q.kind)},
            {"step", q.step},
            {"index", q.index},
            {"text", render(q.text, language)},
            {"answer_kind", name(q.answerKind)},
            {"answer_text", answerText(q)},
            {"reason", render(q.reason, language)}};
  if (q.chunk >= 0) j["chunk"] = q.chunk;
  if (q.answerKind == AnswerKind::Number) j["answer"] = q.answer;
  if (q.answerKind == AnswerKind::Set) j["answer"] = q.answerSet;
  if (q.answerKind == AnswerKind::Choice) {
    json choices = json::array();
    for (size_t k = 0; k < q.choices.size(); ++k)
      choices.push_back({{"letter", choiceLetter(int(k))},
                         {"text", render(q.choices[k], language)},
                         {"right", int(k) == q.rightChoice}});
    j["choices"] = choices;
    j["answer"] = choiceLetter(q.rightChoice);
  }
  return j;
}

// One <answer> of a Moodle question: its text, the grade it gives and what it says.
std::string moodleAnswer(const std::string& text, bool right, const std::string& feedback,
                         const std::string& extra = "") {
  return "    <answer fraction=\"" + std::string(right ? "100" : "0") + "\" format=\"html\">\n" +
         "      <text>" + xmlEscaped(text) + "</text>\n" + extra +
         "      <feedback format=\"html\"><text>" + xmlEscaped(feedback) + "</text></feedback>\n" +
         "    </answer>\n";
}

std::string moodleAnswers(const Question& q, Language language) {
  const std::string right = render(Message("quiz.right"), language);
  const std::string wrong = render(Message("quiz.wrong", {{"answer", rightAnswer(q)}}), language);
  std::string answers;
  switch (q.answerKind) {
    case AnswerKind::Number:
      return moodleAnswer(answerText(q), true, right, "      <tolerance>0</tolerance>\n");
    case AnswerKind::Set:
      for (const std::string& spelling : setSpellings(q))
        answers += moodleAnswer(spelling, true, right);
      return "    <usecase>0</usecase>\n" + answers;
    case AnswerKind::Choice:
      break;
  }
  answers =
      "    <single>true</single>\n    <shuffleanswers>0</shuffleanswers>\n"
      "    <answernumbering>abc</answernumbering>\n";
  for (size_t k = 0; k < q.choices.size(); ++k)
    answers += moodleAnswer(render(q.choices[k], language), int(k) == q.rightChoice,
                            int(k) == q.rightChoice ? right : wrong);
  return answers;
}

const char* moodleType(AnswerKind kind) {
  switch (kind) {
    case AnswerKind::Number:
      return "numerical";
    case AnswerKind::Set:
      return "shortanswer";
    case AnswerKind::Choice:
      break;
  }
  return "multichoice";
}

std::string giftAnswers(const Question& q, Language language) {
  const std::string feedback = " ####" + giftEscaped(xmlEscaped(render(q.reason, language)));
  switch (q.answerKind) {
    case AnswerKind::Number:
      return "{#" + answerText(q) + feedback + "}";
    case AnswerKind::Set: {
      std::string answers;
      for (const std::string& spelling : setSpellings(q)) answers += " =" + giftEscaped(spelling);
      return "{" + answers + feedback + "}";
    }
    case AnswerKind::Choice:
      break;
  }
  std::string answers;
  for (size_t k = 0; k < q.choices.size(); ++k)
    answers += std::string(int(k) == q.rightChoice ? " =" : " ~") +
               giftEscaped(render(q.choices[k], language));
  return "{" + answers + feedback + "}";
}

}  // namespace

std::string xmlEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string giftEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '~' || c == '=' || c == '#' || c == '{' || c == '}' || c == ':' || c == '\\')
      out += '\\';
    out += c == '\n' ? ' ' : c;  // a line break would end the question
  }
  return out;
}

std::string quizJson(const Quiz& quiz, Language language) {
  json questions = json::array();
  for (const Question& q : quiz.questions) questions.push_back(questionJson(q, language));
  return json{{"seed", std::to_string(quiz.seed)},
              {"lesson", quiz.lesson.empty() ? json(nullptr) : json(quiz.lesson)},
              {"language", code(language)},
              {"questions", questions}}
             .dump(2) +
         "\n";
}

std::string quizMoodleXml(const Quiz& quiz, Language language) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
  xml += "  <question type=\"category\">\n    <category><text>$course$/" +
         xmlEscaped(
             render(Message("quiz.bank-name", {{"seed", std::to_string(quiz.seed)}}), language)) +
         "</text></category>\n  </question>\n";
  for (const Question& q : quiz.questions) {
    xml += "  <question type=\"" + std::string(moodleType(q.answerKind)) + "\">\n";
    xml += "    <name><text>" + xmlEscaped(questionName(quiz, q, language)) + "</text></name>\n";
    xml += "    <questiontext format=\"html\"><text>" + xmlEscaped(questionHtml(q, language)) +
           "</text></questiontext>\n";
    xml += "    <generalfeedback format=\"html\"><text>" +
           xmlEscaped("<p>" + xmlEscaped(render(q.reason, language)) + "</p>") +
           "</text></generalfeedback>\n";
    xml += "    <defaultgrade>1</defaultgrade>\n    <penalty>0</penalty>\n";
    xml += moodleAnswers(q, language);
    xml += "  </question>\n";
  }
  return xml + "</quiz>\n";
}

std::string quizGift(const Quiz& quiz, Language language) {
  std::string gift =
      "// " + render(Message("quiz.bank-name", {{"seed", std::to_string(quiz.seed)}}), language) +
      "\n\n";
  for (const Question& q : quiz.questions)
    gift += "::" + giftEscaped(questionName(quiz, q, language)) + "::[html]" +
            giftEscaped(questionHtml(q, language)) + " " + giftAnswers(q, language) + "\n\n";
  return gift;
}

}  // namespace rlab
