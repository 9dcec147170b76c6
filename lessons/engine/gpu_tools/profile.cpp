// [SECTION] The metrics
// [SECTION] Reading ncu's CSV
// [SECTION] Summaries: launches into kernels, metrics into counters
// [SECTION] Running ncu
// (The simulator's predictions: profile_prediction.cpp.)

#include "lessons/engine/gpu_tools/profile.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/system/process.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run_parameters.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"  // findCudaTool, findRlabExecutable

namespace rlab {

// ============================================================================================
// [SECTION] The metrics
// ============================================================================================

namespace {

constexpr const char kStallPrefix[] = "smsp__average_warps_issue_stalled_";
constexpr const char kStallSuffix[] = "_per_issue_active.ratio";

// Why a warp could not issue, as Nsight Compute's warp state statistics name the reasons
// (sm_70 and later); "selected" (it issued) is no stall and is not asked for.
struct StallInfo {
  const char* reason;
  const char* message;  // its sentence: the message's id
};
constexpr StallInfo kStalls[] = {
    {"long_scoreboard", "stall.long-scoreboard"},
    {"short_scoreboard", "stall.short-scoreboard"},
    {"barrier", "stall.barrier"},
    {"membar", "stall.membar"},
    {"lg_throttle", "stall.lg-throttle"},
    {"mio_throttle", "stall.mio-throttle"},
    {"wait", "stall.wait"},
    {"math_pipe_throttle", "stall.math-pipe-throttle"},
    {"not_selected", "stall.not-selected"},
    {"dispatch_stall", "stall.dispatch-stall"},
    {"branch_resolving", "stall.branch-resolving"},
    {"no_instruction", "stall.no-instruction"},
    {"drain", "stall.drain"},
    {"sleeping", "stall.sleeping"},
    {"imc_miss", "stall.imc-miss"},
    {"tex_throttle", "stall.tex-throttle"},
    {"misc", "stall.misc"},
};

constexpr const char kDuration[] = "gpu__time_duration.sum";

}  // namespace

Message stallLabel(const std::string& reason, const std::string& english) {
  for (const StallInfo& s : kStalls)
    if (reason == s.reason) return Message(s.message);
  return verbatim(english);
}

const std::vector<std::string>& profileMetrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> m = {
        kDuration,
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "lts__t_sector_hit_rate.pct",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
        "smsp__sass_average_branch_targets_threads_uniform.pct",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    };
    for (const StallInfo& s : kStalls)
      m.push_back(std::string(kStallPrefix) + s.reason + kStallSuffix);
    return m;
  }();
  return metrics;
}

// ============================================================================================
// [SECTION] Reading ncu's CSV
// ============================================================================================
//
// With --csv ncu prints, after the program's own output and its ==PROF== progress lines, a
// heading row and a row per launch and metric (the details page):
//
//   "ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",
//   "Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
//   "0","4242","rlab","gpu1","void interleaved<int, SumOp>(const T1 *, long long, T1 *,
//   StepRecorder<T1>)","1","7","(64, 1, 1)","(1, 1, 1)","0","9.0","Command line profiler
//   metrics","gpu__time_duration.sum","ns","2,816"
//
// Older versions have fewer columns (no Block Size to CC), newer ones more (rules, estimated
// speed-ups after the value): every column is found by its heading.

