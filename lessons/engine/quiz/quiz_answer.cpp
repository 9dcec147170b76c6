// What a learner typed, read as the question's kind of answer: a whole number, numbers in any
// order (commas, spaces, or the Japanese and Chinese commas between them), or a choice's letter.
#include <algorithm>
#include <cctype>

#include "lessons/engine/quiz/quiz.hpp"

namespace rlab {

namespace {

std::string trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

// A whole number with an optional sign, nothing else; false where it is not one.
bool wholeNumber(const std::string& text, long long& value) {
  const size_t digitsFrom = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (text.size() == digitsFrom || text.size() - digitsFrom > 15) return false;
  for (size_t k = digitsFrom; k < text.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(text[k]))) return false;
  value = std::stoll(text.substr(digitsFrom));
  if (text[0] == '-') value = -value;
  return true;
}

// "0, 4 8" (or "0、4，8") as its numbers; false where a part is not a whole number.
bool numberList(std::string text, std::vector<int>& numbers) {
  for (const char* comma : {"\xE3\x80\x81", "\xEF\xBC\x8C"})  // 、 and ，
    for (size_t at = text.find(comma); at != std::string::npos; at = text.find(comma))
      text.replace(at, 3, " ");
  std::replace(text.begin(), text.end(), ',', ' ');
  size_t at = 0;
  while (at < text.size()) {
    const size_t start = text.find_first_not_of(" \t", at);
    if (start == std::string::npos) break;
    const size_t end = std::min(text.find_first_of(" \t", start), text.size());
    long long v = 0;
    if (!wholeNumber(text.substr(start, end - start), v)) return false;
    numbers.push_back(int(v));
    at = end;
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return !numbers.empty();
}

std::string letters(int count) {
  std::string list;
  for (int k = 0; k < count; ++k) list += (k ? ", " : "") + choiceLetter(k);
  return list;
}

}  // namespace

Message rightAnswer(const Question& q) {
  if (q.answerKind == AnswerKind::Choice)
    return Message("quiz.answer-choice", {{"letter", choiceLetter(q.rightChoice)},
                                          {"choice", q.choices[size_t(q.rightChoice)]}});
  return verbatim(answerText(q));
}

TypedAnswer judge(const Question& q, std::string_view typed) {
  const std::string text = trimmed(typed);
  TypedAnswer a;
  switch (q.answerKind) {
    case AnswerKind::Number: {
      long long v = 0;
      a.readable = wholeNumber(text, v);
      a.right = a.readable && v == q.answer;
      if (!a.readable) a.problem = Message("quiz.typed.number");
      return a;
    }
    case AnswerKind::Set: {
      std::vector<int> numbers;
      a.readable = numberList(text, numbers);
      a.right = a.readable && numbers == q.answerSet;
      if (!a.readable) a.problem = Message("quiz.typed.numbers");
      return a;
    }
    case AnswerKind::Choice:
      break;
  }
  const int count = int(q.choices.size());
  const int k = text.size() == 1 ? std::tolower(static_cast<unsigned char>(text[0])) - 'a' : -1;
  a.readable = k >= 0 && k < count;
  a.right = a.readable && k == q.rightChoice;
  if (!a.readable) a.problem = Message("quiz.typed.letter", {{"letters", letters(count)}});
  return a;
}

}  // namespace rlab
