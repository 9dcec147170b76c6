#include "lessons/engine/run/params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

const char* name(Op op) {
  switch (op) {
    case Op::Sum:
      return "sum";
    case Op::Max:
      return "max";
    case Op::Min:
      return "min";
    case Op::Product:
      return "product";
    case Op::Subtract:
      return "subtract";
  }
  return "sum";
}

bool isAssociative(Op op) {
  return op != Op::Subtract;
}

const char* name(ElementType type) {
  return type == ElementType::Int ? "int" : "float";
}

const char* name(BackendChoice backend) {
  switch (backend) {
    case BackendChoice::Sim:
      return "sim";
    case BackendChoice::Gpu:
      return "gpu";
    case BackendChoice::Auto:
      return "auto";
  }
  return "sim";
}

std::string combineText(Op op, const std::string& target, const std::string& source) {
  switch (op) {
    case Op::Sum:
      return target + " += " + source;
    case Op::Product:
      return target + " *= " + source;
    case Op::Subtract:
      return target + " -= " + source;
    case Op::Max:
      return target + " = max(" + target + ", " + source + ")";
    case Op::Min:
      return target + " = min(" + target + ", " + source + ")";
  }
  return target;
}

std::string applyText(Op op, const std::string& x, const std::string& y) {
  switch (op) {
    case Op::Sum:
      return x + " + " + y;
    case Op::Product:
      return x + " * " + y;
    case Op::Subtract:
      return x + " - " + y;
    case Op::Max:
      return "max(" + x + ", " + y + ")";
    case Op::Min:
      return "min(" + x + ", " + y + ")";
  }
  return x;
}

std::string formatValue(double v, ElementType type) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  std::ostringstream s;
  if (type == ElementType::Int || v == std::floor(v))
    s << std::fixed << std::setprecision(0) << v;
  else
    s << std::setprecision(6) << v;
  return s.str();
}

Op parseOp(const std::string& text) {
  for (Op op : {Op::Sum, Op::Max, Op::Min, Op::Product, Op::Subtract})
    if (text == name(op)) return op;
  throw ParamError(Message("params.bad-op", {{"op", text}}));
}

ElementType parseType(const std::string& text) {
  if (text == "int") return ElementType::Int;
  if (text == "float") return ElementType::Float;
  throw ParamError(Message("params.bad-type", {{"type", text}}));
}

BackendChoice parseBackend(const std::string& text) {
  for (BackendChoice b : {BackendChoice::Sim, BackendChoice::Gpu, BackendChoice::Auto})
    if (text == name(b)) return b;
  throw ParamError(Message("params.bad-backend", {{"backend", text}}));
}

std::vector<double> parseValues(const std::string& text) {
  std::vector<double> values;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const double v = item.empty() ? 0 : std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !std::isfinite(v) || std::fabs(v) > 3.0e38)
      throw ParamError(Message("params.bad-value", {{"values", text}, {"item", item}}));
    values.push_back(v);
    if (values.size() > (size_t(1) << 20))
      throw ParamError(Message("params.too-many-values", {{"most", size_t(1) << 20}}));
    if (comma == std::string::npos) return values;
    start = comma + 1;
  }
}

void parseDelay(const std::string& text, Params& params) {
  const size_t colon = text.find(':');
  auto number = [](const std::string& digits) {
    const bool ok =
        !digits.empty() && digits.size() <= 7 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    return ok ? std::stoi(digits) : -1;
  };
  const int thread = colon == std::string::npos ? -1 : number(text.substr(0, colon));
  const int level = colon == std::string::npos ? -1 : number(text.substr(colon + 1));
  if (thread < 0 || level < 1) throw ParamError(Message("params.bad-delay", {{"delay", text}}));
  params.delayThread = thread;
  params.delayLevel = level;
}

std::string delayText(const Params& params) {
  if (params.delayThread < 0) return "";
  return std::to_string(params.delayThread) + ":" + std::to_string(params.delayLevel);
}