namespace {

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// One CSV line: fields in double quotes ("" is a quote inside one) or bare.
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (quoted) {
      if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
        field += '"';
        ++k;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// "2,816", "1,215,000,000.50", "65,77" (a comma locale), "27.595.520", "n/a".
bool parseNcuNumber(std::string text, double& value) {
  std::string digits;
  for (char c : trimmed(text))
    if (c != ' ' && c != '\'') digits += c;
  if (digits.empty()) return false;
  const size_t commas = size_t(std::count(digits.begin(), digits.end(), ',')),
               dots = size_t(std::count(digits.begin(), digits.end(), '.'));
  char decimal = '.';
  if (commas > 0 && dots > 0) {
    decimal = digits.find_last_of(",.") == digits.rfind(',') ? ',' : '.';
  } else if (commas == 1) {
    // One comma: a thousands separator when three digits follow it ("2,816"), else a decimal
    // comma ("65,77").
    const size_t after = digits.size() - digits.find(',') - 1;
    decimal = after == 3 ? '.' : ',';
  } else if (dots > 1) {
    decimal = ',';  // "27.595.520": dots group thousands
  }
  std::string plain;
  for (char c : digits) {
    if (c == decimal)
      plain += '.';
    else if (c != ',' && c != '.')
      plain += c;
  }
  const char* end = plain.data() + plain.size();
  const auto [stop, error] = std::from_chars(plain.data(), end, value);
  return error == std::errc() && stop == end;
}

// What a value in this unit is worth in base units (ns, bytes, counts).
double unitScale(const std::string& unit) {
  const size_t slash = unit.find('/');
  if (slash != std::string::npos)
    return unitScale(unit.substr(0, slash)) / unitScale(unit.substr(slash + 1));
  static const std::pair<const char*, double> times[] = {
      {"ns", 1},        {"nsecond", 1}, {"usecond", 1e3}, {"us", 1e3}, {"µs", 1e3},
      {"msecond", 1e6}, {"ms", 1e6},    {"second", 1e9},  {"s", 1e9}};
  for (const auto& [name, scale] : times)
    if (unit == name) return scale;
  static const std::pair<const char*, double> prefixes[] = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"K", 1e3},
      {"k", 1e3},     {"M", 1e6},        {"G", 1e9},           {"T", 1e12}};
  for (const auto& [prefix, scale] : prefixes) {
    if (!startsWith(unit, prefix)) continue;
    const std::string rest = unit.substr(std::string(prefix).size());
    for (const char* counted : {"byte", "B", "sector", "request", "inst", "warp", "cycle",
                                "wavefront", "thread", "transaction", "block"})
      if (rest == counted) return scale;
  }
  return 1;
}

const std::regex& metricName() {
  static const std::regex name(R"([a-z0-9]+__[A-Za-z0-9_.]+)");
  return name;
}

// ncu names a metric it lacks as the regular expression it looked for: "Failed to find metric
// regex:^dram__bytes_read\.sum$", or for a name without its rollup
// "regex:^sm__cycles_active\.(sum|min|max|avg|pct|ratio|max_rate)$": the name is what is left
// without the escapes, the anchors and the rollups.
void noteErrorLine(const std::string& line, NcuOutput& out) {
  if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    out.permissionDenied = true;
    return;
  }
  std::string text;
  for (char c : line)
    if (c != '\\') text += c;
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (lower.find("metric") != std::string::npos &&
      (lower.find("find") != std::string::npos || lower.find("not ") != std::string::npos ||
       lower.find("invalid") != std::string::npos || lower.find("unknown") != std::string::npos)) {
    bool named = false;
    for (std::sregex_iterator it(text.begin(), text.end(), metricName()), end; it != end; ++it) {
      std::string metric = it->str();
      while (!metric.empty() && metric.back() == '.') metric.pop_back();
      if (std::find(out.unknownMetrics.begin(), out.unknownMetrics.end(), metric) ==
          out.unknownMetrics.end())
        out.unknownMetrics.push_back(metric);
      named = true;
    }
    if (named) return;
  }
  out.errors.push_back(line);
}

struct Columns {
  int id = -1, kernel = -1, grid = -1, block = -1, metricName = -1, metricUnit = -1,
      metricValue = -1;
  std::vector<std::string> headings;
  bool raw() const { return metricName < 0; }
};

Columns columnsOf(const std::vector<std::string>& headings) {
  Columns c;
  c.headings = headings;
  for (int k = 0; k < int(headings.size()); ++k) {
    const std::string& h = headings[size_t(k)];
    if (h == "ID") c.id = k;
    if (h == "Kernel Name") c.kernel = k;
    if (h == "Grid Size") c.grid = k;
    if (h == "Block Size") c.block = k;
    if (h == "Metric Name") c.metricName = k;
    if (h == "Metric Unit") c.metricUnit = k;
    if (h == "Metric Value") c.metricValue = k;
  }
  return c;
}

std::string field(const std::vector<std::string>& row, int column) {
  return column >= 0 && size_t(column) < row.size() ? row[size_t(column)] : "";
}

}  // namespace

