// The CUDA a learner brings, on the CUDA device (part of rlab_gpu_tests, skipped with the rest
// where no device works): the conformance suite's probes on the GPU against the host's answers
// and the simulator's, every exercise solution written with cooperative groups, the cost of the
// groups as the check times it, and kernels that reach for the host refused or stopped there
// too, in the runner's box (entered once the driver is up).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/exercise/grade.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/exercise/probe.hpp"
#include "tests/cli_driver.hpp"
#include "tests/conformance_cases.hpp"
#include "tests/temp_folder.hpp"

using namespace rlab;
using namespace rlab::conformance;

namespace {

const std::string kFixtures = std::string(RLAB_SOURCE_DIR) + "/tests/fixtures/exercises/";

ExerciseReport checkOnGpu(const std::string& id, const std::string& file) {
  ExerciseRequest request;
  request.file = file;
  request.backend = BackendChoice::Gpu;
  request.caseSeconds = 15;
  return checkExercise(exerciseOrThrow(id), request);
}

}  // namespace

TEST_CASE("gpu: the conformance suite, against the host's answers and the simulator's") {
  const std::vector<int> input = probeInput(256);
  for (const ConformanceCase& c : conformanceCases()) {
    const std::vector<ProbeLaunch> launches =
        probeLaunches(c.columns, c.perBlock, c.sharedPerThread);
    const ProbeReport gpu = runProbe(conformanceFile(c), input, launches, BackendChoice::Gpu);
    const ProbeReport sim = runProbe(conformanceFile(c), input, launches, BackendChoice::Sim);
    int refusedHere = 0;
    REQUIRE_MESSAGE(gpu.ran(), c.name << " on the GPU: " << gpu.problem);
    REQUIRE_MESSAGE(sim.ran(), c.name << " on the simulator: " << sim.problem);
    for (size_t k = 0; k < launches.size(); ++k) {
      const ProbeLaunch& l = launches[k];
      INFO(std::string(c.name) << " <<<" << l.grid << ", " << l.block << ", " << l.sharedBytes
                               << ">>> n = " << l.n);
      CHECK_MESSAGE(gpu.results[k].failure.empty(), gpu.results[k].failure);
      const std::vector<int> expected = c.answer(input, l);
      const std::string againstHost = firstDifference(gpu.results[k].out, expected, c.columns);
      CHECK_MESSAGE(againstHost.empty(), "GPU against the host: " << againstHost);
      // A GPU runs the shuffles that read lanes a partial warp lacks; the simulator refuses them.
      if (c.readsMissingLanes && hasPartialWarp(l)) {
        CHECK_MESSAGE(refusedMissingLane(sim.results[k].failure), sim.results[k].failure);
        ++refusedHere;
        continue;
      }
      // Where CUDA defines the value, the simulator's is the GPU's.
      std::vector<int> defined = sim.results[k].out;
      for (size_t v = 0; v < defined.size() && v < expected.size(); ++v)
        if (expected[v] == kAnyValue) defined[v] = kAnyValue;
      const std::string againstSim = firstDifference(gpu.results[k].out, defined, c.columns);
      CHECK_MESSAGE(againstSim.empty(), "GPU against the simulator: " << againstSim);
    }
    MESSAGE(std::string(c.name) << ": " << launches.size() << " launches on the GPU"
                                << (refusedHere > 0 ? ", of which the simulator refused " +
                                                          std::to_string(refusedHere) +
                                                          " for a read of a missing lane"
                                                    : ""));
  }
}

TEST_CASE("gpu: every exercise's solution written with cooperative groups passes on the GPU") {
  for (const Exercise& e : exercises()) {
    TempFolder folder("groups-" + e.id);
    const std::string file = (folder / (e.id + ".cu")).string();
    std::ofstream(file) << groupsSolutionFile(e);
    const ExerciseReport r = checkOnGpu(e.id, file);
    CHECK_MESSAGE(r.passed(), e.id << ": " << english(r.summary()) << " " << english(r.problem)
                                   << " "
                                   << (r.failures.empty() ? "" : english(r.failures.front())));
    MESSAGE(e.id << " with cooperative groups: " << english(r.summary()));
    for (const Message& note : r.notes) MESSAGE(english(note));
  }
}

TEST_CASE("gpu: the cost of the groups: groups-tree's solution and the same tree without them") {
  // The figures the groups-tree statement cites ({{GPU:groups-tree-ms}} and
  // {{GPU:groups-tree-without-groups-ms}}): each check's timing note, at n = 2^24.
  const std::string solution =
      std::string(RLAB_SOURCE_DIR) + "/lessons/shared/exercises/groups-tree/solution.cu";
  const ExerciseReport groups = checkOnGpu("groups-tree", solution);
  const ExerciseReport plain =
      checkOnGpu("tree-in-shared", kFixtures + "groups_tree_without_groups.cu");
  CHECK(groups.passed());
  CHECK(plain.passed());
  for (const Message& note : groups.notes) MESSAGE("with groups: " << english(note));
  for (const Message& note : plain.notes) MESSAGE("without groups: " << english(note));
}

TEST_CASE("gpu: host functions and host headers are refused by NVRTC, at their lines") {
  for (const char* fixture : {"calls_host_functions.cu", "host_headers.cu"}) {
    const ExerciseReport r = checkOnGpu("one-queue", kFixtures + fixture);
    CHECK_MESSAGE(r.verdict == ExerciseVerdict::CompileError,
                  fixture << ": " << english(r.summary()));
    for (const auto& d : r.diagnostics) MESSAGE(fixture << ": " << d.text(fixture));
  }
  CHECK_FALSE(std::filesystem::exists("/tmp/rlab-should-not-exist"));
}

