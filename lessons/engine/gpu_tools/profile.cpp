// [SECTION] The metrics
// [SECTION] Summaries: launches into kernels, metrics into counters
// [SECTION] Running ncu
// (Reading ncu's CSV: profile_csv.cpp. The simulator's predictions: profile_prediction.cpp.)

#include "lessons/engine/gpu_tools/profile.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
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
  if (const VariantInfo* v = variantOf(p)) {
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
  const VariantInfo* v = variantOf(p);
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
    if (line.starts_with("rlab: ") && report.runError.empty()) {
      report.runError = verbatim(line.substr(6));  // said as the profiled rlab said it
      continue;
    }
    if (!line.starts_with("{")) continue;
    const nlohmann::json run = nlohmann::json::parse(line, nullptr, false);
    if (!run.is_object()) continue;
    if (run.contains("device") && run["device"].is_string()) report.device = run["device"];
    if (run.contains("result") && run["result"].is_number()) report.result = run["result"];
    if (run.contains("correct") && run["correct"].is_boolean()) report.correct = run["correct"];
  }
}

// The programs a profile runs: ncu, and the rlab it starts under it.
struct ProfileTools {
  std::string ncu, rlab;
};

// Throws for a setting no profile is made of (a lesson across GPUs, a clock control ncu does
// not take), and where ncu, rlab or (when neither was named) a GPU is missing.
ProfileTools profileTools(const Params& params, const ProfileOptions& options) {
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
  return {ncu, rlab};
}

// The report of the run profiled, before ncu runs: its settings.
ProfileReport reportFor(const Params& params, const ProfileOptions& options) {
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
  return report;
}

// ncu's command line: the metrics asked for, of `rlab run` with the run's parameters.
std::vector<std::string> ncuCommand(const ProfileTools& tools, const std::string& clockControl,
                                    const std::vector<std::string>& metrics, const Params& p) {
  std::vector<std::string> command = {tools.ncu, "--csv", "--print-units", "base"};
  command.insert(command.end(), {"--clock-control", clockControl});
  command.insert(command.end(), {"--metrics", joined(metrics, ",")});
  command.insert(command.end(), {tools.rlab, "run"});
  for (auto& a : runArguments(p)) command.push_back(std::move(a));
  command.insert(command.end(), {"--no-steps", "--format", "json"});
  return command;
}

// ncu run once, each launch it begins profiling told to options.onLaunch.
ChildResult runNcu(const std::vector<std::string>& command, const ProfileOptions& options) {
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
  return runChild(command, child);
}

// Leaves out of `metrics` each that ncu said it lacks: the metric itself, or every metric of a
// name ncu lacks ("sm__x" for "sm__x.sum"), each noted in `left`. False where ncu named nothing
// asked for: asking again would not help.
bool leaveOutUnknown(const std::vector<std::string>& unknown, std::vector<std::string>& metrics,
                     std::vector<std::string>& left) {
  const size_t asked = metrics.size();
  for (const std::string& missing : unknown)
    metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                                 [&](const std::string& m) {
                                   const bool gone = m == missing || m.rfind(missing + ".", 0) == 0;
                                   if (gone) left.push_back(m);
                                   return gone;
                                 }),
                  metrics.end());
  return metrics.size() != asked;
}

// What ncu's run says beside the launches: the run's answer, ncu's warnings and errors, and
// why the profile could not be made, where it could not.
void readNcuRun(const ChildResult& done, const NcuOutput& ncuOutput, ProfileReport& report) {
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
}

}  // namespace

ProfileReport runProfile(const Params& params, const ProfileOptions& options) {
  const ProfileTools tools = profileTools(params, options);
  ProfileReport report = reportFor(params, options);
  std::vector<std::string> metrics = profileMetrics();
  NcuOutput ncuOutput;
  ChildResult done;
  // A metric this ncu or GPU lacks stops ncu before the run: left out, and asked again.
  for (int attempt = 0; attempt < 3; ++attempt) {
    report.command = ncuCommand(tools, options.clockControl, metrics, report.params);
    done = runNcu(report.command, options);
    ncuOutput = parseNcuOutput(done.output);
    if (done.cancelled || ncuOutput.unknownMetrics.empty() || !ncuOutput.launches.empty()) break;
    if (!leaveOutUnknown(ncuOutput.unknownMetrics, metrics, report.unknownMetrics)) break;
  }
  readNcuRun(done, ncuOutput, report);
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
