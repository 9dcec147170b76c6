// The sanitizer run as a core function: the arguments that reproduce a run, compute-sanitizer's
// output read into a report, and the child process started without a shell.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include "app/cli/cli.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"

using namespace rlab;

namespace {

// Every field the command line can set (all but `trace`, which it never clears).
bool sameRun(const Params& a, const Params& b) {
  return a.lesson == b.lesson && a.variant == b.variant && a.n == b.n && a.block == b.block &&
         a.op == b.op && a.type == b.type && a.data == b.data && a.values == b.values &&
         a.barrier == b.barrier && a.syncwarp == b.syncwarp && a.perturb == b.perturb &&
         a.delayThread == b.delayThread && a.delayLevel == b.delayLevel &&
         a.schedule == b.schedule && a.backend == b.backend && a.timed == b.timed;
}

std::string joined(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + w;
  return line;
}

// Parses `rlab run ARGS` with the command line's own parser; nullopt when it refuses them.
std::optional<Params> parsedBack(const std::vector<std::string>& args) {
  std::vector<std::string> line = {"run"};
  line.insert(line.end(), args.begin(), args.end());
  try {
    return cli::parseCommandLine(line).params;
  } catch (const cli::UsageError&) {
    return std::nullopt;
  }
}

bool accepted(const Params& p) {
  try {
    resolve(p);
    return true;
  } catch (const ParamError&) {
    return false;
  }
}

// Random Params over every lesson; about half are valid, the rest break one rule or another.
Params randomParams(std::mt19937_64& rng) {
  auto pick = [&](size_t count) { return size_t(rng() % count); };
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  const LessonInfo& lesson = lessons()[pick(lessons().size())];
  Params p;
  p.lesson = lesson.id;
  if (chance(70)) p.variant = lesson.variants[pick(lesson.variants.size())].id;
  if (chance(60)) p.n = 1 + int64_t(rng() % uint64_t(lesson.oneBlock ? 1024 : 5000));
  if (chance(50)) p.block = 1 << pick(11);
  p.op = Op(pick(4));
  p.type = chance(50) ? ElementType::Int : ElementType::Float;
  const char* data[] = {"iota", "ones", "random:7", "random:18446744073709551615"};
  p.data = data[pick(4)];
  if (chance(40)) {
    p.data.clear();  // --values replaces the data set, which stays at its default
    p.n = chance(80) ? 0 : p.n;
    const size_t count = 1 + pick(12);
    for (size_t i = 0; i < count; ++i) {
      double v = 0;
      if (p.type == ElementType::Int) {
        v = double(int32_t(uint32_t(rng())));
      } else {
        const double awkward[] = {0.1, -3.5e7, 3e38, -3e38, -0.0, 1e-300, 2.0 / 3.0, 1e-45};
        // Full 53-bit mantissas at every scale: no short decimal text matches them.
        v = chance(30)
                ? awkward[pick(8)]
                : std::ldexp(double(rng() >> 11) / double(1ull << 53), int(pick(200)) - 100) *
                      (chance(50) ? -1 : 1);
      }
      p.values.push_back(v);
    }
  }
  p.barrier = lesson.switchableBarrier ? chance(50) : chance(95);
  p.syncwarp = chance(90);
  p.perturb = lesson.switchableBarrier ? chance(30) : chance(5);
  if (chance(lesson.switchableBarrier ? 30 : 5)) {
    p.delayThread = 0;
    p.delayLevel = 1;
  }
  p.backend = BackendChoice(pick(3));
  const char* schedules[] = {"lockstep", "sequential",     "reverse",
                             "random:3", "warps-random:9", "stall:4:2:1"};
  // A GPU schedules its own threads: the command line takes no --schedule with --backend gpu.
  p.schedule = p.backend == BackendChoice::Gpu ? "lockstep" : schedules[pick(6)];
  p.timed = chance(50);
  return p;
}

}  // namespace

