// rlab profile as a core function: ncu's CSV read into launches (samples written by hand from
// the documented format, tests/fixtures/ncu), launches summarised into kernels and counters, the
// simulator's predictions, and ncu started without a shell (a stand-in script here).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run_parameters.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "tests/cli_driver.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;

namespace {

std::string fixture(const std::string& file) {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/ncu/" + file);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE_MESSAGE(!text.str().empty(), "no fixture " << file);
  return text.str();
}

Params run(const std::string& lesson, const std::string& variant, int64_t n, int block = 0) {
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.block = block;
  return p;
}

double counter(const ProfiledKernel& k, Counter c) {
  const auto found = k.counters.find(c);
  REQUIRE_MESSAGE(found != k.counters.end(), "no " << info(c).key);
  return found->second;
}

}  // namespace

TEST_CASE("parseNcuOutput: the details page, every metric asked for, thousands grouped") {
  const NcuOutput out = parseNcuOutput(fixture("details-strided.txt"));
  REQUIRE(out.launches.size() == 1);
  const NcuLaunch& l = out.launches[0];
  CHECK(l.function == "strided");
  CHECK(l.kernel == "void strided<int, SumOp>(const T1 *, long long, T1 *, StepRecorder<T1>)");
  CHECK(l.block == "(64, 1, 1)");
  CHECK(l.grid == "(1, 1, 1)");
  CHECK(l.metrics.size() == profileMetrics().size());
  for (const std::string& metric : profileMetrics()) CHECK_MESSAGE(l.metrics.count(metric), metric);
  CHECK(l.metrics.at("gpu__time_duration.sum") == 2816);  // "2,816"
  CHECK(l.metrics.at("dram__bytes_read.sum") == 2304);
  CHECK_FALSE(out.permissionDenied);
  CHECK(out.errors.empty());
}

TEST_CASE("summarizeLaunches: counters from the metrics, the lesson's kernel, stalls in order") {
  ProfileReport report;
  const Params p = run("divergence", "strided", 64, 64);
  report.params = p;
  summarizeLaunches(parseNcuOutput(fixture("details-strided.txt")).launches, p, report);
  REQUIRE(report.kernels.size() == 1);
  const ProfiledKernel& t = report.total;
  CHECK(t.lessonKernel);
  CHECK(t.function == "strided");
  CHECK(t.launches == 1);
  CHECK(counter(t, Counter::DurationUs) == doctest::Approx(2.816));
  CHECK(counter(t, Counter::WarpEfficiencyPct) == doctest::Approx(18.94 / 32 * 100));
  CHECK(counter(t, Counter::BranchEfficiencyPct) == doctest::Approx(87.5));
  CHECK(counter(t, Counter::SharedRequests) == 21);
  CHECK(counter(t, Counter::SharedBankConflicts) == 15);  // 36 wavefronts for 21 requests
  CHECK(counter(t, Counter::SharedWavefrontsPerRequest) == doctest::Approx(36.0 / 21));
  CHECK(counter(t, Counter::GlobalLoadSectorsPerRequest) == 4);
  CHECK(counter(t, Counter::GlobalStoreSectorsPerRequest) == 1);
  CHECK(counter(t, Counter::DramGBs) == doctest::Approx(2304.0 / 2816));  // bytes per ns
  REQUIRE(t.stalls.size() >= 3);
  CHECK(t.stalls[0].reason == "barrier");
  CHECK(t.stalls[1].reason == "short_scoreboard");
  CHECK(t.stalls[2].reason == "long_scoreboard");
  // The lesson's proof counters lead the list a view shows.
  const std::vector<Counter> shown = shownCounters(report);
  const std::vector<Counter>& proof = proofCounters(p);
  REQUIRE(shown.size() > proof.size());
  CHECK(std::equal(proof.begin(), proof.end(), shown.begin()));
}