namespace {

int64_t levelsBelow(int64_t n) {  // of `for (i = 1; i < n; i *= 2)`
  int64_t levels = 0;
  for (int64_t i = 1; i < n; i *= 2) ++levels;
  return levels;
}

bool isPowerOfTwo(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

int64_t smallestPowerOfTwoCovering(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// The simulator's refusal of a schedule, in the learner's language.
Message scheduleRefusal(const std::string& schedule, const sim::ScheduleError& e) {
  using Why = sim::ScheduleError::Why;
  const std::vector<MessageArg> args = {{"schedule", schedule}};
  switch (e.why) {
    case Why::Fields:
      return Message("params.schedule-fields", args);
    case Why::Malformed:
      return Message(e.field == "seed"        ? "params.schedule-seed"
                     : e.field == "thread"    ? "params.schedule-thread"
                     : e.field == "round"     ? "params.schedule-round"
                     : e.field == "warp step" ? "params.schedule-step"
                                              : "params.schedule-rounds",
                     args);
    case Why::ThreadPast1023:
      return Message("params.schedule-thread-past", args);
    case Why::RoundRange:
      return Message("params.schedule-round-range", args);
    case Why::StepRange:
      return Message("params.schedule-step-range", args);
    case Why::TooManyRounds:
      return Message("params.schedule-too-many-rounds", args);
    case Why::NotASchedule:
      break;
  }
  return Message("params.schedule-unknown", args);
}

uint64_t parseSeed(const std::string& data) {
  const std::string digits = data.substr(data.find(':') + 1);
  if (digits.empty() || digits.size() > 19 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw ParamError(Message("params.no-seed", {{"data", data}}));
  return std::stoull(digits);
}

// The run's variant of its lesson, the lesson's first where none is named.
const VariantInfo& checkVariant(Params& p, const LessonInfo& lesson) {
  if (p.variant.empty()) p.variant = lesson.variants.front().id;
  const VariantInfo* variant = lesson.findVariant(p.variant);
  if (!variant)
    throw ParamError(
        Message("params.bad-variant",
                {{"variant", p.variant}, {"lesson", p.lesson}, {"variants", lesson.variantIds()}}));
  return *variant;
}

// The operator and the switches: each only where the variant offers it.
void checkSwitches(Params& p, const LessonInfo& lesson, const VariantInfo& variant) {
  if (p.op == Op::Subtract && !variant.offersSubtract)
    throw ParamError(
        Message("params.no-subtract",
                {{"offered", subtractRunsText()}, {"lesson", p.lesson}, {"variant", p.variant}}));
  if (p.op == Op::Subtract) p.timed = false;  // its answers are the lesson, not its speed
  if (!variant.barrierSwitch && !p.barrier)
    throw ParamError(
        Message("params.no-barrier-switch", {{"lesson", p.lesson}, {"variant", p.variant}}));
  if (!variant.syncwarpSwitch && !p.syncwarp)
    throw ParamError(Message("params.no-syncwarp-switch",
                             {{"variants", variantsWith(&VariantInfo::syncwarpSwitch)},
                              {"lesson", p.lesson},
                              {"variant", p.variant}}));
  if (!variant.perturbs && p.perturb)
    throw ParamError(
        Message("params.perturb-only", {{"variants", variantsWith(&VariantInfo::perturbs)},
                                        {"lesson", p.lesson},
                                        {"variant", p.variant}}));
  if (!lesson.switchableBarrier && p.printing)
    throw ParamError(Message("params.barrier-only", {{"option", "--printf"}}));
}

void checkGpus(Params& p, const LessonInfo& lesson) {
  if (lesson.defaultGpus > 0) {
    if (p.gpus == 0) p.gpus = lesson.defaultGpus;
    if (p.gpus != 1 && p.gpus != 2 && p.gpus != 4 && p.gpus != 8)
      throw ParamError(Message("params.bad-gpus", {{"gpus", p.gpus}}));
  } else if (p.gpus != 0) {
    throw ParamError(Message("params.gpus-allreduce-only", {{"lesson", p.lesson}}));
  }
}

void checkPerThread(Params& p, const VariantInfo& variant) {
  if (variant.defaultPerThread == 0) {
    if (p.perThread != 0)
      throw ParamError(Message("params.per-thread-coarsened-only",
                               {{"lesson", p.lesson}, {"variant", p.variant}}));
    if (!p.loadAdd)
      throw ParamError(Message("params.no-load-add-coarsened-only",
                               {{"lesson", p.lesson}, {"variant", p.variant}}));
  } else {
    if (p.perThread == 0) p.perThread = variant.defaultPerThread;
    if (p.perThread < 1 || p.perThread > kMaxPerThread)
      throw ParamError(
          Message("params.bad-per-thread", {{"perThread", p.perThread}, {"most", kMaxPerThread}}));
  }
}

// Data: explicit values, or a generator. Returns the data's label.
std::string checkData(Params& p, const LessonInfo& lesson, int64_t ranks) {
  if (!p.values.empty()) {
    if (int64_t(p.values.size()) % ranks != 0)
      throw ParamError(
          Message("params.values-uneven", {{"count", p.values.size()}, {"gpus", p.gpus}}));
    const int64_t perRank = int64_t(p.values.size()) / ranks;
    if (p.n != 0 && p.n != perRank)
      throw ParamError(
          Message("params.n-against-values", {{"n", p.n}, {"count", p.values.size()}}));
    p.n = perRank;
    if (p.type == ElementType::Int)
      for (double v : p.values)
        if (v != std::floor(v) || v < -2147483648.0 || v > 2147483647.0)
          throw ParamError(
              Message("params.value-not-int", {{"value", formatValue(v, ElementType::Float)}}));
    return "values";
  }
  if (p.data.empty())
    p.data = p.type == ElementType::Float && !lesson.defaultFloatData.empty()
                 ? lesson.defaultFloatData
                 : "iota";
  const bool seeded = p.data.rfind("random:", 0) == 0 || p.data.rfind("mixed:", 0) == 0;
  if (p.data != "iota" && p.data != "ones" && !seeded)
    throw ParamError(Message("params.bad-data", {{"data", p.data}}));
  if (seeded) parseSeed(p.data);
  return p.data;
}

void checkN(Params& p, const LessonInfo& lesson) {
  if (p.n == 0) p.n = lesson.defaultN;
  const int64_t maxN = std::min(lesson.maxN, kMaxN);
  if (p.n < 1 || p.n > maxN)
    throw ParamError(Message(lesson.oneBlock ? "params.n-range-one-block" : "params.n-range",
                             {{"n", p.n}, {"lesson", p.lesson}, {"most", maxN}}));
}

void checkBlock(Params& p, const LessonInfo& lesson, const VariantInfo& variant) {
  const int minBlock = variant.minBlock;
  if (p.block == 0) {
    const int64_t cover = smallestPowerOfTwoCovering(p.n);
    p.block = int(lesson.oneBlock ? cover : std::min<int64_t>(cover, 256));
    p.block = std::max(p.block, minBlock);
  }
  if (!isPowerOfTwo(p.block) || p.block > 1024)
    throw ParamError(Message("params.bad-block", {{"block", p.block}, {"least", minBlock}}));
  if (p.block < minBlock)
    throw ParamError(Message(
        minBlock >= 32 ? "params.block-warp-operations" : "params.block-passes",
        {{"block", p.block}, {"lesson", p.lesson}, {"variant", p.variant}, {"least", minBlock}}));
  if (lesson.oneBlock && p.block < p.n)
    throw ParamError(
        Message("params.block-below-n", {{"block", p.block}, {"n", p.n}, {"lesson", p.lesson}}));
}

void checkNoLoadAddRoom(const Params& p) {
  if (!p.loadAdd && int64_t(p.perThread) * p.block > kMaxSharedSlots)
    throw ParamError(
        Message("params.no-load-add-too-many", {{"perThread", p.perThread},
                                                {"block", p.block},
                                                {"elements", int64_t(p.perThread) * p.block},
                                                {"most", kMaxSharedSlots}}));
}

void checkDelay(const Params& p, const LessonInfo& lesson, const VariantInfo& variant) {
  if (p.delayThread < 0) return;
  if (!variant.delays)
    throw ParamError(Message("params.delay-only", {{"variants", variantsWith(&VariantInfo::delays)},
                                                   {"lesson", p.lesson},
                                                   {"variant", p.variant}}));
  if (p.delayThread >= p.block)
    throw ParamError(
        Message("params.delay-thread", {{"thread", p.delayThread}, {"last", p.block - 1}}));
  // The levels of one launch: the tree's depth where one block does it all, else the levels
  // of a block's tree (each pass over the block partials has as many).
  const int64_t levels =
      lesson.oneBlock ? variant.longestChain(p.n, p.block) : levelsBelow(p.block);
  if (levels < 1) throw ParamError(Message("params.delay-no-levels", {{"level", p.delayLevel}}));
  if (p.delayLevel > levels)
    throw ParamError(Message("params.delay-level", {{"level", p.delayLevel}, {"levels", levels}}));
}

sim::Schedule checkSchedule(const Params& p, const LessonInfo& lesson) {
  sim::Schedule schedule;
  try {
    schedule = sim::Schedule::parse(p.schedule);
  } catch (const sim::ScheduleError& e) {
    throw ParamError(scheduleRefusal(p.schedule, e));
  }
  // A stall schedule names a thread of each block; one the blocks do not have would never be
  // late, and the run would look like lockstep while claiming to be something else.
  // So with a lane schedule's late thread.
  const bool stall = schedule.kind == sim::Schedule::Kind::Stall,
             lane = schedule.kind == sim::Schedule::Kind::Lane;
  if ((stall || lane) && int64_t(schedule.stallThread) >= p.block)
    throw ParamError(Message(
        stall ? (lesson.oneBlock ? "params.stall-thread-block" : "params.stall-thread-blocks")
              : (lesson.oneBlock ? "params.late-thread-block" : "params.late-thread-blocks"),
        {{"schedule", p.schedule},
         {"thread", int64_t(schedule.stallThread)},
         {"last", p.block - 1}}));
  return schedule;
}

}  // namespace

// The checks run in this order, each filling in its defaults before the next: where a run has
// two bad fields, the first check's sentence is the one said.
Resolved resolve(const Params& in) {
  Resolved r;
  r.params = in;
  Params& p = r.params;
  const LessonInfo& lesson = lessonOrThrow(p.lesson);
  const VariantInfo& variant = checkVariant(p, lesson);
  checkSwitches(p, lesson, variant);
  checkGpus(p, lesson);
  const int64_t ranks = std::max(p.gpus, 1);
  checkPerThread(p, variant);
  r.dataLabel = checkData(p, lesson, ranks);
  checkN(p, lesson);
  checkBlock(p, lesson, variant);
  checkNoLoadAddRoom(p);
  checkDelay(p, lesson, variant);
  r.schedule = std::make_shared<const sim::Schedule>(checkSchedule(p, lesson));
  r.lesson = &lesson;
  r.variant = &variant;
  return r;
}

Params tourStopParams(const LessonInfo& lesson, const TourStop& stop) {
  Params p;
  p.lesson = lesson.id;
  p.variant = stop.variant;
  p.n = stop.n;
  p.block = stop.block;
  p.barrier = stop.barrier;
  p.schedule = stop.schedule;
  p.gpus = stop.gpus;
  return p;
}

std::vector<double> makeInput(const Resolved& r) {
  const Params& p = r.params;
  if (!p.values.empty()) return p.values;
  std::vector<double> data(size_t(p.n) * size_t(std::max(p.gpus, 1)));
  if (p.data == "iota") {
    for (size_t i = 0; i < data.size(); ++i) data[i] = double(i + 1);
  } else if (p.data == "ones") {
    std::fill(data.begin(), data.end(), 1.0);
  } else {
    uint64_t state = parseSeed(p.data) * 0x9e3779b97f4a7c15ull + 1;
    auto next = [&] {  // xorshift64*: the same numbers everywhere
      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      return state * 0x2545f4914f6cdd1dull;
    };
    const bool mixed = p.data.rfind("mixed:", 0) == 0;
    for (double& v : data) {
      const uint64_t r = next();
      if (!mixed)
        v = double((r >> 60) % 10);  // 0..9: sums stay exact
      else if (p.type == ElementType::Float)
        v = std::ldexp(double(1 + (r >> 59) % 9), int((r >> 32) % 31) - 10) * (r & 1 ? -1 : 1);
      else
        v = double(1 + (r >> 40) % 100000) * (r & 1 ? -1 : 1);
    }
  }
  return data;
}

}  // namespace rlab
