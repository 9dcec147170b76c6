// rlab's command line: what it prints, and that bad input only ever means exit code 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "tests/temp_folder.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "tests/cli_driver.hpp"
#include "tests/printf_lines.hpp"

TEST_CASE("rlab run prints the steps, the result and the verdict") {
  const Outcome o = rlabWith({"run", "folding", "--n", "9"});
  CHECK(o.code == 0);
  CHECK(o.err.empty());
  CHECK(o.out.find("7  9 11 13  5") != std::string::npos);
  CHECK(o.out.find("result 45   expected 45   correct") != std::string::npos);
  const Outcome broken = rlabWith({"run", "barrier", "--no-barrier", "--schedule", "stall:4:2:1"});
  CHECK(broken.out.find("result 21   expected 36   WRONG (15 short)") != std::string::npos);
}

TEST_CASE("rlab run --op subtract lists every kernel's answer and judges none") {
  const Outcome o = rlabWith({"run", "folding", "--op", "subtract", "--values", "8,1,6,3,5,2,7,4"});
  CHECK(o.code == 0);
  CHECK(o.out.find("the same data through every kernel that offers subtract:") !=
        std::string::npos);
  CHECK(o.out.find("  atomic default          -36\n") != std::string::npos);
  CHECK(o.out.find("  folding default         4   <- this run\n") != std::string::npos);
  CHECK(o.out.find("  host loop               -20\n") != std::string::npos);
  CHECK(o.out.find("result 4   host loop, left to right -20   no single right answer (subtract is\n"
                   "  not associative)") != std::string::npos);
  CHECK(o.out.find("correct") == std::string::npos);
  CHECK(o.out.find("WRONG") == std::string::npos);
  const auto j = nlohmann::json::parse(rlabWith({"run", "folding", "--op", "subtract", "--values",
                                                 "8,1,6,3,5,2,7,4", "--format", "json"})
                                           .out);
  CHECK(j["single_answer"] == false);
  CHECK(j["correct"] == false);
  REQUIRE(j["other_kernels"].size() == rlab::subtractRuns().size());
  CHECK(j["other_kernels"][0]["lesson"] == "atomic");
  CHECK(j["other_kernels"][0]["result"] == -36);
  const Outcome refused = rlabWith({"run", "barrier", "--op", "subtract"});
  CHECK(refused.code == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err.find("barrier global does not offer it") != std::string::npos);
  CHECK(rlabWith({"race", "atomic", "--op", "subtract"}).code == 2);
}

TEST_CASE("rlab run --launches lists the host code's launches: folding 13 is 13, 7, 4, 2") {
  const Outcome o = rlabWith({"run", "folding", "--n", "13", "--block", "4", "--launches"});
  CHECK(o.code == 0);
  CHECK(o.out.find("4 launches from lessons/folding/driver.hpp:") != std::string::npos);
  CHECK(o.out.find("  launch grid x block threads len reduce remain\n") != std::string::npos);
  CHECK(o.out.find("       1        2 x 4       8  13      6      7\n") != std::string::npos);
  CHECK(o.out.find("       4        1 x 4       4   2      1      1\n") != std::string::npos);
  CHECK(rlabWith({"run", "folding", "--n", "13"}).out.find("launches from") == std::string::npos);
  const auto j =
      nlohmann::json::parse(rlabWith({"run", "folding", "--n", "13", "--format", "json"}).out);
  REQUIRE(j["launches"].size() == 4);
  CHECK(j["launches"][1]["len"] == 7);
  CHECK(j["launches"][1]["remain"] == 4);
}

TEST_CASE("rlab run --format json gives one object with the documented fields") {
  const Outcome o = rlabWith({"run", "butterfly", "--n", "8", "--format", "json"});
  REQUIRE(o.code == 0);
  const auto j = nlohmann::json::parse(o.out);
  for (const char* key :
       {"lesson", "variant", "backend", "device", "n", "block", "op", "type", "data", "barrier",
        "schedule", "steps", "result", "expected", "correct", "timings"})
    CHECK(j.contains(key));
  CHECK(j["steps"].size() == 4);
  CHECK(j["steps"][3]["values"] == nlohmann::json::array({36, 36, 36, 36, 36, 36, 36, 36}));
  CHECK(j["correct"] == true);
}

