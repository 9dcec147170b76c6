// Reading Nsight Compute's output with --csv (profile.hpp declares it): the rows of each
// launch into its metrics, in base units, and ncu's own errors and warnings.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <regex>
#include <sstream>

#include "lessons/engine/gpu_tools/profile.hpp"

namespace rlab {

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
    if (!unit.starts_with(prefix)) continue;
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
    if (line.starts_with("==ERROR==")) {
      noteErrorLine(trimmed(line.substr(9)), out);
      continue;
    }
    if (line.starts_with("==WARNING==")) {
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

}  // namespace rlab
