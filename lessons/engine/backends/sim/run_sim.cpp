// Every lesson kernel, compiled by g++ through the shim, run by the lesson drivers.
#include "kernels/sim/shim.hpp"
// (the shim must come before any kernel source)
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/run/drivers.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/backends/sim/backend.hpp"
#include "lessons/engine/system/process.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>

namespace rlab {

namespace {

// The lines of lesson kernels that instructions of this program belong to ("barrier.cuh:14"),
// through its debug information, all in one run of addr2line (which walks the inlined calls
// from the innermost out): "" for one outside a kernels/*.cuh file, or in a program without
// debug information (an installed package is stripped).
// Kept for the process: the same race in the next run (the app's, rlab race's) needs no look-up.
std::map<uintptr_t, std::string> lessonKernelLines(const std::vector<uintptr_t>& instructions) {
  static std::mutex mutex;
  static std::map<uintptr_t, std::string> known;
  const std::lock_guard<std::mutex> lock(mutex);
  std::map<uintptr_t, std::string>& lines = known;
  std::vector<std::string> arguments;
  const char* module = nullptr;
  std::vector<uintptr_t> asked;
  for (uintptr_t instruction : instructions) {
    if (lines.count(instruction)) continue;
    lines[instruction] = "";
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(instruction), &info) || !info.dli_fname) continue;
    if (module && std::string(module) != info.dli_fname) continue;  // one program: ours
    module = info.dli_fname;
    char offset[32];  // a return address: the call is the byte before
    std::snprintf(
        offset, sizeof offset, "0x%llx",
        (unsigned long long)(instruction - 1 - reinterpret_cast<uintptr_t>(info.dli_fbase)));
    arguments.push_back(offset);
    asked.push_back(instruction);
  }
  if (!module) return lines;  // a copy, taken under the lock
  arguments.insert(arguments.begin(), {"-e", module, "-i", "-a"});
  // With -a each address's lines follow a line of its own that starts with 0x.
  std::istringstream out(runAddr2line(arguments));
  size_t k = 0;
  bool found = false;
  for (std::string text; std::getline(out, text);) {
    if (text.rfind("0x", 0) == 0) {
      if (k < asked.size() && (k > 0 || found)) ++k;
      found = true;
      continue;
    }
    if (k >= asked.size() || !lines[asked[k]].empty()) continue;
    text = text.substr(0, text.find(' '));
    const size_t kernels = text.rfind("/kernels/"), colon = text.rfind(':');
    if (kernels == std::string::npos || colon == std::string::npos || colon < kernels) continue;
    const std::string file = text.substr(kernels + 9, colon - kernels - 9);
    if (file.find('/') != std::string::npos || file.size() < 4 ||
        file.substr(file.size() - 4) != ".cuh")
      continue;
    lines[asked[k]] = file + text.substr(colon);
  }
  return lines;
}

}  // namespace

void runOnSimulator(const Resolved& run, const std::vector<double>& input, bool trace, Trace& out) {
  const Params& p = run.params;
  sim::LaunchOptions options;
  options.schedule = *run.schedule;
  options.capturePrintf = true;  // into the trace, not onto the terminal
  // A traced run looks for races: a run whose sum came out right may still have had one.
  options.detectRaces = (trace || p.detectRaces) && sim::lessonKernelsDetectRaces();
  SimBackend backend(options, trace && recordsMemory(p));
  const auto start = std::chrono::steady_clock::now();
  runOnBackend(backend, p, input, trace, out);
  out.timings.simSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.racesLooked = options.detectRaces;
  out.racingAccesses = backend.racingAccesses();
  if (!backend.raceInstructions().empty()) {
    const auto lines = lessonKernelLines(backend.raceInstructions());
    const auto race = backend.race([&lines](uintptr_t instruction) {
      const auto it = lines.find(instruction);
      return it == lines.end() ? std::string() : it->second;
    });
    out.notes.push_back(Message("note.race", {{"race", messageOf(*race)}}));  // run.cpp judges
  }
  out.memoryRecorded = backend.recordsMemory();
  out.timings.simRounds = backend.rounds();
  out.timings.simWarpSteps = backend.warpSteps();
  out.timings.simWarpStepThreads = backend.warpStepThreads();
  out.timings.simLaneThreadWarpSteps = backend.laneThreadWarpSteps();
  out.kernelOutput = outputLines(backend.printed());
  if (backend.printedCut())
    out.notes.push_back(Message("note.sim.printf-cut", {{"mebibytes", sim::kPrintedBytes >> 20}}));
  out.backend = BackendChoice::Sim;
  out.device = Message("device.simulator", {{"schedule", options.schedule.str()}});
}

bool simulatorHasDriver(DriverId driver) {
  return hasDriver<SimBackend>(driver);
}

}  // namespace rlab