TEST_CASE("rlab list names every lesson, as text and JSON") {
  const Outcome text = rlabWith({"list"});
  CHECK(text.out.find("butterfly") != std::string::npos);
  const auto j = nlohmann::json::parse(rlabWith({"list", "--format", "json"}).out);
  CHECK(j["lessons"].size() == 9);
}

TEST_CASE("rlab bench: the lessons of one GPU unless allreduce is asked for by name") {
  const Outcome all = rlabWith({"bench", "--sizes", "1024", "--format", "json", "--reps", "1"});
  REQUIRE(all.code == 0);
  const auto rows = nlohmann::json::parse(all.out)["rows"];
  CHECK(rows.size() >= 10);
  for (const auto& row : rows)
    CHECK(row["kernel"].get<std::string>().find("allreduce") == std::string::npos);
  const Outcome across = rlabWith(
      {"bench", "--lessons", "allreduce", "--sizes", "1024", "--format", "json", "--reps", "1"});
  REQUIRE(across.code == 0);
  const auto mine = nlohmann::json::parse(across.out)["rows"];
  CHECK(mine.size() == 3);  // butterfly, ring, nccl
}

TEST_CASE("rlab race counts wrong results and shows a histogram") {
  const Outcome o = rlabWith({"race", "barrier", "--no-barrier", "--runs", "20", "--n", "64"});
  CHECK(o.code == 0);
  CHECK(o.out.find("wrong: ") != std::string::npos);
  CHECK(o.out.find("The first wrong run") != std::string::npos);
  const Outcome ok = rlabWith({"race", "barrier", "--runs", "20", "--n", "64"});
  CHECK(ok.out.find("wrong: 0 of 20") != std::string::npos);
}

TEST_CASE("rlab race groups many different results into bars of how far off they were") {
  const Outcome o = rlabWith({"race", "barrier", "--no-barrier", "--runs", "60", "--n", "256"});
  CHECK(o.code == 0);
  const size_t grouped = o.out.find(" different results, grouped by how far off they were");
  REQUIRE(grouped != std::string::npos);
  // From the heading to the first wrong run: at most 16 bars, each a stretch "A .. B", their
  // counts adding up to the runs.
  const std::string bars = o.out.substr(grouped, o.out.find("The first wrong run") - grouped);
  std::istringstream lines(bars);
  int shown = 0, runs = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find(" .. ") != std::string::npos) {
      ++shown;
      runs += std::stoi(line.substr(line.find_last_of(' ') + 1));
    }
  CHECK(shown >= 2);
  CHECK(shown <= 16);
  CHECK(runs == 60);
}

