// rlab's option parsing under random command lines: every valid line gives the Command its
// options say, every broken one is refused in one line naming what was wrong, exit code 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/engine/registry.hpp"
#include "tests/cli_driver.hpp"

namespace {

// A command line built option by option, with what the parser must make of it: the Command
// its options say, or a refusal whose sentence names `badOption`.
struct Line {
  std::vector<std::pair<std::string, std::string>> options;  // value "" for a flag
  std::string lesson;                                        // the positional, where one is taken
  std::string command;
  rlab::cli::Command expected;
  std::string badOption;  // empty: the line is valid
};

void set(Line& line, const std::string& option, const std::string& value) {
  for (auto& entry : line.options)
    if (entry.first == option) {
      entry.second = value;
      return;
    }
  line.options.emplace_back(option, value);
}

bool has(const Line& line, const std::string& option) {
  for (const auto& entry : line.options)
    if (entry.first == option) return true;
  return false;
}

// The words, options in a random order and the lesson anywhere among them.
std::vector<std::string> words(const Line& line, std::mt19937_64& rng) {
  std::vector<std::vector<std::string>> groups;
  for (const auto& [option, value] : line.options)
    groups.push_back((value.empty() && option.rfind("--no-", 0) == 0) || option == "--perturb"
                         ? std::vector<std::string>{option}
                         : std::vector<std::string>{option, value});
  if (!line.lesson.empty()) groups.push_back({line.lesson});
  std::shuffle(groups.begin(), groups.end(), rng);
  std::vector<std::string> args = {line.command};
  for (const auto& g : groups) args.insert(args.end(), g.begin(), g.end());
  return args;
}

int64_t powerOfTwoCovering(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// run, race or check: every option valid for the lesson, then at most one broken.
Line lessonLine(std::mt19937_64& rng) {
  auto pick = [&](size_t count) { return size_t(rng() % count); };
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  const char* commands[] = {"run", "race", "check"};
  Line line;
  line.command = commands[pick(3)];
  const bool check = line.command == "check";
  const rlab::LessonInfo& lesson = rlab::lessons()[pick(rlab::lessons().size())];
  rlab::Params& p = line.expected.params;
  line.expected.name = line.command;
  line.lesson = p.lesson = lesson.id;
  if (chance(50))
    set(line, "--variant", p.variant = lesson.variants[pick(lesson.variants.size())].id);
  if (chance(50)) {
    p.type = chance(50) ? rlab::ElementType::Int : rlab::ElementType::Float;
    set(line, "--type", rlab::name(p.type));
  }
  if (chance(50)) {
    p.op = rlab::Op(pick(4));
    set(line, "--op", rlab::name(p.op));
  }
  int64_t n = lesson.defaultN;
  if (chance(30)) {
    const char* ints[] = {"3", "1", "-4", "2147483647", "-2147483648", "0"};
    const char* floats[] = {"0.1", "-3.5e7", "2.5", "1e-30", "3e38", "-0"};
    std::string list;
    // allreduce: n numbers for each of its GPUs, rank after rank
    const size_t ranks = size_t(std::max(lesson.defaultGpus, 1));
    const size_t count = ranks * (1 + pick(8));
    for (size_t i = 0; i < count; ++i) {
      const char* text = p.type == rlab::ElementType::Int ? ints[pick(6)] : floats[pick(6)];
      list += (i ? "," : "") + std::string(text);
      p.values.push_back(std::strtod(text, nullptr));
    }
    set(line, "--values", list);
    n = int64_t(count / ranks);
    if (chance(20)) set(line, "--n", std::to_string(p.n = n));
  } else {
    if (chance(50)) {
      const char* data[] = {"iota", "ones", "random:5", "random:123456789"};
      set(line, "--data", p.data = data[pick(4)]);
    }
    if (chance(50)) {
      n = 1 + int64_t(rng() % uint64_t(std::min<int64_t>(lesson.maxN, 5000)));
      set(line, "--n", std::to_string(p.n = n));
    }
  }
  if (chance(50)) {
    const int64_t low = std::max<int64_t>(
        (p.variant.empty() ? &lesson.variants[0] : lesson.findVariant(p.variant))->minBlock,
        lesson.oneBlock ? powerOfTwoCovering(n) : 1);
    std::vector<int> allowed;
    for (int b = 1; b <= 1024; b *= 2)
      if (b >= low) allowed.push_back(b);
    p.block = allowed[pick(allowed.size())];
    set(line, "--block", std::to_string(p.block));
  }
  const rlab::VariantInfo& chosen =
      p.variant.empty() ? lesson.variants.front() : *lesson.findVariant(p.variant);
  if (lesson.switchableBarrier && chance(50)) {
    p.barrier = false;
    set(line, "--no-barrier", "");
  }
  if (chosen.syncwarpSwitch && chance(50)) {
    p.syncwarp = false;
    set(line, "--no-syncwarp", "");
  }
  if (chosen.perturbs && chance(30)) {
    p.perturb = true;
    set(line, "--perturb", "");
  }
  // Level 1 is in every tree of 2 or more, and in every block of the last warp's lesson.
  if (chosen.delays && (n >= 2 || !lesson.oneBlock) && chance(20)) {
    p.delayThread = 0;
    p.delayLevel = 1;
    set(line, "--delay", "0:1");
  }
  if (check) {
    p.backend = rlab::BackendChoice::Gpu;  // what check always runs on
    line.expected.tool = rlab::SanitizerTool(pick(4));
    set(line, "--tool", rlab::name(line.expected.tool));
  } else {
    p.backend = rlab::BackendChoice::Auto;  // the command line's own default
    if (chance(50)) {
      p.backend = rlab::BackendChoice(pick(3));
      set(line, "--backend", rlab::name(p.backend));
    }
    if (p.backend != rlab::BackendChoice::Gpu && chance(50)) {
      // Thread 0 is in every block (stall:T:R:K with a T past the block is refused).
      const char* schedules[] = {"lockstep", "sequential",     "reverse",
                                 "random:9", "warps-random:2", "stall:0:2:1"};
      set(line, "--schedule", p.schedule = schedules[pick(6)]);
      // A schedule is the simulator's: given without --backend, it chooses the simulator.
      if (!has(line, "--backend")) p.backend = rlab::BackendChoice::Sim;
    }
  }
  if (chance(30)) {
    p.timed = false;
    set(line, "--no-timings", "");
  }
  if (chance(50)) {
    line.expected.format = chance(50) ? rlab::cli::Format::Json : rlab::cli::Format::Text;
    set(line, "--format", line.expected.format == rlab::cli::Format::Json ? "json" : "text");
  }
  if (line.command == "race" && chance(50)) {
    line.expected.runs = 1 + int(rng() % 100000);
    set(line, "--runs", std::to_string(line.expected.runs));
  }

  if (chance(50)) return line;
  // Break one thing: a value no option takes, or a rule between options.
  std::vector<std::pair<std::string, std::string>> breaks = {
      {"--n", "12x"},       {"--n", "0"},          {"--n", "268435457"}, {"--n", ""},
      {"--block", "100"},   {"--block", "2048"},   {"--block", "0"},     {"--op", "mean"},
      {"--type", "double"}, {"--variant", "nope"}, {"--format", "xml"},  {"lesson", "nope"}};
  if (!has(line, "--values")) {
    breaks.insert(breaks.end(),
                  {{"--data", "zeros"}, {"--data", "random:"}, {"--data", "random:x"}});
    breaks.push_back({"--values", "1,,2"});  // only --values: with --data it is that rule
  }
  if (has(line, "--values")) {
    breaks.insert(breaks.end(), {{"--values", "1,x"}, {"--values", "4e38"}, {"--data", "ones"}});
    breaks.push_back({"--n", std::to_string(p.values.size() + 1)});
  }
  if (!has(line, "--values") && p.type == rlab::ElementType::Int)
    breaks.push_back({"--values", "1.5"});
  const rlab::VariantInfo& variant =
      p.variant.empty() ? lesson.variants.front() : *lesson.findVariant(p.variant);
  if (!variant.barrierSwitch) breaks.push_back({"--no-barrier", ""});
  if (!variant.syncwarpSwitch) breaks.push_back({"--no-syncwarp", ""});
  if (!variant.perturbs) breaks.push_back({"--perturb", ""});
  if (!variant.delays) breaks.push_back({"--delay", "0:1"});
  if (variant.delays)
    breaks.insert(
        breaks.end(),
        {{"--delay", "4"}, {"--delay", "1:0"}, {"--delay", "2000:1"}, {"--delay", "0:11"}});
  if (lesson.oneBlock) breaks.push_back({"--block", "1"});  // smaller than n (n > 1 then)
  if (check) {
    breaks.insert(breaks.end(), {{"--tool", "helgrind"}, {"--schedule", "lockstep"}});
  } else {
    breaks.insert(breaks.end(), {{"--backend", "tpu"},
                                 {"--schedule", "random"},
                                 {"--schedule", "stall:::"},
                                 {"--schedule", "on a GPU"}});  // a GPU takes no schedule
  }
  if (line.command == "race") breaks.insert(breaks.end(), {{"--runs", "0"}, {"--runs", "100001"}});
  auto [option, value] = breaks[pick(breaks.size())];
  if (option == "--block" && value == "1" && n == 1) return line;  // a block of 1 covers n = 1
  if (option == "--schedule" && value == "on a GPU") {
    set(line, "--backend", "gpu");
    value = "lockstep";
  }
  if (option == "lesson")
    line.lesson = value;
  else
    set(line, option, value);
  line.badOption = option;
  return line;
}

// bench, tour and list.
Line otherLine(std::mt19937_64& rng) {
  auto pick = [&](size_t count) { return size_t(rng() % count); };
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  Line line;
  const char* commands[] = {"bench", "tour", "list"};
  line.command = line.expected.name = commands[pick(3)];
  std::vector<std::pair<std::string, std::string>> breaks;
  if (line.command == "bench") {
    line.expected.params.backend = rlab::BackendChoice::Auto;
    if (chance(50)) {
      const char* lessons[] = {"atomic", "folding", "divergence", "shared", "butterfly", "fastest"};
      std::string list;
      for (size_t k = 0, count = 1 + pick(3); k < count; ++k) {
        line.expected.benchLessons.push_back(lessons[pick(6)]);
        list += (k ? "," : "") + line.expected.benchLessons.back();
      }
      set(line, "--lessons", list);
    }
    if (chance(50)) {
      std::string list;
      for (size_t k = 0, count = 1 + pick(3); k < count; ++k) {
        line.expected.benchSizes.push_back(1 + (long long)(rng() % (1ull << 28)));
        list += (k ? "," : "") + std::to_string(line.expected.benchSizes.back());
      }
      set(line, "--sizes", list);
    }
    if (chance(50)) set(line, "--reps", std::to_string(line.expected.reps = 1 + int(pick(1000))));
    if (chance(50)) {
      line.expected.params.type = chance(50) ? rlab::ElementType::Int : rlab::ElementType::Float;
      set(line, "--type", rlab::name(line.expected.params.type));
    }
    if (chance(50)) {
      line.expected.params.backend = rlab::BackendChoice(pick(3));
      set(line, "--backend", rlab::name(line.expected.params.backend));
    }
    if (chance(50)) {
      const char* formats[] = {"text", "csv", "json"};
      const size_t f = pick(3);
      line.expected.format = f == 0   ? rlab::cli::Format::Text
                             : f == 1 ? rlab::cli::Format::Csv
                                      : rlab::cli::Format::Json;
      set(line, "--format", formats[f]);
    }
    breaks = {{"--lessons", "barrier"}, {"--lessons", "nope"},    {"--sizes", "0"},
              {"--sizes", "1,,2"},      {"--sizes", "268435457"}, {"--reps", "0"},
              {"--reps", "1001"},       {"--type", "half"},       {"--format", "xml"},
              {"--backend", "tpu"}};
  } else if (line.command == "tour") {
    if (chance(50)) {  // whole seconds, or tenths
      const int tenths = int(pick(6001));
      line.expected.autoSeconds = tenths / 10.0;
      set(line, "--auto",
          std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : ""));
    }
    breaks = {{"--auto", "600.1"}, {"--auto", "x"}, {"--auto", "-1"}, {"--auto", "1."}};
  } else {
    if (chance(50)) {
      line.expected.format = chance(50) ? rlab::cli::Format::Json : rlab::cli::Format::Text;
      set(line, "--format", line.expected.format == rlab::cli::Format::Json ? "json" : "text");
    }
    breaks = {{"--format", "csv"}, {"--format", "xml"}};
  }
  if (chance(50)) {
    const auto& [option, value] = breaks[pick(breaks.size())];
    set(line, option, value);
    line.badOption = option;
  }
  return line;
}

}  // namespace