TEST_CASE("parseNcuOutput: an older ncu's columns, scaled units, launches of two kernels") {
  const NcuOutput out = parseNcuOutput(fixture("details-older-folding.txt"));
  REQUIRE(out.launches.size() == 4);
  CHECK(out.launches[0].metrics.at("gpu__time_duration.sum") == doctest::Approx(2500));  // usecond
  CHECK(out.launches[0].metrics.at("dram__bytes_read.sum") == doctest::Approx(1020));    // Kbyte
  CHECK(out.launches[0].grid.empty());  // no such column here
  ProfileReport report;
  summarizeLaunches(out.launches, run("folding", "default", 9), report);
  REQUIRE(report.kernels.size() == 2);
  CHECK(report.kernels[0].function == "foldStep");
  CHECK(report.kernels[0].lessonKernel);
  CHECK(report.kernels[1].function == "spinFor");
  CHECK_FALSE(report.kernels[1].lessonKernel);
  const ProfiledKernel& t = report.total;
  CHECK(t.launches == 3);
  CHECK(counter(t, Counter::DurationUs) == doctest::Approx(5.0));  // 2.5 + 1.5 + 1.0
  // A percentage of launches together: weighted by their durations.
  CHECK(counter(t, Counter::OccupancyPct) ==
        doctest::Approx((2.5 * 20 + 1.5 * 60 + 1.0 * 100) / 5));
  CHECK(counter(t, Counter::GlobalLoadRequests) == 6);
  CHECK(counter(t, Counter::GlobalLoadSectorsPerRequest) == doctest::Approx(1.5));
}

TEST_CASE("parseNcuOutput: the raw page, a column per metric and the units under the headings") {
  const NcuOutput out = parseNcuOutput(fixture("raw-fastest.txt"));
  REQUIRE(out.launches.size() == 1);
  CHECK(out.launches[0].function == "fastestReduce");
  CHECK(out.launches[0].metrics.at("gpu__time_duration.sum") == doctest::Approx(25200));
  CHECK(out.launches[0].metrics.at("dram__bytes_read.sum") == doctest::Approx(67.11e6));
  CHECK(out.launches[0].metrics.at("lts__t_sector_hit_rate.pct") == doctest::Approx(0.05));
}

TEST_CASE("parseNcuOutput: numbers of other locales, quoted commas and quotes, n/a") {
  const std::string heading =
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  auto value = [&](const std::string& text, const std::string& unit = "") {
    const NcuOutput out = parseNcuOutput(heading + "\"0\",\"k(int, \"\"x\"\")\",\"a__b.sum\",\"" +
                                         unit + "\",\"" + text + "\"\n");
    REQUIRE(out.launches.size() == 1);
    CHECK(out.launches[0].function == "k");
    const auto found = out.launches[0].metrics.find("a__b.sum");
    return found == out.launches[0].metrics.end() ? -1.0 : found->second;
  };
  CHECK(value("1,234.5") == doctest::Approx(1234.5));
  CHECK(value("1,215,000,000.50") == doctest::Approx(1215000000.5));
  CHECK(value("65,77") == doctest::Approx(65.77));          // a decimal comma
  CHECK(value("27.595.520") == doctest::Approx(27595520));  // dots grouping thousands
  CHECK(value("1.234,5") == doctest::Approx(1234.5));
  CHECK(value("2,816") == 2816);
  CHECK(value("0.5", "msecond") == doctest::Approx(500000));
  CHECK(value("3", "Msector") == doctest::Approx(3e6));
  CHECK(value("2", "Gbyte/second") == doctest::Approx(2));  // bytes per ns
  CHECK(value("n/a") == -1);
  CHECK(value("") == -1);
}

TEST_CASE("kernelFunction: the function alone, whatever ncu prints around it") {
  CHECK(kernelFunction("void interleaved<int, SumOp>(const T1 *, long long, T1 *)") ==
        "interleaved");
  CHECK(kernelFunction("interleaved") == "interleaved");
  CHECK(kernelFunction("  spinFor(long long) ") == "spinFor");
  CHECK(kernelFunction("void rlab::(anonymous namespace)::k<float>(float *)") == "k");
  CHECK(kernelFunction("ns::k(int)") == "k");
}

