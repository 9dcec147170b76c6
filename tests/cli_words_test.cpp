// rlab's words to a student: the chapters listed, paged, fitted and with their answers folded,
// the command line's refusals in the chosen language and in the terms of what was asked for.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "tests/cli_driver.hpp"

namespace {

std::string sourceFile(const std::string& relative) {
  return std::string(RLAB_SOURCE_DIR) + "/" + relative;
}

}  // namespace

TEST_CASE("rlab lesson keeps a prediction's answer folded under its question, --answers opens it") {
  const auto* doc = rlab::text::chapter("barrier", rlab::Language::En);
  REQUIRE(doc);
  // The first folded answer of the chapter: its summary and its first sentence.
  std::string summary, answer;
  for (const rlab::text::Block& b : doc->blocks)
    if (b.kind == rlab::text::Block::Kind::Details && !b.children.empty()) {
      summary = rlab::text::plain(b.spans);
      answer = rlab::text::plain(b.children.front().spans).substr(0, 30);
      break;
    }
  REQUIRE_FALSE(answer.empty());
  const Outcome folded = rlabWith({"lesson", "barrier", "--lang", "en"});
  CHECK(folded.out.find("? " + summary) != std::string::npos);
  CHECK(folded.out.find("with --answers shows it here") != std::string::npos);
  CHECK(folded.out.find(answer) == std::string::npos);
  const Outcome open = rlabWith({"lesson", "barrier", "--lang", "en", "--answers"});
  const size_t question = open.out.find("> " + summary);
  REQUIRE(question != std::string::npos);
  const size_t at = open.out.find(answer.substr(0, 12));
  CHECK(at > question);  // right under its question, not in a list at the end
  CHECK(open.out.find("Answers\n") == std::string::npos);
}

TEST_CASE("the command line's refusals are in the chosen language and blame what was wrong") {
  auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  auto err = [](std::vector<std::string> args) {
    const Outcome o = rlabWith(std::move(args));
    CHECK(o.code == 2);
    return o.err;
  };
  CHECK(has(err({"run", "barrier", "--n", "--lang", "ja"}), "--n には値が必要です"));
  CHECK(has(err({"run", "barrier", "--n", "--lang", "en"}), "--n needs a value"));
  CHECK(has(err({"run", "barrier", "--n"}), "--n needs a value"));
  CHECK(
      has(err({"run", "barrier", "--bogus", "--lang", "ja"}), "ここでは使えない引数です：--bogus"));
  CHECK(has(err({"run", "--lang", "zh"}), "需要 lesson"));
  CHECK(has(err({"--lang", "zh"}), "rlab 后面需要一个命令：list, run, race"));
  CHECK(has(err({"exercise", "--lang", "ja"}), "rlab exercise の後にコマンドが必要です：list, "));
  CHECK(has(err({"check", "barrier", "--tool", "racecheck", "--backend", "sim"}),
            "rlab check runs on the GPU only"));
  CHECK(has(err({"profile", "barrier", "--backend", "auto", "--lang", "zh"}),
            "rlab profile 只在 GPU 上运行"));
  for (const char* language : {"ja", "zh"})
    for (const char* english :
         {"The following argument", "is required", "A subcommand", "required TEXT missing"})
      CHECK_FALSE(has(err({"run", "barrier", "--n", "--x", "--lang", language}), english));
}

TEST_CASE("a command's --help starts its usage line with rlab and the command") {
  auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  const Outcome profile = rlabWith({"profile", "--help"});
  CHECK(profile.code == 0);
  CHECK(has(profile.out, "Usage: rlab profile [OPTIONS]"));
  const Outcome check = rlabWith({"exercise", "check", "--help"});
  CHECK(has(check.out, "Usage: rlab exercise check"));
}

TEST_CASE("rlab lesson pages a chapter at a terminal with a pager, and --no-pager prints it") {
  std::string paged;
  rlab::cli::Terminal terminal;
  terminal.pager = [&paged](const std::string& text) {
    paged = text;
    return true;
  };
  std::ostringstream out, err;
  CHECK(rlab::cli::main({"lesson", "barrier", "--lang", "en"}, out, err, terminal) == 0);
  CHECK(out.str().empty());
  CHECK(paged.find("rlab run barrier --n 8 --no-barrier") != std::string::npos);
  const std::string whole = paged;
  paged.clear();
  CHECK(rlab::cli::main({"lesson", "barrier", "--lang", "en", "--no-pager"}, out, err, terminal) ==
        0);
  CHECK(paged.empty());
  CHECK(out.str() == whole);
  // A pager that could not start: the chapter is printed all the same.
  terminal.pager = [](const std::string&) { return false; };
  std::ostringstream again;
  CHECK(rlab::cli::main({"lesson", "barrier", "--lang", "en"}, again, err, terminal) == 0);
  CHECK(again.str() == whole);
}

