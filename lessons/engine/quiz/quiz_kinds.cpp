// Each kind of question, asked of one run's trace: what it asks (a step, a cell, a thread, a
// GPU) is drawn among what the trace recorded, and the answer and the reason are read from the
// same fields. A kind the trace cannot answer (no stale read, no warps measured, one GPU) gives
// nothing, whatever is drawn.
#include <algorithm>
#include <map>
#include <set>

#include "lessons/engine/quiz/quiz.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::quiz_detail {

namespace {

constexpr int kWarpLanes = 32;
// A set question lists at most this many threads: more is counting, not reading the run.
constexpr size_t kMostInSet = 16;

// "0, 2, 4": numbers as a question's argument reads them (the same in every language).
std::string numberList(const std::vector<int>& numbers) {
  std::string list;
  for (int v : numbers) list += (list.empty() ? "" : ", ") + std::to_string(v);
  return list;
}

std::string cellName(const StepSnapshot& s, int index) {
  return s.array + "[" + std::to_string(index) + "]";
}

Question numberQuestion(QuizKind kind, int step, int index, Message text, long long answer,
                        Message reason) {
  Question q;
  q.kind = kind;
  q.step = step;
  q.index = index;
  q.text = std::move(text);
  q.answerKind = AnswerKind::Number;
  q.answer = answer;
  q.reason = std::move(reason);
  return q;
}

Question setQuestion(QuizKind kind, int step, int index, Message text, std::vector<int> answer,
                     Message reason) {
  Question q = numberQuestion(kind, step, index, std::move(text), 0, std::move(reason));
  q.answerKind = AnswerKind::Set;
  std::sort(answer.begin(), answer.end());
  answer.erase(std::unique(answer.begin(), answer.end()), answer.end());
  q.answerSet = std::move(answer);
  return q;
}

// Choices: the right one among `distractors` (up to three of them, drawn), in a drawn order.
Question choiceQuestion(QuizKind kind, int step, int index, Message text, Message right,
                        std::vector<Message> distractors, Message reason, QuizRandom& random) {
  Question q = numberQuestion(kind, step, index, std::move(text), 0, std::move(reason));
  q.answerKind = AnswerKind::Choice;
  while (distractors.size() > 3)
    distractors.erase(distractors.begin() + random.below(int(distractors.size())));
  q.choices = std::move(distractors);
  q.rightChoice = random.below(int(q.choices.size()) + 1);
  q.choices.insert(q.choices.begin() + q.rightChoice, std::move(right));
  return q;
}

// The steps after the input for which `wanted` holds.
template <class Wanted>
std::vector<int> stepsWhere(const Trace& t, Wanted wanted) {
  std::vector<int> steps;
  for (size_t k = 1; k < t.steps.size(); ++k)
    if (wanted(t.steps[k])) steps.push_back(int(k));
  return steps;
}

// The kind that asks for a cell of a step holding `cells`.
QuizKind cellKind(const Trace& t, const StepSnapshot& s) {
  switch (s.cells) {
    case CellKind::Threads:
    case CellKind::LaneWarpTotals:
      return QuizKind::ThreadValue;
    case CellKind::WarpTotals:
      return QuizKind::WarpTotal;
    case CellKind::BlockTotals:
      return QuizKind::BlockTotal;
    case CellKind::Elements:
      break;
  }
  // Every atomic adds into one address: the step holds that one total.
  return !t.atomicOrder.empty() && s.values.size() == 1 ? QuizKind::RunningTotal
                                                        : QuizKind::ElementValue;
}

Message cellQuestion(QuizKind kind, const Trace& t, const StepSnapshot& s, int step, int i) {
  if (kind == QuizKind::ElementValue && t.gpus > 0)
    return Message("quiz.ask.gpu-value",
                   {{"gpu", i / t.params.n}, {"element", i % t.params.n}, {"step", step}});
  switch (kind) {
    case QuizKind::ThreadValue:
      return Message("quiz.ask.thread-value", {{"thread", i}, {"step", step}});
    case QuizKind::WarpTotal:
      return Message("quiz.ask.warp-total", {{"warp", i}, {"step", step}});
    case QuizKind::BlockTotal:
      return Message("quiz.ask.block-total", {{"block", i}, {"step", step}});
    case QuizKind::RunningTotal:
      return Message("quiz.ask.running-total", {{"step", step}});
    default:
      return Message("quiz.ask.element-value", {{"element", cellName(s, i)}, {"step", step}});
  }
}

// The cells whose value is not the step's most common one: where a step shows a new array (the
// threads' sums of a grid-stride loop, say), most cells may hold nothing but the identity, and
// "what does thread 41 hold" with 0 for an answer asks nothing.
std::vector<int> cellsOutOfTheCrowd(const StepSnapshot& s, size_t live) {
  std::map<double, int> counts;
  for (size_t i = 0; i < live; ++i) ++counts[s.values[i]];
  if (counts.empty()) return {};
  const double crowd = std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) {
                         return a.second < b.second;
                       })->first;
  std::vector<int> out;
  for (size_t i = 0; i < live; ++i)
    if (s.values[i] != crowd) out.push_back(int(i));
  return out;
}