TEST_CASE("parseNcuOutput: no permission for the counters, a metric this ncu does not have") {
  const NcuOutput denied = parseNcuOutput(fixture("permission.txt"));
  CHECK(denied.permissionDenied);
  CHECK(denied.launches.empty());
  CHECK(denied.warnings == std::vector<std::string>{"No kernels were profiled."});
  const NcuOutput unknown = parseNcuOutput(fixture("unknown-metric.txt"));
  CHECK(unknown.unknownMetrics ==
        std::vector<std::string>{"smsp__sass_average_branch_targets_threads_uniform.pct"});
  CHECK(unknown.errors.empty());
  // A name without its rollup, as ncu writes it for a name it looked up with every rollup.
  const NcuOutput base = parseNcuOutput(
      "==ERROR== Failed to find metric regex:^sm__cycles_active\\.(sum|min|max|avg)$\n");
  CHECK(base.unknownMetrics == std::vector<std::string>{"sm__cycles_active"});
  CHECK(english(counterPermissionSentence()).find("NVreg_RestrictProfilingToAdminUsers=0") !=
        std::string::npos);
}

TEST_CASE("simulator predictions: bank conflicts of the divergence trees, by the warps' words") {
  Message note;
  // Strided, 64 threads: levels 1 to 5 each a 2-way conflict in the two loads and the store of
  // warp 0's lanes (3 extra passes a level), the last level one lane: 15.
  auto conflicts = [&](const std::string& variant, int64_t n, int block) {
    const auto predicted = predictOnSimulator(run("divergence", variant, n, block), note);
    REQUIRE_MESSAGE(predicted.count(Counter::SharedBankConflicts), english(note));
    return predicted.at(Counter::SharedBankConflicts);
  };
  CHECK(conflicts("strided", 64, 64) == 15);
  CHECK(conflicts("interleaved", 64, 64) == 0);
  CHECK(conflicts("interleaved-mask", 64, 64) == 0);
  CHECK(conflicts("sequential", 64, 64) == 0);
  // Block 256: level 1 has 4 warps of 2-way conflicts, level 2 two of 4-way ... a pass more.
  CHECK(conflicts("strided", 256, 256) > conflicts("strided", 64, 64));
  CHECK(note.id == "predict.banks");
  // Past the steps the simulator records: no prediction, and why.
  CHECK(predictOnSimulator(run("divergence", "strided", 1 << 20), note).empty());
  CHECK(note.id == "predict.counters-from-steps");
  CHECK(note.arg("n") == "65536");
  // A kernel with neither a shared tree nor steps in global memory.
  CHECK(predictOnSimulator(run("fastest", "default", 1000), note).empty());
  CHECK(note.id == "predict.nothing");
}

TEST_CASE("simulator predictions: global sectors and requests of the memory view's lessons") {
  Message note;
  // Folding 9 elements: four launches, two loads and a store by each working warp; the second
  // operand of the first fold (a[5..8], bytes 20 to 35) straddles two sectors.
  auto predicted = predictOnSimulator(run("folding", "default", 9), note);
  if (!sim::canWatchMemory()) {
    CHECK(predicted.empty());
    return;
  }
  REQUIRE_MESSAGE(predicted.count(Counter::GlobalLoadRequests), english(note));
  CHECK(note.id == "predict.sectors");
  CHECK(predicted.at(Counter::GlobalLoadRequests) == 8);
  CHECK(predicted.at(Counter::GlobalStoreRequests) == 4);
  CHECK(predicted.at(Counter::GlobalLoadSectorsPerRequest) == doctest::Approx(9.0 / 8));
  CHECK(predicted.at(Counter::GlobalStoreSectorsPerRequest) == 1);
  // Folding into a second buffer, 1000 elements: at the odd lengths (125, 63) the thread of the
  // middle element reads it in its warp's one load of in[i], as on the GPU, where Nsight Compute
  // counted 72 load requests and 286 sectors for this run (NVIDIA H100 80GB HBM3).
  predicted = predictOnSimulator(run("folding", "double-buffer", 1000), note);
  CHECK(predicted.at(Counter::GlobalLoadRequests) == 72);
  CHECK(predicted.at(Counter::GlobalLoadSectorsPerRequest) == doctest::Approx(286.0 / 72));
  // The barrier's global tree, 8 elements: three levels of one warp, all in one sector.
  predicted = predictOnSimulator(run("barrier", "global", 8), note);
  CHECK(predicted.at(Counter::GlobalLoadRequests) == 6);
  CHECK(predicted.at(Counter::GlobalStoreRequests) == 3);
  CHECK(predicted.at(Counter::GlobalLoadSectorsPerRequest) == 1);
  // The tree in global memory writes its block's total after its last combine: counted too.
  predicted = predictOnSimulator(run("shared", "global", 64, 64), note);
  CHECK(predicted.at(Counter::GlobalStoreRequests) == 6 + 1);
  CHECK(predictOnSimulator(run("shared", "global", 4096), note).empty());
  CHECK(note.id == "predict.sectors-up-to");
  CHECK(note.arg("n") == "1024");
}

