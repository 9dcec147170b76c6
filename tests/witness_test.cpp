// The race witness: the smallest stall schedule that makes a run wrong, checked against every
// schedule around it; and the same failure as a pause (--delay) on the simulator.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/races/witness.hpp"

using namespace rlab;

namespace {

Params barrierRun(const std::string& variant, int64_t n, bool barrier) {
  Params p;
  p.lesson = "barrier";
  p.variant = variant;
  p.n = n;
  p.barrier = barrier;
  return p;
}

Trace runUnder(Params p, const std::string& schedule) {
  p.schedule = schedule;
  return runLesson(p);
}

bool wrongUnder(const Params& p, const StallSchedule& s) {
  return !runUnder(p, s.str()).correct;
}

// The words of a command line as a shell would split it (no quotes in these lines).
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// What every witness must be: wrong itself, right one step smaller, and the early read it
// names is in its run.
void checkWitness(const Params& p, const Witness& w) {
  REQUIRE(w.found);
  CHECK(wrongUnder(p, w.stall));
  CHECK(runUnder(p, "lockstep").correct);
  for (const StallSchedule& smaller : w.stall.oneStepSmaller()) {
    CAPTURE(smaller.str());
    CHECK_FALSE(wrongUnder(p, smaller));
  }
  REQUIRE(w.trace);
  CHECK_FALSE(w.trace->correct);
  CHECK(w.trace->params.schedule == w.stall.str());
  REQUIRE(w.readFound);
  CHECK(w.read.missedWriter == w.stall.thread);  // the late thread's write is the one missed
  CHECK(w.read.element == w.stall.thread);       // the tree: thread t writes a[t]
  CHECK(w.read.step > w.read.missedStep);
  CHECK(w.combineLine.text.find("trace.combine(") == 0);  // the line the kernel recorded
  CHECK(w.barrierLine.text.find("switchableBarrier(barrierOn)") != std::string::npos);
  CHECK(w.combineLine.line < w.barrierLine.line);
  // The pause does on the simulator what the stall did.
  CHECK(w.delayed.delayThread == w.stall.thread);
  CHECK(w.delayed.delayLevel == w.read.missedStep);
  CHECK(w.delayWrongOnSimulator);
  // The replay line gives the witness run.
  std::vector<std::string> args = words(w.replay);
  REQUIRE(args.front() == "rlab");
  args.erase(args.begin());
  std::ostringstream out, err;
  cli::Terminal wide;  // the stale read's sentence on one line
  wide.width = 400;
  CHECK(cli::main(args, out, err, wide) == 0);
  CHECK(out.str().find("WRONG") != std::string::npos);
  CHECK(out.str().find(rlab::english(w.read.text)) != std::string::npos);
}

}  // namespace

TEST_CASE("stall schedules: size is rounds late, then the first round, one step smaller") {
  const StallSchedule figure{4, 2, 1};
  CHECK(figure.str() == "stall:4:2:1");
  CHECK(StallSchedule{4, 1, 0}.str() == "lockstep");
  CHECK(StallSchedule{2, 1, 1}.smallerThan(figure));
  CHECK(StallSchedule{7, 1, 1}.smallerThan(figure));  // the thread is no part of the size
  CHECK_FALSE(StallSchedule{0, 2, 1}.smallerThan(figure));
  CHECK_FALSE(figure.smallerThan(StallSchedule{0, 2, 1}));
  CHECK(figure.smallerThan(StallSchedule{4, 1, 2}));
  CHECK(StallSchedule{4, 1, 0}.smallerThan(figure));
  const auto down = StallSchedule{3, 2, 3}.oneStepSmaller();
  REQUIRE(down.size() == 3);
  CHECK(down[0].str() == "stall:3:2:2");
  CHECK(down[1].str() == "stall:3:3:2");
  CHECK(down[2].str() == "stall:3:1:3");
  for (const StallSchedule& s : down) CHECK(s.smallerThan(StallSchedule{3, 2, 3}));
  CHECK(StallSchedule{3, 1, 1}.oneStepSmaller().empty());  // only lockstep is smaller
}

