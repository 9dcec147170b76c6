// Trace views for the terminal and for scripts. They read the Trace; they compute nothing.
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/registry.hpp"

namespace rlab::cli {

namespace {

constexpr size_t kShownValues = 24;  // per row; longer rows show both ends
constexpr size_t kJsonValues = 4096;

const char* const kReset = "\033[0m";
const char* const kChanged = "\033[1;33m";  // bold yellow: changed in this step
const char* const kWorked = "\033[36m";     // cyan: written by a working thread
const char* const kWrong = "\033[1;31m";
const char* const kRight = "\033[1;32m";

}  // namespace

void printTraceText(const Trace& t, std::ostream& out, bool colour) {
  const Params& p = t.params;
  out << p.lesson << " (" << p.variant << ")  n=" << p.n << "  block=" << p.block << "  "
      << name(p.op) << "  " << name(p.type) << "  data=" << t.dataLabel;
  if (findLesson(p.lesson)->switchableBarrier)
    out << "  barrier=" << (p.barrier ? "on" : "off") << (p.perturb ? "  perturbed" : "");
  out << "\n" << (t.backend == "gpu" ? "GPU: " : "") << t.device << "\n";

  if (!t.steps.empty()) {
    size_t widestLabel = 5;
    for (const auto& s : t.steps) widestLabel = std::max(widestLabel, s.label.size());
    size_t cell = 1;
    for (const auto& s : t.steps)
      for (size_t i = 0; i < std::min(s.values.size(), kShownValues); ++i)
        cell = std::max(cell, formatValue(s.values[i], p.type).size());
    const std::vector<double>* previous = nullptr;
    for (size_t k = 0; k < t.steps.size(); ++k) {
      const StepSnapshot& s = t.steps[k];
      std::set<int> written;
      for (const auto& pair : s.pairs) written.insert(pair.second);
      out << std::setw(4) << k << "  " << s.label
          << std::string(widestLabel - s.label.size() + 2, ' ');
      auto printCell = [&](size_t i) {
        const std::string text = formatValue(s.values[i], p.type);
        const bool changed = previous && i < previous->size() && (*previous)[i] != s.values[i];
        const char* style = !colour                 ? ""
                            : changed               ? kChanged
                            : written.count(int(i)) ? kWorked
                                                    : "";
        out << ' ' << std::string(cell - std::min(cell, text.size()), ' ') << style << text
            << (*style ? kReset : "");
      };
      if (s.values.size() <= kShownValues) {
        for (size_t i = 0; i < s.values.size(); ++i) printCell(i);
      } else {
        for (size_t i = 0; i < 16; ++i) printCell(i);
        out << "  …";
        for (size_t i = s.values.size() - 6; i < s.values.size(); ++i) printCell(i);
        out << "  (" << s.values.size() << " values)";
      }
      if (k > 0 && !s.active.empty()) {
        out << "   " << s.active.size() << (s.active.size() == 1 ? " thread" : " threads");
        if (!s.activeWarps.empty())
          out << ", " << s.activeWarps.size() << (s.activeWarps.size() == 1 ? " warp" : " warps");
        if (s.bankConflictDegree > 1) out << ", " << s.bankConflictDegree << "-way bank conflict";
      }
      out << "\n";
      for (const std::string& stale : staleReads(s, p.type))
        out << "        " << (colour ? kWrong : "") << "stale read: " << stale
            << (colour ? kReset : "") << "\n";
      previous = &s.values;
    }
  }
  if (!t.atomicOrder.empty() && t.atomicOrder.size() <= 64) {
    out << "atomics landed in this order:";
    for (const auto& a : t.atomicOrder) out << ' ' << a.thread;
    out << "\n";
  }
  if (!t.blockPartials.empty() && t.blockPartials.size() <= 64) {
    out << "block partials:";
    for (double v : t.blockPartials) out << ' ' << formatValue(v, p.type);
    out << "\n";
  }
  for (const auto& note : t.notes) out << "note: " << note << "\n";
  const char* verdictStyle = colour ? (t.correct ? kRight : kWrong) : "";
  out << "result " << formatValue(t.result, p.type) << "   expected "
      << formatValue(t.expected, p.type);
  if (t.tolerance > 0) out << " (± " << std::setprecision(3) << t.tolerance << ")";
  out << "   " << verdictStyle << (t.correct ? "correct" : "WRONG") << (colour ? kReset : "");
  if (!howFarOff(t).empty()) out << " (" << howFarOff(t) << ")";
  out << "\n";
  if (t.timings.measured) {
    const Timings& m = t.timings;
    out << std::setprecision(4) << "kernel " << m.kernelMs << " ms (median of " << m.repetitions
        << "), with copies " << m.withCopiesMs << " ms, " << m.gbPerSecond
        << " GB/s = " << m.copyFraction * 100 << "% of copy bandwidth, CPU loop " << m.cpuMs
        << " ms, CUB " << m.cubMs << " ms (" << m.cubRatio << "x CUB)\n";
  } else if (t.backend == "sim") {
    out << std::setprecision(3) << "simulated in " << t.timings.simSeconds
        << " s (CPU time of the simulator, not a GPU time)\n";
  }
}

std::string traceJson(const Trace& t) {
  using nlohmann::json;
  const Params& p = t.params;
  json j;
  j["lesson"] = p.lesson;
  j["variant"] = p.variant;
  j["backend"] = t.backend;
  j["device"] = t.device;
  j["n"] = p.n;
  j["block"] = p.block;
  j["op"] = name(p.op);
  j["type"] = name(p.type);
  j["data"] = t.dataLabel;
  j["barrier"] = p.barrier;
  j["perturb"] = p.perturb;
  j["schedule"] = t.backend == "sim" ? json(p.schedule) : json(nullptr);
  j["traced"] = t.traced;
  auto value = [&](double v) -> json {
    if (!std::isfinite(v)) return std::isnan(v) ? json("nan") : json(v > 0 ? "inf" : "-inf");
    if (p.type == ElementType::Int) return json(int64_t(v));
    return json(v);
  };
  json steps = json::array();
  for (const auto& s : t.steps) {
    json step;
    step["label"] = s.label;
    json values = json::array();
    for (size_t i = 0; i < std::min(s.values.size(), kJsonValues); ++i)
      values.push_back(value(s.values[i]));
    step["values"] = values;
    if (s.values.size() > kJsonValues) step["values_total"] = s.values.size();
    step["active"] = s.active;
    json pairs = json::array();
    for (const auto& pr : s.pairs) pairs.push_back({pr.first, pr.second});
    step["pairs"] = pairs;
    if (!s.combines.empty()) {
      json combines = json::array();
      auto read = [&](const ValueRead& r) {
        json j = {{"element", r.element},
                  {"value", value(r.value)},
                  {"written_at", r.writtenAt},
                  {"stale", r.stale}};
        if (r.stale)
          j.update({{"missed", value(r.missed)},
                    {"missed_writer", r.missedWriter},
                    {"missed_step", r.missedStep}});
        return j;
      };
      for (const CombineRead& c : s.combines) {
        json combine = {
            {"thread", c.thread}, {"target", read(c.target)}, {"wrote", value(c.wrote)}};
        if (c.source.element >= 0) combine["source"] = read(c.source);
        combines.push_back(combine);
      }
      step["combines"] = combines;
    }
    if (!s.activeWarps.empty() || s.bankConflictDegree) {
      step["active_warps"] = s.activeWarps;
      step["bank_conflict_degree"] = s.bankConflictDegree;
    }
    steps.push_back(step);
  }
  j["steps"] = steps;
  j["result"] = value(t.result);
  j["expected"] = value(t.expected);
  j["tolerance"] = t.tolerance;
  j["correct"] = t.correct;
  if (!t.atomicOrder.empty()) {
    json order = json::array();
    for (const auto& a : t.atomicOrder)
      order.push_back(
          {{"thread", a.thread}, {"before", value(a.before)}, {"value", value(a.value)}});
    j["atomic_order"] = order;
  }
  if (!t.blockPartials.empty()) {
    json partials = json::array();
    for (double v : t.blockPartials) partials.push_back(value(v));
    j["block_partials"] = partials;
  }
  j["notes"] = t.notes;
  json timings;
  if (t.timings.measured) {
    const Timings& m = t.timings;
    timings = {{"repetitions", m.repetitions},
               {"kernel_ms", m.kernelMs},
               {"with_copies_ms", m.withCopiesMs},
               {"gb_per_s", m.gbPerSecond},
               {"copy_fraction", m.copyFraction},
               {"cpu_ms", m.cpuMs},
               {"cub_ms", m.cubMs},
               {"cub_ratio", m.cubRatio}};
  } else {
    timings = {{"simulator_seconds", t.timings.simSeconds}};
  }
  j["timings"] = timings;
  return j.dump();
}

std::string lessonsJson() {
  using nlohmann::json;
  json all = json::array();
  for (const LessonInfo& l : lessons()) {
    json lesson = {
        {"id", l.id},
        {"title", l.title},
        {"variants",
         [&] {
           std::vector<std::string> ids;
           for (const VariantInfo& v : l.variants) ids.push_back(v.id);
           return ids;
         }()},
        {"n", {{"min", 1}, {"max", l.maxN}, {"default", l.defaultN}}},
        {"block", {{"power_of_two", true}, {"max", 1024}, {"min", l.variants.back().minBlock}}},
        {"one_block", l.oneBlock},
        {"switchable_barrier", l.switchableBarrier},
        {"kernel_file", l.kernelFile}};
    all.push_back(lesson);
  }
  json j = {
      {"lessons", all},
      {"ops", {"sum", "max", "min", "product"}},
      {"types", {"int", "float"}},
      {"data", {"iota", "ones", "random:SEED", "--values LIST"}},
      {"schedules",
       {"lockstep", "sequential", "reverse", "random:SEED", "warps-random:SEED", "stall:T:R:K"}},
      {"backends", {"sim", "gpu", "auto"}}};
  return j.dump(2);
}

}  // namespace rlab::cli
