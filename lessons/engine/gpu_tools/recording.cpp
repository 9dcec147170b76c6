// [SECTION] Reading recordings
// [SECTION] Bench rows and profiles, in and out
// [SECTION] Links in the texts
// (Making one, on a GPU: record.cpp.)

#include "lessons/engine/gpu_tools/recording.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

// ============================================================================================
// [SECTION] Reading recordings
// ============================================================================================

namespace {
constexpr int kFormat = 1;  // the layout in recording.hpp; a later one gets a new number
constexpr const char kFolder[] = "assets/recordings/";
}  // namespace

Recording readRecording(const std::string& path, const std::string& text) {
  Recording r;
  r.path = path;
  r.data = RecordingJson::parse(text, nullptr, false);
  if (!r.data.is_object()) {
    r.problem = path + " is not JSON a recording can hold.";
    r.data = RecordingJson::object();
    return r;
  }
  if (r.data.value("format", 0) != kFormat) {
    r.problem = path + " is a recording of another format (this build reads format " +
                std::to_string(kFormat) + ").";
    return r;
  }
  r.card = r.data.value("card", "");
  r.date = r.data.value("date", "");
  if (r.card.empty()) r.problem = path + " names no card.";
  return r;
}

namespace {
bool isJson(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}
}  // namespace

const std::vector<Recording>& recordings() {
  static const std::vector<Recording> all = [] {
    std::vector<Recording> found;
    for (const std::string& path : embeddedPaths())
      if (path.rfind(kFolder, 0) == 0 && isJson(path))
        found.push_back(readRecording(path, *embeddedFile(path)));
    // $RLAB_RECORDINGS: a folder of recordings made since the build, shown too (a file of the
    // same name replaces the built-in one).
    const char* folder = std::getenv("RLAB_RECORDINGS");
    std::error_code error;
    if (folder && *folder)
      for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string path = entry.path().string();
        if (!entry.is_regular_file() || !isJson(path)) continue;
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        const std::string name = entry.path().filename().string();
        found.erase(std::remove_if(
                        found.begin(), found.end(),
                        [&](const Recording& r) { return r.path == std::string(kFolder) + name; }),
                    found.end());
        found.push_back(readRecording(path, text.str()));
      }
    std::sort(found.begin(), found.end(),
              [](const Recording& a, const Recording& b) { return a.path < b.path; });
    return found;
  }();
  return all;
}

std::string recordedOnLabel(const Recording& r) {
  return "measured on " + r.card + (r.date.empty() ? "" : ", " + r.date) + ", not on this machine";
}

// ============================================================================================
// [SECTION] Bench rows and profiles, in and out
// ============================================================================================

namespace {

BenchRole roleNamed(const std::string& text) {
  for (BenchRole role : {BenchRole::CpuLoop, BenchRole::Cub, BenchRole::Roofline})
    if (text == name(role)) return role;
  return BenchRole::Lesson;
}

double number(const RecordingJson& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0;
}

}  // namespace

std::string benchKey(const BenchRow& row) {
  switch (row.role) {
    case BenchRole::CpuLoop:
      return "cpu-loop";
    case BenchRole::Cub:
      return "cub";
    case BenchRole::Roofline:
      return "copy";
    case BenchRole::Lesson:
      break;
  }
  std::string key = row.kernel;
  std::replace(key.begin(), key.end(), ' ', '-');
  return key;
}

std::string runKey(const std::string& lesson, const std::string& variant) {
  const LessonInfo* l = findLesson(lesson);
  return l && l->variants.size() == 1 ? lesson : lesson + "-" + variant;
}

std::vector<BenchRow> recordedBench(const Recording& r, ElementType type) {
  std::vector<BenchRow> rows;
  if (!r.problem.empty() || !r.data.contains("bench") || !r.data["bench"].contains(name(type)))
    return rows;
  for (const auto& [key, sizes] : r.data["bench"][name(type)].items())
    for (const auto& [n, entry] : sizes.items()) {
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) continue;
      BenchRow row;
      row.kernel = entry.value("name", key);
      row.role = roleNamed(entry.value("role", "lesson"));
      row.n = std::stoll(n);
      row.ms = number(entry, "ms");
      row.gbPerSecond = number(entry, "gb_per_s");
      row.copyFraction = number(entry, "copy_fraction");
      row.cubRatio = number(entry, "cub_ratio");
      rows.push_back(row);
    }
  // By n, each n's rows in the order measured (the CPU loop, CUB, the lessons, the roofline).
  std::stable_sort(rows.begin(), rows.end(),
                   [](const BenchRow& a, const BenchRow& b) { return a.n < b.n; });
  fillSpeedUps(rows);
  return rows;
}

