#include "lessons/engine/run/trace.hpp"

#include <algorithm>
#include <cmath>

namespace rlab {

const char* name(MemoryAccess::Kind kind) {
  switch (kind) {
    case MemoryAccess::Kind::Read:
      return "read";
    case MemoryAccess::Kind::Write:
      return "write";
    case MemoryAccess::Kind::Atomic:
      return "atomic";
  }
  return "read";
}

std::vector<std::string> outputLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

Message howFarOff(const Trace& t) {
  if (t.correct || t.params.op != Op::Sum || !std::isfinite(t.result) ||
      !std::isfinite(t.expected) || t.result == t.expected)  // wrong for another reason
    return {};
  const std::string by = formatValue(std::fabs(t.expected - t.result), t.params.type);
  return t.result < t.expected ? Message("result.short", {{"by", by}})
                               : Message("result.over", {{"by", by}});
}

Message resultLine(const Trace& t) {
  const std::string result = formatValue(t.result, t.params.type),
                    expected = formatValue(t.expected, t.params.type);
  if (!t.singleAnswer)
    return Message("result.no-single-answer", {{"result", result}, {"expected", expected}});
  if (t.tolerance > 0)
    return Message("result.line-within", {{"result", result},
                                          {"expected", expected},
                                          {"tolerance", printedNumber("%.3g", t.tolerance)}});
  return Message("result.line", {{"result", result}, {"expected", expected}});
}

Message verdictWord(const Trace& t) {
  if (!t.singleAnswer) return Message("result.verdict-none", {{"op", name(t.params.op)}});
  return t.correct ? Message("result.verdict-correct") : Message("result.verdict-wrong");
}

std::vector<Message> timingLines(const Trace& t) {
  const Timings& m = t.timings;
  auto g = [](double v, int digits = 4) {
    return printedNumber("%." + std::to_string(digits) + "g", v);
  };
  if (m.measured && t.gpus > 0)
    return {Message("timing.allreduce", {{"ms", g(m.kernelMs)}, {"repetitions", m.repetitions}}),
            Message("timing.allreduce-bandwidth", {{"algorithm", g(m.gbPerSecond)},
                                                   {"bus", g(m.busGBs)},
                                                   {"percent", g(m.copyFraction * 100, 3)},
                                                   {"peer", g(m.peerCopyGBs)}})};
  if (m.measured)
    return {Message("timing.kernel", {{"ms", g(m.kernelMs)},
                                      {"repetitions", m.repetitions},
                                      {"withCopies", g(m.withCopiesMs)}}),
            Message("timing.bandwidth",
                    {{"gbs", g(m.gbPerSecond)}, {"percent", g(m.copyFraction * 100, 3)}}),
            Message("timing.against", {{"cpu", g(m.cpuMs)},
                                       {"times", g(m.kernelMs > 0 ? m.cpuMs / m.kernelMs : 0, 3)},
                                       {"cub", g(m.cubMs)},
                                       {"ratio", g(m.cubRatio, 3)}})};
  if (t.backend == BackendChoice::Sim)
    return {Message("timing.simulated", {{"seconds", g(m.simSeconds, 3)}})};
  return {};
}

Message staleReadText(const CombineRead& c, const ValueRead& r, ElementType type,
                      const std::string& array) {
  const std::string element = array + "[" + std::to_string(r.element) + "]";
  const std::string value = formatValue(r.value, type), missed = formatValue(r.missed, type);
  auto valueOf = [](int step) {
    return step > 0 ? Message("stale.step-value", {{"step", step}}) : Message("stale.input");
  };
  if (r.overwrittenBy >= 0)
    return Message("stale.late", {{"thread", c.thread},
                                  {"element", element},
                                  {"value", value},
                                  {"overwriter", r.overwrittenBy},
                                  {"missed", missed},
                                  {"missedValue", valueOf(r.missedStep)}});
  const Message what =
      r.missedWriter >= 0
          ? Message("stale.missed-write",
                    {{"writer", r.missedWriter}, {"missed", missed}, {"step", r.missedStep}})
          : Message("stale.missed-held", {{"missed", missed}});
  if (r.writtenAt < 0)
    return Message("stale.before-written",
                   {{"thread", c.thread}, {"element", element}, {"value", value}, {"what", what}});
  return Message("stale.early", {{"thread", c.thread},
                                 {"element", element},
                                 {"value", value},
                                 {"valueOf", valueOf(r.writtenAt)},
                                 {"what", what}});
}

std::vector<Message> staleReads(const StepSnapshot& s, ElementType type) {
  std::vector<Message> found;
  for (const CombineRead& c : s.combines)
    for (const ValueRead* r : {&c.target, &c.source})
      if (r->stale) found.push_back(staleReadText(c, *r, type, s.array));
  return found;
}

std::vector<LateWrite> lateWrites(const Trace& t, int step) {
  std::vector<LateWrite> late;
  for (size_t s = size_t(step) + 1; s < t.steps.size(); ++s)
    for (const CombineRead& c : t.steps[s].combines)
      for (const ValueRead* r : {&c.target, &c.source}) {
        if (!r->stale || r->missedStep != step || r->missedWriter < 0) continue;
        bool known = false;
        for (const LateWrite& w : late) known |= w.element == r->element;
        if (!known) late.push_back({r->element, r->missedWriter, r->missed, c.thread, int(s)});
      }
  return late;
}

std::string ranksText(unsigned mask, int gpus) {
  if (gpus > 1 && mask == (1u << gpus) - 1) return "all";
  std::string text;
  for (int r = 0; r < gpus;) {
    if (!(mask & (1u << r))) {
      ++r;
      continue;
    }
    int last = r;  // a run of ranks: three or more as "0-4" where there are more than 4 GPUs
    while (last + 1 < gpus && (mask & (1u << (last + 1)))) ++last;
    if (gpus <= 4 || last - r < 2) last = r;
    text += (text.empty() ? "" : "+") + std::to_string(r) +
            (last > r ? "-" + std::to_string(last) : "");
    r = last + 1;
  }
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

namespace rlab {

FoldPicture foldPicture(const Trace& t, int step) {
  FoldPicture f;
  if (step <= 0 || size_t(step) >= t.steps.size()) return f;
  const StepSnapshot& s = t.steps[size_t(step)];
  f.valid = true;
  f.before = t.steps[size_t(step) - 1].values;
  f.len = (long long)f.before.size();
  f.remain = (long long)s.values.size();
  auto valueAt = [](const std::vector<double>& v, int e) {
    return e >= 0 && size_t(e) < v.size() ? v[size_t(e)] : 0.0;
  };
  if (!s.combines.empty()) {
    for (const CombineRead& c : s.combines)
      f.arcs.push_back(
          {c.source.element, c.target.element, c.source.value, c.target.value, c.wrote});
  } else {
    for (const auto& [source, target] : s.pairs)
      f.arcs.push_back({source, target, valueAt(f.before, source), valueAt(f.before, target),
                        valueAt(s.values, target)});
  }
  std::sort(f.arcs.begin(), f.arcs.end(),
            [](const FoldArc& a, const FoldArc& b) { return a.to < b.to; });
  std::vector<char> touched(size_t(f.len), 0);
  for (const FoldArc& a : f.arcs)
    for (int e : {a.from, a.to})
      if (e >= 0 && e < f.len) touched[size_t(e)] = 1;
  for (long long e = 0; e < f.len; ++e)
    if (!touched[size_t(e)]) {
      f.waiting = e;
      break;
    }
  return f;
}

LaunchTable launchTable(const Trace& t) {
  LaunchTable table;
  table.columns = {Message("launch.column-launch"), Message("launch.column-grid"),
                   Message("launch.column-threads")};
  std::vector<std::string> names;  // the driver's, in the order they first come
  for (const LaunchRecord& l : t.launches)
    for (const auto& [name, value] : l.values)
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
        table.columns.push_back(verbatim(name));
      }
  for (size_t k = 0; k < t.launches.size(); ++k) {
    const LaunchRecord& l = t.launches[k];
    std::vector<std::string> row = {std::to_string(k + 1),
                                    std::to_string(l.grid) + " x " + std::to_string(l.block),
                                    std::to_string(l.grid * l.block)};
    row.resize(table.columns.size());
    for (const auto& [name, value] : l.values)
      row[3 + size_t(std::find(names.begin(), names.end(), name) - names.begin())] =
          std::to_string(value);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace rlab