TEST_CASE(
    "fuzz: a broken option is refused in one line naming it, a valid line gives the Command its "
    "options say") {
  std::mt19937_64 rng(1234);
  int valid = 0, refused = 0;
  for (int k = 0; k < 4000; ++k) {
    const Line line = k % 4 == 3 ? otherLine(rng) : lessonLine(rng);
    const std::vector<std::string> args = words(line, rng);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    CAPTURE(joined);
    CAPTURE(line.badOption);
    if (!line.badOption.empty()) {
      ++refused;
      // Refused by the parser, so main stops before any work (a wrongly accepted race of 80000
      // runs would otherwise run here).
      REQUIRE_THROWS_AS(rlab::cli::parseCommandLine(args), rlab::cli::UsageError);
      std::ostringstream out, err;
      const int code = rlab::cli::main(args, out, err, false);
      CHECK(code == 2);
      CHECK(out.str().empty());
      const std::string message = err.str();
      CHECK(message.rfind("rlab: ", 0) == 0);
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
      CHECK(message.find(line.badOption) != std::string::npos);
      continue;
    }
    ++valid;
    rlab::cli::Command c;
    REQUIRE_NOTHROW(c = rlab::cli::parseCommandLine(args));
    const rlab::cli::Command& e = line.expected;
    CHECK(c.name == e.name);
    CHECK(c.format == e.format);
    if (c.name == "run" || c.name == "race" || c.name == "check") {
      const rlab::Params& p = c.params;
      const rlab::Params& q = e.params;
      CHECK(p.lesson == q.lesson);
      CHECK(p.variant == q.variant);
      CHECK(p.n == q.n);
      CHECK(p.block == q.block);
      CHECK(p.op == q.op);
      CHECK(p.type == q.type);
      CHECK(p.data == q.data);
      CHECK(p.values == q.values);
      CHECK(p.barrier == q.barrier);
      CHECK(p.syncwarp == q.syncwarp);
      CHECK(p.perturb == q.perturb);
      CHECK(p.delayThread == q.delayThread);
      CHECK(p.delayLevel == q.delayLevel);
      CHECK(p.schedule == q.schedule);
      CHECK(p.backend == q.backend);
      CHECK(p.timed == q.timed);
      CHECK(c.runs == e.runs);
      CHECK(c.tool == e.tool);
    } else if (c.name == "bench") {
      CHECK(c.benchLessons == e.benchLessons);
      CHECK(c.benchSizes == e.benchSizes);
      CHECK(c.reps == e.reps);
      CHECK(c.params.type == e.params.type);
      CHECK(c.params.backend == e.params.backend);
    } else if (c.name == "tour") {
      CHECK(c.autoSeconds == doctest::Approx(e.autoSeconds));
    }
  }
  CHECK(valid > 1500);
  CHECK(refused > 1000);
}