RecordingJson profileJson(const ProfileReport& report) {
  const Params& p = report.params;
  auto counters = [](const std::map<Counter, double>& values) {
    RecordingJson j = RecordingJson::object();
    for (const CounterInfo& c : counterTable()) {
      const auto found = values.find(c.id);
      if (found != values.end() && std::isfinite(found->second)) j[c.key] = found->second;
    }
    return j;
  };
  auto stalls = [](const std::vector<StallReason>& reasons) {
    RecordingJson j = RecordingJson::array();
    for (const StallReason& s : reasons)
      j.push_back({{"reason", s.reason},
                   {"label", english(s.label)},
                   {"cycles_per_instruction", s.cyclesPerInstruction}});
    return j;
  };
  RecordingJson kernels = RecordingJson::array();
  for (const ProfiledKernel& k : report.kernels)
    kernels.push_back({{"function", k.function},
                       {"name", k.name},
                       {"lesson_kernel", k.lessonKernel},
                       {"launches", k.launches},
                       {"counters", counters(k.counters)},
                       {"stalls", stalls(k.stalls)},
                       {"metrics", k.metrics}});
  RecordingJson j = {
      {"params",
       {{"lesson", p.lesson},
        {"variant", p.variant},
        {"n", p.n},
        {"block", p.block},
        {"op", name(p.op)},
        {"type", name(p.type)},
        {"data", p.values.empty() ? p.data : "values"}}},
      {"device", report.device},
      {"clock_control", report.clockControl},
      {"command", report.command},
      {"result", report.result},
      {"correct", report.correct},
      {"launches", report.total.launches},
      {"counters", counters(report.total.counters)},
      {"predicted", counters(report.predicted)},
      {"prediction_note", english(report.predictionNote)},
      // The same sentence as data, so that a recording shows it in the reader's language.
      {"prediction_note_message", encodeMessage(report.predictionNote)},
      {"stalls", stalls(report.total.stalls)},
      {"kernels", kernels},
      {"unknown_metrics", report.unknownMetrics},
      {"notes", english(report.notes)},
      {"permission_denied", report.permissionDenied},
      {"error",
       report.runError.empty() ? RecordingJson(nullptr) : RecordingJson(english(report.runError))}};
  return j;
}

ProfileReport profileFromJson(const RecordingJson& j) {
  ProfileReport report;
  auto counters = [](const RecordingJson& values) {
    std::map<Counter, double> out;
    if (!values.is_object()) return out;
    for (const auto& [key, value] : values.items())
      if (const auto counter = counterByKey(key); counter && value.is_number())
        out[*counter] = value.get<double>();
    return out;
  };
  auto stalls = [](const RecordingJson& list) {
    std::vector<StallReason> out;
    if (!list.is_array()) return out;
    for (const auto& s : list)
      out.push_back({s.value("reason", ""), stallLabel(s.value("reason", ""), s.value("label", "")),
                     s.value("cycles_per_instruction", 0.0)});
    return out;
  };
  if (j.contains("params")) {
    const RecordingJson& p = j["params"];
    report.params.lesson = p.value("lesson", "");
    report.params.variant = p.value("variant", "");
    report.params.n = p.value("n", int64_t(0));
    report.params.block = p.value("block", 0);
    report.params.op = parseOp(p.value("op", "sum"));
    report.params.type = parseType(p.value("type", "int"));
    report.params.data = p.value("data", "iota");
    report.params.backend = BackendChoice::Gpu;
    report.params.timed = false;
  }
  report.device = j.value("device", "");
  report.clockControl = j.value("clock_control", "");
  if (j.contains("command")) report.command = j["command"].get<std::vector<std::string>>();
  report.result = j.value("result", 0.0);
  report.correct = j.value("correct", false);
  report.total.lessonKernel = true;
  report.total.launches = j.value("launches", 0);
  report.total.counters = counters(j.value("counters", RecordingJson::object()));
  report.total.stalls = stalls(j.value("stalls", RecordingJson::array()));
  report.predicted = counters(j.value("predicted", RecordingJson::object()));
  // The sentence as data where the file has it; older files hold only its English words,
  // shown as they are.
  const std::string noteWords = j.value("prediction_note", "");
  report.predictionNote = j.contains("prediction_note_message")
                              ? decodeMessage(j.value("prediction_note_message", ""))
                          : noteWords.empty() ? Message()
                                              : verbatim(noteWords);
  if (j.contains("kernels") && j["kernels"].is_array())
    for (const auto& k : j["kernels"]) {
      ProfiledKernel kernel;
      kernel.function = k.value("function", "");
      kernel.name = k.value("name", "");
      kernel.lessonKernel = k.value("lesson_kernel", false);
      kernel.launches = k.value("launches", 0);
      kernel.counters = counters(k.value("counters", RecordingJson::object()));
      kernel.stalls = stalls(k.value("stalls", RecordingJson::array()));
      if (k.contains("metrics") && k["metrics"].is_object())
        for (const auto& [metric, value] : k["metrics"].items())
          if (value.is_number()) kernel.metrics[metric] = value.get<double>();
      if (kernel.lessonKernel)
        report.total.function += (report.total.function.empty() ? "" : ", ") + kernel.function;
      report.kernels.push_back(std::move(kernel));
    }
  if (j.contains("unknown_metrics"))
    report.unknownMetrics = j["unknown_metrics"].get<std::vector<std::string>>();
  // Notes and the error are kept as English words (most are Nsight Compute's own), shown so.
  if (j.contains("notes"))
    for (const std::string& note : j["notes"].get<std::vector<std::string>>())
      report.notes.push_back(verbatim(note));
  report.permissionDenied = j.value("permission_denied", false);
  if (j.contains("error") && j["error"].is_string())
    report.runError = verbatim(j["error"].get<std::string>());
  return report;
}

