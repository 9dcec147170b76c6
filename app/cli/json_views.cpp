// JSON views for scripts: every object is built with nlohmann::json, so strings are escaped,
// and every number goes through jsonNumber or jsonValue, so inf and NaN stay valid JSON.
#include <cmath>

#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "lessons/engine/run/timeline.hpp"

namespace rlab::cli {

using nlohmann::json;

namespace {

constexpr size_t kJsonValues = 4096;  // per step; values_total says how many there were

// The variants that have `field`: a barrier --no-barrier switches off, __syncwarp() calls
// --no-syncwarp takes out.
json variantsWith(const LessonInfo& l, bool VariantInfo::*field) {
  json ids = json::array();
  for (const VariantInfo& v : l.variants)
    if (v.*field) ids.push_back(v.id);
  return ids;
}

json delayJson(const Params& p) {
  if (p.delayThread < 0) return nullptr;
  return {{"thread", p.delayThread}, {"level", p.delayLevel}};
}

}  // namespace

json jsonNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json jsonValue(double v, ElementType type) {
  if (type == ElementType::Int && std::isfinite(v)) return int64_t(v);
  return jsonNumber(v);
}

json timelineJson(const Trace& t) {
  const Timeline tl = buildTimeline(t);
  if (!tl.available) return {{"available", false}, {"why", tl.why}};
  json rows = json::array();
  for (const TimelineRow& r : tl.rows) {
    json cells = json::array();
    for (const TimelineCell& c : r.cells)
      cells.push_back({{"level", c.level},
                       {"column", c.column + 1},
                       {"read_tick", c.readTick},
                       {"write_tick", c.writeTick},
                       {"read_clock", c.readClock},
                       {"wrote_clock", c.wroteClock},
                       {"late", c.late},
                       {"stale_read", c.staleRead},
                       {"text", cellText(c, t.params.op, t.params.type)}});
    rows.push_back({{"thread", r.thread}, {"cells", cells}});
  }
  json early = json::array();
  for (const TimelineEarlyRead& e : tl.earlyReads)
    early.push_back(
        {{"reader", tl.rows[size_t(e.readerRow)].thread},
         {"writer", e.writerRow >= 0 ? json(tl.rows[size_t(e.writerRow)].thread) : json(nullptr)},
         {"element", e.element},
         {"value", jsonValue(e.value, t.params.type)},
         {"missed", jsonValue(e.missed, t.params.type)},
         {"read_tick", e.readTick},
         {"write_tick", e.writeTick},
         {"text", e.text}});
  return {{"available", true},
          {"measured", tl.measured},
          {"clock", tl.clockText},
          {"columns", tl.columns},
          {"rows", rows},
          {"early_reads", early},
          {"reads_after_their_write", tl.readsAfterTheirWrite},
          {"reads_before_their_write", tl.readsBeforeTheirWrite}};
}

namespace {

// What was run, and how: the lesson, its parameters, the backend and the device.
void addRunSettings(json& j, const Trace& t) {
  const Params& p = t.params;
  j["lesson"] = p.lesson;
  j["variant"] = p.variant;
  if (!t.exercise.empty()) j["exercise"] = t.exercise;  // the learner's kernel ran
  j["backend"] = name(t.backend);
  j["device"] = t.device;
  j["n"] = p.n;
  j["block"] = p.block;
  j["op"] = name(p.op);
  j["type"] = name(p.type);
  j["data"] = t.dataLabel;
  j["barrier"] = p.barrier;
  j["syncwarp"] = p.syncwarp;
  j["perturb"] = p.perturb;
  j["printf"] = p.printing;
  j["delay"] = delayJson(p);
  if (p.perThread > 0) {  // shared coarsened: elements per thread, the add during the load
    j["per_thread"] = p.perThread;
    j["load_add"] = p.loadAdd;
  }
  j["schedule"] = t.backend == BackendChoice::Sim ? json(p.schedule) : json(nullptr);
  j["traced"] = t.traced;
  j["memory_recorded"] = t.memoryRecorded;
  if (t.gpus > 0) {
    j["gpus"] = t.gpus;
    j["chunk_starts"] = t.chunkStarts;
    j["rank_wrong_elements"] = t.rankWrongElements;
  }
}

json launchesJson(const Trace& t) {
  json launches = json::array();
  for (const LaunchRecord& l : t.launches) {
    json launch = {{"grid", l.grid}, {"block", l.block}};
    for (const auto& [name, v] : l.values) launch[name] = v;
    launches.push_back(launch);
  }
  return launches;
}

json transfersJson(const StepSnapshot& s) {
  json transfers = json::array();
  for (const Transfer& x : s.transfers)
    transfers.push_back({{"from", x.from},
                         {"to", x.to},
                         {"begin", x.begin},
                         {"end", x.end},
                         {"bytes", x.bytes},
                         {"combined", x.combined}});
  return transfers;
}

json valueReadJson(const ValueRead& r, ElementType type) {
  json j = {{"element", r.element},
            {"value", jsonValue(r.value, type)},
            {"written_at", r.writtenAt},
            {"stale", r.stale}};
  if (r.stale)
    j.update({{"missed", jsonValue(r.missed, type)},
              {"missed_writer", r.missedWriter},
              {"missed_step", r.missedStep}});
  if (r.overwrittenBy >= 0) j["overwritten_by"] = r.overwrittenBy;
  return j;
}

json combinesJson(const StepSnapshot& s, ElementType type) {
  json combines = json::array();
  for (const CombineRead& c : s.combines) {
    json combine = {{"thread", c.thread},
                    {"target", valueReadJson(c.target, type)},
                    {"wrote", jsonValue(c.wrote, type)}};
    if (c.source.element >= 0) combine["source"] = valueReadJson(c.source, type);
    if (c.readClock >= 0) {
      combine["read_clock"] = c.readClock;
      combine["wrote_clock"] = c.wroteClock;
    }
    combines.push_back(combine);
  }
  return combines;
}

// coarsening: the elements each thread read, in its order
json gathersJson(const StepSnapshot& s, ElementType type) {
  json gathers = json::array();
  for (size_t k = 0; k < s.gathers.size(); ++k) {
    json read = json::array();
    for (double v : s.gathers[k].values) read.push_back(jsonValue(v, type));
    gathers.push_back({{"thread", k}, {"elements", s.gathers[k].elements}, {"values", read}});
  }
  return gathers;
}

json memoryJson(const StepSnapshot& s) {
  json requests = json::array();
  for (const WarpMemoryRequest& r : s.memory) {
    json lanes = json::array();
    for (const LaneAddress& a : r.lanes)
      lanes.push_back(
          {{"lane", a.lane}, {"offset", a.offset}, {"bytes", a.bytes}, {"sector", a.sector}});
    requests.push_back({{"block", r.block},
                        {"warp", r.warp},
                        {"argument", r.buffer},
                        {"store", r.write},
                        {"lanes", lanes},
                        {"sectors", r.sectors},
                        {"lines", r.lines},
                        {"useful_bytes", r.usefulBytes},
                        {"min_sectors", r.minSectors},
                        {"efficiency_percent", jsonNumber(sectorEfficiency(r))}});
  }
  const MemoryStepSummary sum = summarizeMemory(s.memory);
  return {{"requests", requests},
          {"sectors", sum.sectors},
          {"min_sectors", sum.minSectors},
          {"useful_bytes", sum.usefulBytes},
          {"efficiency_percent", jsonNumber(sum.efficiency)}};
}

// One step of t.steps (`s` is an element of it: the first, the input, has no memory).
json stepJson(const Trace& t, const StepSnapshot& s) {
  const ElementType type = t.params.type;
  json step;
  step["label"] = s.label;
  json values = json::array();
  for (size_t i = 0; i < std::min(s.values.size(), kJsonValues); ++i)
    values.push_back(jsonValue(s.values[i], type));
  step["values"] = values;
  if (s.values.size() > kJsonValues) step["values_total"] = s.values.size();
  step["active"] = s.active;
  json pairs = json::array();
  for (const auto& pr : s.pairs) pairs.push_back({pr.first, pr.second});
  step["pairs"] = pairs;
  if (t.gpus > 0) {  // allreduce: values are the G buffers, rank after rank
    step["contains"] = s.contains;
    step["transfers"] = transfersJson(s);
  }
  if (!s.combines.empty()) step["combines"] = combinesJson(s, type);
  if (s.racedElement >= 0) step["raced_element"] = s.racedElement;
  if (!s.gathers.empty()) step["gathers"] = gathersJson(s, type);
  if (t.memoryRecorded && &s != &t.steps.front()) step["memory"] = memoryJson(s);
  if (!s.activeWarps.empty() || s.bankConflictDegree) {
    step["active_warps"] = s.activeWarps;
    step["bank_conflict_degree"] = s.bankConflictDegree;
  }
  return step;
}

json otherKernelsJson(const Trace& t) {
  json answers = json::array();
  for (const KernelAnswer& a : t.otherKernels) {
    json answer = {{"lesson", a.lesson}, {"variant", a.variant}};
    if (a.notRun.empty())
      answer["result"] = jsonValue(a.result, t.params.type);
    else
      answer["not_run"] = a.notRun;
    answers.push_back(answer);
  }
  return answers;
}

// What the run ended with: its result against the expected one, and what the lesson adds.
void addOutcome(json& j, const Trace& t) {
  const Params& p = t.params;
  auto value = [&](double v) { return jsonValue(v, p.type); };
  j["result"] = value(t.result);
  j["expected"] = value(t.expected);
  j["tolerance"] = jsonNumber(t.tolerance);
  j["correct"] = t.correct;
  j["single_answer"] = t.singleAnswer;  // false: expected is the host's loop, not a verdict
  if (!t.otherKernels.empty()) j["other_kernels"] = otherKernelsJson(t);
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
  if (lessonOrThrow(t.params.lesson).picture == LessonPicture::Butterfly)
    j["threads_off_total"] = t.threadsOffTotal;
  if (p.printing || !t.kernelOutput.empty())
    j["kernel_output"] = {
        {"from", name(t.backend)}, {"count", t.kernelOutput.size()}, {"lines", t.kernelOutput}};
  j["notes"] = t.notes;
}

json timingsJson(const Trace& t) {
  json timings;
  if (t.timings.measured) {
    const Timings& m = t.timings;
    timings = {{"repetitions", m.repetitions},
               {"kernel_ms", jsonNumber(m.kernelMs)},
               {"with_copies_ms", jsonNumber(m.withCopiesMs)},
               {"gb_per_s", jsonNumber(m.gbPerSecond)},
               {"copy_fraction", jsonNumber(m.copyFraction)},
               {"cpu_ms", jsonNumber(m.cpuMs)},
               {"cub_ms", jsonNumber(m.cubMs)},
               {"cub_ratio", jsonNumber(m.cubRatio)}};
    if (t.gpus > 0)
      timings.update({{"bus_gb_per_s", jsonNumber(m.busGBs)},
                      {"peer_copy_gb_per_s", jsonNumber(m.peerCopyGBs)}});
  } else {
    timings = {{"simulator_seconds", jsonNumber(t.timings.simSeconds)}};
  }
  return timings;
}

}  // namespace

json traceJson(const Trace& t) {
  json j;
  addRunSettings(j, t);
  j["launches"] = launchesJson(t);
  json steps = json::array();
  for (const auto& s : t.steps) steps.push_back(stepJson(t, s));
  j["steps"] = steps;
  addOutcome(j, t);
  j["timings"] = timingsJson(t);
  return j;
}

json lessonsJson() {
  json all = json::array();
  for (const LessonInfo& l : lessons()) {
    json lesson = {
        {"id", l.id},
        {"title", text::lessonTitle(l.id, Language::En)},
        {"variants", l.variantList()},
        {"n", {{"min", 1}, {"max", l.maxN}, {"default", l.defaultN}}},
        {"block", {{"power_of_two", true}, {"max", 1024}, {"min", l.variants.back().minBlock}}},
        {"one_block", l.oneBlock},
        {"switchable_barrier", l.switchableBarrier},
        {"barrier_switch_variants", variantsWith(l, &VariantInfo::barrierSwitch)},
        {"syncwarp_switch_variants", variantsWith(l, &VariantInfo::syncwarpSwitch)},
        {"perturb_variants", variantsWith(l, &VariantInfo::perturbs)},
        {"delay_variants", variantsWith(l, &VariantInfo::delays)},
        {"kernel_file", l.kernelFile}};
    all.push_back(lesson);
  }
  return {{"lessons", all},
          {"ops", {"sum", "max", "min", "product"}},
          {"types", {"int", "float"}},
          {"data", {"iota", "ones", "random:SEED", "mixed:SEED", "--values LIST"}},
          {"schedules",
           {"lockstep", "sequential", "reverse", "random:SEED", "warps-random:SEED", "stall:T:R:K",
            "lane:T:S:K", "lanes-random:SEED"}},
          {"backends",
           {name(BackendChoice::Sim), name(BackendChoice::Gpu), name(BackendChoice::Auto)}}};
}

json raceJson(const RaceResult& race) {
  const ElementType type = race.params.type;
  json results = json::array();
  for (const auto& [value, count] : race.histogram)
    results.push_back({{"result", jsonValue(value, type)}, {"count", count}});
  const Params& p = race.params;
  json j = {{"lesson", p.lesson},    {"variant", p.variant},
            {"barrier", p.barrier},  {"syncwarp", p.syncwarp},
            {"perturb", p.perturb},  {"printf", p.printing},
            {"delay", delayJson(p)}, {"backend", name(race.backend)},
            {"device", race.device}, {"schedules", race.schedules},
            {"runs", race.runs},     {"wrong", race.wrong},
            {"raced", race.raced},   {"expected", jsonValue(race.expected, type)},
            {"results", results}};
  if (!race.wrongRuns.empty()) j["first_wrong"] = traceJson(*race.wrongRuns.front());
  return j;
}

json witnessJson(const Witness& w) {
  const Params& p = w.params;
  auto line = [](const KernelLine& l) {
    return l.line ? json{{"file", l.file}, {"line", l.line}, {"text", l.text}} : json(nullptr);
  };
  json j = {{"lesson", p.lesson},
            {"variant", p.variant},
            {"n", p.n},
            {"block", p.block},
            {"barrier", p.barrier},
            {"syncwarp", p.syncwarp},
            {"perturb", p.perturb},
            {"found", w.found},
            {"cancelled", w.cancelled},
            {"tried", w.tried},
            {"searched", w.searched},
            {"first_wrong", w.firstWrong.empty() ? json(nullptr) : json(w.firstWrong)},
            {"why", w.why.empty() ? json(nullptr) : json(w.why)}};
  if (!w.found) return j;
  const StallSchedule& s = w.stall;
  json smaller = json::array();
  for (const StallSchedule& o : w.oneStepSmaller) smaller.push_back(o.str());
  j["witness"] = {{"schedule", s.str()},
                  {"late_thread", s.rounds ? json(s.thread) : json(nullptr)},
                  {"from_round", s.rounds ? json(s.from) : json(nullptr)},
                  {"rounds", s.rounds},
                  {"one_step_smaller", smaller},
                  {"smallest", w.smallest},
                  {"smaller_checked", w.smallerChecked},
                  {"smaller_total", w.smallerTotal}};
  if (w.readFound) {
    const EarlyRead& r = w.read;
    j["read"] = {{"step", r.step},
                 {"step_label", r.stepLabel},
                 {"reader", r.reader},
                 {"element", r.element},
                 {"target", r.target},
                 {"value", jsonValue(r.value, p.type)},
                 {"value_step", r.valueStep},
                 {"missed", jsonValue(r.missed, p.type)},
                 {"missed_writer", r.missedWriter},
                 {"missed_step", r.missedStep},
                 {"text", r.text}};
  } else {
    j["read"] = nullptr;
  }
  j["combine_line"] = line(w.combineLine);
  j["barrier_line"] = line(w.barrierLine);
  j["barrier_on"] = w.barrierOn;
  if (w.trace) {
    j["result"] = jsonValue(w.trace->result, p.type);
    j["expected"] = jsonValue(w.trace->expected, p.type);
  }
  j["replay"] = w.replay;
  const Params& d = w.delayed;
  j["delay"] = d.delayThread < 0
                   ? json(nullptr)
                   : json{{"thread", d.delayThread},
                          {"level", d.delayLevel},
                          {"command", w.delayCommand},
                          {"simulator_result", jsonValue(w.delayResultOnSimulator, p.type)},
                          {"simulator_wrong", w.delayWrongOnSimulator}};
  const GpuForcing& g = w.gpu;
  j["gpu"] = {{"ran", g.ran},
              {"why", g.why.empty() ? json(nullptr) : json(g.why)},
              {"device", g.device.empty() ? json(nullptr) : json(g.device)},
              {"runs", g.runs},
              {"wrong_delayed", g.wrongDelayed},
              {"wrong_plain", g.wrongPlain}};
  return j;
}

json benchJson(const BenchTable& bench) {
  json rows = json::array();
  for (const auto& r : bench.rows) {
    json row = {
        {"kernel", r.kernel},
        {"n", r.n},
        {"ms", jsonNumber(r.ms)},
        {"gb_per_s", jsonNumber(r.gbPerSecond)},
        {"copy_fraction", jsonNumber(r.copyFraction)},
        {"cub_ratio", jsonNumber(r.cubRatio)},
        {"role", name(r.role)},
        // the speed-up table (GPU times only; null where nothing was measured)
        {"cpu_ratio", r.cpuRatio > 0 ? jsonNumber(r.cpuRatio) : json(nullptr)},
        {"previous_ratio", r.previousRatio > 0 ? jsonNumber(r.previousRatio) : json(nullptr)}};
    if (r.perThread > 0) row.update({{"per_thread", r.perThread}, {"load_add", r.loadAdd}});
    if (r.gpus > 0)  // allreduce: n per GPU, gb_per_s the algorithm bandwidth
      row.update({{"gpus", r.gpus},
                  {"bus_gb_per_s", jsonNumber(r.busGBs)},
                  {"peer_copy_gb_per_s", jsonNumber(r.peerCopyGBs)},
                  {"model_ms", jsonNumber(r.modelMs)}});
    rows.push_back(row);
  }
  return {{"device", bench.device},
          {"gpu_times", bench.gpuTimes},
          {"type", name(bench.type)},
          {"rows", rows}};
}

json sanitizerJson(const SanitizerReport& report) {
  auto orNull = [](const std::string& text) { return text.empty() ? json(nullptr) : json(text); };
  auto site = [&](const std::string& kernel, const std::string& file, int line) {
    return json{{"kernel", orNull(kernel)},
                {"file", orNull(file)},
                {"line", line > 0 ? json(line) : json(nullptr)}};
  };
  json hazards = json::array();
  for (const SanitizerHazard& h : report.hazards) {
    json sites = json::array();
    for (const SanitizerSite& s : h.sites) {
      json entry = site(s.kernel, s.file, s.line);
      entry["access"] = orNull(s.access);
      sites.push_back(entry);
    }
    json hazard = site(h.kernel, h.file, h.line);
    hazard.update({{"severity", orNull(h.severity)},
                   {"kind", h.kind},
                   {"sites", sites},
                   {"thread", orNull(h.thread)},
                   {"count", h.count},
                   {"lines", h.lines}});
    hazards.push_back(hazard);
  }
  return {{"tool", name(report.tool)},
          {"lesson", report.params.lesson},
          {"variant", report.params.variant},
          {"arguments", runArguments(report.params)},
          {"clean", report.clean},
          {"exit_code", report.exitCode},
          {"hazards", hazards},
          {"summary", orNull(report.summary)},
          {"run_error", orNull(english(report.runError))},
          {"notes", report.notes}};
}

}  // namespace rlab::cli