TEST_CASE("bad input: one line on stderr, exit code 2, nothing on stdout") {
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"fly"},
      {"run"},
      {"run", "nope"},
      {"run", "folding", "--n", "0"},
      {"run", "folding", "--n", "268435457"},
      {"run", "folding", "--n", "12x"},
      {"run", "folding", "--block", "100"},
      {"run", "folding", "--op", "mean"},
      {"run", "folding", "--type", "double"},
      {"run", "folding", "--data", "zeros"},
      {"run", "folding", "--values", "1,,2"},
      {"run", "folding", "--values", "1,2", "--data", "ones"},
      {"run", "folding", "--schedule", "random"},
      {"run", "barrier", "--n", "8", "--schedule", "stall:9:2:1"},
      {"race", "barrier", "--n", "8", "--schedule", "stall:9:2:1"},
      {"race", "barrier", "--n", "8", "--no-barrier", "--witness", "--schedule", "stall:8:1:1"},
      {"run", "folding", "--no-barrier"},
      {"run", "barrier", "--n", "2048"},
      {"run", "butterfly", "--variant", "shuffle", "--block", "16"},
      {"run", "folding", "--format", "xml"},
      {"run", "folding", "--backend", "tpu"},
      {"race", "barrier", "--runs", "0"},
      {"tour", "--auto", "-1"},
      {"tour", "--auto", "601"},
      {"tour", "--auto", "soon"},
      {"run", "folding", "--n", ""},
      {"run", "folding", "--variant", ""},
      {"run", "folding", "--data", ""},
      {"check", "barrier"},
      {"check", "barrier", "--tool", "helgrind"},
      {"check", "barrier", "--tool", "racecheck", "--schedule", "lockstep"},
      {"bench", "--lessons", "barrier"},
      {"bench", "--sizes", "1,,2"},
      {"bench", "--format", "xml"},
      {"run", "shared", "--variant", "coarsened", "--per-thread", "0"},
      {"run", "shared", "--variant", "coarsened", "--per-thread", "33"},
      {"run", "shared", "--variant", "coarsened", "--per-thread", "4x"},
      {"run", "shared", "--variant", "coarsened", "--per-thread", ""},
      {"run", "shared", "--variant", "multiblock", "--per-thread", "4"},
      {"run", "shared", "--no-load-add"},
      {"run", "shared", "--variant", "coarsened", "--block", "1024", "--per-thread", "9",
       "--no-load-add"},
      {"bench", "--per-thread", "0"},
      {"bench", "--per-thread", "1,,2"},
      {"bench", "--per-thread", "64"},
      {"bench", "--lessons", "fastest", "--per-thread", "4"},
      {"bench", "--lessons", "fastest", "--no-load-add"},
      {"list", "--format", "csv"},
      {"exercise"},
      {"exercise", "fly"},
      {"exercise", "start", "nope"},
      {"exercise", "start", "one-queue", "/dev/null/folder"},  // under a file: never a folder
      {"exercise", "hint", "one-queue", "0"},
      {"exercise", "hint", "one-queue", "99"},
      {"exercise", "hint", "one-queue"},
      {"exercise", "check", "one-queue"},
      {"exercise", "check", "one-queue", "/no/such/file.cu"},
      {"exercise", "check", "one-queue", "k.cu", "--case-seconds", "0"},
      {"exercise", "run", "one-queue", "k.cu", "--block", "100"},
      {"exercise", "run", "put-the-barrier-back", "k.cu", "--n", "2000"},
      {"exercise", "run", "one-queue", "k.cu", "--schedule", "never"},
      {"exercise", "run", "put-the-barrier-back", "k.cu", "--n", "8", "--schedule", "stall:8:1:1"},
      {"exercise", "list", "--format", "xml"},
      {"exercise", "grade", "one-queue", "k.cu", "--format", "moodle"},
      {"exercise", "grade", "one-queue"},
      {"exercise", "check", "one-queue", "k.cu", "--backend", "tpu"},
      {"exercise", "check", "one-queue", "/no/such/file.cu", "--backend", "gpu"},
      {"exercise", "run", "one-queue", "k.cu", "--backend", "gpu", "--schedule", "random:1"},
  };
  for (const auto& args : bad) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    CAPTURE(joined);
    const Outcome o = rlabWith(args);
    CHECK(o.code == 2);
    CHECK(o.out.empty());
    CHECK(o.err.rfind("rlab: ", 0) == 0);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  }
}

TEST_CASE("bad input: rlab run says a bad parameter before a bad option, as it always has") {
  // The lesson's own limits come first, then the options that only rlab run has.
  const Outcome block = rlabWith({"run", "shared", "--block", "3", "--timeline"});
  CHECK(block.code == 2);
  CHECK(block.err.find("--block") != std::string::npos);
  const Outcome n = rlabWith({"run", "barrier", "--n", "2048", "--format", "xml"});
  CHECK(n.code == 2);
  CHECK(n.err.find("2048") != std::string::npos);
  CHECK(n.err.find("xml") == std::string::npos);
}

TEST_CASE("race: NaN results are one result of their own, counted apart from the numbers") {
  // Float product of 3e38, 3e38, 0: 3e38 * 3e38 overflows to inf, and inf * 0 is NaN; 3e38 * 0
  // first gives 0. The atomic lesson's order changes with the schedule, so both come out.
  rlab::Params p;
  p.lesson = "atomic";
  p.type = rlab::ElementType::Float;
  p.op = rlab::Op::Product;
  p.values = {3e38, 3e38, 0};
  const rlab::RaceResult race = rlab::runRace(p, 40, 1);
  int total = 0, nan = 0;
  for (const auto& [value, count] : race.histogram) {
    total += count;
    if (std::isnan(value)) nan += count;
  }
  CHECK(total == 40);
  CHECK(race.histogram.size() == 2);
  CHECK(nan == race.wrong);
  CHECK(race.wrong > 0);
  CHECK(race.wrong < 40);
  CHECK(race.histogram.at(0.0) == 40 - race.wrong);
  CHECK(std::isnan(race.histogram.rbegin()->first));  // after every number
}