TEST_CASE(
    "witness: n = 8 without the barrier is one round late from round 1, no larger than "
    "stall:4:2:1, and no smaller stall schedule of any thread fails") {
  const Params p = barrierRun("global", 8, false);
  const Witness w = findWitness(p);
  checkWitness(p, w);
  CHECK(w.stall.rounds == 1);
  CHECK(w.stall.from == 1);
  CHECK_FALSE(StallSchedule{4, 2, 1}.smallerThan(w.stall));
  // The lesson's own figure is a witness too, one round later: the same read, the same sum.
  CHECK(runUnder(p, "stall:4:2:1").result == 21);
  CHECK(runUnder(p, "stall:4:1:1").result == 21);
  // Every stall schedule of a smaller size, for every thread, is right: here only lockstep.
  for (int t = 0; t < 8; ++t)
    for (int rounds = 0; rounds <= w.stall.rounds; ++rounds)
      for (int from = 1; from <= 8; ++from) {
        const StallSchedule s{t, from, rounds};
        if (s.smallerThan(w.stall)) CHECK_FALSE(wrongUnder(p, s));
      }
  CHECK(w.smallest);
  CHECK(w.tried > 0);
  CHECK(w.replay == "rlab run barrier --n 8 --no-barrier --schedule " + w.stall.str());
  CHECK(w.delayCommand == "rlab race barrier --n 8 --no-barrier --delay " +
                              std::to_string(w.delayed.delayThread) + ":" +
                              std::to_string(w.delayed.delayLevel) + " --backend gpu");
}

TEST_CASE("witness: with the barrier on none is found, and the search says how many it tried") {
  for (const char* variant : {"global", "shared"}) {
    for (bool perturb : {false, true}) {
      Params p = barrierRun(variant, 8, true);
      p.perturb = perturb;
      WitnessOptions options;
      options.searchRuns = 60;
      const Witness w = findWitness(p, options);
      CHECK_FALSE(w.found);
      CHECK_FALSE(w.cancelled);
      CHECK(w.tried == 61);  // lockstep (the run's own) and random:1 to random:60
      CHECK(rlab::english(w.why).find("61 tried") != std::string::npos);
      CHECK_FALSE(w.trace);
    }
  }
}

TEST_CASE("witness: both barrier variants up to n = 1024, each checked all round") {
  // Over 2 or 3 elements nothing can go wrong: no thread reads a cell that another thread
  // changes (n = 3: the global tree never writes a[2]; the shared one adds the padding's 0).
  for (const char* variant : {"global", "shared"})
    for (int64_t n : {2, 3}) {
      WitnessOptions options;
      options.searchRuns = 30;
      CHECK_FALSE(findWitness(barrierRun(variant, n, false), options).found);
    }
  for (const char* variant : {"global", "shared"})
    for (int64_t n : {5, 8, 33, 256, 1000, 1024}) {
      CAPTURE(variant);
      CAPTURE(n);
      const Params p = barrierRun(variant, n, false);
      const Witness w = findWitness(p);
      checkWitness(p, w);
      CHECK(w.stall.rounds == 1);
      CHECK(w.smallest);
      // The shared tree loads its block behind a barrier that always stays: a thread late in
      // round 1 only keeps the others waiting there.
      CHECK(w.stall.from == (std::string(variant) == "shared" ? 2 : 1));
      // Several warps, and thread 32 changes what thread 0 reads: a witness across warps.
      if (n >= 64) CHECK(w.read.reader / 32 != w.read.missedWriter / 32);
    }
}

TEST_CASE("witness: the shared variant's smallest is the lesson's figure, stall:4:2:1 at n = 8") {
  const Params p = barrierRun("shared", 8, false);
  const Witness w = findWitness(p);
  checkWitness(p, w);
  CHECK(w.stall.str() == "stall:4:2:1");
  CHECK(w.smallerChecked == 8);  // stall:T:1:1 for every thread, each right
  CHECK(rlab::english(w.read.text) ==
        "thread 0 read s[4] = 11 (step 1's value) too early: thread 4 wrote 26 there in step 2");
}

TEST_CASE(
    "witness: perturbed without a barrier, lockstep is wrong already: no thread need be "
    "late") {
  Params p = barrierRun("global", 8, false);
  p.perturb = true;
  const Witness w = findWitness(p);
  REQUIRE(w.found);
  CHECK(w.stall.rounds == 0);
  CHECK(w.stall.str() == "lockstep");
  CHECK(w.firstWrong == "lockstep");
  CHECK(w.readFound);
  CHECK(w.delayWrongOnSimulator);
}

TEST_CASE("witness: a lesson without a race has none, a given schedule is searched first") {
  Params p;
  p.lesson = "shared";
  p.variant = "shared";
  p.n = 100;
  WitnessOptions options;
  options.searchRuns = 20;
  const Witness w = findWitness(p, options);
  CHECK_FALSE(w.found);
  CHECK(w.tried == 21);

  Params figure = barrierRun("global", 8, false);
  figure.schedule = "stall:4:2:1";  // the run on screen: wrong; shrunk from there
  const Witness shrunk = findWitness(figure);
  checkWitness(barrierRun("global", 8, false), shrunk);
  CHECK(shrunk.firstWrong == "stall:4:2:1");
  CHECK(shrunk.stall.str() == "stall:4:1:1");
}

