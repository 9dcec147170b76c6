// A learner's kernel is CUDA device code, and only that: what the simulator does not offer, host
// headers and host functions, throw, load-time code and inline assembly are each refused in one
// sentence at their line; a kernel that slips past the compiler's checks still runs in a box
// (tests/fixtures/boxed/hostile.cpp) that stops it, names the deed, and leaves every folder
// outside the runner's as it was; limits (the device heap, output, shared memory) are
// sentences too. The table the sentences come from is the manual's list
// (assets/manual/simulator.md).
#include <doctest/doctest.h>

#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/cuda_surface.hpp"
#include "lessons/engine/exercise/probe.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;

namespace {

const std::string kFixtures = std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/";

#if defined(__SANITIZE_ADDRESS__)
constexpr double kCaseSeconds = 120;
#else
constexpr double kCaseSeconds = 5;
#endif

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ExerciseReport check(const std::string& id, const std::string& file) {
  ExerciseRequest request;
  request.file = file;
  request.caseSeconds = kCaseSeconds;
  return checkExercise(exerciseOrThrow(id), request);
}

// The diagnostic at `line` whose message holds `part`, or fails the test.
void refusedAt(const ExerciseReport& r, int line, const std::string& part) {
  bool found = false;
  for (const auto& d : r.diagnostics) found |= d.line == line && has(d.message, part);
  std::string all;
  for (const auto& d : r.diagnostics) all += d.text("file") + "\n";
  CHECK_MESSAGE(found, "no error at line " << line << " with \"" << part << "\" among:\n" << all);
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// ---- Refused before it runs ---------------------------------------------------------------------

TEST_CASE("device code only: host functions are refused at the line that calls them") {
  const ExerciseReport r = check("one-queue", kFixtures + "calls_host_functions.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 7, "system is a host function; a kernel cannot call it");
  refusedAt(r, 8, "fopen is a host function; a kernel cannot call it");
  refusedAt(r, 9, "socket is a host function; a kernel cannot call it");
  refusedAt(r, 10, "fork is a host function; a kernel cannot call it");
  CHECK_FALSE(std::filesystem::exists("/tmp/rlab-should-not-exist"));
}

TEST_CASE("device code only: host headers and other files are refused at their #include") {
  const ExerciseReport r = check("one-queue", kFixtures + "host_headers.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  CHECK(r.diagnostics.size() == 3);  // <cstdio> is CUDA's too
  refusedAt(r, 3, "<vector> is a host header, which device code cannot use");
  refusedAt(r, 4, "<sys/socket.h> is a host header");
  refusedAt(r, 5, "\"helpers.cuh\" cannot be included: the check compiles this one file");
}

TEST_CASE("what the simulator does not offer is named in one sentence, not the compiler's") {
  const ExerciseReport r = check("warp-shuffle-reduce", kFixtures + "not_offered.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 8,
            "__funnelshift_l is CUDA, but the simulator does not offer it; check on a GPU with "
            "--backend gpu");
  refusedAt(r, 9, "__shfl is no longer CUDA: since CUDA 9 the warp functions name the lanes");
  refusedAt(r, 10, "tiles of more than 32 threads are CUDA, but the simulator does not offer");
  for (const auto& d : r.diagnostics) {
    CHECK_FALSE(has(d.message, "static assertion"));
    CHECK_FALSE(has(d.message, "AnyValue"));  // no error that only follows from a refusal
  }
}

TEST_CASE("a suggestion of the C library's internals is dropped, one of CUDA's kept") {
  TempFolder folder("refusal-words");
  const std::string file = (folder / "typo.cu").string();
  std::ofstream(file) << "__global__ void reduce(const int* in, long long n, int* result) {\n"
                         "  __syncthread();\n"
                         "  atomicAdd(result, int(__powx(2.0)));\n"
                         "}\n";
  const ExerciseReport r = check("one-queue", file);
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 2, "did you mean '__syncthreads'?");
  // g++: "'__powx' was not declared in this scope; did you mean '__powl'?", a glibc internal.
  CHECK(has(r.compilerOutput, "did you mean '__pow"));
  refusedAt(r, 3, "'__powx' was not declared in this scope");
  for (const auto& d : r.diagnostics)
    if (d.line == 3) CHECK_FALSE(has(d.message, "did you mean"));
}

TEST_CASE("device code only: throw and load-time initialisers are refused") {
  const ExerciseReport r = check("one-queue", kFixtures + "throws_and_inits.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 5, "is initialised by code when the kernel is loaded");
  refusedAt(r, 9, "throw is host code: CUDA device code has no exceptions");
}

TEST_CASE("inline assembly is PTX, refused on the simulator at its line") {
  const ExerciseReport r = check("one-queue", kFixtures + "inline_assembly.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 5, "inline assembly (asm) is PTX, which only a GPU runs");
}

TEST_CASE("a __shared__ array past a block's 48 KiB is refused, as nvcc refuses it") {
  const ExerciseReport r = check("tree-in-shared", kFixtures + "huge_shared.cu");
  REQUIRE(r.verdict == ExerciseVerdict::CompileError);
  refusedAt(r, 3, "__shared__ s takes 4194304 bytes; a block has at most 49152 bytes");
}

// ---- Stopped while it runs, with a sentence -----------------------------------------------------

TEST_CASE("8 GiB from the device heap is a null pointer, as on a GPU, and the crash says why") {
  const ExerciseReport r = check("one-queue", kFixtures + "huge_malloc.cu");
  REQUIRE(r.verdict == ExerciseVerdict::Failed);
  REQUIRE_FALSE(r.failures.empty());
  CHECK(has(english(r.failures.front()), "at huge_malloc.cu:5 used a null pointer"));
  CHECK(has(english(r.failures.front()),
            "a malloc or new in the kernel had got one: CUDA's device heap "
            "has 8 MiB"));
}

TEST_CASE("a kernel that prints without end is stopped at the box's limit on output") {
  const ExerciseReport r = check("one-queue", kFixtures + "prints_forever.cu");
  REQUIRE(r.verdict == ExerciseVerdict::Failed);
  REQUIRE_FALSE(r.failures.empty());
  CHECK(has(english(r.failures.front()), "exercise one-queue: n = 1, "));
  CHECK(has(english(r.failures.front()),
            "the kernel printed more than 1 MiB, the box's limit on output"));
}

TEST_CASE("this_grid().sync() without a cooperative launch stops the launch with its line") {
  const ExerciseReport r = check("one-queue", kFixtures + "grid_sync.cu");
  REQUIRE(r.verdict == ExerciseVerdict::Failed);
  REQUIRE_FALSE(r.failures.empty());
  CHECK(has(english(r.failures.front()),
            "called this_grid().sync(), a barrier across the whole grid, "
            "which needs a cooperative launch"));
  CHECK(has(english(r.failures.front()), "at grid_sync.cu:8"));
}

TEST_CASE("a warp reduce whose mask names lanes that have exited waits only for the others") {
  // The PTX ISA: the operation waits for "all non-exited threads named in membermask".
  const ExerciseReport r = check("warp-shuffle-reduce", kFixtures + "reduce_lane_exited.cu");
  CHECK_MESSAGE(r.verdict == ExerciseVerdict::Passed, english(r.summary()));
}

TEST_CASE("a write past the launch's dynamic shared memory is named when the block ends") {
  TempFolder folder("dynamic-shared");
  const std::string file = (folder / "past.cu").string();
  std::ofstream(file) << "__global__ void probe(const int* in, int n, int* out) {\n"
                         "  extern __shared__ int s[];\n"
                         "  s[threadIdx.x + blockDim.x] = in[0];  // one int a thread given\n"
                         "  out[threadIdx.x] = n;\n"
                         "}\n";
  ProbeLaunch l;
  l.block = 32;
  l.n = 1;
  l.outCount = 32;
  l.sharedBytes = 32 * sizeof(int);
  const ProbeReport r = runProbe(file, {7}, {l}, BackendChoice::Sim);
  REQUIRE_MESSAGE(r.ran(), r.problem);
  CHECK(has(r.results[0].failure,
            "the block wrote to extern __shared__ s[] at byte 128, past the "
            "128 bytes of dynamic shared memory the launch gave it"));
}

TEST_CASE(
    "a learner's write past its dynamic shared memory is the simulator's sentence, by block") {
  TempFolder folder("dynamic-shared-check");
  const std::string file = (folder / "past.cu").string();
  std::ofstream(file) << "__global__ void reduce(const int* in, long long n, int* out) {\n"
                         "  extern __shared__ int s[];\n"
                         "  s[threadIdx.x + blockDim.x] = 1;  // one int a thread given\n"
                         "  if (threadIdx.x == 0) out[blockIdx.x] = 0;\n"
                         "}\n";
  // The case's sentence holds the simulator's as its reason.
  auto reason = [](const ExerciseReport& r) {
    REQUIRE(r.verdict == ExerciseVerdict::Failed);
    REQUIRE_FALSE(r.failures.empty());
    for (const MessageArg& a : r.failures.front().args)
      if (a.name == "why" && a.sentences.size() == 1) return a.sentences.front();
    FAIL(english(r.failures.front()));
    return Message();
  };
  const Message first = reason(check("tree-in-shared", file));  // n = 1: one block
  CHECK(first.id == "sim.dynamic-shared-overrun");
  CHECK(first.arg("array") == "s");
  CHECK(has(render(first, Language::Ja), "動的共有メモリ"));
  CHECK(has(render(first, Language::Zh), "动态共享内存"));

  ExerciseRequest request;
  request.file = file;
  request.caseSeconds = kCaseSeconds;
  request.oneRun = true;
  request.options.n = 600;  // blocks of 256: three
  const Message several = reason(checkExercise(exerciseOrThrow("tree-in-shared"), request));
  CHECK(several.id == "sim.dynamic-shared-overrun-in-block");
  CHECK(several.arg("block") == "0");
  CHECK(has(render(several, Language::Ja), "ブロック 0 が extern __shared__ s[]"));
}

// ---- The box, for what slips past the compiler ---------------------------------------------

namespace {

struct Boxed {
  ProbeReport report;
  bool leftOutside = false;  // something appeared in the folder outside the runner's
};

// A hostile library (tests/CMakeLists.txt builds one for each deed) run as a probe, with a
// folder outside the runner's own for it to reach for.
Boxed runHostile(const std::string& deed) {
  TempFolder outside("outside-the-box");
  setenv("RLAB_TEST_OUTSIDE", outside.str().c_str(), 1);
  const std::string library =
      std::string(RLAB_HOSTILE_DIR) + "/rlab_hostile_" + deed + RLAB_HOSTILE_SUFFIX;
  const std::string source = std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/boxed/hostile.cpp";
  ProbeLaunch l;
  l.block = 1;
  l.outCount = 2;
  Boxed b;
  b.report = runCompiledProbe(library, source, {}, {l});
  b.leftOutside = !std::filesystem::is_empty(outside.path);
  MESSAGE(deed << ": " << b.report.problem);
  return b;
}

}  // namespace

TEST_CASE("the box: system() is stopped before a program starts, and nothing appears") {
  const Boxed b = runHostile("system");
  CHECK(b.report.signal == SIGSYS);  // posix_spawn blocks every signal: the box ends it
  CHECK_FALSE(b.leftOutside);
}

TEST_CASE("the box: a file opened for writing is stopped at its line, and nothing appears") {
  const Boxed b = runHostile("fopen");
  CHECK(has(b.report.problem,
            "thread 0 of block 0 at hostile.cpp:30 tried to write a file (openat)"));
  CHECK(has(b.report.problem, "no new processes, no network, no files written"));
  CHECK_FALSE(b.leftOutside);
}

TEST_CASE("the box: a socket is stopped") {
  CHECK(has(runHostile("socket").report.problem, "tried to open a network connection (socket)"));
}

TEST_CASE("the box: fork is stopped") {
  const Boxed b = runHostile("fork");
  CHECK_FALSE(b.leftOutside);
  // glibc up to 2.40 (Debian 12) calls clone with signals open, so the box's handler names the
  // call; glibc 2.41 (Debian 13) blocks every signal around it, as posix_spawn does, and the
  // box ends the process (the check then says so without a line).
  if (b.report.signal == SIGSYS)
    MESSAGE("fork blocked every signal around clone: the box ended the process");
  else
    CHECK(has(b.report.problem, "tried to start a process (clone)"));
}

TEST_CASE("the box: another process is not reached") {
  CHECK(has(runHostile("kill").report.problem, "tried to signal another process (kill)"));
}

TEST_CASE("the box: 8 GiB of memory is refused at the box's limit") {
#if defined(__SANITIZE_ADDRESS__)
  MESSAGE("skipped under AddressSanitizer, which needs terabytes of address space: no limit");
#else
  const Boxed b = runHostile("memory");
  REQUIRE_MESSAGE(b.report.ran(), b.report.problem);
  CHECK(b.report.results[0].out[0] == -1);
  CHECK(b.report.results[0].out[1] == ENOMEM);
#endif
}

// ---- The table, the sentences and the manual ---------------------------------------------------

TEST_CASE("the manual lists what the simulator offers and refuses, from the refusals' table") {
  const std::string page = readAll(std::string(RLAB_SOURCE_DIR) + "/assets/manual/simulator.md");
  const std::string begin = "<!-- cuda-surface: begin -->\n", end = "<!-- cuda-surface: end -->";
  const size_t from = page.find(begin), to = page.find(end);
  REQUIRE_MESSAGE(from != std::string::npos, "assets/manual/simulator.md has no " << begin);
  REQUIRE(to != std::string::npos);
  const std::string listed = page.substr(from + begin.size(), to - from - begin.size());
  CHECK_MESSAGE(listed == cudaSurfaceMarkdown(),
                "assets/manual/simulator.md's list differs from the table; it should read:\n"
                    << cudaSurfaceMarkdown());
}

TEST_CASE("every name the simulator offers is one the conformance suite or the shim uses") {
  // A name in the table's lists that no probe calls is a promise nothing keeps.
  std::string probes;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(RLAB_SOURCE_DIR) + "/tests/conformance"))
    probes += readAll(entry.path().string());
  const std::string shim = readAll(std::string(RLAB_SOURCE_DIR) + "/kernels/sim/shim.hpp");
  for (const char* name : {"__ballot_sync",
                           "__any_sync",
                           "__all_sync",
                           "__activemask",
                           "__match_any_sync",
                           "__match_all_sync",
                           "__reduce_add_sync",
                           "__reduce_min_sync",
                           "__reduce_max_sync",
                           "__reduce_and_sync",
                           "__reduce_or_sync",
                           "__reduce_xor_sync",
                           "__syncthreads_count",
                           "__syncthreads_and",
                           "__syncthreads_or",
                           "__popc",
                           "__popcll",
                           "__clz",
                           "__clzll",
                           "__ffs",
                           "__ffsll",
                           "__brev",
                           "__brevll",
                           "__fns",
                           "atomicAdd",
                           "atomicSub",
                           "atomicExch",
                           "atomicMin",
                           "atomicMax",
                           "atomicInc",
                           "atomicDec",
                           "atomicCAS",
                           "atomicAnd",
                           "atomicOr",
                           "atomicXor",
                           "extern __shared__",
                           "__align__",
                           "malloc",
                           "free",
                           "new",
                           "delete",
                           "this_thread_block",
                           "tiled_partition",
                           "coalesced_threads",
                           "cg::reduce",
                           "cg::plus",
                           "cg::less",
                           "cg::greater",
                           "cg::bit_and",
                           "cg::bit_or",
                           "cg::bit_xor",
                           "this_grid",
                           "meta_group_rank",
                           "meta_group_size",
                           "shfl_down",
                           "shfl_up",
                           "shfl_xor",
                           "clock64",
                           "__constant__",
                           "__ldg"}) {
    const bool listed = offeredName(name) || has(name, " ") || has(name, "::");
    CHECK_MESSAGE(listed, name);
    const bool used = has(probes, name) || has(shim, name);
    CHECK_MESSAGE(used, name << " is in no probe");
  }
}