namespace {

nlohmann::json jsonOf(const std::vector<std::string>& args) {
  const Outcome o = rlabWith(args);
  REQUIRE_MESSAGE(o.code == 0, o.err);
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(o.out));
  return j;
}

// JSON numbers, or the strings that stand for the ones JSON cannot hold.
bool numberOrNonFinite(const nlohmann::json& v) {
  return v.is_number() || v == "inf" || v == "-inf" || v == "nan";
}

}  // namespace

TEST_CASE("--format json: every subcommand prints one document nlohmann reads") {
  SUBCASE("list") {
    const auto j = jsonOf({"list", "--format", "json"});
    CHECK(j["lessons"].size() == rlab::lessons().size());
  }
  SUBCASE("run, every lesson and variant, both types") {
    for (const rlab::LessonInfo& lesson : rlab::lessons())
      for (const std::string& variant : lesson.variantList())
        for (const char* type : {"int", "float"}) {
          CAPTURE(lesson.id);
          CAPTURE(variant);
          const auto j = jsonOf({"run", lesson.id, "--variant", variant, "--type", type, "--n",
                                 "40", "--format", "json"});
          CHECK(j["lesson"] == lesson.id);
          CHECK(j["variant"] == variant);
          CHECK(j["correct"] == true);
          CHECK(j["result"].is_number());
          CHECK(j["tolerance"].is_number());
          CHECK(j["timings"]["simulator_seconds"].is_number());
        }
  }
  SUBCASE("run: an infinite result and tolerance") {
    const auto j = jsonOf({"run", "folding", "--type", "float", "--op", "product", "--values",
                           "3e38,3e38", "--format", "json"});
    CHECK(j["result"] == "inf");
    CHECK(j["expected"] == "inf");
    CHECK(j["tolerance"] == "inf");  // was written as null
    CHECK(j["correct"] == true);
    CHECK(j["steps"][1]["values"][0] == "inf");
  }
  SUBCASE("run: NaN, where the kernel multiplies the two largest first") {
    // 3e38 * 3e38 is inf, then inf * 0 is NaN; 3e38 * 0 first gives 0. The tree lessons pair
    // neighbours (a[0] with a[1]) and so reach NaN; folding pairs a[0] with a[2] and reaches 0.
    const std::vector<std::string> nanInput = {"--type",   "float",       "--op",     "product",
                                               "--values", "3e38,3e38,0", "--format", "json"};
    auto runOf = [&](const char* lesson) {
      std::vector<std::string> args = {"run", lesson};
      args.insert(args.end(), nanInput.begin(), nanInput.end());
      return jsonOf(args);
    };
    const auto barrier = runOf("barrier");
    CHECK(barrier["result"] == "nan");
    CHECK(barrier["expected"] == 0.0);
    CHECK(barrier["correct"] == false);
    const auto folding = runOf("folding");
    CHECK(folding["result"] == 0.0);
    CHECK(folding["correct"] == true);
    for (const rlab::LessonInfo& lesson : rlab::lessons()) {
      if (lesson.defaultGpus > 0) continue;  // three values do not split over its GPUs
      CAPTURE(lesson.id);
      const auto j = runOf(lesson.id.c_str());
      CHECK((j["result"] == "nan" || j["result"] == 0.0));
      for (const auto& step : j["steps"])
        for (const auto& v : step["values"]) CHECK(numberOrNonFinite(v));
    }
  }
  SUBCASE("race: NaN results counted apart, the first wrong run embedded") {
    const auto j = jsonOf({"race", "atomic", "--type", "float", "--op", "product", "--values",
                           "3e38,3e38,0", "--runs", "30", "--format", "json"});
    int total = 0, nan = 0;
    for (const auto& r : j["results"]) {
      total += r["count"].get<int>();
      if (r["result"] == "nan") nan += r["count"].get<int>();
    }
    CHECK(total == 30);
    CHECK(nan == j["wrong"]);
    CHECK(nan > 0);
    CHECK(j["first_wrong"]["result"] == "nan");
    CHECK(j["first_wrong"]["atomic_order"].size() == 3);
    const auto ints = jsonOf(
        {"race", "barrier", "--no-barrier", "--n", "16", "--runs", "10", "--format", "json"});
    CHECK(ints["expected"] == 136);
    for (const auto& r : ints["results"]) CHECK(r["result"].is_number_integer());
  }
  SUBCASE("bench on the simulator, tiny sizes") {
    const auto j = jsonOf({"bench", "--backend", "sim", "--lessons", "folding,fastest", "--sizes",
                           "1,33", "--reps", "1", "--format", "json"});
    CHECK(j["gpu_times"] == false);
    CHECK(j["type"] == "int");
    REQUIRE(j["rows"].size() == 8);  // per size: the CPU loop, folding, its double buffer, fastest
    CHECK(j["rows"][0]["role"] == "cpu_loop");
    CHECK(j["rows"][1]["role"] == "lesson");
    std::set<std::string> kernels;
    for (const auto& row : j["rows"]) kernels.insert(row["kernel"].get<std::string>());
    CHECK(kernels ==
          std::set<std::string>{"cpu loop", "folding", "folding double-buffer", "fastest"});
    for (const auto& row : j["rows"]) {
      CHECK(row["kernel"].is_string());
      for (const char* key : {"ms", "gb_per_s", "copy_fraction", "cub_ratio"})
        CHECK(numberOrNonFinite(row[key]));
      CHECK(row["cpu_ratio"].is_null());  // simulator times: no speed-ups
      CHECK(row["previous_ratio"].is_null());
    }
    const auto swept =
        jsonOf({"bench", "--backend", "sim", "--lessons", "shared", "--sizes", "100", "--reps", "1",
                "--per-thread", "2,32", "--no-load-add", "--format", "json"});
    std::vector<std::string> sweptKernels;
    for (const auto& row : swept["rows"]) {
      sweptKernels.push_back(row["kernel"]);
      if (row.contains("per_thread")) CHECK(row["load_add"] == false);
    }
    CHECK(sweptKernels == std::vector<std::string>{"cpu loop", "shared global", "shared shared",
                                                   "shared multiblock", "shared clusters",
                                                   "shared coarsened K=2, no load add",
                                                   "shared coarsened K=32, no load add"});
    // The same printer with measurements that are not finite (a zero time gives inf GB/s).
    rlab::cli::BenchTable table;
    table.device = "a \"quoted\" device\n";
    table.rows.push_back({"folding", 1, 0.0, HUGE_VAL, std::nan(""), -HUGE_VAL});
    const auto odd = nlohmann::json::parse(rlab::cli::benchJson(table).dump());
    CHECK(odd["device"] == "a \"quoted\" device\n");
    CHECK(odd["rows"][0]["gb_per_s"] == "inf");
    CHECK(odd["rows"][0]["copy_fraction"] == "nan");
    CHECK(odd["rows"][0]["cub_ratio"] == "-inf");
  }
  SUBCASE("check: a canned racecheck report through the printer rlab check uses") {
    const std::string output =
        "========= COMPUTE-SANITIZER\n"
        "========= Error: Race reported between Read access at void treeShared<int, SumOp>(T1 "
        "*, int, bool, bool, StepRecorder<T1>)+0x470 in barrier.cuh:38\n"
        "=========     and Write access at void treeShared<int, SumOp>(T1 *, int, bool, bool, "
        "StepRecorder<T1>)+0x4c0 in barrier.cuh:39 [520 hazards]\n"
        "========= \n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    rlab::SanitizerReport report =
        rlab::parseSanitizerOutput(rlab::SanitizerTool::Racecheck, output, 9);
    report.params = rlab::cli::parseCommandLine({"check", "barrier", "--variant", "shared",
                                                 "--no-barrier", "--tool", "racecheck"})
                        .params;
    const auto j = nlohmann::json::parse(rlab::cli::sanitizerJson(report).dump());
    CHECK(j["tool"] == "racecheck");
    CHECK(j["lesson"] == "barrier");
    CHECK(j["clean"] == false);
    CHECK(j["exit_code"] == 9);
    CHECK(j["summary"] == "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)");
    CHECK(j["run_error"].is_null());
    REQUIRE(j["hazards"].size() == 1);
    const auto& h = j["hazards"][0];
    CHECK(h["kind"] == "Race reported between Read access and Write access");
    CHECK(h["kernel"] == "void treeShared<int, SumOp>(T1 *, int, bool, bool, StepRecorder<T1>)");
    CHECK(h["file"] == "barrier.cuh");
    CHECK(h["line"] == 38);
    CHECK(h["count"] == 520);
    CHECK(h["sites"].size() == 2);
    CHECK(h["lines"].size() == 2);
    std::vector<std::string> arguments = {"run"};
    for (const auto& a : j["arguments"]) arguments.push_back(a.get<std::string>());
    CHECK(rlab::cli::parseCommandLine(arguments).params.variant == "shared");
    CHECK(j["notes"].size() == 1);

    std::ostringstream text;
    rlab::cli::printSanitizerText(report, text, rlab::Language::En, 100);
    CHECK(text.str().find("racecheck on barrier (shared, barrier off):") == 0);
    CHECK(text.str().find("Write access at barrier.cuh:39") != std::string::npos);
    CHECK(text.str().find("the sanitizer reported errors") != std::string::npos);
  }
}