TEST_CASE(
    "runArguments: the command line's parser reads back exactly the Params, for every lesson") {
  std::mt19937_64 rng(20261122);
  int valid = 0, withValues = 0;
  for (int k = 0; k < 3000; ++k) {
    const Params p = randomParams(rng);
    const std::vector<std::string> args = runArguments(p);
    CAPTURE(joined(args));
    const std::optional<Params> back = parsedBack(args);
    // Refused exactly when the core refuses these Params: nothing lost or added on the way.
    REQUIRE(back.has_value() == accepted(p));
    if (!back) continue;
    ++valid;
    withValues += !p.values.empty();
    CHECK(sameRun(*back, p));
  }
  CHECK(valid > 600);
  CHECK(withValues > 200);
}

TEST_CASE("runArguments: a value list written with fewer digits would not read back the same") {
  Params p;
  p.lesson = "folding";
  p.type = ElementType::Float;
  p.values = {0.1, -3.5e7, 0.1 + 0.2, std::ldexp(6004799503160661.0, -54)};
  const std::vector<std::string> args = runArguments(p);
  CHECK(args[0] == "folding");
  const auto back = parsedBack(args);
  REQUIRE(back);
  CHECK(sameRun(*back, p));
  // The same list at the stream's default precision (6 digits): 0.1 + 0.2 comes back as 0.3.
  std::vector<std::string> lossy = args;
  for (auto& a : lossy)
    if (a.rfind("--values=", 0) == 0) {
      std::ostringstream list;
      for (size_t i = 0; i < p.values.size(); ++i) list << (i ? "," : "") << p.values[i];
      a = "--values=" + list.str();
    }
  const auto lossyBack = parsedBack(lossy);
  REQUIRE(lossyBack);
  CHECK_FALSE(sameRun(*lossyBack, p));
}

TEST_CASE("runArguments: a GPU run names no schedule, the simulator's names one but lockstep") {
  Params p;
  p.lesson = "barrier";
  p.variant = "shared";
  p.barrier = false;
  p.backend = BackendChoice::Gpu;
  p.timed = false;
  const auto gpu = runArguments(p);
  CHECK(joined(gpu) == "barrier --variant shared --no-barrier --backend gpu --no-timings");
  p.backend = BackendChoice::Sim;
  p.schedule = "stall:4:2:1";
  CHECK(joined(runArguments(p)).find("--schedule stall:4:2:1") != std::string::npos);
}

TEST_CASE("sanitizer tools: names and parsing") {
  for (SanitizerTool tool : {SanitizerTool::Racecheck, SanitizerTool::Memcheck,
                             SanitizerTool::Synccheck, SanitizerTool::Initcheck})
    CHECK(parseSanitizerTool(name(tool)) == tool);
  CHECK_THROWS_WITH_AS(parseSanitizerTool("helgrind"),
                       "--tool 'helgrind' is not a compute-sanitizer tool; use racecheck, "
                       "memcheck, synccheck or initcheck.",
                       ParamError);
}

// What compute-sanitizer 2025.3.1 printed on an H100 for the shared-memory tree of
// kernels/barrier.cuh with its barrier off (256 threads, built with -lineinfo; a separator is
// "=========" and one space), with the checked rlab's JSON line in the middle, as it comes
// through the pipe.
const char* const kRacecheckOutput =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Read access at void treeShared<int, SumOp>(T1 *, "
    "int, bool, bool, StepRecorder<T1>)+0x470 in barrier.cuh:38\n"
    "=========     and Write access at void treeShared<int, SumOp>(T1 *, int, bool, bool, "
    "StepRecorder<T1>)+0x4c0 in barrier.cuh:39 [520 hazards]\n"
    "========= \n"
    "{\"backend\":\"gpu\",\"lesson\":\"barrier\",\"result\":8014}\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

TEST_CASE("rlab check's report fits 80 columns: compute-sanitizer's long kernel names wrapped") {
  SanitizerReport r =
      parseSanitizerOutput(SanitizerTool::Racecheck, kRacecheckOutput, kSanitizerErrorExit);
  r.params.lesson = "barrier";
  r.params.variant = "shared";
  r.params.barrier = false;
  for (Language language : kLanguages) {
    std::ostringstream out;
    rlab::cli::printSanitizerText(r, out, language, 80);
    CAPTURE(out.str());
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) CHECK(rlab::cli::visibleColumns(line) <= 80);
    CHECK(out.str().find("barrier.cuh:39") != std::string::npos);
  }
}