bool recordedProfile(const Recording& r, const Params& p, ProfileReport& out, bool& exact) {
  if (!r.problem.empty() || !r.data.contains("profile")) return false;
  Params wanted;
  try {
    wanted = resolve(p).params;
  } catch (const ParamError&) {
    return false;
  }
  const std::string key = runKey(wanted.lesson, wanted.variant);
  if (!r.data["profile"].contains(key)) return false;
  const RecordingJson* nearest = nullptr;
  double distance = 0;
  exact = false;
  for (const auto& [n, entry] : r.data["profile"][key].items()) {
    const ProfileReport recorded = profileFromJson(entry);
    const Params& q = recorded.params;
    if (q.n == wanted.n && q.block == wanted.block && q.type == wanted.type && q.op == wanted.op &&
        wanted.values.empty() && q.data == wanted.data) {
      out = recorded;
      exact = true;
      return true;
    }
    // Otherwise the recorded n nearest on a log scale.
    const double d = std::fabs(std::log2(double(std::max<int64_t>(q.n, 1))) -
                               std::log2(double(std::max<int64_t>(wanted.n, 1))));
    if (!nearest || d < distance) nearest = &entry, distance = d;
  }
  if (!nearest) return false;
  out = profileFromJson(*nearest);
  return true;
}

// ============================================================================================
// [SECTION] Links in the texts
// ============================================================================================

namespace {

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

// The recordings whose card has `word` as one of its words (or is it), any case.
std::vector<const Recording*> recordingsOf(const std::string& word,
                                           const std::vector<Recording>& from) {
  std::vector<const Recording*> found;
  const std::string wanted = lowered(word);
  for (const Recording& r : from) {
    if (!r.problem.empty()) continue;
    const std::string card = lowered(r.card);
    bool match = card == wanted;
    size_t start = 0;
    while (!match && start <= card.size()) {
      const size_t space = std::min(card.find(' ', start), card.size());
      match = card.substr(start, space - start) == wanted;
      start = space + 1;
    }
    if (match) found.push_back(&r);
  }
  return found;
}

std::string shown(const RecordingJson& value, const std::string& lastKey) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<long long>());  // counts
  const double v = value.get<double>();
  if (lastKey.size() > 4 && lastKey.compare(lastKey.size() - 4, 4, "_pct") == 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
  }
  return threeSignificant(v);
}

}  // namespace

std::string fillRecordingLinks(const std::string& markdown, std::vector<std::string>* problems,
                               const std::vector<Recording>& from) {
  static const std::regex link(R"(\{\{rec:([^:}]*):([^}]*)\}\})");
  std::string out;
  size_t done = 0;
  for (std::sregex_iterator it(markdown.begin(), markdown.end(), link), end; it != end; ++it) {
    const std::smatch& m = *it;
    out += markdown.substr(done, size_t(m.position(0)) - done);
    done = size_t(m.position(0) + m.length(0));
    const std::string card = m[1].str(), path = m[2].str();
    auto refuse = [&](const std::string& why) {
      out += m[0].str();
      if (problems) problems->push_back(m[0].str() + ": " + why);
    };
    const std::vector<const Recording*> matches = recordingsOf(card, from);
    if (matches.size() != 1) {
      refuse(matches.empty() ? "no recording's card is called " + card
                             : "more than one recording's card is called " + card);
      continue;
    }
    const RecordingJson* at = &matches.front()->data;
    std::string key, missing;
    size_t start = 0;
    while (missing.empty() && start <= path.size()) {
      const size_t slash = std::min(path.find('/', start), path.size());
      key = path.substr(start, slash - start);
      start = slash + 1;
      if (at->is_object() && at->contains(key))
        at = &(*at)[key];
      else if (at->is_array() && !key.empty() &&
               key.find_first_not_of("0123456789") == std::string::npos &&
               std::stoul(key) < at->size())
        at = &(*at)[std::stoul(key)];
      else
        missing = key;
    }
    if (!missing.empty())
      refuse(matches.front()->path + " has no '" + missing + "' there");
    else if (!at->is_number() && !at->is_string())
      refuse(matches.front()->path + " holds no single value at " + path);
    else
      out += shown(*at, key);
  }
  out += markdown.substr(done);
  return out;
}

}  // namespace rlab