namespace {

// A stand-in for ncu: records its arguments, prints the outputs given in turn (one a call, the
// last one again), exits 0. And an rlab that is never run by it.
struct FakeNcu {
  TempFolder dir{"fake-ncu"};
  std::string ncu, rlab;
  explicit FakeNcu(const std::vector<std::string>& outputs, const std::string& before = "") {
    for (size_t k = 0; k < outputs.size(); ++k)
      std::ofstream(dir / ("output" + std::to_string(k))) << outputs[k];
    const std::string d = dir.str();
    std::ofstream(dir / "ncu") << "#!/bin/sh\n"
                               << before << "n=$(cat '" << d << "/calls' 2>/dev/null || echo 0)\n"
                               << "echo $((n + 1)) > '" << d << "/calls'\n"
                               << "printf '%s\\n' \"$@\" > '" << d << "/arguments'$n\n"
                               << "last=" << outputs.size() - 1 << "\n"
                               << "[ $n -gt $last ] && n=$last\n"
                               << "cat '" << d << "/output'$n\n";
    std::ofstream(dir / "rlab") << "#!/bin/sh\nexit 0\n";
    namespace fs = std::filesystem;
    for (const char* program : {"ncu", "rlab"})
      fs::permissions(dir / program, fs::perms::owner_all);
    ncu = (dir / "ncu").string();
    rlab = (dir / "rlab").string();
  }
  std::vector<std::string> arguments(int call) const {
    std::ifstream in(dir / ("arguments" + std::to_string(call)));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  ProfileOptions options() const {
    ProfileOptions o;
    o.ncu = ncu;
    o.rlab = rlab;
    return o;
  }
};

}  // namespace

TEST_CASE("runProfile: ncu started without a shell, the run's arguments, the report read") {
  FakeNcu fake({fixture("details-strided.txt")});
  int launches = 0;
  ProfileOptions options = fake.options();
  options.onLaunch = [&](int begun) { launches = begun; };
  const ProfileReport r = runProfile(run("divergence", "strided", 64, 64), options);
  CHECK(r.runError.empty());
  CHECK(launches == 1);  // one "==PROF== Profiling" line
  CHECK(r.device == "NVIDIA H100 80GB HBM3, compute capability 9.0, 79.1 GiB");
  CHECK(r.result == 2080);
  CHECK(r.correct);
  CHECK(r.params.backend == BackendChoice::Gpu);
  CHECK_FALSE(r.params.timed);
  CHECK(r.clockControl == "none");
  std::vector<std::string> metrics;
  for (const auto& m : profileMetrics()) metrics.push_back(m);
  std::string joined;
  for (const auto& m : metrics) joined += (joined.empty() ? "" : ",") + m;
  std::vector<std::string> expected = {"--csv", "--print-units", "base", "--clock-control",
                                       "none",  "--metrics",     joined, fake.rlab,
                                       "run"};
  for (const auto& a : runArguments(r.params)) expected.push_back(a);
  expected.insert(expected.end(), {"--no-steps", "--format", "json"});
  CHECK(fake.arguments(0) == expected);
  CHECK(r.command.size() == expected.size() + 1);  // ncu itself first
  // The GPU's count and the simulator's agree in this sample.
  CHECK(counter(r.total, Counter::SharedBankConflicts) == 15);
  REQUIRE(r.predicted.count(Counter::SharedBankConflicts));
  CHECK(r.predicted.at(Counter::SharedBankConflicts) == 15);
}

TEST_CASE("runProfile: a metric ncu lacks is left out, said, and the profile made without it") {
  FakeNcu fake({fixture("unknown-metric.txt"), fixture("details-strided.txt")});
  const ProfileReport r = runProfile(run("divergence", "strided", 64, 64), fake.options());
  CHECK(r.runError.empty());
  CHECK(r.unknownMetrics ==
        std::vector<std::string>{"smsp__sass_average_branch_targets_threads_uniform.pct"});
  const std::vector<std::string> second = fake.arguments(1);
  REQUIRE(second.size() > 6);
  CHECK(second[6].find("threads_uniform") == std::string::npos);
  CHECK(fake.arguments(0)[6].find("threads_uniform") != std::string::npos);
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes.front().id == "profile.metrics-missing");
  CHECK(english(r.notes.front()).find("left out") != std::string::npos);
}

