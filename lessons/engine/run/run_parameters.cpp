#include "lessons/engine/run/run_parameters.hpp"

#include <algorithm>
#include <charconv>

namespace rlab {

namespace {

int64_t wholeNumber(const std::string& key, const std::string& value, int64_t high) {
  const bool digits =
      !value.empty() && value.size() <= 18 &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int64_t v = digits ? std::stoll(value) : -1;
  if (!digits || v < 1 || v > high)
    throw ParamError(Message("params.link-number", {{"given", key + "=" + value}, {"most", high}}));
  return v;
}

// A switch's value: on, off, or nothing (the bare key), which is on.
bool switchValue(const std::string& key, const std::string& value) {
  if (value != "on" && value != "off" && !value.empty())
    throw ParamError(
        Message("params.link-switch",
                {{"given", key + "=" + value}, {"on", key + "=on"}, {"off", key + "=off"}}));
  return value != "off";
}

std::string onOff(bool on) {
  return on ? "on" : "off";
}

std::string number(int64_t v) {
  return v ? std::to_string(v) : "";
}

// The shortest text that strtod reads back to the same double ("0.1", "-3.5e+07").
std::string exactText(double v) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

#define RLAB_SWITCH(key, field, onByDefault)                                                    \
  RunParameter {                                                                                \
    key, true, onByDefault,                                                                     \
        [](Params& p, const std::string& v) { p.field = switchValue(key, v); },                 \
        [](const Params& p) { return p.field == onByDefault ? std::string() : onOff(p.field); } \
  }

}  // namespace

const std::vector<RunParameter>& runParameters() {
  static const std::vector<RunParameter> all = {
      {"lesson", false, false, [](Params& p, const std::string& v) { p.lesson = v; },
       [](const Params& p) { return p.lesson; }},
      {"variant", false, false, [](Params& p, const std::string& v) { p.variant = v; },
       [](const Params& p) { return p.variant; }},
      {"n", false, false, [](Params& p, const std::string& v) { p.n = wholeNumber("n", v, kMaxN); },
       [](const Params& p) { return number(p.n); }},
      {"block", false, false,
       [](Params& p, const std::string& v) { p.block = int(wholeNumber("block", v, 1024)); },
       [](const Params& p) { return number(p.block); }},
      {"op", false, false, [](Params& p, const std::string& v) { p.op = parseOp(v); },
       [](const Params& p) { return p.op == Op::Sum ? std::string() : name(p.op); }},
      {"type", false, false, [](Params& p, const std::string& v) { p.type = parseType(v); },
       [](const Params& p) { return p.type == ElementType::Int ? std::string() : name(p.type); }},
      {"data", false, false, [](Params& p, const std::string& v) { p.data = v; },
       [](const Params& p) {
         return !p.values.empty() || p.data.empty() ? std::string() : p.data;
       }},
      {"values", false, false, [](Params& p, const std::string& v) { p.values = parseValues(v); },
       [](const Params& p) {
         std::string list;
         for (double v : p.values) {
           if (!list.empty()) list += ',';  // appended, not "," + text: GCC 12's -O3
           list += exactText(v);            // -Wrestrict misreads that concatenation
         }
         return list;
       }},
      RLAB_SWITCH("barrier", barrier, true),
      RLAB_SWITCH("syncwarp", syncwarp, true),
      RLAB_SWITCH("perturb", perturb, false),
      RLAB_SWITCH("printf", printing, false),
      RLAB_SWITCH("memory", memory, false),
      {"delay", false, false, [](Params& p, const std::string& v) { parseDelay(v, p); },
       [](const Params& p) { return delayText(p); }},
      {"schedule", false, false, [](Params& p, const std::string& v) { p.schedule = v; },
       [](const Params& p) {
         // A GPU schedules its threads itself: rlab run refuses a schedule there.
         return p.backend == BackendChoice::Gpu || p.schedule == Params{}.schedule ? std::string()
                                                                                   : p.schedule;
       }},
      {"gpus", false, false,
       [](Params& p, const std::string& v) { p.gpus = int(wholeNumber("gpus", v, 8)); },
       [](const Params& p) { return number(p.gpus); }},
      {"per-thread", false, false,
       [](Params& p, const std::string& v) {
         p.perThread = int(wholeNumber("per-thread", v, kMaxPerThread));
       },
       [](const Params& p) { return number(p.perThread); }},
      RLAB_SWITCH("load-add", loadAdd, true),
      // Always said: rlab run's own default (auto) is not a run's (the simulator).
      {"backend", false, false,
       [](Params& p, const std::string& v) { p.backend = parseBackend(v); },
       [](const Params& p) { return std::string(name(p.backend)); }},
      RLAB_SWITCH("timings", timed, true),
  };
  return all;
}

#undef RLAB_SWITCH

void setRunParameter(Params& p, const std::string& key, const std::string& value) {
  const auto& all = runParameters();
  const auto found =
      std::find_if(all.begin(), all.end(), [&](const RunParameter& r) { return key == r.key; });
  if (found != all.end()) return found->set(p, value);
  std::string keys;
  for (size_t k = 0; k < all.size(); ++k) keys += std::string(k == 0 ? "" : ", ") + all[k].key;
  throw ParamError(Message("params.link-key", {{"key", key}, {"keys", keys}}));
}

namespace {

// One parameter as rlab run's arguments: "--n 8", "--no-barrier", "--values=3,-1" (one word:
// a list may start with a minus sign), or none for the lesson (rlab run's first argument).
void appendOption(std::vector<std::string>& args, const RunParameter& parameter,
                  const std::string& value) {
  const std::string key = parameter.key;
  if (key == "lesson") return;
  if (parameter.isSwitch) {
    const bool on = value != "off";
    if (on != parameter.onByDefault) args.push_back((on ? "--" : "--no-") + key);
  } else if (key == "values") {
    args.push_back("--values=" + value);
  } else {
    args.push_back("--" + key);
    args.push_back(value);
  }
}

}  // namespace

std::string commandLineFor(const std::string& lesson,
                           const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string shownLesson = lesson;
  std::vector<std::string> args;
  for (const auto& [key, value] : pairs) {
    if (key == "lesson") shownLesson = value;
    for (const RunParameter& parameter : runParameters())
      if (key == parameter.key) appendOption(args, parameter, value);
  }
  std::string line = "rlab run " + shownLesson;
  for (const std::string& arg : args) line += " " + arg;
  return line;
}

std::string linkQueryFor(const Params& p) {
  std::string query = "lesson=" + p.lesson;
  for (const RunParameter& parameter : runParameters())
    if (const std::string value = parameter.get(p);
        !value.empty() && std::string_view(parameter.key) != "lesson")
      query += "&" + std::string(parameter.key) + "=" + value;
  return query;
}

std::vector<std::string> runArguments(const Params& p) {
  std::vector<std::string> args = {p.lesson};
  for (const RunParameter& parameter : runParameters())
    if (const std::string value = parameter.get(p); !value.empty())
      appendOption(args, parameter, value);
  return args;
}

}  // namespace rlab