// A cell's value after a step; the cells the step changed are asked first, then those out of
// the step's crowd.
std::optional<Question> askCell(QuizKind kind, const Trace& t, QuizRandom& random) {
  const std::vector<int> steps = stepsWhere(
      t, [&](const StepSnapshot& s) { return !s.values.empty() && cellKind(t, s) == kind; });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot &s = t.steps[size_t(k)], &before = t.steps[size_t(k) - 1];
  const size_t live =
      s.paddingFrom >= 0 ? std::min(size_t(s.paddingFrom), s.values.size()) : s.values.size();
  std::vector<int> changed, all;
  for (size_t i = 0; i < std::max<size_t>(live, 1); ++i) {
    all.push_back(int(i));
    if (before.cells == s.cells && i < before.values.size() && before.values[i] != s.values[i])
      changed.push_back(int(i));
  }
  if (changed.empty()) changed = cellsOutOfTheCrowd(s, std::min(live, s.values.size()));
  const int i = random.pick(changed.empty() ? all : changed);
  const long long value = (long long)s.values[size_t(i)];
  return numberQuestion(
      kind, k, i, cellQuestion(kind, t, s, k, i), value,
      Message(
          "quiz.reason.value",
          {{"step", k}, {"label", s.label}, {"value", formatValue(double(value), t.params.type)}}));
}

Message workingReason(const StepSnapshot& s, int k) {
  return Message("quiz.reason.working", {{"step", k},
                                         {"label", s.label},
                                         {"count", s.active.size()},
                                         {"threads", numberList(s.active)}});
}

// Which threads worked, or how many: asked of steps where two or more did (one GPU's runs; the
// allreduce's active are its ranks, which the chunk questions ask about).
std::optional<Question> askWorking(QuizKind kind, const Trace& t, QuizRandom& random) {
  const bool which = kind == QuizKind::Working;
  const std::vector<int> steps = stepsWhere(t, [&](const StepSnapshot& s) {
    return t.gpus == 0 && s.active.size() >= 2 && (!which || s.active.size() <= kMostInSet);
  });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  if (which)
    return setQuestion(kind, k, -1, Message("quiz.ask.working", {{"step", k}}), s.active,
                       workingReason(s, k));
  return numberQuestion(kind, k, -1, Message("quiz.ask.working-count", {{"step", k}}),
                        (long long)s.active.size(), workingReason(s, k));
}

