#include "lessons/trace.hpp"

#include <cmath>

namespace rlab {

std::string howFarOff(const Trace& t) {
  if (t.correct || t.params.op != Op::Sum || !std::isfinite(t.result) || !std::isfinite(t.expected))
    return "";
  return formatValue(std::fabs(t.expected - t.result), t.params.type) +
         (t.result < t.expected ? " short" : " over");
}

std::string staleReadText(const CombineRead& c, const ValueRead& r, ElementType type) {
  const std::string element = "a[" + std::to_string(r.element) + "]";
  std::string text = "thread " + std::to_string(c.thread) + " read " + element + " = " +
                     formatValue(r.value, type);
  if (r.overwrittenBy >= 0)
    return text + " too late: thread " + std::to_string(r.overwrittenBy) +
           " had already overwritten it in the same step; it should have read " +
           formatValue(r.missed, type) +
           (r.missedStep > 0 ? " (step " + std::to_string(r.missedStep) + "'s value)"
                             : " (the input)") +
           ", a write after read";
  if (r.writtenAt > 0) text += " (step " + std::to_string(r.writtenAt) + "'s value)";
  if (r.writtenAt == 0) text += " (the input)";
  text += r.writtenAt < 0 ? " before it was written, " : " too early: ";
  text += r.missedWriter >= 0
              ? "thread " + std::to_string(r.missedWriter) + " wrote " +
                    formatValue(r.missed, type) + " there in step " + std::to_string(r.missedStep)
              : "it held " + formatValue(r.missed, type);
  return text;
}

std::vector<std::string> staleReads(const StepSnapshot& s, ElementType type) {
  std::vector<std::string> found;
  for (const CombineRead& c : s.combines)
    for (const ValueRead* r : {&c.target, &c.source})
      if (r->stale) found.push_back(staleReadText(c, *r, type));
  return found;
}

std::string ranksText(unsigned mask, int gpus) {
  if (gpus > 1 && mask == (1u << gpus) - 1) return "all";
  std::string text;
  for (int r = 0; r < gpus; ++r)
    if (mask & (1u << r)) text += (text.empty() ? "" : "+") + std::to_string(r);
  return text;
}

double sectorEfficiency(const WarpMemoryRequest& r) {
  return r.sectors ? 100.0 * double(r.usefulBytes) / (32.0 * r.sectors) : 0;
}

MemoryStepSummary summarizeMemory(const std::vector<WarpMemoryRequest>& requests) {
  MemoryStepSummary s;
  for (const WarpMemoryRequest& r : requests) {
    ++s.requests;
    s.sectors += r.sectors;
    s.minSectors += r.minSectors;
    s.usefulBytes += r.usefulBytes;
  }
  if (s.sectors) s.efficiency = 100.0 * double(s.usefulBytes) / (32.0 * double(s.sectors));
  return s;
}

}  // namespace rlab
