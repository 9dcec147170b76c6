// rlab's command line: what it prints, and that bad input only ever means exit code 2.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <cmath>
#include <random>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/race.hpp"

namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome rlabWith(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = rlab::cli::main(args, out, err, false);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("rlab run prints the steps, the result and the verdict") {
  const Outcome o = rlabWith({"run", "folding", "--n", "9"});
  CHECK(o.code == 0);
  CHECK(o.err.empty());
  CHECK(o.out.find("7  9 11 13  5") != std::string::npos);
  CHECK(o.out.find("result 45   expected 45   correct") != std::string::npos);
  const Outcome broken = rlabWith({"run", "barrier", "--no-barrier", "--schedule", "stall:4:2:1"});
  CHECK(broken.out.find("result 21   expected 36   WRONG (15 short)") != std::string::npos);
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
  CHECK(j["lessons"].size() == 7);
}

TEST_CASE("rlab race counts wrong results and shows a histogram") {
  const Outcome o = rlabWith({"race", "barrier", "--no-barrier", "--runs", "20", "--n", "64"});
  CHECK(o.code == 0);
  CHECK(o.out.find("wrong: ") != std::string::npos);
  CHECK(o.out.find("The first wrong run") != std::string::npos);
  const Outcome ok = rlabWith({"race", "barrier", "--runs", "20", "--n", "64"});
  CHECK(ok.out.find("wrong: 0 of 20") != std::string::npos);
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
      {"run", "folding", "--no-barrier"},
      {"run", "barrier", "--n", "2048"},
      {"run", "butterfly", "--variant", "shuffle", "--block", "16"},
      {"run", "folding", "--format", "xml"},
      {"run", "folding", "--backend", "tpu"},
      {"race", "barrier", "--runs", "0"},
      {"tour", "--delay-ms", "-1"},
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

TEST_CASE("fuzz: thousands of random command lines parse to a command or a usage error") {
  const std::vector<std::string> words = {"run",
                                          "list",
                                          "race",
                                          "tour",
                                          "folding",
                                          "barrier",
                                          "atomic",
                                          "divergence",
                                          "shared",
                                          "butterfly",
                                          "fastest",
                                          "--n",
                                          "--block",
                                          "--op",
                                          "--type",
                                          "--data",
                                          "--values",
                                          "--no-barrier",
                                          "--perturb",
                                          "--schedule",
                                          "--backend",
                                          "--format",
                                          "--variant",
                                          "--runs",
                                          "--delay-ms",
                                          "0",
                                          "1",
                                          "7",
                                          "33",
                                          "-5",
                                          "1024",
                                          "999999999999999999999",
                                          "sum",
                                          "max",
                                          "product",
                                          "int",
                                          "float",
                                          "iota",
                                          "ones",
                                          "random:3",
                                          "random:",
                                          "3,1,4",
                                          ",",
                                          "1,x",
                                          "stall:4:2:1",
                                          "stall:::",
                                          "warps-random:9",
                                          "sim",
                                          "gpu",
                                          "auto",
                                          "json",
                                          "text",
                                          "global",
                                          "shared",
                                          "shuffle",
                                          "strided",
                                          "",
                                          "=",
                                          "--n=5",
                                          "-h",
                                          "--help",
                                          "\xff"};
  std::mt19937 rng(1234);
  int parsed = 0, refused = 0;
  for (int k = 0; k < 5000; ++k) {
    std::vector<std::string> args;
    const int count = int(rng() % 8);
    for (int i = 0; i < count; ++i) args.push_back(words[rng() % words.size()]);
    try {
      rlab::cli::parseCommandLine(args);
      ++parsed;
    } catch (const rlab::cli::UsageError& e) {
      ++refused;
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  }
  CHECK(parsed + refused == 5000);
  CHECK(parsed > 0);
  CHECK(refused > 0);
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