TEST_CASE("parseSanitizerOutput: a racecheck race, its kernel, both accesses and their lines") {
  const SanitizerReport r =
      parseSanitizerOutput(SanitizerTool::Racecheck, kRacecheckOutput, kSanitizerErrorExit);
  CHECK_FALSE(r.clean);
  CHECK(r.exitCode == 9);
  CHECK(r.runError.empty());
  CHECK(r.summary == "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)");
  REQUIRE(r.hazards.size() == 1);
  const SanitizerHazard& h = r.hazards[0];
  CHECK(h.severity == "Error");
  CHECK(h.kind == "Race reported between Read access and Write access");
  CHECK(h.kernel == "void treeShared<int, SumOp>(T1 *, int, bool, bool, StepRecorder<T1>)");
  CHECK(h.file == "barrier.cuh");
  CHECK(h.line == 38);
  CHECK(h.count == 520);
  REQUIRE(h.sites.size() == 2);
  CHECK(h.sites[0].access == "Read access");
  CHECK(h.sites[1].access == "Write access");
  CHECK(h.sites[1].kernel == h.kernel);
  CHECK(h.sites[1].line == 39);
  REQUIRE(h.lines.size() == 2);
  CHECK(h.lines[0].rfind("Error: Race reported between Read access at void treeShared", 0) == 0);
  CHECK(h.lines[1].rfind("    and Write access at", 0) == 0);
  REQUIRE_FALSE(r.notes.empty());
  CHECK(rlab::english(r.notes.back()).find("shared memory only") != std::string::npos);
}

