// One lesson run under NVIDIA's compute-sanitizer, as a report: the hazards it named, each with
// its kernel and source line, its summary, and what the tool cannot see. `rlab check` prints the
// report; the desktop app's race explorer draws it.
//
// The run is `rlab run ... --backend gpu --format json` started as a child process (the
// sanitizer instruments a whole process), so runArguments() must reproduce the Params exactly.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/run_parameters.hpp"  // runArguments

namespace rlab {

enum class SanitizerTool { Racecheck, Memcheck, Synccheck, Initcheck };

const char* name(SanitizerTool tool);  // "racecheck", as compute-sanitizer's --tool takes it
// Throws ParamError naming --tool and the four tools.
SanitizerTool parseSanitizerTool(const std::string& text);

// Where the sanitizer points: a kernel (as it prints the name: "void treeShared<int,
// SumOp>(T1 *, int, bool, bool, StepRecorder<T1>)"), and a file and line ("barrier.cuh", 38)
// when the kernels were built with line information (nvcc -lineinfo).
struct SanitizerSite {
  // "Write access", "Read access" (racecheck), "Write Thread (162,0,0)" (its hazard report);
  // empty where the report names none (memcheck, synccheck, initcheck)
  std::string access;
  std::string kernel;
  std::string file;  // empty, and line 0, when the sanitizer printed no source location
  int line = 0;
};

struct SanitizerHazard {
  std::string severity;  // "Error", "Warning", or empty where the report gives none
  // What happened, without the places: "Race reported between Write access and Read access",
  // "Invalid __global__ read of size 4 bytes", "Barrier error detected. Divergent thread(s) in
  // warp.".
  std::string kind;
  std::string kernel, file;  // the first site's
  int line = 0;
  std::vector<SanitizerSite> sites;  // every place named, in order (a race has two or more)
  std::string thread;                // "thread (3,0,0) in block (0,0,0)" where printed
  int count = 0;                     // racecheck: the hazards this report stands for ([6 hazards])
  std::vector<std::string> lines;    // as printed, less the "========= " prefix
};

struct SanitizerReport {
  SanitizerTool tool = SanitizerTool::Racecheck;
  Params params;       // the run that was checked
  bool clean = false;  // exit code 0 and no hazard named
  int exitCode = -1;   // the sanitizer's: 0 clean, 9 errors found, else the run's own failure
  std::vector<SanitizerHazard> hazards;
  std::string summary;  // "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)", as printed
  Message runError;     // the checked run failed: its own sentence (verbatim), or its exit code
  std::vector<Message> notes;  // the tool's lines about the process (verbatim), and ours
};

// The exit code runSanitizer asks compute-sanitizer for when it reports an error.
inline constexpr int kSanitizerErrorExit = 9;

// Reads compute-sanitizer's output (the checked program's own lines mixed in). Pure: no
// process, no file. `params` of the report is left default; runSanitizer fills it in.
SanitizerReport parseSanitizerOutput(SanitizerTool tool, const std::string& output, int exitCode);

// A program of the CUDA toolkit ("compute-sanitizer", "ncu"): beside the nvcc of this build,
// in /usr/local/cuda/bin, then on PATH; empty when there is none.
std::string findCudaTool(const std::string& program);
// What runSanitizer would use; empty when there is none.
std::string findComputeSanitizer();
// rlab: $RLAB_EXECUTABLE; beside the running executable (installed: both in PREFIX/bin), else
// the build folder's app/cli/rlab (installation.hpp).
std::string findRlabExecutable();

struct SanitizerPrograms {
  std::string sanitizer, rlab;  // empty: find them as above
};

// Runs `compute-sanitizer --tool T --error-exitcode 9 rlab run ARGS --backend gpu --no-timings
// --format json` (no shell: an argument vector) and reads what it printed. Throws
// GpuUnavailable in one sentence when compute-sanitizer or rlab cannot be found, and
// std::runtime_error when the sanitizer cannot be started.
SanitizerReport runSanitizer(const Params& params, SanitizerTool tool,
                             const SanitizerPrograms& programs = {});

}  // namespace rlab
