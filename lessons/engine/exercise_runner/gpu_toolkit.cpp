// Compiling a learner's file with NVRTC (gpu_toolkit.hpp).

#include "lessons/engine/exercise_runner/gpu_toolkit.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "lessons/engine/exercise_runner/nvrtc_headers.hpp"

namespace rlab::exercise {

namespace {}  // namespace

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParamError(Message("check.unreadable", {{"file", path}}));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

// The parameters, as the demangler writes them, of the kernel each shape launches.
std::string demangledParameters(const Exercise& e) {
  switch (e.shape) {
    case ExerciseShape::FoldStep:
      return "(int*, long long)";
    case ExerciseShape::OneBlock:
      return "(int*, int)";
    case ExerciseShape::Probe:
      return "(int const*, int, int*)";
    default:
      return "(int const*, long long, int*)";
  }
}

std::string diagnosticLine(int line, const std::string& severity, const std::string& message) {
  std::string text = message;
  for (char& c : text)
    if (c == '\t' || c == '\n') c = ' ';
  return "@diagnostic\t" + std::to_string(line) + "\t0\t" + severity + "\t" + text;
}

// NVRTC's log: "k.cu(5): error: identifier "x" is undefined", then the line and a caret.
void readLog(const std::string& log, const std::string& name, const Exercise& e, Compiled& out) {
  static const std::regex located(
      R"(^(.*)\(([0-9]+)\): (error|warning|catastrophic error)[^:]*: (.*)$)");
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, located)) continue;
    const std::string severity = m[3].str() == "warning" ? "warning" : "error";
    if (m[1].str() == name)
      out.reportLines.push_back(diagnosticLine(std::stoi(m[2].str()), severity, m[4].str()));
    else
      out.reportLines.push_back(diagnosticLine(
          0, severity, "the exercise runs " + e.signature() + " (NVRTC: " + m[4].str() + ")"));
  }
}

}  // namespace

Compiled compile(const Nvrtc& nv, const Exercise& e, const std::string& path, int arch) {
  Compiled out;
  const std::string source = readFile(path);
  const std::string name = path.substr(path.find_last_of('/') + 1);
  // The toolkit's headers, and the C headers CUDA offers in device code.
  const NvrtcHeaders headers = nvrtcHeaders(reinterpret_cast<const void*>(nv.nvrtcCreateProgram));
  std::vector<const char*> headerTexts, headerNames;
  for (size_t k = 0; k < headers.names.size(); ++k) {
    headerTexts.push_back(headers.texts[k].c_str());
    headerNames.push_back(headers.names[k].c_str());
  }
  nvrtcProgram program = nullptr;
  if (nv.nvrtcCreateProgram(&program, source.c_str(), name.c_str(), int(headerNames.size()),
                            headerTexts.data(), headerNames.data()) != NVRTC_SUCCESS)
    throw std::runtime_error("NVRTC could not take the program.");
  const std::string expression = "&" + e.kernel;
  nv.nvrtcAddNameExpression(program, expression.c_str());
  // Machine code for the device where NVRTC knows its architecture, else PTX of the newest it
  // knows, which the driver compiles on loading.
  int count = 0;
  nv.nvrtcGetNumSupportedArchs(&count);
  std::vector<int> archs(size_t(std::max(count, 0)));
  if (count > 0) nv.nvrtcGetSupportedArchs(archs.data());
  const bool known = std::find(archs.begin(), archs.end(), arch) != archs.end();
  const int target = known || archs.empty() ? arch : archs.back();
  const std::string option =
      std::string("--gpu-architecture=") + (known ? "sm_" : "compute_") + std::to_string(target);
  std::vector<const char*> options = {option.c_str(), "-lineinfo", "-std=c++17"};
  for (const std::string& folder : headers.options) options.push_back(folder.c_str());
  const nvrtcResult compiled = nv.nvrtcCompileProgram(program, int(options.size()), options.data());
  size_t logSize = 0;
  nv.nvrtcGetProgramLogSize(program, &logSize);
  std::string log(logSize, '\0');
  if (logSize) nv.nvrtcGetProgramLog(program, log.data());
  readLog(log, name, e, out);
  if (compiled != NVRTC_SUCCESS && !headers.searched.empty() &&
      log.find("cannot open source file") != std::string::npos)
    out.reportLines.push_back(diagnosticLine(0, "error",
                                             "NVRTC found no CUDA toolkit headers (looked in " +
                                                 headers.searched +
                                                 "); set CUDA_PATH to the toolkit's folder"));
  if (compiled != NVRTC_SUCCESS) {
    if (out.reportLines.empty())
      out.reportLines.push_back(
          diagnosticLine(0, "error", log.empty() ? nv.nvrtcGetErrorString(compiled) : log));
    nv.nvrtcDestroyProgram(&program);
    return out;
  }
  const char* lowered = nullptr;
  nv.nvrtcGetLoweredName(program, expression.c_str(), &lowered);
  out.lowered = lowered ? lowered : "";
  size_t size = 0;
  if (known) {
    nv.nvrtcGetCUBINSize(program, &size);
    out.image.resize(size);
    nv.nvrtcGetCUBIN(program, out.image.data());
  } else {
    nv.nvrtcGetPTXSize(program, &size);
    out.image.resize(size);
    nv.nvrtcGetPTX(program, out.image.data());
  }
  nv.nvrtcDestroyProgram(&program);
  // The mangled name carries the parameters: another signature is refused here, as the
  // simulator's compile refuses it.
  int status = 0;
  char* readable = abi::__cxa_demangle(out.lowered.c_str(), nullptr, nullptr, &status);
  const std::string demangled = readable ? readable : out.lowered;
  std::free(readable);
  if (demangled != e.kernel + demangledParameters(e)) {
    out.reportLines.push_back(diagnosticLine(
        0, "error",
        "the exercise runs " + e.signature() + ", and this file's kernel is " + demangled));
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace rlab::exercise