TEST_CASE("rlab lesson prints a chapter in the chosen language, with its runs as commands") {
  for (const char* lang : {"en", "ja", "zh"}) {
    CAPTURE(lang);
    const Outcome o = rlabWith({"lesson", "barrier", "--lang", lang});
    CHECK(o.code == 0);
    const auto* doc = rlab::text::chapter("barrier", rlab::parseLanguage(lang));
    REQUIRE(doc);
    CHECK(o.out.rfind(doc->title, 0) == 0);
    CHECK(o.out.find("rlab run barrier --n 8 --no-barrier --schedule stall:4:2:1") !=
          std::string::npos);
  }
  const Outcome unknown = rlabWith({"lesson", "warp-magic"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("choose from basics, atomic") != std::string::npos);
  const Outcome french = rlabWith({"lesson", "barrier", "--lang", "fr"});
  CHECK(french.code == 2);
  CHECK(french.err.find("use en, ja or zh") != std::string::npos);
}

TEST_CASE("rlab run prints the chapter's sentence under each step of the chapter's run") {
  const Outcome o = rlabWith(
      {"run", "barrier", "--n", "8", "--no-barrier", "--schedule", "stall:4:2:1", "--lang", "en"});
  const auto* narration =
      rlab::narrationFor(rlab::paramsFromQuery("barrier", "n=8&barrier=off&schedule=stall:4:2:1"),
                         true, rlab::Language::En);
  REQUIRE(narration);
  const std::string first = rlab::text::plain(narration->items.at(0)).substr(0, 20);
  CHECK(o.out.find("> " + first) != std::string::npos);
  // Another run has no narration.
  const Outcome other = rlabWith({"run", "barrier", "--n", "7", "--lang", "en"});
  CHECK(other.out.find("        > ") == std::string::npos);
}

// ---- rlab exercise ---------------------------------------------------------------------------

namespace {

std::string sourceFile(const std::string& relative) {
  return std::string(RLAB_SOURCE_DIR) + "/" + relative;
}

}  // namespace

TEST_CASE("rlab exercise list, hint and solution") {
  const Outcome list = rlabWith({"exercise", "list"});
  CHECK(list.code == 0);
  CHECK(list.out.find("  fold-any-length — Fold any length") != std::string::npos);
  const auto j = nlohmann::json::parse(rlabWith({"exercise", "list", "--format", "json"}).out);
  CHECK(j["exercises"].size() == rlab::exercises().size());
  const Outcome hint = rlabWith({"exercise", "hint", "fold-any-length", "2"});
  CHECK(hint.code == 0);
  CHECK(hint.out.rfind("Hint 2 of 3 (fold-any-length):", 0) == 0);
  const Outcome solution = rlabWith({"exercise", "solution", "fold-any-length"});
  CHECK(solution.out.find("__global__ void foldStep(int* a, long long len)") != std::string::npos);
}

TEST_CASE("rlab exercise show, hint and list in the chosen language") {
  const Outcome ja = rlabWith({"exercise", "show", "fold-any-length", "--lang", "ja"});
  CHECK(ja.code == 0);
  CHECK(ja.err.empty());
  CHECK(ja.out.rfind("どんな長さでも折りたたむ\n", 0) == 0);
  CHECK(ja.out.find("__global__ void foldStep(int* a, long long len)") != std::string::npos);
  std::string joined = ja.out;  // wrapped to 80 columns: between any two Japanese characters
  joined.erase(std::remove(joined.begin(), joined.end(), '\n'), joined.end());
  CHECK(joined.find("ヒントは 3 つ：rlab exercise hint fold-any-length 1 〜 3。") !=
        std::string::npos);
  const Outcome en = rlabWith({"exercise", "show", "fold-any-length", "--lang", "en"});
  CHECK(en.out.rfind("Fold any length\n", 0) == 0);
  const Outcome zh = rlabWith({"exercise", "hint", "fold-any-length", "1", "--lang", "zh"});
  CHECK(zh.code == 0);
  CHECK(zh.out.rfind("提示 1/3（fold-any-length）：", 0) == 0);
  CHECK(zh.out.find("给两部分起个名字") != std::string::npos);
  const Outcome list = rlabWith({"exercise", "list", "--lang", "zh"});
  CHECK(list.out.find("  fold-any-length — 任意长度的折叠") != std::string::npos);
  const Outcome bad = rlabWith({"exercise", "show", "fold-any-length", "--lang", "fr"});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("fr") != std::string::npos);
}

