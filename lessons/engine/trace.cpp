#include "lessons/engine/trace.hpp"

#include <algorithm>
#include <cmath>

namespace rlab {

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

std::string howFarOff(const Trace& t) {
  if (t.correct || t.params.op != Op::Sum || !std::isfinite(t.result) ||
      !std::isfinite(t.expected) || t.result == t.expected)  // wrong for another reason
    return "";
  return formatValue(std::fabs(t.expected - t.result), t.params.type) +
         (t.result < t.expected ? " short" : " over");
}

std::string staleReadText(const CombineRead& c, const ValueRead& r, ElementType type,
                          const std::string& array) {
  const std::string element = array + "[" + std::to_string(r.element) + "]";
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
  table.columns = {"launch", "grid x block", "threads"};
  for (const LaunchRecord& l : t.launches)
    for (const auto& [name, value] : l.values)
      if (std::find(table.columns.begin(), table.columns.end(), name) == table.columns.end())
        table.columns.push_back(name);
  for (size_t k = 0; k < t.launches.size(); ++k) {
    const LaunchRecord& l = t.launches[k];
    std::vector<std::string> row = {std::to_string(k + 1),
                                    std::to_string(l.grid) + " x " + std::to_string(l.block),
                                    std::to_string(l.grid * l.block)};
    row.resize(table.columns.size());
    for (const auto& [name, value] : l.values)
      row[size_t(std::find(table.columns.begin(), table.columns.end(), name) -
                 table.columns.begin())] = std::to_string(value);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace rlab
