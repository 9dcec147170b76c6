// A quiz from a seed: each question draws a small run of its lesson from the lesson's own
// descriptors (variants, limits, which switches it has), runs it on the simulator, and asks the
// kind of question its trace can answer that the quiz has asked least of that lesson.
#include "lessons/engine/quiz/quiz.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/run_parameters.hpp"

namespace rlab {

namespace quiz_detail {

int QuizRandom::below(int bound) {
  if (bound <= 1) return 0;
  // The largest multiple of `bound` the engine reaches: numbers at or past it are drawn again,
  // so that every remainder is equally likely.
  const uint64_t range = std::numeric_limits<uint64_t>::max();
  const uint64_t limit = range - range % uint64_t(bound);
  uint64_t r = engine_();
  while (r >= limit) r = engine_();
  return int(r % uint64_t(bound));
}

int QuizRandom::between(int low, int high) {
  return low + below(high - low + 1);
}

}  // namespace quiz_detail

namespace {

using quiz_detail::QuizRandom;

// Runs a person can follow by hand: a few dozen elements at most, values 0 to 9, and no more
// than this many combines in a row from one element to the result.
constexpr int kLongestChainToFollow = 16;
// Runs drawn for one question before it gives up: a drawn run the lesson refuses (a block too
// small for a variant, say) is drawn again.
constexpr int kDrawsPerQuestion = 64;

// A stall schedule: thread T sits out K rounds from round R, so that it comes late where the
// run has no barrier to wait for it.
std::string stallSchedule(int threads, QuizRandom& random, int fromRound) {
  // One draw a statement: the operands of + may be evaluated in any order.
  const int thread = random.below(threads);
  const int round = random.between(fromRound, 3);
  const int rounds = random.between(1, 2);
  return "stall:" + std::to_string(thread) + ":" + std::to_string(round) + ":" +
         std::to_string(rounds);
}

// n and block for a lesson of one GPU: one block that covers n, or blocks of 8 to 64 threads;
// 64 where the variant uses warp operations, so that two warps take part.
void drawSize(const LessonInfo& lesson, const VariantInfo& variant, QuizRandom& random, Params& p) {
  if (variant.minBlock >= 32) {
    p.block = 64;
    p.n = random.between(33, 64);
    return;
  }
  if (lesson.oneBlock) {
    p.n = random.between(5, 16);
    return;
  }
  std::vector<int> blocks;
  for (int b : {8, 16, 32, 64})
    if (b >= variant.minBlock) blocks.push_back(b);
  p.block = random.pick(blocks);
  p.n = random.between(p.block / 2 + 1, std::min(64, p.block * 2));
  if (variant.longestChain && variant.longestChain(p.n, p.block) > kLongestChainToFollow)
    p.n = random.between(4, kLongestChainToFollow);
}

// The switches a race needs, where the variant has them, and a schedule that lets it show.
void drawRace(const LessonInfo& lesson, const VariantInfo& variant, QuizRandom& random, Params& p) {
  if (variant.barrierSwitch && random.oneIn(2)) p.barrier = false;
  if (variant.syncwarpSwitch && random.oneIn(2)) p.syncwarp = false;
  const int threads = int(std::min<int64_t>({p.n, p.block > 0 ? p.block : p.n, 32}));
  if (runMayRace(p) && !random.oneIn(4))
    p.schedule = stallSchedule(threads, random, 1);
  else if (!lesson.gpuStepsRepeat)  // the order of the atomics is what the lesson is about
    p.schedule = random.pick(std::vector<std::string>{"lockstep", "reverse", "sequential",
                                                      stallSchedule(threads, random, 1)});
}

Params drawRun(const LessonInfo& lesson, QuizRandom& random) {
  Params p;
  p.lesson = lesson.id;
  const VariantInfo& variant = random.pick(lesson.variants);
  p.variant = variant.id;
  p.backend = BackendChoice::Sim;
  if (lesson.defaultGpus > 0) {
    p.gpus = random.oneIn(2) ? 2 : 4;
    p.n = random.between(p.gpus, 8);
  } else {
    drawSize(lesson, variant, random, p);
  }
  if (variant.defaultPerThread > 0) p.perThread = random.oneIn(2) ? 2 : 4;
  drawRace(lesson, variant, random, p);
  const int64_t values = p.n * std::max(1, p.gpus);
  for (int64_t k = 0; k < values; ++k) p.values.push_back(random.below(10));
  return p;
}

std::string commandLine(const Params& resolved) {
  std::string line = "rlab run";
  for (const std::string& arg : runArguments(resolved)) line += " " + arg;
  return line;
}

// The kinds this trace can answer, the least asked of its lesson first, one of those drawn.
std::optional<QuizKind> chooseKind(const Trace& t, const std::array<int, kQuizKinds>& asked,
                                   QuizRandom& random) {
  std::vector<QuizKind> least;
  int fewest = std::numeric_limits<int>::max();
  for (int k = 0; k < kQuizKinds; ++k) {
    QuizRandom trial = random;  // asking only to see whether it can: the real draws come after
    if (!quiz_detail::ask(QuizKind(k), t, trial)) continue;
    if (asked[size_t(k)] < fewest) least.clear();
    fewest = std::min(fewest, asked[size_t(k)]);
    if (asked[size_t(k)] == fewest) least.push_back(QuizKind(k));
  }
  if (least.empty()) return std::nullopt;
  return random.pick(least);
}

std::optional<Question> drawQuestion(const LessonInfo& lesson, std::array<int, kQuizKinds>& asked,
                                     QuizRandom& random) {
  for (int draw = 0; draw < kDrawsPerQuestion; ++draw) {
    const Params p = drawRun(lesson, random);
    std::shared_ptr<const Trace> trace;
    Resolved run;
    try {
      run = resolve(p);
      trace = std::make_shared<const Trace>(runLesson(run));
    } catch (const std::exception&) {
      continue;  // a run this lesson refuses or cannot finish: draw another
    }
    const std::optional<QuizKind> kind = chooseKind(*trace, asked, random);
    if (!kind) continue;
    std::optional<Question> q = quiz_detail::ask(*kind, *trace, random);
    ++asked[size_t(*kind)];
    q->run = run.params;
    q->command = commandLine(run.params);
    q->trace = trace;
    return q;
  }
  return std::nullopt;
}

}  // namespace

Quiz makeQuiz(uint64_t seed, int count, const std::string& lesson) {
  Quiz quiz;
  quiz.seed = seed;
  quiz.lesson = lesson;
  const LessonInfo* only = lesson.empty() ? nullptr : &lessonOrThrow(lesson);
  QuizRandom random(seed);
  std::map<std::string, std::array<int, kQuizKinds>> asked;
  int failed = 0;
  while (int(quiz.questions.size()) < std::clamp(count, 1, kMostQuizQuestions)) {
    const LessonInfo& l = only ? *only : random.pick(lessons());
    std::optional<Question> q = drawQuestion(l, asked[l.id], random);
    // Every draw refused: the next try draws its run (and lesson) again, but a lesson that
    // refuses every run it is given is a fault to say, not a loop.
    if (!q && ++failed >= kDrawsPerQuestion)
      throw MessageError(Message("quiz.no-question", {{"lesson", l.id}}));
    if (!q) continue;
    q->number = int(quiz.questions.size()) + 1;
    quiz.questions.push_back(std::move(*q));
  }
  return quiz;
}

const char* name(QuizKind kind) {
  static const char* const names[kQuizKinds] = {
      "element-value", "thread-value",  "warp-total", "block-total",   "running-total",
      "working",       "working-count", "partner",    "result",        "how-far-off",
      "stale-reader",  "active-warps",  "idle-lanes", "bank-conflict", "atomic-found",
      "atomic-landed", "block-partial", "gathered",   "chunk-holds",   "transfer-to",
  };
  return names[int(kind)];
}

const char* name(AnswerKind kind) {
  switch (kind) {
    case AnswerKind::Number:
      return "number";
    case AnswerKind::Set:
      return "set";
    case AnswerKind::Choice:
      return "choice";
  }
  return "number";
}

std::string choiceLetter(int k) {
  return std::string(1, char('a' + k));
}

std::string answerText(const Question& q) {
  switch (q.answerKind) {
    case AnswerKind::Number:
      return std::to_string(q.answer);
    case AnswerKind::Choice:
      return choiceLetter(q.rightChoice);
    case AnswerKind::Set:
      break;
  }
  std::string list;
  for (int v : q.answerSet) list += (list.empty() ? "" : ", ") + std::to_string(v);
  return list;
}

}  // namespace rlab
