// The check of a verification case against the reference, and the case in words: its sentence
// and the line that replays it. The cases themselves: verify_cases.cpp.
//
// [SECTION] The check
// [SECTION] Sentences and replay lines

#include "lessons/engine/races/verify.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>

#include "lessons/engine/races/verify_number.hpp"
#include "lessons/engine/run/reference.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab {

// ============================================================================================
// [SECTION] The check
// ============================================================================================

namespace {

std::string valueText(double v, ElementType type) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (type == ElementType::Int) return verifyNumber(v);
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

}  // namespace

VerifyOutcome verify(const VerifyCase& c, const KernelRunner& runKernel) {
  VerifyOutcome outcome;
  Resolved resolved;
  try {
    resolved = resolve(c.params);
  } catch (const std::exception& e) {
    outcome.sentence =
        Message("verify.invalid", {{"case", describeCase(c)}, {"why", messageOf(e)}});
    return outcome;
  }
  const Params& p = resolved.params;
  const Reference ref = reference(p.op, p.type, makeInput(resolved));
  outcome.expected = ref.expected;
  outcome.tolerance = ref.tolerance;
  try {
    outcome.result = runKernel(p);
  } catch (const std::exception& e) {
    Message why = messageOf(e);  // another program's words end as a sentence does
    if (why.id == "verbatim" && !why.arg("text").empty() && why.arg("text").back() != '.')
      why = verbatim(why.arg("text") + ".");
    outcome.sentence =
        Message("verify.run-failed",
                {{"case", describeCase(c)}, {"why", why}, {"replay", replayCommand(c)}});
    return outcome;
  }
  outcome.passed = matches(outcome.result, ref);
  if (!outcome.passed)
    outcome.sentence = Message(ref.tolerance > 0 ? "verify.wrong-within" : "verify.wrong",
                               {{"case", describeCase(c)},
                                {"result", valueText(outcome.result, p.type)},
                                {"expected", valueText(ref.expected, p.type)},
                                {"tolerance", valueText(ref.tolerance, p.type)},
                                {"replay", replayCommand(c)}});
  return outcome;
}

VerifyReport verifyAll(const std::vector<VerifyCase>& cases, const KernelRunner& runKernel,
                       int stopAfter) {
  VerifyReport report;
  for (const VerifyCase& c : cases) {
    VerifyOutcome outcome = verify(c, runKernel);
    ++report.casesRun;
    if (outcome.passed) continue;
    ++report.failed;
    report.failures.push_back(std::move(outcome));
    if (stopAfter > 0 && report.failed >= stopAfter) break;
  }
  return report;
}

Message VerifyReport::summary() const {
  if (passed()) return Message("verify.all-passed", {{"cases", casesRun}});
  std::vector<Message> sentences;
  for (const VerifyOutcome& f : failures) sentences.push_back(withReplay(f.sentence));
  return Message("verify.some-failed",
                 {{"failed", failed}, {"cases", casesRun}, {"failures", sentences}});
}

Message withReplay(const Message& failure) {
  const std::string replay = failure.arg("replay");
  if (replay.empty()) return failure;
  return Message("verify.with-replay", {{"sentence", failure}, {"command", replay}});
}

double runLessonKernel(const Params& p) {
  return runLesson(p).result;
}

// ============================================================================================
// [SECTION] Sentences and replay lines
// ============================================================================================

namespace {

// The values for --values="...": runs of four or more equal values become $(printf ...), so
// a single extreme among 4096 other values takes one short line.
std::string shellValueList(const std::vector<double>& values) {
  std::string out;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    const bool last = j == values.size();
    const std::string v = verifyNumber(values[i]);
    if (j - i >= 4) {
      out += "$(printf -- '" + v + ",%.0s' $(seq " + std::to_string(j - i - (last ? 1 : 0)) + "))";
      if (last) out += v;
    } else {
      for (size_t k = i; k < j; ++k) out += v + (last && k + 1 == j ? "" : ",");
    }
    i = j;
  }
  return out;
}

}  // namespace

Message describeCase(const VerifyCase& c) {
  const Params& p = c.params;
  Message block = p.block ? verbatim(std::to_string(p.block)) : Message("verify.default-block");
  try {
    const Resolved r = resolve(p);
    if (p.block == 0) block = Message("verify.block-default", {{"block", r.params.block}});
  } catch (const std::exception&) {
  }
  const Message subject = !c.subject.empty() ? c.subject
                          : p.variant.empty()
                              ? Message("verify.default-variant", {{"lesson", p.lesson}})
                              : verbatim(p.lesson + " " + p.variant);
  // The switches the case runs with, beyond the lesson's defaults.
  std::vector<Message> extras;
  if (p.schedule != "lockstep") extras.push_back(verbatim("schedule " + p.schedule));
  if (!p.barrier) extras.push_back(verbatim("barrier=off"));
  if (p.perturb) extras.push_back(verbatim("perturb"));
  if (p.printing) extras.push_back(verbatim("printf"));
  if (p.delayThread >= 0) extras.push_back(verbatim("--delay " + delayText(p)));
  if (p.backend != BackendChoice::Sim)
    extras.push_back(verbatim(std::string("backend ") + name(p.backend)));
  const Message data = !c.data.empty()    ? c.data
                       : p.values.empty() ? verbatim(p.data)
                                          : verbatim("values");
  return Message(extras.empty() ? "verify.case" : "verify.case-with",
                 {{"subject", subject},
                  {"n", p.values.empty() ? p.n : int64_t(p.values.size())},
                  {"block", block},
                  {"op", name(p.op)},
                  {"type", name(p.type)},
                  {"data", data},
                  {"extras", extras}});
}

std::string replayCommand(const VerifyCase& c) {
  const Params& p = c.params;
  int block = p.block;
  try {
    block = resolve(p).params.block;
  } catch (const std::exception&) {
  }
  const bool lessonRun = c.replayWith.empty();
  std::string line = lessonRun ? "rlab run " + p.lesson : c.replayWith;
  if (lessonRun && !p.variant.empty()) line += " --variant " + p.variant;
  if (p.values.empty()) line += " --n " + std::to_string(p.n) + " --data " + p.data;
  if (block) line += " --block " + std::to_string(block);
  if (lessonRun) line += std::string(" --op ") + name(p.op) + " --type " + name(p.type);
  if (!p.values.empty()) line += " --values=\"" + shellValueList(p.values) + "\"";
  if (!p.barrier) line += " --no-barrier";
  if (p.perturb) line += " --perturb";
  if (p.printing) line += " --printf";
  if (p.delayThread >= 0) line += " --delay " + delayText(p);
  if (p.schedule != "lockstep") line += " --schedule " + p.schedule;
  if (!lessonRun) return line + (p.backend == BackendChoice::Gpu ? " --backend gpu" : "");
  line += std::string(" --backend ") + name(p.backend);
  if (p.backend != BackendChoice::Sim) line += " --no-timings";
  return line;
}

}  // namespace rlab
