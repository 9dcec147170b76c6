// [SECTION] The compiler and the scratch folder
// [SECTION] Compiling
// [SECTION] Reading the compiler's output

#include "lessons/engine/exercise/compile.hpp"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "lessons/engine/embedded.hpp"
#include "lessons/engine/process.hpp"

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
  return RLAB_CXX_COMPILER;
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

// The simulator's headers, as this build compiled them: the shim and every header it includes
// (embedded by lessons/engine/CMakeLists.txt).
constexpr const char* kShimHeaders[] = {"kernels/sim/shim.hpp", "kernels/sim/runtime.hpp",
                                        "kernels/sim/vector_types.hpp",
                                        "kernels/sim/detail/hooks.hpp"};

void writeFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("could not write " + path + ".");
}

std::string quotedForInclude(const std::string& path) {
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The file the compiler is given: the shim, the learner's file, and the entry that hands the
// runner the exercise's kernel. Assigning the kernel to a pointer of the exercise's type
// refuses a missing kernel or another signature, and picks the instance of a template.
std::string entryText(const Exercise& e, const std::string& source) {
  return "#include \"kernels/sim/shim.hpp\"\n"
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
         "}\n";
}

std::vector<std::string> compilerArguments(const std::string& folder, const std::string& entry,
                                           const std::string& library) {
  const std::string compiler = systemCompiler();
  // DWARF 4: Debian 12's addr2line gives lines of GCC 12's DWARF 5 the wrong file.
  std::vector<std::string> args = {compiler,
                                   "-std=c++20",
                                   "-fPIC",
                                   "-shared",
                                   "-O1",
                                   "-gdwarf-4",
                                   "-fvisibility=hidden",
                                   "-I" + folder + "/include"};
  const bool clang = compiler.find("clang") != std::string::npos ||
                     (std::getenv("RLAB_CXX") == nullptr &&
                      std::string(RLAB_CXX_COMPILER_ID).find("Clang") != std::string::npos);
  if (clang) {
    args.insert(args.end(),
                {"-fno-color-diagnostics", "-fno-caret-diagnostics", "-ferror-limit=30"});
  } else {
    args.insert(args.end(), {"-fdiagnostics-plain-output", "-fmax-errors=30"});
  }
  args.insert(args.end(), {entry, "-o", library});
  return args;
}

}  // namespace

CompileResult compileForSimulator(const Exercise& e, const std::string& sourceGiven,
                                  const std::string& folder,
                                  const std::function<bool()>& keepGoing) {
  CompileResult result;
  std::error_code error;
  const std::string source = fs::absolute(sourceGiven, error).lexically_normal().string();
  if (!fs::is_regular_file(source, error))
    throw ParamError(Message("check.unreadable", {{"file", sourceGiven}}));
  for (const char* header : kShimHeaders) {
    const std::string* text = embeddedFile(header);
    if (!text) throw std::runtime_error(std::string(header) + " is not embedded in this build.");
    writeFile(folder + "/include/" + header, *text);
  }
  const std::string entry = folder + "/entry.cpp";
  writeFile(entry, entryText(e, source));
  result.library = folder + "/kernel.so";

  const auto start = std::chrono::steady_clock::now();
  ChildOptions options;
  options.timeLimitSeconds = 120;
  options.keepGoing = keepGoing;
  options.environment = {"LC_ALL=C"};  // plain quotes in messages
  const ChildResult done = runChild(compilerArguments(folder, entry, result.library), options);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.output = done.output;
  result.diagnostics = parseCompilerOutput(done.output, source, entry, e);
  result.cancelled = done.cancelled;
  if (done.cancelled) {
    result.failure = Message("compile.cancelled");
  } else if (done.timedOut) {
    result.failure = Message("compile.too-long", {{"minutes", 2}});
  } else if (done.exitCode != 0) {
    bool anyError = false;
    for (const auto& d : result.diagnostics) anyError |= d.severity == "error";
    if (!anyError)
      result.failure =
          Message("compile.failed-silently",
                  {{"compiler", systemCompiler()},
                   {"how", done.signal ? verbatim("signal " + std::to_string(done.signal))
                                       : Message("check.exit-code", {{"code", done.exitCode}})}});
  }
  result.ok = done.exitCode == 0 && !done.cancelled && !done.timedOut;
  return result;
}

// ============================================================================================
// [SECTION] Reading the compiler's output
// ============================================================================================
// With -fdiagnostics-plain-output (g++) or without carets (clang) every diagnostic is one
// line: FILE:LINE:COLUMN: SEVERITY: MESSAGE. Around an error in a header (a shim function the
// learner called wrongly) the lines that say where it was required from, or notes, point into
// the learner's file: the error goes to that line.

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
    } else if (file == entry) {
      d.message = "the exercise runs " + e.signature() +
                  ", and this file has no kernel of that name with those parameters (the "
                  "compiler: " +
                  d.message + ")";
    } else {
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
  return out;
}

}  // namespace rlab