// The cell a combine into `target` read: asked where exactly one pair of the step writes it,
// from another cell (a coarsened thread's first add reads its own index of the input: "which
// other cell" would have the cell itself for an answer).
std::optional<Question> askPartner(const Trace& t, QuizRandom& random) {
  auto targets = [](const StepSnapshot& s) {
    std::vector<int> once;
    for (const auto& [source, target] : s.pairs) {
      const auto same = [&](const std::pair<int, int>& p) { return p.second == target; };
      if (source != target && std::count_if(s.pairs.begin(), s.pairs.end(), same) == 1)
        once.push_back(target);
    }
    return once;
  };
  const std::vector<int> steps =
      stepsWhere(t, [&](const StepSnapshot& s) { return t.gpus == 0 && !targets(s).empty(); });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  const int target = random.pick(targets(s));
  int source = -1;
  for (const auto& pair : s.pairs)
    if (pair.second == target) source = pair.first;
  return numberQuestion(QuizKind::Partner, k, target,
                        Message("quiz.ask.partner", {{"step", k}, {"target", cellName(s, target)}}),
                        source,
                        Message("quiz.reason.partner", {{"step", k},
                                                        {"label", s.label},
                                                        {"target", cellName(s, target)},
                                                        {"source", cellName(s, source)}}));
}

// The result of a run that may race, and how far off it is where it came out wrong.
std::optional<Question> askResult(QuizKind kind, const Trace& t) {
  const bool off = kind == QuizKind::HowFarOff;
  if (!t.singleAnswer || !runMayRace(t.params) || (off && (t.correct || howFarOff(t).empty())))
    return std::nullopt;
  const int last = int(t.steps.size()) - 1;
  const Message result = resultLine(t);
  if (off)
    return numberQuestion(kind, last, -1, Message("quiz.ask.how-far-off"),
                          (long long)(t.expected - t.result),
                          Message("quiz.reason.off", {{"result", result}, {"off", howFarOff(t)}}));
  return numberQuestion(
      kind, last, -1, Message("quiz.ask.result"), (long long)t.result,
      Message("quiz.reason.result", {{"result", result}, {"verdict", verdictWord(t)}}));
}

// A thread that read a stale value (too early, or too late: after its partner's write), among
// threads that worked up to that step and read nothing stale there.
std::optional<Question> askStaleReader(const Trace& t, QuizRandom& random) {
  auto staleReaders = [](const StepSnapshot& s) {
    std::set<int> readers;
    for (const CombineRead& c : s.combines)
      if (c.target.stale || c.source.stale) readers.insert(c.thread);
    return readers;
  };
  const std::vector<int> steps =
      stepsWhere(t, [&](const StepSnapshot& s) { return !staleReaders(s).empty(); });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  const std::set<int> readers = staleReaders(s);
  std::set<int> others;
  for (int step = 1; step <= k; ++step)
    for (int thread : t.steps[size_t(step)].active)
      if (!readers.count(thread)) others.insert(thread);
  if (others.empty()) return std::nullopt;
  const int reader = random.pick(std::vector<int>(readers.begin(), readers.end()));
  Message why;
  for (const CombineRead& c : s.combines)
    for (const ValueRead* r : {&c.target, &c.source})
      if (c.thread == reader && r->stale && why.empty())
        why = staleReadText(c, *r, t.params.type, s.array);
  std::vector<Message> distractors;
  for (int thread : others)
    distractors.push_back(Message("quiz.choice.thread", {{"thread", thread}}));
  return choiceQuestion(QuizKind::StaleReader, k, reader,
                        Message("quiz.ask.stale-reader", {{"step", k}}),
                        Message("quiz.choice.thread", {{"thread", reader}}), std::move(distractors),
                        Message("quiz.reason.stale", {{"read", why}}), random);
}

// Warps: how many worked in a step, how many lanes of one sat idle, the worst bank conflict.
// Asked of blocks of more than one warp, where the trace measured them.
std::optional<Question> askWarps(QuizKind kind, const Trace& t, QuizRandom& random) {
  const std::vector<int> steps = stepsWhere(t, [&](const StepSnapshot& s) {
    return !s.activeWarps.empty() && t.params.block > kWarpLanes &&
           (kind != QuizKind::BankConflict || s.bankConflictDegree > 0);
  });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  if (kind == QuizKind::ActiveWarps)
    return numberQuestion(
        kind, k, -1, Message("quiz.ask.active-warps", {{"step", k}}),
        (long long)s.activeWarps.size(),
        Message("quiz.reason.active-warps", {{"step", k},
                                             {"threads", numberList(s.active)},
                                             {"count", s.activeWarps.size()},
                                             {"warps", numberList(s.activeWarps)}}));
  if (kind == QuizKind::BankConflict)
    return numberQuestion(
        kind, k, -1, Message("quiz.ask.bank-conflict", {{"step", k}}), s.bankConflictDegree,
        Message("quiz.reason.bank-conflict", {{"step", k}, {"ways", s.bankConflictDegree}}));
  const int warp = random.pick(s.activeWarps);
  std::vector<int> lanes;
  for (int thread : s.active)
    if (thread / kWarpLanes == warp) lanes.push_back(thread % kWarpLanes);
  const int idle = kWarpLanes - int(lanes.size());
  return numberQuestion(kind, k, warp,
                        Message("quiz.ask.idle-lanes", {{"step", k}, {"warp", warp}}), idle,
                        Message("quiz.reason.idle-lanes", {{"step", k},
                                                           {"warp", warp},
                                                           {"working", lanes.size()},
                                                           {"lanes", numberList(lanes)},
                                                           {"idle", idle}}));
}

