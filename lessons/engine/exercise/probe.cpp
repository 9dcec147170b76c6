// Running a conformance probe (probe.hpp): compile as a learner's kernel, then the runner's
// probe mode, whose report is one line a launch:
//   @probe K <TAB> v0,v1,...        launch K's out[]
//   @probe-failed K <TAB> sentence  launch K could not finish
// and the usual @error, @crash, @hang, @done.

#include "lessons/engine/exercise/probe.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "lessons/engine/exercise/box.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

namespace {

std::vector<int> parseInts(const std::string& text) {
  std::vector<int> values;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    values.push_back(std::stoi(text.substr(at, end - at)));
    at = end + 1;
  }
  return values;
}

std::string joined(const std::vector<int>& values) {
  std::string text;
  for (int v : values) {
    if (!text.empty()) text += ',';
    text += std::to_string(v);
  }
  return text;
}

}  // namespace

std::string probeLaunchArgument(const ProbeLaunch& l) {
  return std::to_string(l.grid) + "," + std::to_string(l.block) + "," +
         std::to_string(l.sharedBytes) + "," + std::to_string(l.n) + "," +
         std::to_string(l.outCount) + "," + l.schedule;
}

ProbeLaunch parseProbeLaunch(const std::string& argument) {
  std::vector<std::string> f;
  size_t at = 0;
  for (int k = 0; k < 5; ++k) {
    const size_t comma = argument.find(',', at);
    if (comma == std::string::npos) throw std::invalid_argument("a probe launch has 6 fields");
    f.push_back(argument.substr(at, comma - at));
    at = comma + 1;
  }
  ProbeLaunch l;
  l.grid = unsigned(std::stoul(f[0]));
  l.block = unsigned(std::stoul(f[1]));
  l.sharedBytes = std::stoul(f[2]);
  l.n = std::stoi(f[3]);
  l.outCount = std::stoi(f[4]);
  l.schedule = argument.substr(at);
  return l;
}

std::vector<int> parseProbeInput(const std::string& text) {
  return parseInts(text);
}

namespace {

// The runner's probe mode on `target` (a library, or on the GPU the source).
ProbeReport runInRunner(const std::string& exercise, const std::string& target,
                        const std::string& source, const std::vector<int>& input,
                        const std::vector<ProbeLaunch>& launches, bool onGpu, bool compileOnly,
                        ProbeReport report) {
  const std::string runner = findExerciseRunner();
  if (!isExecutableFile(runner)) {
    report.problem = "the exercise runner (rlab-exercise-runner) was not found.";
    return report;
  }
  std::vector<std::string> argv = {runner, exercise, target, "-", "10", "--input", joined(input)};
  if (onGpu) argv.push_back("--gpu");
  if (compileOnly) argv.push_back("--compile-only");
  for (const ProbeLaunch& l : launches)
    argv.insert(argv.end(), {"--launch", probeLaunchArgument(l)});
  report.results.resize(launches.size());
  std::string fault;
  bool done = false, compileFailed = false;
  ChildOptions options;
  options.silenceLimitSeconds = 60;
  options.outputStopLimit = kBoxOutputBytes;
  if (onGpu) options.environment = {"CUDA_CACHE_DISABLE=1"};
  options.onReportLine = [&](const std::string& line) {
    const size_t tab = line.find('\t');
    const std::string tag = line.substr(0, tab);
    const std::string rest = tab == std::string::npos ? "" : line.substr(tab + 1);
    if (tag == "@probe" || tag == "@probe-failed") {
      const size_t second = rest.find('\t');
      const size_t k = std::stoul(rest.substr(0, second));
      const std::string value = second == std::string::npos ? "" : rest.substr(second + 1);
      if (k >= report.results.size()) return;
      if (tag == "@probe")
        report.results[k].out = parseInts(value);
      else
        report.results[k].failure = value;
    } else if (tag == "@diagnostic") {  // NVRTC's
      if (CompileDiagnostic d; readDiagnostic(splitReportLine(line), 1, d))
        report.diagnostics.push_back(d);
    } else if (tag == "@compile-failed") {
      compileFailed = true;
    } else if (tag == "@error") {
      fault = english(decodeMessage(rest));
    } else if (tag == "@crash" || tag == "@hang") {
      fault = runnerFaultText(line, target, source);
    } else if (tag == "@done") {
      done = true;
    }
  };
  const ChildResult child = runChild(argv, options);
  if (compileFailed)
    report.problem = "NVRTC did not compile the probe";
  else if (!fault.empty())
    report.problem = "the runner stopped: " + fault;
  else if (child.outputExceeded)
    report.problem = "the probe printed more than the box allows";
  else if (!done)
    report.problem = "the runner ended without a report (" +
                     (child.signal ? "signal " + std::to_string(child.signal)
                                   : "exit code " + std::to_string(child.exitCode)) +
                     ")";
  report.signal = child.signal;
  if (compileOnly) report.results.clear();
  return report;
}

}  // namespace

ProbeReport runProbe(const std::string& file, const std::vector<int>& input,
                     const std::vector<ProbeLaunch>& launches, BackendChoice backend,
                     bool compileOnly) {
  ProbeReport report;
  const bool onGpu = backend == BackendChoice::Gpu;
  const std::string source = std::filesystem::absolute(file).lexically_normal().string();
  if (onGpu)
    return runInRunner("probe", source, source, input, launches, true, compileOnly, report);
  ScratchFolder scratch;
  const CompileResult compiled = compileForSimulator(probeExercise(), file, scratch.path());
  report.diagnostics = compiled.diagnostics;
  if (!compiled.ok) {
    report.problem =
        compiled.failure.empty() ? "the probe did not compile" : english(compiled.failure);
    return report;
  }
  return runInRunner("probe", compiled.library, source, input, launches, false, false, report);
}

ProbeReport runCompiledProbe(const std::string& library, const std::string& source,
                             const std::vector<int>& input,
                             const std::vector<ProbeLaunch>& launches) {
  return runInRunner("probe", library, source, input, launches, false, false, {});
}

ProbeReport compileWithNvrtc(const Exercise& e, const std::string& file) {
  const std::string source = std::filesystem::absolute(file).lexically_normal().string();
  return runInRunner(e.id, source, source, {}, {}, true, true, {});
}

}  // namespace rlab