TEST_CASE("runProfile: without permission for the counters, one sentence on how to grant it") {
  FakeNcu fake({fixture("permission.txt")});
  const ProfileReport r = runProfile(run("barrier", "global", 8), fake.options());
  CHECK(r.permissionDenied);
  CHECK(r.runError == counterPermissionSentence());
  CHECK(r.predicted.empty());  // nothing to compare with
}

TEST_CASE("runProfile: cancelled, refused settings, and nothing found to profile with") {
  FakeNcu slow({fixture("details-strided.txt")}, "sleep 20\n");
  ProfileOptions options = slow.options();
  options.keepGoing = [] { return false; };
  const ProfileReport cancelled = runProfile(run("divergence", "strided", 64, 64), options);
  CHECK(cancelled.cancelled);
  CHECK_FALSE(cancelled.runError.empty());

  FakeNcu fake({""});
  CHECK_THROWS_AS(runProfile(run("allreduce", "ring", 8), fake.options()), ParamError);
  options = fake.options();
  options.clockControl = "fast";
  CHECK_THROWS_AS(runProfile(run("barrier", "global", 8), options), ParamError);
  CHECK_THROWS_AS(runProfile(run("barrier", "global", 1 << 20), fake.options()), ParamError);
  options = fake.options();
  options.ncu = (fake.dir / "no-ncu-here").string();
  CHECK_THROWS_AS(runProfile(run("barrier", "global", 8), options), GpuUnavailable);
  // ncu that printed nothing: the sentence says so.
  const ProfileReport empty = runProfile(run("barrier", "global", 8), fake.options());
  CHECK(empty.runError.id == "profile.no-kernel");
}

TEST_CASE("rlab profile and rlab run --no-steps: bad input is one sentence, exit 2") {
  auto refused = [](const std::vector<std::string>& args, const std::string& words) {
    const Outcome o = rlabWith(args);
    CHECK(o.code == 2);
    CHECK(o.out.empty());
    CHECK_MESSAGE(o.err.find(words) != std::string::npos, o.err);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  };
  refused({"profile", "allreduce"}, "across GPUs");
  refused({"profile", "barrier", "--clock-control", "fast"}, "--clock-control 'fast'");
  refused({"profile", "divergence", "--schedule", "lockstep"}, "--schedule");
  refused({"run", "folding", "--no-steps", "--memory"}, "--no-steps");
  refused({"record", "--only", "speed"}, "--only names 'speed'");
  refused({"record", "--reps", "0"}, "--reps");
  // Here, without ncu or without a GPU: one sentence, exit 2.
  if (findCudaTool("ncu").empty() || !probeGpu().usable) {
    const Outcome o = rlabWith({"profile", "barrier"});
    CHECK(o.code == 2);
    CHECK(o.out.empty());
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  }
  if (!probeGpu().usable) {
    const Outcome o = rlabWith({"record", "--only", "bench"});
    CHECK(o.code == 2);
    CHECK(o.err.find("rlab record measures a GPU") != std::string::npos);
  }
  // --no-steps: the run as timed, no steps recorded.
  const Outcome plain = rlabWith({"run", "divergence", "--no-steps", "--backend", "sim"});
  CHECK(plain.code == 0);
  CHECK(plain.out.find("stride 1") == std::string::npos);
  CHECK(plain.out.find("result 2080") != std::string::npos);
}