std::string kernelFunction(const std::string& kernel) {
  std::string name = trimmed(kernel);
  // Off the end: the parameter list "(...)", then the template arguments "<...>", each up to
  // its matching opening bracket ("(anonymous namespace)" and "<int, SumOp>" may come before).
  for (const auto& [open, close] : {std::pair{'(', ')'}, std::pair{'<', '>'}}) {
    if (name.empty() || name.back() != close) continue;
    int depth = 0;
    for (size_t k = name.size(); k-- > 0;) {
      depth += name[k] == close ? 1 : name[k] == open ? -1 : 0;
      if (depth == 0) {
        name = trimmed(name.substr(0, k));
        break;
      }
    }
  }
  const size_t scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  const size_t space = name.find_last_of(' ');  // a return type before it: "void k"
  if (space != std::string::npos) name = name.substr(space + 1);
  return name;
}

NcuOutput parseNcuOutput(const std::string& output) {
  NcuOutput out;
  std::map<int, NcuLaunch> launches;
  Columns columns;
  std::vector<std::string> rawUnits;  // the raw page: each column's unit
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (startsWith(line, "==ERROR==")) {
      noteErrorLine(trimmed(line.substr(9)), out);
      continue;
    }
    if (startsWith(line, "==WARNING==")) {
      out.warnings.push_back(trimmed(line.substr(11)));
      continue;
    }
    if (line.empty() || line[0] != '"') continue;  // the program's lines, ==PROF== lines
    const std::vector<std::string> row = csvFields(line);
    if (!row.empty() && row[0] == "ID") {  // a heading row (ncu may repeat it)
      columns = columnsOf(row);
      rawUnits.clear();
      continue;
    }
    if (columns.id < 0 || columns.kernel < 0) continue;
    int id = 0;
    const std::string idText = field(row, columns.id);
    if (std::from_chars(idText.data(), idText.data() + idText.size(), id).ec != std::errc()) {
      if (columns.raw() && idText.empty()) rawUnits = row;  // the raw page's units row
      continue;
    }
    NcuLaunch& launch = launches[id];
    launch.id = id;
    if (launch.kernel.empty()) {
      launch.kernel = field(row, columns.kernel);
      launch.function = kernelFunction(launch.kernel);
      launch.grid = field(row, columns.grid);
      launch.block = field(row, columns.block);
    }
    auto take = [&](const std::string& metric, const std::string& unit, const std::string& text) {
      double value = 0;
      if (!std::regex_match(metric, metricName()) || !parseNcuNumber(text, value)) return;
      launch.metrics[metric] = value * unitScale(trimmed(unit));
    };
    if (!columns.raw()) {
      take(field(row, columns.metricName), field(row, columns.metricUnit),
           field(row, columns.metricValue));
    } else {
      for (size_t k = 0; k < row.size() && k < columns.headings.size(); ++k)
        take(columns.headings[k], k < rawUnits.size() ? rawUnits[k] : "", row[k]);
    }
  }
  for (auto& [id, launch] : launches) out.launches.push_back(std::move(launch));
  return out;
}

// ============================================================================================
// [SECTION] Summaries: launches into kernels, metrics into counters
// ============================================================================================

