// Quizzes made from real runs: each question names one simulator run (its rlab run command
// line), asks about one thing its Trace recorded (an element after a step, the threads that
// worked, the read that came too early, a warp's idle lanes, the ranks a chunk holds, ...), and
// takes its answer and the reason shown after it from that same Trace, never from a formula of
// its own. A quiz is made from a seed alone: the same seed gives the same runs, questions,
// choices and answers in every language; only render() of its messages differs.
//
// quiz.cpp draws the runs and picks the questions, quiz_kinds.cpp asks each kind of question of
// a trace, quiz_answer.cpp reads and judges what a learner typed, quiz_export.cpp writes a bank
// for a learning platform (JSON, Moodle XML, GIFT).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"
#include "lessons/engine/texts/messages.hpp"

namespace rlab {

// What a question asks about its run. Each reads one field of the Trace (in brackets): a test
// recomputes every answer from that field of `rlab run --format json`.
enum class QuizKind {
  ElementValue,  // element `index` after step `step` [steps[step].values; allreduce: GPU-major]
  ThreadValue,   // what thread `index` holds after step `step` (cells: threads)
  WarpTotal,     // warp `index`'s total after step `step` (cells: warp totals)
  BlockTotal,    // block `index`'s total after step `step` (cells: block totals)
  RunningTotal,  // the one total after step `step` (atomic: every thread adds into one address)
  Working,       // which threads worked in step `step` [active]
  WorkingCount,  // how many threads worked in step `step` [active]
  Partner,       // which cell the combine into cell `index` read in step `step` [pairs]
  Result,        // the run's result, where the run may race [result]
  HowFarOff,     // expected - result, where the run came out wrong [result, expected]
  StaleReader,   // which thread read a stale value in step `step` [combines: stale]
  ActiveWarps,   // how many warps had working lanes in step `step` [active_warps]
  IdleLanes,     // how many lanes of warp `index` were idle in step `step` [active]
  BankConflict,  // the worst bank conflict of step `step`, in ways [bank_conflict_degree]
  AtomicFound,   // the total thread `index`'s atomic found [atomic_order: before]
  AtomicLanded,  // whose atomic landed `index`-th, from 1 [atomic_order]
  BlockPartial,  // block `index`'s partial [block_partials]
  Gathered,      // the elements thread `index` read in step `step` [gathers]
  ChunkHolds,    // whose inputs chunk `chunk` of GPU `index` holds after step `step` [contains]
  TransferTo,    // the GPU that GPU `index` sent to in step `step` [transfers]
};
inline constexpr int kQuizKinds = int(QuizKind::TransferTo) + 1;
// "element-value", "stale-reader": how the JSON bank and the tests name a kind.
const char* name(QuizKind kind);

enum class AnswerKind {
  Number,  // a whole number
  Set,     // numbers in any order (threads, elements, GPUs)
  Choice,  // one of `choices`, typed as its letter
};
const char* name(AnswerKind kind);

struct Question {
  int number = 0;       // 1, 2, ... in its quiz
  Params run;           // the run it came from, resolved (every default filled in)
  std::string command;  // that run as a command line: "rlab run barrier --n 8 ... --backend sim"
  QuizKind kind = QuizKind::ElementValue;
  int step = 0;    // the step it asks about (the run's last one for the result)
  int index = -1;  // the element, thread, warp, block, position or GPU it asks about; -1: none
  int chunk = -1;  // ChunkHolds: the chunk of GPU `index`'s buffer
  Message text;    // the question, without the command line
  AnswerKind answerKind = AnswerKind::Number;
  long long answer = 0;          // Number
  std::vector<int> answerSet;    // Set, ascending
  std::vector<Message> choices;  // Choice: the right one and its distractors, in order shown
  int rightChoice = -1;          // Choice: its index in `choices`
  Message reason;                // shown after the answer: what the run did
  // The run itself, to draw the step asked about (shared by the questions of one run).
  std::shared_ptr<const Trace> trace;
};

struct Quiz {
  uint64_t seed = 0;
  std::string lesson;  // empty: every lesson
  std::vector<Question> questions;
};

inline constexpr int kMostQuizQuestions = 200;

// `count` questions (1 to kMostQuizQuestions) about `lesson` (an id; empty: a lesson drawn for
// each question), drawn from `seed`. Throws ParamError for an unknown lesson.
Quiz makeQuiz(uint64_t seed, int count, const std::string& lesson = "");

// The right answer as it is typed: "12", "0, 4, 8", "b".
std::string answerText(const Question& q);
// "a", "b", ...: how choice `k` is typed.
std::string choiceLetter(int k);
// The right answer as a sentence shows it: the number, the numbers, or "b (thread 4)".
Message rightAnswer(const Question& q);

// What a learner typed, read against the question's kind of answer.
struct TypedAnswer {
  bool readable = false;  // false: not a number, numbers or a letter; `problem` says what is
  bool right = false;
  Message problem;
};
TypedAnswer judge(const Question& q, std::string_view typed);

// The bank for a learning platform, every sentence in `language`: the JSON (every question with
// its run, kind, text, choices, answer and reason), Moodle XML, and GIFT.
std::string quizJson(const Quiz& quiz, Language language);
std::string quizMoodleXml(const Quiz& quiz, Language language);
std::string quizGift(const Quiz& quiz, Language language);
// GIFT's escapes: a backslash before each of ~ = # { } : and before a backslash.
std::string giftEscaped(std::string_view text);
// XML's escapes for text and attribute values: & < > " '.
std::string xmlEscaped(std::string_view text);

namespace quiz_detail {

// The quiz's own draws: std::mt19937_64's numbers, which the standard fixes, turned into ranges
// by rejection here (std::uniform_int_distribution differs between standard libraries, and the
// same seed must give the same quiz wherever rlab was built).
class QuizRandom {
 public:
  explicit QuizRandom(uint64_t seed) : engine_(seed) {}
  int below(int bound);            // 0 to bound - 1
  int between(int low, int high);  // low to high, both included
  bool oneIn(int chances) { return below(chances) == 0; }
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[size_t(below(int(items.size())))];
  }

 private:
  std::mt19937_64 engine_;
};

// Each kind asks its question of a run's trace, choosing what to ask with `random`; nothing
// where the trace does not record what the kind needs (quiz_kinds.cpp).
std::optional<Question> ask(QuizKind kind, const Trace& t, QuizRandom& random);

}  // namespace quiz_detail

}  // namespace rlab