TEST_CASE("witness: cancelling stops the search and says so") {
  int calls = 0;
  const Witness w = findWitness(barrierRun("global", 1024, false), {}, [&](int, float fraction) {
    CHECK(fraction >= 0);
    CHECK(fraction <= 1);
    return ++calls < 3;
  });
  CHECK(w.cancelled);
  CHECK_FALSE(w.found);
  CHECK(w.tried == 3);
  CHECK(rlab::english(w.why).find("Cancelled after 3 runs") != std::string::npos);
}

TEST_CASE("witness: progress rises to the end") {
  float last = 0;
  bool monotonic = true;
  findWitness(barrierRun("shared", 64, false), {}, [&](int, float fraction) {
    monotonic = monotonic && fraction >= last - 1e-6f;
    last = fraction;
    return true;
  });
  CHECK(monotonic);
  CHECK(last > 0.9f);
}

TEST_CASE("rlabLine: only what differs from the defaults") {
  Params p = barrierRun("global", 8, false);
  p.schedule = "stall:4:2:1";
  CHECK(rlabLine("run", p) == "rlab run barrier --n 8 --no-barrier --schedule stall:4:2:1");
  p.variant = "shared";
  p.block = 16;
  p.type = ElementType::Float;
  CHECK(rlabLine("run", p) ==
        "rlab run barrier --variant shared --n 8 --block 16 --type float --no-barrier --schedule "
        "stall:4:2:1");
}

TEST_CASE("rlab race --witness: text and JSON, with the line that replays it") {
  auto rlab = [](std::vector<std::string> args, std::string& out) {
    std::ostringstream o, e;
    const int code = cli::main(args, o, e, false);
    out = o.str();
    return code;
  };
  std::string text;
  REQUIRE(rlab({"race", "barrier", "--n", "8", "--no-barrier", "--witness"}, text) == 0);
  const Witness w = findWitness(barrierRun("global", 8, false));
  CHECK(text.find("witness: " + w.stall.str() + " — thread " + std::to_string(w.stall.thread) +
                  " sits out 1 round from round 1") != std::string::npos);
  // The read's sentence, wrapped to 80 columns: its lines joined again.
  const std::string joined = std::regex_replace(text, std::regex("\n +"), " ");
  CHECK(joined.find(rlab::english(w.read.text)) != std::string::npos);
  CHECK(text.find("kernels/barrier.cuh:" + std::to_string(w.combineLine.line)) !=
        std::string::npos);
  CHECK(text.find("replay: " + w.replay + "\n") != std::string::npos);
  CHECK(text.find("on a GPU: " + w.delayCommand + "\n") != std::string::npos);
  CHECK(text.find("schedules tried: " + std::to_string(w.tried) + "\n") != std::string::npos);

  std::string json;
  REQUIRE(rlab({"race", "barrier", "--n", "8", "--no-barrier", "--witness", "--format", "json"},
               json) == 0);
  const auto j = nlohmann::json::parse(json);
  CHECK(j["found"] == true);
  CHECK(j["witness"]["schedule"] == w.stall.str());
  CHECK(j["witness"]["rounds"] == 1);
  CHECK(j["read"]["reader"] == w.read.reader);
  CHECK(j["read"]["element"] == w.read.element);
  CHECK(j["read"]["missed_writer"] == w.stall.thread);
  CHECK(j["combine_line"]["line"] == w.combineLine.line);
  CHECK(j["replay"] == w.replay);
  CHECK(j["delay"]["command"] == w.delayCommand);
  CHECK(j["gpu"]["ran"] == false);
  CHECK(j["tried"] == w.tried);

  REQUIRE(rlab({"race", "barrier", "--n", "8", "--witness", "--runs", "40"}, text) == 0);
  CHECK(text.find("no witness: No schedule of the 41 tried made the run wrong") !=
        std::string::npos);
  CHECK(text.find("schedules tried: 41\n") != std::string::npos);

  // The pause it names, raced: the JSON carries it.
  REQUIRE(rlab({"race", "barrier", "--n", "8", "--no-barrier", "--delay", delayText(w.delayed),
                "--runs", "3", "--format", "json"},
               json) == 0);
  const auto raced = nlohmann::json::parse(json);
  CHECK(raced["delay"]["thread"] == w.delayed.delayThread);
  CHECK(raced["delay"]["level"] == w.delayed.delayLevel);
  CHECK(raced["wrong"] == 3);  // random schedules, and the pause on top

  std::ostringstream out, err;
  CHECK(cli::main({"race", "barrier", "--witness", "--runs", "0"}, out, err, false) == 2);
  CHECK(out.str().empty());
}