TEST_CASE("rlab exercise start writes the starting file once") {
  const TempFolder scratch("exercise-start");
  const auto folder = scratch.path;
  const Outcome first = rlabWith({"exercise", "start", "one-queue", folder.string()});
  CHECK(first.code == 0);
  const auto written = folder / "one-queue.cu";
  CHECK(std::filesystem::exists(written));
  CHECK(first.out.find("rlab exercise check one-queue " + written.string()) != std::string::npos);
  const Outcome again = rlabWith({"exercise", "start", "one-queue", folder.string()});
  CHECK(again.code == 2);
  CHECK(again.err.find("already exists") != std::string::npos);
}

TEST_CASE("rlab exercise start creates a folder that does not exist yet, or says why it cannot") {
  const TempFolder scratch("exercise-start-new");
  const auto folder = scratch.path / "course" / "week 1";  // two levels that do not exist
  const Outcome made = rlabWith({"exercise", "start", "one-queue", folder.string()});
  CHECK(made.code == 0);
  CHECK(made.err.empty());
  CHECK(made.out.find("Created the folder " + folder.string() + ".") != std::string::npos);
  CHECK(std::filesystem::exists(folder / "one-queue.cu"));
  const auto file = folder / "one-queue.cu";  // a file where a folder is asked for
  const Outcome onFile = rlabWith({"exercise", "start", "one-queue", file.string()});
  CHECK(onFile.code == 2);
  CHECK(onFile.out.empty());
  CHECK(onFile.err == "rlab: " + file.string() +
                          " is a file, not a folder; name a folder to write one-queue.cu into.\n");
  const auto underFile = file / "inside";
  const Outcome cannot = rlabWith({"exercise", "start", "one-queue", underFile.string()});
  CHECK(cannot.code == 2);
  CHECK(cannot.out.empty());
  CHECK(cannot.err.rfind("rlab: could not create the folder " + underFile.string() + " (", 0) == 0);
  CHECK(std::count(cannot.err.begin(), cannot.err.end(), '\n') == 1);
}