namespace {

// Launches together: .sum metrics added, the rest (percentages, ratios, averages) weighted by
// each launch's duration.
std::map<std::string, double> combined(const std::vector<const NcuLaunch*>& launches) {
  std::map<std::string, double> sums, weights;
  for (const NcuLaunch* l : launches) {
    const auto duration = l->metrics.find(kDuration);
    const double weight =
        duration != l->metrics.end() && duration->second > 0 ? duration->second : 1;
    for (const auto& [metric, value] : l->metrics) {
      const bool added = metric.size() > 4 && metric.compare(metric.size() - 4, 4, ".sum") == 0;
      sums[metric] += added ? value : value * weight;
      weights[metric] += weight;
    }
  }
  for (auto& [metric, value] : sums) {
    const bool added = metric.size() > 4 && metric.compare(metric.size() - 4, 4, ".sum") == 0;
    if (!added) value /= weights[metric];
  }
  return sums;
}

std::map<Counter, double> countersOf(const std::map<std::string, double>& m) {
  auto has = [&](const char* metric) { return m.count(metric) > 0; };
  auto at = [&](const char* metric) { return m.at(metric); };
  std::map<Counter, double> c;
  auto copy = [&](Counter counter, const char* metric, double scale = 1) {
    if (has(metric)) c[counter] = at(metric) * scale;
  };
  copy(Counter::DurationUs, kDuration, 1e-3);
  copy(Counter::DramReadBytes, "dram__bytes_read.sum");
  copy(Counter::DramWriteBytes, "dram__bytes_write.sum");
  if (has(kDuration) && at(kDuration) > 0 && has("dram__bytes_read.sum") &&
      has("dram__bytes_write.sum"))  // bytes per ns are GB/s
    c[Counter::DramGBs] =
        (at("dram__bytes_read.sum") + at("dram__bytes_write.sum")) / at(kDuration);
  copy(Counter::DramThroughputPct, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  copy(Counter::DramReadPct, "dram__bytes_read.sum.pct_of_peak_sustained_elapsed");
  copy(Counter::OccupancyPct, "sm__warps_active.avg.pct_of_peak_sustained_active");
  copy(Counter::L2HitPct, "lts__t_sector_hit_rate.pct");
  copy(Counter::WarpEfficiencyPct, "smsp__thread_inst_executed_per_inst_executed.ratio",
       100.0 / 32);
  copy(Counter::BranchEfficiencyPct, "smsp__sass_average_branch_targets_threads_uniform.pct");
  const char *loads = "smsp__sass_inst_executed_op_shared_ld.sum",
             *stores = "smsp__sass_inst_executed_op_shared_st.sum",
             *loadWaves = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             *storeWaves = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
  if (has(loads) && has(stores)) {
    const double requests = at(loads) + at(stores);
    c[Counter::SharedRequests] = requests;
    if (has(loadWaves) && has(storeWaves)) {
      const double waves = at(loadWaves) + at(storeWaves);
      c[Counter::SharedBankConflicts] = std::max(0.0, waves - requests);
      if (requests > 0) c[Counter::SharedWavefrontsPerRequest] = waves / requests;
    }
  }
  auto perRequest = [&](Counter requestsCounter, Counter ratio, const char* requests,
                        const char* sectors) {
    if (!has(requests)) return;
    c[requestsCounter] = at(requests);
    if (has(sectors) && at(requests) > 0) c[ratio] = at(sectors) / at(requests);
  };
  perRequest(Counter::GlobalLoadRequests, Counter::GlobalLoadSectorsPerRequest,
             "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  perRequest(Counter::GlobalStoreRequests, Counter::GlobalStoreSectorsPerRequest,
             "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  return c;
}

std::vector<StallReason> stallsOf(const std::map<std::string, double>& m) {
  std::vector<StallReason> stalls;
  for (const StallInfo& s : kStalls) {
    const auto found = m.find(std::string(kStallPrefix) + s.reason + kStallSuffix);
    if (found != m.end() && found->second > 0)
      stalls.push_back({s.reason, Message(s.message), found->second});
  }
  std::stable_sort(stalls.begin(), stalls.end(), [](const StallReason& a, const StallReason& b) {
    return a.cyclesPerInstruction > b.cyclesPerInstruction;
  });
  return stalls;
}

ProfiledKernel kernelOf(const std::vector<const NcuLaunch*>& launches) {
  ProfiledKernel k;
  if (launches.empty()) return k;
  k.function = launches.front()->function;
  k.name = launches.front()->kernel;
  k.launches = int(launches.size());
  k.metrics = combined(launches);
  k.counters = countersOf(k.metrics);
  k.stalls = stallsOf(k.metrics);
  return k;
}

}  // namespace

void summarizeLaunches(const std::vector<NcuLaunch>& launches, const Params& p,
                       ProfileReport& report) {
  std::vector<std::string> own;
  if (const LessonInfo* lesson = findLesson(p.lesson))
    if (const VariantInfo* v =
            lesson->findVariant(p.variant.empty() ? lesson->variants.front().id : p.variant)) {
      own.push_back(v->kernelFunction);
      if (!v->noLoadAddKernelFunction.empty()) own.push_back(v->noLoadAddKernelFunction);
    }
  auto isOwn = [&](const std::string& function) {
    return std::find(own.begin(), own.end(), function) != own.end();
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<const NcuLaunch*>> byFunction;
  std::vector<const NcuLaunch*> lessonLaunches;
  for (const NcuLaunch& l : launches) {
    if (!byFunction.count(l.function)) order.push_back(l.function);
    byFunction[l.function].push_back(&l);
    if (isOwn(l.function)) lessonLaunches.push_back(&l);
  }
  report.kernels.clear();
  for (const std::string& function : order) {
    ProfiledKernel k = kernelOf(byFunction[function]);
    k.lessonKernel = isOwn(function);
    report.kernels.push_back(std::move(k));
  }
  report.total = kernelOf(lessonLaunches);
  report.total.lessonKernel = true;
  std::string functions;
  for (const std::string& function : order)
    if (isOwn(function)) functions += (functions.empty() ? "" : ", ") + function;
  report.total.function = functions;
}

const std::vector<Counter>& proofCounters(const Params& p) {
  static const std::vector<Counter> none;
  const LessonInfo* lesson = findLesson(p.lesson);
  if (!lesson) return none;
  const VariantInfo* v =
      lesson->findVariant(p.variant.empty() ? lesson->variants.front().id : p.variant);
  return v ? v->proofCounters : none;
}

std::vector<Counter> shownCounters(const ProfileReport& report) {
  std::vector<Counter> shown = proofCounters(report.params);
  for (const CounterInfo& c : counterTable())
    if (std::find(shown.begin(), shown.end(), c.id) == shown.end() &&
        (report.total.counters.count(c.id) || report.predicted.count(c.id)))
      shown.push_back(c.id);
  return shown;
}

// ============================================================================================
// [SECTION] Running ncu
// ============================================================================================

Message counterPermissionSentence() {
  return Message("profile.no-permission",
                 {{"line", "options nvidia NVreg_RestrictProfilingToAdminUsers=0"},
                  {"folder", "/etc/modprobe.d/"},
                  {"link", "https://developer.nvidia.com/ERR_NVGPUCTRPERM"}});
}

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// The profiled run's own answer: its JSON line (what `rlab run --format json` prints) and the
// sentence of an `rlab: ...` line when it failed.
void readRun(const std::string& output, ProfileReport& report) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (startsWith(line, "rlab: ") && report.runError.empty()) {
      report.runError = verbatim(line.substr(6));  // said as the profiled rlab said it
      continue;
    }
    if (!startsWith(line, "{")) continue;
    const nlohmann::json run = nlohmann::json::parse(line, nullptr, false);
    if (!run.is_object()) continue;
    if (run.contains("device") && run["device"].is_string()) report.device = run["device"];
    if (run.contains("result") && run["result"].is_number()) report.result = run["result"];
    if (run.contains("correct") && run["correct"].is_boolean()) report.correct = run["correct"];
  }
}

}  // namespace