TEST_CASE("parseSanitizerOutput: the same race from kernels built without -lineinfo") {
  const SanitizerReport r = parseSanitizerOutput(
      SanitizerTool::Racecheck,
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Read access at void treeShared<int, SumOp>(T1 *, "
      "int, bool, bool, StepRecorder<T1>)+0x470\n"
      "=========     and Write access at void treeShared<int, SumOp>(T1 *, int, bool, bool, "
      "StepRecorder<T1>)+0x4c0 [508 hazards]\n"
      "========= \n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n",
      9);
  REQUIRE(r.hazards.size() == 1);
  CHECK(r.hazards[0].kind == "Race reported between Read access and Write access");
  CHECK(r.hazards[0].kernel ==
        "void treeShared<int, SumOp>(T1 *, int, bool, bool, StepRecorder<T1>)");
  CHECK(r.hazards[0].file.empty());
  CHECK(r.hazards[0].line == 0);
  CHECK(r.hazards[0].sites.size() == 2);
  CHECK(r.hazards[0].count == 508);
}

TEST_CASE("parseSanitizerOutput: racecheck's hazard report (--racecheck-report hazard)") {
  const SanitizerReport r = parseSanitizerOutput(
      SanitizerTool::Racecheck,
      "========= COMPUTE-SANITIZER\n"
      "========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ "
      "0x688 in block (0,0,0) :\n"
      "=========     Write Thread (162,0,0) at void treeShared<int, SumOp>(T1 *, int, bool, "
      "bool, StepRecorder<T1>)+0x4c0 in barrier.cuh:39\n"
      "=========     Read Thread (160,0,0) at void treeShared<int, SumOp>(T1 *, int, bool, bool, "
      "StepRecorder<T1>)+0x470 in barrier.cuh:38\n"
      "=========     Current Value : 0\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: void treeShared<int, SumOp>(int*, int, bool, bool, "
      "StepRecorder<int>) [0x91c9] in b\n"
      "=========         Host Frame: main [0x8d8f] in b\n"
      "========= \n"
      "========= RACECHECK SUMMARY: 100 hazards displayed (28 errors, 480 warnings)\n",
      9);
  REQUIRE(r.hazards.size() == 1);
  const SanitizerHazard& h = r.hazards[0];
  CHECK(h.severity == "Warning");
  CHECK(h.kind.rfind("(Warp Level Programming) Potential RAW hazard detected at __shared__ 0x688 "
                     "in block (0,0,0)",
                     0) == 0);
  REQUIRE(h.sites.size() == 2);
  CHECK(h.sites[0].access == "Write Thread (162,0,0)");
  CHECK(h.sites[1].access == "Read Thread (160,0,0)");
  CHECK(h.line == 39);
  CHECK(h.sites[1].line == 38);
  CHECK(h.lines.size() == 7);
}

TEST_CASE("parseSanitizerOutput: several hazards, warnings, no line information, wrapped lines") {
  const std::string output =
      "========= COMPUTE-SANITIZER\n"
      "========= Warning: Race reported between Read access at k(float *, int)+0x120\n"
      "=========     and Write access at k(float *, int)+0x130 [393960 hazards]\n"
      "=========     and Write access at k(float *, int)+0x200 [4 hazards]\n"
      "=========\n"
      "========= Error: Race reported between Write access at\n"
      "=========     race_condition(float *)+0xb0 in 18_debug_demo.cu:28\n"
      "=========     and Read access at\n"
      "=========     race_condition(float *)+0xc0 in 18_debug_demo.cu:30\n"
      "=========     [1024 hazards]\n"
      "=========\n"
      "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n";
  const SanitizerReport r = parseSanitizerOutput(SanitizerTool::Racecheck, output, 9);
  REQUIRE(r.hazards.size() == 2);
  const SanitizerHazard& warning = r.hazards[0];
  CHECK(warning.severity == "Warning");
  CHECK(warning.kind == "Race reported between Read access and Write access and Write access");
  CHECK(warning.kernel == "k(float *, int)");
  CHECK(warning.file.empty());
  CHECK(warning.line == 0);
  CHECK(warning.sites.size() == 3);
  CHECK(warning.count == 393964);
  const SanitizerHazard& wrapped = r.hazards[1];
  CHECK(wrapped.kind == "Race reported between Write access and Read access");
  CHECK(wrapped.kernel == "race_condition(float *)");
  CHECK(wrapped.file == "18_debug_demo.cu");
  CHECK(wrapped.line == 28);
  REQUIRE(wrapped.sites.size() == 2);
  CHECK(wrapped.sites[1].line == 30);
  CHECK(wrapped.count == 1024);
  CHECK(r.summary == "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)");
}

TEST_CASE("parseSanitizerOutput: memcheck errors with thread, address and host stack") {
  // As printed on an H100 for a kernel reading past a 16-byte allocation (two of its eight
  // invalid reads), then the launch failure the program hit and its own line.
  const std::string output =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at oob(const int *, int *)+0x60 in f.cu:3\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========     Access to 0x7f466a800010 is out of bounds\n"
      "=========     and is 1 bytes after the nearest allocation at 0x7f466a800000 of size 16 "
      "bytes\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: main [0x8d91] in f\n"
      "========= \n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at oob(const int *, int *)+0x60 in f.cu:3\n"
      "=========     by thread (1,0,0) in block (0,0,0)\n"
      "=========     Access to 0x7f466a800014 is out of bounds\n"
      "=========     and is 5 bytes after the nearest allocation at 0x7f466a800000 of size 16 "
      "bytes\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: main [0x8d91] in f\n"
      "========= \n"
      "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
      "failure\" on CUDA API call to cudaDeviceSynchronize.\n"
      "=========     Saved host backtrace up to driver entry point at error\n"
      "=========         Host Frame: main [0x8f39] in f\n"
      "========= \n"
      "rlab: The GPU stopped with an illegal address in the kernel; no more GPU runs in this "
      "process.\n"
      "========= Target application returned an error\n"
      "========= ERROR SUMMARY: 3 errors\n";
  const SanitizerReport r = parseSanitizerOutput(SanitizerTool::Memcheck, output, 9);
  CHECK_FALSE(r.clean);
  REQUIRE(r.hazards.size() == 3);
  const SanitizerHazard& read = r.hazards[1];
  CHECK(read.severity.empty());
  CHECK(read.kind == "Invalid __global__ read of size 4 bytes");
  CHECK(read.kernel == "oob(const int *, int *)");
  CHECK(read.file == "f.cu");
  CHECK(read.line == 3);
  CHECK(read.thread == "thread (1,0,0) in block (0,0,0)");
  REQUIRE(read.sites.size() == 1);
  CHECK(read.sites[0].access.empty());
  CHECK(read.lines.size() == 7);  // every line of it, host frame included
  const SanitizerHazard& api = r.hazards[2];
  CHECK(api.kind.rfind("Program hit cudaErrorLaunchFailure (error 719)", 0) == 0);
  CHECK(api.kernel.empty());
  CHECK(api.line == 0);
  CHECK(api.lines.size() == 3);
  CHECK(r.summary == "ERROR SUMMARY: 3 errors");
  CHECK(rlab::english(r.runError) ==
        "The GPU stopped with an illegal address in the kernel; no more GPU runs in this "
        "process.");
  CHECK(std::count(r.notes.begin(), r.notes.end(),
                   rlab::verbatim("Target application returned an error")) == 1);
  for (const auto& note : r.notes)
    CHECK(rlab::english(note).find("racecheck") == std::string::npos);
}

TEST_CASE("parseSanitizerOutput: synccheck and initcheck reports") {
  // Both as printed on an H100: __syncthreads() reached by half a warp, a read of memory no one
  // wrote. Without -lineinfo the "in FILE:LINE" part is missing.
  const SanitizerReport sync = parseSanitizerOutput(
      SanitizerTool::Synccheck,
      "========= COMPUTE-SANITIZER\n"
      "========= Barrier error detected. Divergent thread(s) in warp.\n"
      "=========     at dsync(int *)+0x70 in f.cu:5\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: main [0x8ec4] in f\n"
      "========= \n"
      "========= Target application returned an error\n"
      "========= ERROR SUMMARY: 16 errors\n",
      9);
  REQUIRE(sync.hazards.size() == 1);
  CHECK(sync.hazards[0].kind == "Barrier error detected. Divergent thread(s) in warp.");
  CHECK(sync.hazards[0].kernel == "dsync(int *)");
  CHECK(sync.hazards[0].line == 5);
  CHECK(sync.hazards[0].thread == "thread (0,0,0) in block (0,0,0)");
  CHECK(sync.summary == "ERROR SUMMARY: 16 errors");
  const SanitizerReport init = parseSanitizerOutput(
      SanitizerTool::Initcheck,
      "========= COMPUTE-SANITIZER\n"
      "========= Uninitialized __global__ memory read of size 4 bytes\n"
      "=========     at uninit(const int *, int *)+0x60\n"
      "=========     by thread (0,0,0) in block (0,0,0)\n"
      "=========     Address 0x7fda56800000\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "=========         Host Frame: main [0x8e30] in g\n"
      "========= \n"
      "uninit: no error\n"
      "========= ERROR SUMMARY: 1 error\n"
      "========= ERROR SUMMARY: 669 errors were not printed. Use --print-limit option\n",
      9);
  REQUIRE(init.hazards.size() == 1);
  CHECK(init.hazards[0].kind == "Uninitialized __global__ memory read of size 4 bytes");
  CHECK(init.hazards[0].kernel == "uninit(const int *, int *)");
  CHECK(init.hazards[0].file.empty());
  CHECK(init.hazards[0].line == 0);
  CHECK(init.summary == "ERROR SUMMARY: 1 error");
  CHECK(rlab::english(init.notes.front()).find("669 errors were not printed") != std::string::npos);
}

TEST_CASE("parseSanitizerOutput: clean runs, failed runs and killed runs") {
  const SanitizerReport clean =
      parseSanitizerOutput(SanitizerTool::Memcheck,
                           "========= COMPUTE-SANITIZER\n{\"result\":36}\n"
                           "========= ERROR SUMMARY: 0 errors\n",
                           0);
  CHECK(clean.clean);
  CHECK(clean.hazards.empty());
  CHECK(clean.summary == "ERROR SUMMARY: 0 errors");
  CHECK(clean.notes.empty());

  const SanitizerReport noDevice = parseSanitizerOutput(
      SanitizerTool::Racecheck,
      "========= COMPUTE-SANITIZER\n"
      "rlab: No CUDA device was found.\n"
      "========= Error: process didn't terminate successfully\n"
      "========= Target application returned an error\n"
      "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
      2);
  CHECK_FALSE(noDevice.clean);
  CHECK(noDevice.hazards.empty());
  CHECK(rlab::english(noDevice.runError) == "No CUDA device was found.");

  // A program that never touched CUDA, as printed on an H100.
  const SanitizerReport noCuda = parseSanitizerOutput(
      SanitizerTool::Memcheck,
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Target application terminated before first instrumented API call\n",
      255);
  CHECK(noCuda.hazards.empty());
  CHECK(rlab::english(noCuda.runError) == "The run ended with exit code 255.");
  CHECK(rlab::english(noCuda.notes.front()) ==
        "Error: Target application terminated before first instrumented API call");

  const SanitizerReport killed = parseSanitizerOutput(SanitizerTool::Racecheck, "", -1);
  CHECK_FALSE(killed.clean);
  CHECK(killed.summary.empty());
  CHECK(rlab::english(killed.runError) == "The run was killed before it finished.");
  const SanitizerReport failed = parseSanitizerOutput(SanitizerTool::Racecheck, "", 3);
  CHECK(rlab::english(failed.runError) == "The run ended with exit code 3.");
  // An exit code of 0 with a hazard named (a warning) is not clean either.
  const std::string warningOnly =
      "========= Warning: Race reported between Read access at k()+0x10\n"
      "=========     and Write access at k()+0x20 [1 hazard]\n";
  CHECK_FALSE(parseSanitizerOutput(SanitizerTool::Racecheck, warningOnly, 0).clean);
}

namespace {

// A folder with stand-ins for compute-sanitizer and rlab.
struct FakePrograms {
  std::filesystem::path dir;
  FakePrograms() {
    dir = std::filesystem::temp_directory_path() /
          ("rlab-sanitizer-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    write("rlab", "#!/bin/sh\nexit 0\n");
  }
  ~FakePrograms() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& file, const std::string& text) {
    const auto path = dir / file;
    std::ofstream(path) << text;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
  }
  // A sanitizer that records its arguments one a line, prints `output` (and `errorLine` on
  // stderr) and exits with `code`.
  std::string sanitizer(const std::string& output, int code, const std::string& errorLine = "") {
    std::ofstream(dir / "output") << output;
    std::string script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + (dir / "arguments").string() +
                         "'\ncat '" + (dir / "output").string() + "'\n";
    if (!errorLine.empty()) script += "echo '" + errorLine + "' >&2\n";
    return write("compute-sanitizer", script + "exit " + std::to_string(code) + "\n");
  }
  std::vector<std::string> arguments() const {
    std::ifstream in(dir / "arguments");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
};

}  // namespace

TEST_CASE("runSanitizer: starts the sanitizer without a shell and reads its report") {
  FakePrograms fake;
  Params p;
  p.lesson = "barrier";
  p.variant = "shared";
  p.barrier = false;
  p.n = 8;
  p.op = Op::Max;
  p.type = ElementType::Float;
  p.values = {0.1, -3.5e7, 2, 3, 4, 5, 6, 7};
  p.schedule = "stall:4:2:1";  // the simulator's: a GPU run takes none
  const SanitizerPrograms programs{fake.sanitizer(kRacecheckOutput, 9),
                                   (fake.dir / "rlab").string()};
  const SanitizerReport r = runSanitizer(p, SanitizerTool::Racecheck, programs);
  CHECK(r.params.backend == BackendChoice::Gpu);
  CHECK_FALSE(r.params.timed);
  CHECK(r.params.values == p.values);
  CHECK(r.exitCode == 9);
  REQUIRE(r.hazards.size() == 1);
  CHECK(r.hazards[0].line == 38);
  CHECK(r.summary == "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)");

  std::vector<std::string> expected = {"--tool", "racecheck",   "--error-exitcode",
                                       "9",      programs.rlab, "run"};
  for (const auto& a : runArguments(r.params)) expected.push_back(a);
  expected.insert(expected.end(), {"--format", "json"});
  CHECK(fake.arguments() == expected);
  CHECK(joined(fake.arguments()).find("--schedule") == std::string::npos);
  const auto back = parsedBack(std::vector<std::string>(expected.begin() + 6, expected.end() - 2));
  REQUIRE(back);
  CHECK(sameRun(*back, r.params));
}

TEST_CASE("runSanitizer: every argument arrives as one word, quotes and spaces included") {
  FakePrograms fake;
  Params p;
  p.lesson = "it's a \"lesson\"; rm -rf $HOME";  // never valid, and never read by a shell
  const SanitizerPrograms programs{fake.sanitizer("", 2, "rlab: lesson does not exist."),
                                   (fake.dir / "rlab").string()};
  const SanitizerReport r = runSanitizer(p, SanitizerTool::Memcheck, programs);
  const auto args = fake.arguments();
  REQUIRE(args.size() > 7);
  CHECK(args[1] == "memcheck");
  CHECK(args[6] == p.lesson);
  CHECK(r.exitCode == 2);
  CHECK(rlab::english(r.runError) ==
        "lesson does not exist.");  // stderr comes through the same pipe
  CHECK_FALSE(r.clean);
}

TEST_CASE("runSanitizer: a clean racecheck with the barrier off says what racecheck cannot see") {
  FakePrograms fake;
  Params p;
  p.lesson = "barrier";
  p.variant = "global";
  p.barrier = false;
  const SanitizerPrograms programs{
      fake.sanitizer("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
                     0),
      (fake.dir / "rlab").string()};
  const SanitizerReport r = runSanitizer(p, SanitizerTool::Racecheck, programs);
  CHECK(r.clean);
  CHECK(rlab::english(r.notes.back()).find("global memory") != std::string::npos);
}

TEST_CASE("runSanitizer: no sanitizer or no rlab is one sentence of GpuUnavailable") {
  FakePrograms fake;
  Params p;
  p.lesson = "barrier";
  CHECK_THROWS_WITH_AS(
      runSanitizer(p, SanitizerTool::Racecheck,
                   {(fake.dir / "none").string(), (fake.dir / "rlab").string()}),
      "compute-sanitizer was found neither beside nvcc, in /usr/local/cuda/bin nor on PATH; "
      "install the CUDA toolkit's sanitizer to check a run.",
      GpuUnavailable);
  const std::string sanitizer = fake.sanitizer("", 0);
  CHECK_THROWS_AS(runSanitizer(p, SanitizerTool::Racecheck, {sanitizer, fake.dir.string()}),
                  GpuUnavailable);

  const std::string missing = (fake.dir / "no-rlab-here").string();
  setenv("RLAB_EXECUTABLE", missing.c_str(), 1);
  CHECK(findRlabExecutable() == missing);
  CHECK_THROWS_WITH_AS(
      runSanitizer(p, SanitizerTool::Racecheck, {sanitizer, ""}),
      ("RLAB_EXECUTABLE names " + missing + ", which is not an executable file.").c_str(),
      GpuUnavailable);
  unsetenv("RLAB_EXECUTABLE");
  // Without the variable: the rlab of this build tree, once it is built.
  const std::string found = findRlabExecutable();
  if (!found.empty()) CHECK(found.compare(found.size() - 5, 5, "/rlab") == 0);
}

#ifdef RLAB_GUI_BINARY  // the desktop app is built
#include "app/gui/app.hpp"
#include "tests/headless_imgui.hpp"

TEST_CASE("gui: the race explorer draws a racecheck report") {
  HeadlessImGui imgui;
  rlab::gui::App app;
  app.ui.params.variant = "shared";
  app.ui.params.barrier = false;
  app.runNow();
  SanitizerReport report =
      parseSanitizerOutput(SanitizerTool::Racecheck, kRacecheckOutput, kSanitizerErrorExit);
  report.params = app.ui.params;
  app.ui.race.racecheck = report;
  for (int k = 0; k < 3; ++k) {  // the tab is selected on the first frame, drawn on the next
    app.ui.requestTab = rlab::gui::ViewTab::Race;
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    app.frame(1.0f / 60);
    ImGui::Render();
  }
  CHECK(app.ui.widgetRects.count("racecheck report") == 1);
  app.waitForWork();
}
#endif