TEST_CASE("rlab exercise check: exit 0 for a solution, 1 for a wrong kernel, with the replay") {
  const Outcome passed = rlabWith({"exercise", "check", "one-queue",
                                   sourceFile("lessons/atomic/exercises/one-queue/solution.cu")});
  CHECK(passed.code == 0);
  CHECK(passed.out.find("PASSED: all ") != std::string::npos);
  const Outcome failed = rlabWith({"exercise", "check", "fold-any-length",
                                   sourceFile("tests/fixtures/exercises/drops_tail.cu")});
  CHECK(failed.code == 1);
  CHECK(failed.out.find("FAILED: ") != std::string::npos);
  // The sentence wrapped to the terminal, the replay line whole on its own line.
  CHECK(failed.out.find("Replay:\n  rlab exercise run fold-any-length ") != std::string::npos);
  const auto j = nlohmann::json::parse(
      rlabWith({"exercise", "check", "one-queue",
                sourceFile("tests/fixtures/exercises/compile_error.cu"), "--format", "json"})
          .out);
  CHECK(j["verdict"] == "compile error");
  CHECK(j["diagnostics"][0]["line"] == 5);
  const Outcome text = rlabWith(
      {"exercise", "check", "one-queue", sourceFile("tests/fixtures/exercises/compile_error.cu")});
  CHECK(text.out.find("compile_error.cu:5:") != std::string::npos);
  CHECK(text.out.find("  5 |     atomicAdd(result, in[i] + offset);") != std::string::npos);
}