ProfileReport runProfile(const Params& params, const ProfileOptions& options) {
  const LessonInfo& lesson = lessonOrThrow(params.lesson);
  if (lesson.defaultGpus > 0) throw ParamError(Message("profile.one-gpu", {{"lesson", lesson.id}}));
  if (options.clockControl != "none" && options.clockControl != "base")
    throw ParamError(Message("usage.not-allowed", {{"option", "--clock-control"},
                                                   {"given", options.clockControl},
                                                   {"allowed", Message("usage.clock-control")}}));
  const std::string ncu = options.ncu.empty() ? findCudaTool("ncu") : options.ncu;
  if (!isExecutableFile(ncu)) throw GpuUnavailable(Message("profile.no-ncu"));
  const std::string rlab = options.rlab.empty() ? findRlabExecutable() : options.rlab;
  if (!isExecutableFile(rlab)) throw GpuUnavailable(Message("profile.rlab-not-found"));
  if (options.ncu.empty() && options.rlab.empty()) {
    const GpuProbe gpu = probeGpu();
    if (!gpu.usable) throw GpuUnavailable(Message("profile.no-gpu", {{"why", gpu.why}}));
  }

  ProfileReport report;
  report.params = params;
  report.params.backend = BackendChoice::Gpu;
  report.params.timed = false;                 // one run: the counters are of its kernels
  report.params.schedule = Params().schedule;  // a GPU schedules its threads itself
  report.params.memory = false;
  report.clockControl = options.clockControl;
  // Every default filled in (its own sentence for a setting rlab run would refuse): the
  // report names the run exactly, and a recording finds it by its n and block.
  report.params = resolve(report.params).params;

  std::vector<std::string> metrics = profileMetrics();
  NcuOutput ncuOutput;
  ChildResult done;
  // A metric this ncu or GPU lacks stops ncu before the run: left out, and asked again.
  for (int attempt = 0; attempt < 3; ++attempt) {
    report.command = {ncu,
                      "--csv",
                      "--print-units",
                      "base",
                      "--clock-control",
                      options.clockControl,
                      "--metrics",
                      joined(metrics, ","),
                      rlab,
                      "run"};
    for (auto& a : runArguments(report.params)) report.command.push_back(std::move(a));
    report.command.insert(report.command.end(), {"--no-steps", "--format", "json"});
    ChildOptions child;
    child.keepGoing = options.keepGoing;
    child.outputLimit = size_t(64) << 20;
    child.environment = {"LC_ALL=C"};  // numbers as ncu prints them in C: 1,234.5
    int begun = 0;
    std::string tail;  // "==PROF== Profiling" may arrive in two pieces
    child.onOutput = [&](const std::string& piece) {
      tail += piece;
      for (size_t at; (at = tail.find("==PROF== Profiling")) != std::string::npos;) {
        tail.erase(0, at + 18);
        if (options.onLaunch) options.onLaunch(++begun);
      }
      if (tail.size() > 64) tail.erase(0, tail.size() - 64);
    };
    done = runChild(report.command, child);
    ncuOutput = parseNcuOutput(done.output);
    if (done.cancelled || ncuOutput.unknownMetrics.empty() || !ncuOutput.launches.empty()) break;
    // The metric itself, or every metric of a name ncu lacks ("sm__x" for "sm__x.sum").
    const size_t asked = metrics.size();
    for (const std::string& missing : ncuOutput.unknownMetrics)
      metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                                   [&](const std::string& m) {
                                     const bool gone =
                                         m == missing || m.rfind(missing + ".", 0) == 0;
                                     if (gone) report.unknownMetrics.push_back(m);
                                     return gone;
                                   }),
                    metrics.end());
    if (metrics.size() == asked) break;  // named nothing asked for: asking again would not help
  }
  report.exitCode = done.exitCode;
  readRun(done.output, report);
  if (!report.unknownMetrics.empty())
    report.notes.push_back(
        Message("profile.metrics-missing", {{"metrics", joined(report.unknownMetrics, ", ")}}));
  for (const std::string& warning : ncuOutput.warnings) report.notes.push_back(verbatim(warning));
  if (done.cancelled) {
    report.cancelled = true;
    report.runError = Message("profile.cancelled");
  } else if (ncuOutput.permissionDenied) {
    report.permissionDenied = true;
    report.runError = counterPermissionSentence();
  } else if (ncuOutput.launches.empty() && report.runError.empty()) {
    report.runError =
        !ncuOutput.errors.empty()
            ? Message("profile.ncu-failed", {{"errors", verbatim(joined(ncuOutput.errors, " "))}})
            : Message("profile.no-kernel", {{"code", done.exitCode}});
  }
  const std::string failure = english(report.runError);
  for (const std::string& error : ncuOutput.errors)
    if (failure.find(error) == std::string::npos) report.notes.push_back(verbatim(error));
  summarizeLaunches(ncuOutput.launches, report.params, report);
  if (options.predict && report.runError.empty()) {
    try {
      report.predicted = predictOnSimulator(report.params, report.predictionNote);
    } catch (const std::exception& e) {  // the GPU's counters stand without it
      report.predictionNote = Message("predict.could-not-run", {{"why", messageOf(e)}});
    }
  }
  return report;
}

}  // namespace rlab
