// [SECTION] The compiler and the scratch folder
// [SECTION] Compiling
// [SECTION] Reading the compiler's output

#include "lessons/engine/exercise/compile.hpp"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/cuda_surface.hpp"
#include "lessons/engine/exercise/object_check.hpp"
#include "lessons/engine/exercise/source_check.hpp"
#include "lessons/engine/system/process.hpp"

// Set by lessons/CMakeLists.txt: the compiler this build used, and its CMake id.
#ifndef RLAB_CXX_COMPILER
#define RLAB_CXX_COMPILER "c++"
#endif
#ifndef RLAB_CXX_COMPILER_ID
#define RLAB_CXX_COMPILER_ID "GNU"
#endif

namespace rlab {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] The compiler and the scratch folder
// ============================================================================================

std::string systemCompiler() {
  if (const char* chosen = std::getenv("RLAB_CXX"); chosen && *chosen) return chosen;
  if (isExecutableFile(RLAB_CXX_COMPILER)) return RLAB_CXX_COMPILER;
  // Installed on another machine than the one that built it (a package): the system's
  // compiler on PATH. The shim needs C++20, which GCC 10 and Clang 10 and later take.
  if (const char* path = std::getenv("PATH")) {
    std::istringstream folders(path);
    for (std::string folder; std::getline(folders, folder, ':');)
      for (const char* name : {"c++", "g++", "clang++"})
        if (!folder.empty() && isExecutableFile(folder + "/" + name)) return folder + "/" + name;
  }
  return RLAB_CXX_COMPILER;  // not there: the spawn's failure names it
}

ScratchFolder::ScratchFolder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/rlab-exercise-XXXXXX";
  if (!mkdtemp(pattern.data()))
    throw std::runtime_error("could not make a scratch folder under " + folderOf(pattern) + ".");
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string CompileDiagnostic::text(const std::string& fileName) const {
  std::string where = fileName;
  if (line > 0)
    where += ":" + std::to_string(line) + (column > 0 ? ":" + std::to_string(column) : "");
  return where + ": " + severity + ": " + message;
}

// ============================================================================================
// [SECTION] Compiling
// ============================================================================================

