// rlab record: the bench, the profile of every lesson's run and the race rates, measured on this
// machine's GPU into one recording (recording.hpp describes the file).
#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <regex>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"  // findCudaTool

namespace rlab {

const char* name(RecordPart part) {
  switch (part) {
    case RecordPart::Bench:
      return "bench";
    case RecordPart::Profile:
      return "profile";
    case RecordPart::Race:
      return "race";
  }
  return "bench";
}

std::vector<Params> recordedProfileRuns() {
  std::vector<Params> runs;
  for (const LessonInfo& lesson : lessons()) {
    if (lesson.defaultGpus > 0) continue;  // ncu profiles one GPU
    std::vector<int64_t> sizes = {lesson.defaultN};
    const int64_t large = std::min<int64_t>(lesson.maxN, int64_t(1) << 24);
    if (large != lesson.defaultN) sizes.push_back(large);
    for (const VariantInfo& variant : lesson.variants)
      for (int64_t n : sizes) {
        Params p;
        p.lesson = lesson.id;
        p.variant = variant.id;
        p.n = n;
        runs.push_back(p);
      }
  }
  return runs;
}

std::vector<Params> recordedRaceRuns() {
  std::vector<Params> runs;
  for (const LessonInfo& lesson : lessons())
    for (const VariantInfo& variant : lesson.variants) {
      if (!variant.barrierSwitch) continue;
      for (int64_t n : {8, 256, 1024}) {
        if (n > lesson.maxN) continue;
        for (bool perturb : {false, true}) {
          if (perturb && !lesson.switchableBarrier) continue;  // perturb is the barrier lesson's
          Params p;
          p.lesson = lesson.id;
          p.variant = variant.id;
          p.n = n;
          p.barrier = false;
          p.perturb = perturb;
          p.backend = BackendChoice::Gpu;
          runs.push_back(p);
        }
      }
    }
  return runs;
}

std::string recordingFileName(const std::string& card) {
  std::string file;
  for (char c : card) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      file += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!file.empty() && file.back() != '-')
      file += '-';
  }
  while (!file.empty() && file.back() == '-') file.pop_back();
  return (file.empty() ? "gpu" : file) + ".json";
}

namespace {

// "580.65.06", from the kernel module's own line; empty where it cannot be read.
std::string nvidiaDriverVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);
  std::smatch m;
  static const std::regex version(R"(Kernel Module\s+([0-9][0-9.]*))");
  return std::regex_search(line, m, version) ? m[1].str() : "";
}

std::string cudaVersion(int v) {  // 13000: "13.0"
  return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "";
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
  return text;
}

std::string sizeKey(int64_t n) {
  return std::to_string(n);
}

void recordBench(const RecordRequest& request, const RecordProgress& progress,
                 RecordingJson& into) {
  RecordingJson bench = RecordingJson::object();
  for (ElementType type : {ElementType::Int, ElementType::Float}) {
    BenchRequest b;
    b.type = type;
    b.reps = request.reps;
    b.kernels = scalableKernels();
    b.sizes = request.sizes.empty() ? defaultBenchSizes(true) : request.sizes;
    std::string device;
    const std::vector<BenchRow> rows = benchGpu(
        b,
        [&](const std::string& kernel, long long n) {
          return !progress || progress(std::string("bench ") + name(type) + ", " + kernel +
                                       ", n = " + std::to_string(n));
        },
        device);
    RecordingJson kernels = RecordingJson::object();
    for (const BenchRow& r : rows)
      kernels[benchKey(r)][sizeKey(r.n)] = {{"name", r.kernel},
                                            {"role", name(r.role)},
                                            {"ms", r.ms},
                                            {"gb_per_s", r.gbPerSecond},
                                            {"copy_fraction", r.copyFraction},
                                            {"cub_ratio", r.cubRatio},
                                            {"cpu_ratio", r.cpuRatio},
                                            {"previous_ratio", r.previousRatio}};
    bench[name(type)] = kernels;
  }
  into["bench"] = bench;
}

void recordProfiles(const RecordRequest& request, const RecordProgress& progress,
                    RecordingJson& into) {
  RecordingJson profiles = RecordingJson::object();
  for (const Params& p : recordedProfileRuns()) {
    const std::string key = runKey(p.lesson, p.variant);
    if (progress && !progress("profile " + key + ", n = " + std::to_string(p.n))) break;
    const ProfileReport report = runProfile(p, request.profile);
    if (report.permissionDenied) throw GpuUnavailable(report.runError);
    profiles[key][sizeKey(report.params.n > 0 ? report.params.n : p.n)] = profileJson(report);
  }
  into["profile"] = profiles;
}

void recordRaces(const RecordRequest& request, const RecordProgress& progress,
                 RecordingJson& into) {
  RecordingJson races = RecordingJson::object();
  for (const Params& p : recordedRaceRuns()) {
    const std::string key = runKey(p.lesson, p.variant);
    const std::string setting = p.perturb ? "perturbed" : "plain";
    if (progress && !progress("race " + key + ", n = " + std::to_string(p.n) + ", " + setting))
      break;
    const RaceResult race = runRace(p, request.raceRuns, 0, {}, RaceSchedules::AsGiven);
    races[key][sizeKey(p.n)][setting] = {
        {"runs", race.runs},
        {"wrong", race.wrong},
        {"wrong_share", race.runs > 0 ? double(race.wrong) / race.runs : 0.0}};
  }
  into["race"] = races;
}

}  // namespace

void recordOnGpu(const RecordRequest& request, const RecordProgress& progress,
                 RecordingJson& into) {
  const GpuProbe gpu = probeGpu();
  if (!gpu.usable) throw GpuUnavailable(Message("record.no-gpu", {{"why", gpu.why}}));
  const bool profiling = std::find(request.parts.begin(), request.parts.end(),
                                   RecordPart::Profile) != request.parts.end();
  if (profiling && request.profile.ncu.empty() && findCudaTool("ncu").empty())
    throw GpuUnavailable(Message("record.no-ncu"));
  if (!into.is_object() || into.value("card", "") != gpu.name) into = RecordingJson::object();
  const std::string date = request.date.empty() ? today() : request.date;
  into["format"] = 1;
  into["card"] = gpu.name;
  into["device"] = english(gpu.device);
  into["driver"] = nvidiaDriverVersion();
  into["cuda_driver"] = cudaVersion(gpu.cudaDriver);
  into["cuda_runtime"] = cudaVersion(gpu.cudaRuntime);
  into["date"] = date;
  into["command"] = request.command;
  RecordingJson& recorded = into["recorded"];  // each part: when, and by what command
  if (!recorded.is_object()) recorded = RecordingJson::object();
  for (RecordPart part : request.parts) {
    if (part == RecordPart::Bench) recordBench(request, progress, into);
    if (part == RecordPart::Profile) recordProfiles(request, progress, into);
    if (part == RecordPart::Race) recordRaces(request, progress, into);
    into["recorded"][name(part)] = {{"date", date}, {"command", request.command}};
  }
}

}  // namespace rlab