// The atomics' order: whose landed at a position, and what total one found there.
std::optional<Question> askAtomic(QuizKind kind, const Trace& t, QuizRandom& random) {
  if (t.atomicOrder.size() < 2) return std::nullopt;
  const int position = random.below(int(t.atomicOrder.size()));
  const AtomicLanding& a = t.atomicOrder[size_t(position)];
  std::vector<int> order;
  for (const AtomicLanding& landing : t.atomicOrder) order.push_back(landing.thread);
  const Message reason("quiz.reason.atomic-order", {{"threads", numberList(order)}});
  if (kind == QuizKind::AtomicLanded)
    return numberQuestion(kind, position + 1, position + 1,
                          Message("quiz.ask.atomic-landed", {{"position", position + 1}}), a.thread,
                          reason);
  const ElementType type = t.params.type;
  return numberQuestion(
      kind, position + 1, a.thread, Message("quiz.ask.atomic-found", {{"thread", a.thread}}),
      (long long)a.before,
      Message("quiz.reason.atomic-found", {{"order", reason},
                                           {"thread", a.thread},
                                           {"before", formatValue(a.before, type)},
                                           {"value", formatValue(a.value, type)}}));
}

std::optional<Question> askBlockPartial(const Trace& t, QuizRandom& random) {
  if (t.blockPartials.size() < 2) return std::nullopt;
  const int block = random.below(int(t.blockPartials.size()));
  std::string list;
  for (double v : t.blockPartials)
    list += (list.empty() ? "" : ", ") + formatValue(v, t.params.type);
  return numberQuestion(QuizKind::BlockPartial, int(t.steps.size()) - 1, block,
                        Message("quiz.ask.block-partial", {{"block", block}}),
                        (long long)t.blockPartials[size_t(block)],
                        Message("quiz.reason.block-partial", {{"partials", list}}));
}

std::optional<Question> askGathered(const Trace& t, QuizRandom& random) {
  const std::vector<int> steps =
      stepsWhere(t, [](const StepSnapshot& s) { return !s.gathers.empty(); });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  std::vector<int> threads;
  for (size_t thread = 0; thread < s.gathers.size(); ++thread)
    if (!s.gathers[thread].elements.empty() && s.gathers[thread].elements.size() <= kMostInSet)
      threads.push_back(int(thread));
  if (threads.empty()) return std::nullopt;
  const int thread = random.pick(threads);
  const std::vector<int>& elements = s.gathers[size_t(thread)].elements;
  return setQuestion(
      QuizKind::Gathered, k, thread,
      Message("quiz.ask.gathered", {{"thread", thread}, {"step", k}}), elements,
      Message("quiz.reason.gathered",
              {{"step", k}, {"thread", thread}, {"elements", numberList(elements)}}));
}