namespace {

// The simulator's headers, as this build compiled them: the shim and every header it includes,
// and the CUDA headers it offers (embedded by lessons/engine/CMakeLists.txt). Those under
// kernels/sim/include/ are written where `#include <cooperative_groups.h>` finds them.
constexpr const char* kShimHeaders[] = {"kernels/sim/shim.hpp",
                                        "kernels/sim/kernel_file.hpp",
                                        "kernels/sim/vector_types.hpp",
                                        "kernels/sim/atomics.hpp",
                                        "kernels/sim/device_functions.hpp",
                                        "kernels/sim/warp_functions.hpp",
                                        "kernels/sim/cuda_surface.def",
                                        "kernels/sim/detail/hooks.hpp",
                                        "kernels/sim/include/cooperative_groups.h",
                                        "kernels/sim/include/cooperative_groups/reduce.h",
                                        "kernels/sim/include/cuda_runtime.h",
                                        "kernels/sim/include/device_launch_parameters.h"};
constexpr std::string_view kOfferedHeaders = "kernels/sim/include/";

void writeFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("could not write " + path + ".");
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string quotedForInclude(const std::string& path) {
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The learner's file as the compiler reads it: the same lines, named by a #line as the learner's
// own path (the compiler's messages and the debug lines name it), with each __noinline__ written
// as kernel_file.hpp's name of the same length, so that no header the file includes meets a
// macro of CUDA's name.
std::string learnerCopy(const std::string& source, const std::string& text) {
  static const std::regex noinline(R"(\b__noinline__\b)");
  return "#line 1 " + quotedForInclude(source) + "\n" +
         std::regex_replace(text, noinline, "__rlab_noinl");
}

// The file the compiler is given: the shim, the learner's file, the entry that hands the
// runner the exercise's kernel, and what the link points the C library's device functions and
// the extern __shared__ arrays at. Assigning the kernel to a pointer of the exercise's type
// refuses a missing kernel or another signature, and picks the instance of a template.
std::string entryText(const Exercise& e, const std::string& source) {
  return "#include \"kernels/sim/kernel_file.hpp\"\n"
         "#include " +
         quotedForInclude(source) +
         "\n"
         "extern \"C\" __attribute__((visibility(\"default\"))) const void* "
         "rlab_exercise_kernel() {\n"
         "  using Kernel = " +
         e.pointerType() +
         ";\n"
         "  Kernel kernel = " +
         e.kernel +
         ";\n"
         "  return reinterpret_cast<const void*>(kernel);\n"
         "}\n" +
         deviceLibraryDefinitions();
}

std::vector<std::string> compilerArguments(const std::string& folder, bool raceHooks) {
  const std::string compiler = systemCompiler();
  // DWARF 4: Debian 12's addr2line gives lines of GCC 12's DWARF 5 the wrong file. No TLS
  // wrapper calls for extern __shared__ arrays: the link makes them one buffer.
  std::vector<std::string> args = {compiler,
                                   "-std=c++20",
                                   "-fPIC",
                                   "-O1",
                                   "-gdwarf-4",
                                   "-fvisibility=hidden",
                                   "-fno-extern-tls-init",
                                   "-I" + folder + "/include"};
  const bool clang = compiler.find("clang") != std::string::npos ||
                     (std::getenv("RLAB_CXX") == nullptr &&
                      std::string(RLAB_CXX_COMPILER_ID).find("Clang") != std::string::npos);
  // The race detector's hooks before every load and store (kernels/sim/race_detector.cpp
  // answers them; no ThreadSanitizer runtime is linked).
  if (raceHooks) args.push_back("-fsanitize=thread");
  // C++20 deprecates `s[tid] += ...` on a volatile array, the classic last warp's; CUDA
  // compiles C++17, where it is allowed, so the learner gets no warning NVRTC would not give.
  if (clang) {
    args.insert(args.end(), {"-fno-color-diagnostics", "-fno-caret-diagnostics", "-ferror-limit=30",
                             "-Wno-deprecated-volatile"});
  } else {
    args.insert(args.end(), {"-fdiagnostics-plain-output", "-fmax-errors=30", "-Wno-volatile"});
    if (raceHooks)
      args.insert(args.end(), {"--param=tsan-instrument-func-entry-exit=0",
                               "--param=tsan-distinguish-volatile=1"});
  }
  return args;
}

// Runs the compiler (or the linker through it); the result's output, exit and how it ended.
ChildResult runCompiler(const std::vector<std::string>& argv,
                        const std::function<bool()>& keepGoing) {
  ChildOptions options;
  options.timeLimitSeconds = 120;
  options.keepGoing = keepGoing;
  options.environment = {"LC_ALL=C"};  // plain quotes in messages
  return runChild(argv, options);
}

// Why the compiler or the linker did not finish, or no message where it did.
Message stopped(const ChildResult& done, bool linker) {
  if (done.cancelled) return Message("compile.cancelled");
  if (done.timedOut)
    return Message(linker ? "compile.link-too-long" : "compile.too-long", {{"minutes", 2}});
  return {};
}

}  // namespace

CompileResult compileForSimulator(const Exercise& e, const std::string& sourceGiven,
                                  const std::string& folder, const std::function<bool()>& keepGoing,
                                  bool raceHooks) {
  CompileResult result;
  std::error_code error;
  const std::string source = fs::absolute(sourceGiven, error).lexically_normal().string();
  if (!fs::is_regular_file(source, error))
    throw ParamError(Message("check.unreadable", {{"file", sourceGiven}}));
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  // What no compiler should see: host headers, inline assembly.
  result.diagnostics = checkKernelSource(readText(source), false);
  if (!result.diagnostics.empty()) return finish();
  for (const char* header : kShimHeaders) {
    const std::string* text = embeddedFile(header);
    if (!text) throw std::runtime_error(std::string(header) + " is not embedded in this build.");
    std::string_view path = header;
    if (path.substr(0, kOfferedHeaders.size()) == kOfferedHeaders)
      path.remove_prefix(kOfferedHeaders.size());
    writeFile(folder + "/include/" + std::string(path), *text);
  }
  const std::string entry = folder + "/entry.cpp", object = folder + "/kernel.o";
  const std::string copy = folder + "/learner/" + fs::path(source).filename().string();
  writeFile(copy, learnerCopy(source, readText(source)));
  writeFile(entry, entryText(e, copy));
  result.library = folder + "/kernel.so";

  if (std::getenv("RLAB_CXX") == nullptr && !isExecutableFile(systemCompiler())) {
    result.failure = Message("compile.no-compiler", {{"compiler", systemCompiler()}});
    return finish();
  }
  std::vector<std::string> argv = compilerArguments(folder, raceHooks);
  // The learner's own #include "..." finds what sits beside the file.
  argv.insert(argv.end(),
              {"-iquote", fs::path(source).parent_path().string(), "-c", entry, "-o", object});
  const ChildResult compiled = runCompiler(argv, keepGoing);
  result.output = compiled.output;
  result.diagnostics = parseCompilerOutput(compiled.output, source, entry, e);
  result.cancelled = compiled.cancelled;
  result.failure = stopped(compiled, false);
  bool anyError = false;
  for (const auto& d : result.diagnostics) anyError |= d.severity == "error";
  if (result.failure.empty() && compiled.exitCode != 0 && !anyError)
    result.failure = Message(
        "compile.failed-silently",
        {{"compiler", systemCompiler()},
         {"how", compiled.signal ? verbatim("signal " + std::to_string(compiled.signal))
                                 : Message("check.exit-code", {{"code", compiled.exitCode}})}});
  if (!result.failure.empty() || compiled.exitCode != 0) return finish();

  // Device code only: what the kernel calls from outside, and what it declares.
  const ObjectCheck check = checkKernelObject(object, source);
  result.failure = check.failure;
  result.diagnostics.insert(result.diagnostics.end(), check.refusals.begin(), check.refusals.end());
  if (!check.failure.empty() || !check.refusals.empty()) return finish();

  std::vector<std::string> link = {systemCompiler(), "-shared", object, "-o", result.library};
  for (const std::string& option : kernelLinkOptions(check)) link.push_back(option);
  const ChildResult linked = runCompiler(link, keepGoing);
  result.cancelled = linked.cancelled;
  result.failure = stopped(linked, true);
  if (result.failure.empty() && linked.exitCode != 0)
    result.failure = Message("compile.link-failed", {{"output", linked.output}});
  result.output += linked.output;
  result.ok = result.failure.empty() && linked.exitCode == 0;
  return finish();
}

// ============================================================================================
// [SECTION] Reading the compiler's output
// ============================================================================================
// With -fdiagnostics-plain-output (g++) or without carets (clang) every diagnostic is one
// line: FILE:LINE:COLUMN: SEVERITY: MESSAGE. Around an error in a header (a shim function the
// learner called wrongly) the lines that say where it was required from, or notes, point into
// the learner's file: the error goes to that line.

namespace {

// g++'s "'__popc' was not declared in this scope; did you mean '__powl'?" names a C library
// internal, which tells a learner nothing: a suggestion stays only where it is CUDA's.
std::string withoutForeignSuggestion(const std::string& message) {
  static const std::regex suggestion(R"(; did you mean '([A-Za-z_][A-Za-z0-9_:]*)'\?$)");
  std::smatch m;
  if (!std::regex_search(message, m, suggestion)) return message;
  std::string name = m[1].str();
  if (const size_t colons = name.rfind("::"); colons != std::string::npos)
    name = name.substr(colons + 2);
  if (offeredName(name)) return message;
  return message.substr(0, size_t(m.position(0)));
}

}  // namespace

std::vector<CompileDiagnostic> parseCompilerOutput(const std::string& output,
                                                   const std::string& source,
                                                   const std::string& entry, const Exercise& e) {
  static const std::regex located(R"(^(.+?):([0-9]+):([0-9]+): (.*)$)");
  static const std::regex severity(R"(^(fatal error|error|warning|note): (.*)$)");
  std::vector<CompileDiagnostic> out;
  int contextLine = 0, contextColumn = 0;  // the learner's line that the next header error is about
  bool lastNeedsLine = false;              // the last diagnostic waits for a learner's line
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, located)) continue;
    const std::string file = m[1].str();
    const int number = std::stoi(m[2].str()), column = std::stoi(m[3].str());
    const std::string rest = m[4].str();
    std::smatch s;
    const bool hasSeverity = std::regex_match(rest, s, severity);
    const std::string kind = hasSeverity ? s[1].str() : "";
    if (!hasSeverity || kind == "note") {
      if (file != source) continue;
      if (lastNeedsLine && !out.empty()) {
        out.back().line = number;
        out.back().column = column;
        lastNeedsLine = false;
      } else if (!hasSeverity) {
        contextLine = number;
        contextColumn = column;
      }
      continue;
    }
    CompileDiagnostic d;
    d.severity = kind == "warning" ? "warning" : "error";
    d.message = s[2].str();
    lastNeedsLine = false;
    if (file == source) {
      d.line = number;
      d.column = column;
      d.message = withoutForeignSuggestion(d.message);
    } else if (file == entry) {
      d.message = "the exercise runs " + e.signature() +
                  ", and this file has no kernel of that name with those parameters (the "
                  "compiler: " +
                  d.message + ")";
    } else {
      // A refusal the shim declares (a CUDA function the simulator does not offer) is its own
      // sentence; any other error in a header says which.
      static const std::string refused = "static assertion failed: ";
      d.refusal = d.message.rfind(refused, 0) == 0;
      if (d.refusal)
        d.message.erase(0, refused.size());
      else
        d.message = "in " + fs::path(file).filename().string() + ": " + d.message;
      d.line = contextLine;
      d.column = contextColumn;
      lastNeedsLine = d.line == 0;
    }
    contextLine = contextColumn = 0;
    bool seen = false;
    for (const auto& known : out)
      seen |= known.line == d.line && known.message == d.message && known.severity == d.severity;
    if (!seen) out.push_back(d);
  }
  // Where a line calls a function the simulator refuses, that sentence says it all: the
  // compiler's other errors there follow from it.
  std::set<int> refusedLines;
  for (const auto& d : out)
    if (d.refusal) refusedLines.insert(d.line);
  std::erase_if(out, [&](const CompileDiagnostic& d) {
    return !d.refusal && d.line > 0 && refusedLines.count(d.line);
  });
  return out;
}

}  // namespace rlab