TEST_CASE("rlab lesson without a chapter lists the chapters, in order, each with its title") {
  for (const char* lang : {"en", "ja", "zh"}) {
    CAPTURE(lang);
    const Outcome o = rlabWith({"lesson", "--lang", lang});
    CHECK(o.code == 0);
    size_t at = 0;
    for (const std::string& id : rlab::chapterIds()) {
      const auto* doc = rlab::text::chapter(id, rlab::parseLanguage(lang));
      REQUIRE(doc);
      const size_t line = o.out.find("  " + id + " — " + doc->title + "\n");
      CHECK_MESSAGE(line != std::string::npos, id);
      CHECK(line >= at);  // basics first, then the lessons in the course's order
      at = line == std::string::npos ? at : line;
    }
    CHECK(o.out.find("rlab lesson ID") != std::string::npos);
  }
}

TEST_CASE("rlab exercise run: a block the exercise does not run is refused in its own terms") {
  const Outcome o = rlabWith(
      {"exercise", "run", "fix-the-last-warp",
       sourceFile("lessons/lastwarp/exercises/fix-the-last-warp/solution.cu"), "--block", "32"});
  CHECK(o.code == 2);
  CHECK(o.err ==
        "rlab: --block 32 is too small for exercise fix-the-last-warp: its kernel is run with "
        "blocks of 64 to 1024 threads, a power of two.\n");
}

TEST_CASE(
    "rlab exercise solution takes --lang: the code as it is, its comments said to be English") {
  const Outcome english = rlabWith({"exercise", "solution", "one-queue", "--lang", "en"});
  REQUIRE(english.code == 0);
  CHECK(english.out.rfind("// Exercise one-queue:", 0) == 0);
  for (const auto& [language, heading] : std::vector<std::pair<std::string, std::string>>{
           {"ja", "// 演習 one-queue の解答例です。コード中のコメントは英語のままです。\n"},
           {"zh", "// 练习 one-queue 的参考答案；代码中的注释是英文。\n"}}) {
    CAPTURE(language);
    const Outcome o = rlabWith({"exercise", "solution", "one-queue", "--lang", language});
    REQUIRE(o.code == 0);
    CHECK(o.out == heading + english.out);  // still a file that compiles
  }
}

TEST_CASE("rlab exercise run --timeline: each thread's loads and stores, in the terminal's width") {
  const std::string file = sourceFile("tests/fixtures/exercises/race_lockstep_hides.cu");
  // Right in the simulator's order, with a race: warp 1 writes s[32] at the first level, warp 0
  // reads it at the second, and only a __syncwarp stands between them.
  const Outcome o = rlabWith({"exercise", "run", "tree-in-shared", file, "--n", "128", "--block",
                              "128", "--timeline", "--lang", "en"});
  CHECK(o.code == 0);
  CHECK(o.out.find("── before the first barrier ──") != std::string::npos);
  CHECK(o.out.find("── after barrier 1 ──") != std::string::npos);
  CHECK(o.out.find("  thread 0    #1 read in[0] = 1 (race_lockstep_hides.cu:8)") !=
        std::string::npos);
  CHECK(o.out.find("\n! The first race: thread 32, #") != std::string::npos);
  CHECK(o.out.find("!#") != std::string::npos);  // the two accesses, marked where they are
  std::istringstream lines(o.out);
  for (std::string line; std::getline(lines, line);) {
    CAPTURE(line);
    if (line.find(file) != std::string::npos) continue;  // a path is printed whole
    CHECK(rlab::cli::visibleColumns(line) <= 80);        // the width a pipe is given
  }
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--n", "5000"}, "--timeline records runs of up to 4096 elements; --n is 5000."}}) {
    std::vector<std::string> command = {"exercise", "run", "tree-in-shared", file, "--timeline"};
    command.insert(command.end(), args.begin(), args.end());
    const Outcome refused = rlabWith(command);
    CHECK(refused.code == 2);
    CHECK(refused.err.find(says) != std::string::npos);
  }
  const Outcome json = rlabWith({"exercise", "run", "tree-in-shared", file, "--n", "8", "--block",
                                 "8", "--timeline", "--format", "json"});
  CHECK(json.out.find("\"timeline\":{\"accesses\":[{\"after_barriers\":0,\"array\":\"in\"") !=
        std::string::npos);
}