// allreduce: whose inputs a chunk of a GPU's buffer holds after a step, and where a GPU's copy
// of a step went (asked where it sent one copy, with four GPUs or more to choose among).
std::optional<Question> askAcrossGpus(QuizKind kind, const Trace& t, QuizRandom& random) {
  if (t.gpus < 2 || t.chunkStarts.size() < 2) return std::nullopt;
  const bool holds = kind == QuizKind::ChunkHolds;
  auto sendersOnce = [&](const StepSnapshot& s) {
    std::vector<int> once;
    for (int gpu = 0; gpu < t.gpus; ++gpu)
      if (std::count_if(s.transfers.begin(), s.transfers.end(),
                        [&](const Transfer& x) { return x.from == gpu; }) == 1)
        once.push_back(gpu);
    return once;
  };
  const std::vector<int> steps = stepsWhere(t, [&](const StepSnapshot& s) {
    return holds ? s.contains.size() == size_t(t.gpus) : t.gpus >= 4 && !sendersOnce(s).empty();
  });
  if (steps.empty()) return std::nullopt;
  const int k = random.pick(steps);
  const StepSnapshot& s = t.steps[size_t(k)];
  if (holds) {
    const int gpu = random.below(t.gpus), chunks = int(t.chunkStarts.size()) - 1;
    const int chunk = random.below(chunks);
    std::vector<int> ranks;
    for (int r = 0; r < t.gpus; ++r)
      if (s.contains[size_t(gpu)][size_t(chunk)] & (1u << r)) ranks.push_back(r);
    Question q = setQuestion(
        kind, k, gpu,
        chunks == 1
            ? Message("quiz.ask.buffer-holds", {{"gpu", gpu}, {"step", k}})
            : Message("quiz.ask.chunk-holds", {{"gpu", gpu}, {"chunk", chunk}, {"step", k}}),
        ranks,
        Message("quiz.reason.chunk-holds",
                {{"step", k}, {"label", s.label}, {"gpus", numberList(ranks)}}));
    q.chunk = chunk;
    return q;
  }
  const int gpu = random.pick(sendersOnce(s));
  const auto copy = std::find_if(s.transfers.begin(), s.transfers.end(),
                                 [&](const Transfer& x) { return x.from == gpu; });
  std::vector<Message> distractors;
  for (int other = 0; other < t.gpus; ++other)
    if (other != gpu && other != copy->to)
      distractors.push_back(Message("quiz.choice.gpu", {{"gpu", other}}));
  const Message transfer(copy->combined ? "view.transfer-combined" : "view.transfer-copied",
                         {{"from", copy->from},
                          {"to", copy->to},
                          {"first", copy->begin},
                          {"last", copy->end - 1},
                          {"bytes", copy->bytes}});
  return choiceQuestion(kind, k, gpu, Message("quiz.ask.transfer-to", {{"gpu", gpu}, {"step", k}}),
                        Message("quiz.choice.gpu", {{"gpu", copy->to}}), std::move(distractors),
                        Message("quiz.reason.transfer", {{"step", k}, {"transfer", transfer}}),
                        random);
}

}  // namespace

std::optional<Question> ask(QuizKind kind, const Trace& t, QuizRandom& random) {
  if (!t.traced || t.steps.size() < 2) return std::nullopt;
  switch (kind) {
    case QuizKind::ElementValue:
    case QuizKind::ThreadValue:
    case QuizKind::WarpTotal:
    case QuizKind::BlockTotal:
    case QuizKind::RunningTotal:
      return askCell(kind, t, random);
    case QuizKind::Working:
    case QuizKind::WorkingCount:
      return askWorking(kind, t, random);
    case QuizKind::Partner:
      return askPartner(t, random);
    case QuizKind::Result:
    case QuizKind::HowFarOff:
      return askResult(kind, t);
    case QuizKind::StaleReader:
      return askStaleReader(t, random);
    case QuizKind::ActiveWarps:
    case QuizKind::IdleLanes:
    case QuizKind::BankConflict:
      return askWarps(kind, t, random);
    case QuizKind::AtomicFound:
    case QuizKind::AtomicLanded:
      return askAtomic(kind, t, random);
    case QuizKind::BlockPartial:
      return askBlockPartial(t, random);
    case QuizKind::Gathered:
      return askGathered(t, random);
    case QuizKind::ChunkHolds:
    case QuizKind::TransferTo:
      return askAcrossGpus(kind, t, random);
  }
  return std::nullopt;
}

}  // namespace rlab::quiz_detail