TEST_CASE("gpu: 8 GiB from the device heap and a kernel printing without end are stopped") {
  const ExerciseReport heap = checkOnGpu("one-queue", kFixtures + "huge_malloc.cu");
  CHECK(heap.verdict == ExerciseVerdict::Failed);
  if (!heap.failures.empty()) MESSAGE("8 GiB: " << english(heap.failures.front()));
  const ExerciseReport prints = checkOnGpu("one-queue", kFixtures + "prints_forever.cu");
  CHECK(prints.verdict == ExerciseVerdict::Failed);
  if (!prints.failures.empty()) MESSAGE("printing: " << english(prints.failures.front()));
  // What a grid-wide sync without a cooperative launch does on this GPU (the simulator refuses
  // it with its line).
  const ExerciseReport grid = checkOnGpu("one-queue", kFixtures + "grid_sync.cu");
  MESSAGE("this_grid().sync() on the GPU: "
          << english(grid.summary()) << " "
          << (grid.failures.empty() ? "" : english(grid.failures.front())));
}

TEST_CASE("gpu: one run on the GPU comes with the simulator's steps of the same case") {
  TempFolder folder("gpu-run-steps");
  const std::string file = (folder / "tree-in-shared.cu").string();
  std::ofstream(file) << solutionFile(exerciseOrThrow("tree-in-shared"));
  ExerciseRequest request;
  request.file = file;
  request.oneRun = true;
  request.backend = BackendChoice::Gpu;
  request.caseSeconds = 15;
  request.options.n = 8;
  request.options.block = 8;
  request.options.data = "iota";
  const ExerciseReport r = checkExercise(exerciseOrThrow("tree-in-shared"), request);
  REQUIRE_MESSAGE(r.hasResult, english(r.problem));
  CHECK(r.result == 36);
  CHECK(r.passed());
  REQUIRE(r.trace);
  CHECK(r.trace->steps.size() == 6);
  REQUIRE_FALSE(r.trace->notes.empty());
  CHECK(english(r.trace->notes.front()) ==
        "A GPU shows no steps: these are the simulator's run of the same case, which gave 36.");
  REQUIRE_FALSE(r.notes.empty());
  CHECK(english(r.notes.front()) == "On the GPU: result 36, expected 36.");
}

TEST_CASE("gpu: the leaderboard times each whole reduction against fastest and CUB") {
  // One exercise of each shape the board times: an atomic result, a fold in place, passes of
  // block partials.
  for (const std::string id : {"one-queue", "fold-any-length", "sequential-addressing"}) {
    const Exercise& e = exerciseOrThrow(id);
    TempFolder folder("board-" + id);
    const std::string file = (folder / "kernel.cu").string();
    std::ofstream(file) << solutionFile(e);
    ExerciseRequest request;
    request.file = file;
    request.backend = BackendChoice::Gpu;
    request.caseSeconds = 15;
    request.leaderboard = true;
    const GradeReport g = gradeExercise(e, request);
    CAPTURE(id);
    CHECK(g.points == 120);
    CHECK(g.leaderboard.right);
    CHECK(g.leaderboard.rounds == 5);
    CHECK(g.leaderboard.roundsRight == 5);
    CHECK(g.leaderboard.kernelMs > 0);
    CHECK(g.leaderboard.fastestMs > 0);
    CHECK(g.leaderboard.cubMs > 0);
    MESSAGE(id << ": " << english(g.leaderboard.sentence));
  }
}

TEST_CASE("gpu: a kernel wrong only at 2^24 passes the GPU's check and is kept off the board") {
  const std::string file = kFixtures + "wrong_at_large_powers_of_two.cu";
  const std::string solution =
      std::string(RLAB_SOURCE_DIR) + "/lessons/atomic/exercises/one-queue/solution.cu";
  CHECK(checkOnGpu("one-queue", file).passed());  // no case of the check sees it
  const Outcome wrong = rlabWith({"exercise", "grade", "one-queue", file, "--backend", "gpu",
                                  "--leaderboard", "--format", "gradescope"});
  REQUIRE(wrong.code == 0);
  const nlohmann::json w = nlohmann::json::parse(wrong.out);
  CHECK_FALSE(w.contains("leaderboard"));
  CHECK(w["score"] == 100);  // the GPU's 20 points lost with the wrong round
  const std::string board = w["tests"].back()["output"].get<std::string>();
  CHECK(board.find("n = 16777216") != std::string::npos);  // the round's own sentence
  MESSAGE("wrong at 2^24: " << board);
  const Outcome right = rlabWith({"exercise", "grade", "one-queue", solution, "--backend", "gpu",
                                  "--leaderboard", "--format", "gradescope"});
  REQUIRE(right.code == 0);
  const nlohmann::json r = nlohmann::json::parse(right.out);
  CHECK(r["score"] == 120);
  REQUIRE(r.contains("leaderboard"));
  REQUIRE(r["leaderboard"].size() == 3);
  CHECK(r["leaderboard"][0]["order"] == "asc");
  for (const nlohmann::json& entry : r["leaderboard"]) {
    CHECK(entry["name"].is_string());
    CHECK(entry["value"].get<double>() > 0);
  }
  CHECK(r["tests"].back()["max_score"] == 0);
  CHECK(r["tests"].back()["tags"][0] == "leaderboard");
  MESSAGE("Gradescope's leaderboard: " << r["leaderboard"].dump());
}