TEST_CASE("rlab exercise run replays one case of a learner's kernel") {
  const Outcome o =
      rlabWith({"exercise", "run", "fold-any-length",
                sourceFile("tests/fixtures/exercises/drops_tail.cu"), "--values", "1,2,3"});
  CHECK(o.code == 1);
  CHECK(o.out.find("result 5   expected 6") != std::string::npos);  // 3 is lost
}

TEST_CASE("--printf is the barrier lesson's only") {
  rlab::Params p;
  p.lesson = "folding";
  p.printing = true;
  CHECK_THROWS_WITH_AS(rlab::resolve(p), "--printf is only for the barrier lesson.",
                       rlab::ParamError);
  const Outcome o = rlabWith({"run", "folding", "--printf"});
  CHECK(o.code == 2);
  CHECK(o.out.empty());
  CHECK(o.err.find("--printf is only for the barrier lesson.") != std::string::npos);
}

TEST_CASE("rlab run --printf prints the kernel's lines under a heading with their count") {
  const Outcome o =
      rlabWith({"run", "barrier", "--no-barrier", "--printf", "--n", "8", "--backend", "sim"});
  REQUIRE(o.code == 0);
  CHECK(o.out.find("barrier=off  printf") != std::string::npos);
  CHECK(o.out.find("kernel output (printf), 9 lines from the simulator") != std::string::npos);
  CHECK(o.out.find("\n  thread 0, level 1: a[0] = 1\n") != std::string::npos);
  CHECK(o.out.find("\n  thread 6, level 3: a[6] = ") != std::string::npos);
  const Outcome quiet = rlabWith({"run", "barrier", "--n", "8", "--backend", "sim"});
  CHECK(quiet.out.find("kernel output") == std::string::npos);

  const Outcome json = rlabWith({"run", "barrier", "--variant", "shared", "--printf", "--n", "7",
                                 "--backend", "sim", "--format", "json"});
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["printf"] == true);
  CHECK(j["kernel_output"]["from"] == "sim");
  CHECK(j["kernel_output"]["count"] == 9);  // threads 0, 3, 6 of 8, three levels
  rlab::Params p;
  p.lesson = "barrier";
  p.variant = "shared";
  p.n = 7;
  CHECK(j["kernel_output"]["lines"].get<std::vector<std::string>>() == expectedPrintfLines(p));
  const auto none = nlohmann::json::parse(
      rlabWith({"run", "barrier", "--n", "7", "--backend", "sim", "--format", "json"}).out);
  CHECK(none["printf"] == false);
  CHECK_FALSE(none.contains("kernel_output"));
}

TEST_CASE("rlab race --printf counts wrong runs with every third thread printing") {
  const Outcome o = rlabWith({"race", "barrier", "--no-barrier", "--printf", "--n", "256", "--runs",
                              "5", "--schedule", "lockstep"});
  REQUIRE(o.code == 0);
  CHECK(o.out.find(", barrier off, printing") != std::string::npos);
  CHECK(o.out.find("wrong: 5 of 5") != std::string::npos);
  const Outcome quiet = rlabWith(
      {"race", "barrier", "--no-barrier", "--n", "256", "--runs", "5", "--schedule", "lockstep"});
  CHECK(quiet.out.find("wrong: 0 of 5") != std::string::npos);
  const auto j = nlohmann::json::parse(
      rlabWith({"race", "barrier", "--no-barrier", "--printf", "--runs", "2", "--format", "json"})
          .out);
  CHECK(j["printf"] == true);
}