TEST_CASE("fuzz: random words are a Command or one line on stderr with exit code 2") {
  const std::vector<std::string> vocabulary = {"run",
                                               "list",
                                               "race",
                                               "tour",
                                               "bench",
                                               "check",
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
                                               "--delay",
                                               "--schedule",
                                               "--backend",
                                               "--format",
                                               "--variant",
                                               "--runs",
                                               "--auto",
                                               "--tool",
                                               "--lessons",
                                               "--sizes",
                                               "--reps",
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
                                               "csv",
                                               "global",
                                               "shared",
                                               "shuffle",
                                               "strided",
                                               "racecheck",
                                               "memcheck",
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
    for (int i = 0; i < count; ++i) args.push_back(vocabulary[rng() % vocabulary.size()]);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    CAPTURE(joined);
    rlab::cli::Command c;
    try {
      c = rlab::cli::parseCommandLine(args);
    } catch (const rlab::cli::UsageError&) {
      ++refused;
      std::ostringstream out, err;
      CHECK(rlab::cli::main(args, out, err, false) == 2);
      CHECK(out.str().empty());
      const std::string message = err.str();
      CHECK(message.rfind("rlab: ", 0) == 0);
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
      continue;
    }
    ++parsed;
    if (c.helpShown) {
      CHECK_FALSE(c.helpText.empty());
      continue;
    }
    // A lesson command's Params pass the core's checks and come back the same from runArguments.
    if (c.name == "run" || c.name == "race" || c.name == "check") {
      CHECK_NOTHROW(rlab::resolve(c.params));
      std::vector<std::string> again = {"run"};
      for (const auto& a : rlab::runArguments(c.params)) again.push_back(a);
      const rlab::Params back = rlab::cli::parseCommandLine(again).params;
      CHECK(back.lesson == c.params.lesson);
      CHECK(back.n == c.params.n);
      CHECK(back.values == c.params.values);
      CHECK(back.barrier == c.params.barrier);
      CHECK(back.schedule == c.params.schedule);
    }
  }
  CHECK(parsed > 100);
  CHECK(refused > 3000);
}
