// rlab in a terminal: the tour's pace (a person's keys, --auto, output that is no terminal),
// every stop narrated in every language, and every line of the tour and of rlab run within the
// terminal's width.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

#include "app/cli/cli.hpp"
#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace {

using rlab::cli::Terminal;

struct TerminalOutcome {
  int code;
  std::string out, err;
  std::vector<double> waits;  // every pause the tour asked for, in seconds
};

TerminalOutcome rlabAt(const std::vector<std::string>& args, Terminal terminal) {
  TerminalOutcome o;
  terminal.wait = [&o](double seconds) { o.waits.push_back(seconds); };
  std::ostringstream out, err;
  o.code = rlab::cli::main(args, out, err, terminal);
  o.out = out.str();
  o.err = err.str();
  return o;
}

size_t stopCount() {
  size_t stops = 0;
  for (const rlab::LessonInfo& lesson : rlab::lessons()) stops += lesson.tour.size();
  return stops;
}

// The stops the tour showed, in the order it showed them (1-based, from "== 3 of 10: ...").
std::vector<int> stopsShown(const std::string& out) {
  std::vector<int> shown;
  const std::regex heading("\n== ([0-9]+) of [0-9]+: ");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), heading);
       it != std::sregex_iterator(); ++it)
    shown.push_back(std::stoi((*it)[1]));
  return shown;
}

// Columns a line takes, counted apart from the code under test: colour escapes removed, a
// Japanese or Chinese character two columns.
int columnsOf(const std::string& line) {
  static const std::regex escape("\033\\[[0-9;]*m");
  return rlab::text::columns(std::regex_replace(line, escape, ""));
}

// Every line longer than `width`, with its length, for the failure message.
std::string linesWiderThan(const std::string& out, int width) {
  std::istringstream lines(out);
  std::string wide;
  for (std::string line; std::getline(lines, line);)
    if (columnsOf(line) > width) wide += std::to_string(columnsOf(line)) + ": " + line + "\n";
  return wide;
}

}  // namespace

TEST_CASE("rlab tour with output that is no terminal: every stop at once, no prompt, no pause") {
  const TerminalOutcome o = rlabAt({"tour", "--lang", "en"}, Terminal{});
  CHECK(o.code == 0);
  CHECK(o.err.empty());
  std::vector<int> all;
  for (size_t k = 1; k <= stopCount(); ++k) all.push_back(int(k));
  CHECK(stopsShown(o.out) == all);
  CHECK(o.waits.empty());
  CHECK(o.out.find("Enter") == std::string::npos);
  CHECK(o.out.find("That was every lesson.") != std::string::npos);
}

TEST_CASE("rlab tour --auto: pauses between stops, none after the last, --auto 0 none at all") {
  const TerminalOutcome paced = rlabAt({"tour", "--auto", "2.5"}, Terminal{});
  CHECK(paced.code == 0);
  CHECK(paced.waits == std::vector<double>(stopCount() - 1, 2.5));
  // At a terminal too, --auto moves on by itself and leaves the keys alone.
  std::istringstream keys("q\n");
  Terminal person;
  person.keys = &keys;
  const TerminalOutcome unattended = rlabAt({"tour", "--auto", "0"}, person);
  CHECK(unattended.code == 0);
  CHECK(unattended.waits.empty());
  CHECK(stopsShown(unattended.out).size() == stopCount());
  CHECK(unattended.out.find("Enter") == std::string::npos);
  std::string unread;
  std::getline(keys, unread);
  CHECK(unread == "q");
}

TEST_CASE("rlab tour at a terminal waits for Enter, b goes back, a number jumps, q quits") {
  std::istringstream keys("\nb\n\nsideways\n4\nq\n");
  Terminal person;
  person.keys = &keys;
  const TerminalOutcome o = rlabAt({"tour"}, person);
  CHECK(o.code == 0);
  CHECK(o.err.empty());
  CHECK(stopsShown(o.out) == std::vector<int>{1, 2, 1, 2, 4});
  CHECK(o.waits.empty());
  const std::string total = std::to_string(stopCount());
  CHECK(o.out.find("\n-- 1 of " + total + " -- Enter: next, b: back, q: quit > ") !=
        std::string::npos);
  CHECK(o.out.find("Press Enter for the next stop, b to go back, q to quit") != std::string::npos);
  CHECK(o.out.find("That was every lesson.") == std::string::npos);  // quit before the end

  std::istringstream none("");  // the end of the input (Ctrl-D) quits at once
  person.keys = &none;
  CHECK(stopsShown(rlabAt({"tour"}, person).out) == std::vector<int>{1});

  std::istringstream through("\n" + std::string(stopCount() - 1, '\n'));
  person.keys = &through;
  const TerminalOutcome finished = rlabAt({"tour"}, person);
  CHECK(stopsShown(finished.out).size() == stopCount());
  CHECK(finished.out.find("Enter: finish") != std::string::npos);
  CHECK(finished.out.find("That was every lesson.") != std::string::npos);
}

TEST_CASE("every tour stop is a run its chapter narrates step by step, in en, ja and zh") {
  for (const rlab::LessonInfo& lesson : rlab::lessons())
    for (const rlab::TourStop& stop : lesson.tour) {
      const rlab::Params run = rlab::tourStopParams(lesson, stop);
      CAPTURE(lesson.id);
      CAPTURE(stop.why);
      CHECK(run.backend == rlab::BackendChoice::Sim);  // the schedule the narration follows
      const rlab::Trace t = rlab::runLesson(run);
      for (rlab::Language language : rlab::kLanguages) {
        CAPTURE(rlab::code(language));
        const rlab::text::Block* narration = rlab::narrationFor(run, true, language);
        REQUIRE(narration != nullptr);
        CHECK(narration->items.size() == t.steps.size());
      }
    }
  // In the tour's output: a sentence under every stop, in each language.
  for (const char* language : {"en", "ja", "zh"}) {
    CAPTURE(language);
    const std::string out = rlabAt({"tour", "--lang", language}, Terminal{}).out;
    size_t narrated = 0;
    for (size_t at = out.find("\n== "); at != std::string::npos;) {
      const size_t next = out.find("\n== ", at + 1);
      narrated += out.substr(at, next - at).find("\n        > ") != std::string::npos;
      at = next;
    }
    CHECK(narrated == stopCount());
  }
}

TEST_CASE("rlab tour and rlab run fit the terminal: no line wider than 60 or 80 columns") {
  const std::vector<std::vector<std::string>> runs = {
      {"tour", "--lang", "en"},
      {"tour", "--lang", "ja"},
      {"tour", "--lang", "zh"},
      {"run", "barrier", "--no-barrier", "--schedule", "stall:4:2:1", "--timeline"},
      {"run", "barrier", "--n", "64", "--no-barrier", "--perturb", "--timeline"},
      {"run", "barrier", "--n", "16", "--printf", "--no-barrier"},
      {"run", "folding", "--n", "40", "--memory", "--launches"},
      {"run", "divergence", "--n", "256"},
      {"run", "shared", "--variant", "coarsened", "--n", "1000"},
      {"run", "fastest", "--n", "100000", "--type", "float", "--data", "random:3"},
      {"run", "butterfly", "--variant", "shuffle", "--n", "100"},
      {"run", "atomic", "--n", "64", "--schedule", "random:2"},
      {"run", "folding", "--op", "subtract", "--values", "8,1,6,3,5,2,7,4"},
      {"run", "allreduce", "--gpus", "8", "--n", "1000"},
      {"run", "allreduce", "--variant", "ring", "--gpus", "8", "--n", "8"},
      {"run", "allreduce", "--variant", "butterfly", "--gpus", "4", "--n", "8", "--lang", "ja"},
      {"race", "barrier", "--no-barrier", "--n", "64", "--runs", "20"},
      {"race", "barrier", "--no-barrier", "--n", "16", "--runs", "20", "--witness"},
      {"race", "lastwarp", "--runs", "20", "--witness", "--lang", "ja"},
      {"lesson"},
      {"lesson", "--lang", "ja"},
      {"exercise", "list"},
      {"exercise", "list", "--lang", "zh"},
      {"exercise", "hint", "tree-in-shared", "3"},
      {"list"},
      {"bench", "--lessons", "divergence,fastest", "--sizes", "1024", "--backend", "sim"},
  };
  for (int width : {60, 80})
    for (bool colour : {false, true})
      for (const auto& args : runs) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        CAPTURE(joined);
        CAPTURE(width);
        CAPTURE(colour);
        Terminal terminal;
        terminal.colour = colour;
        terminal.width = width;
        const TerminalOutcome o = rlabAt(args, terminal);
        REQUIRE(o.code == 0);
        CHECK(linesWiderThan(o.out, width) == "");
      }
}

namespace {

// Every line of the chapter's code blocks, without its indentation.
void codeLines(const std::vector<rlab::text::Block>& blocks, std::set<std::string>& lines) {
  for (const rlab::text::Block& b : blocks) {
    std::istringstream code(b.code);
    for (std::string line; std::getline(code, line);)
      lines.insert(line.substr(std::min(line.find_first_not_of(' '), line.size())));
    codeLines(b.children, lines);
  }
}

}  // namespace

TEST_CASE("rlab lesson fits 80 columns in every chapter and language: prose and tables, not code") {
  for (const std::string& chapter : rlab::chapterIds())
    for (rlab::Language language : rlab::kLanguages) {
      CAPTURE(chapter);
      CAPTURE(std::string(rlab::code(language)));
      const rlab::text::Document* doc = rlab::text::chapter(chapter, language);
      REQUIRE(doc);
      std::set<std::string> code;
      codeLines(doc->blocks, code);
      Terminal terminal;
      terminal.width = 80;
      const TerminalOutcome o =
          rlabAt({"lesson", chapter, "--lang", std::string(rlab::code(language))}, terminal);
      REQUIRE(o.code == 0);
      std::istringstream lines(o.out);
      std::string wide;
      for (std::string line; std::getline(lines, line);)
        if (columnsOf(line) > 80 &&
            !code.count(line.substr(std::min(line.find_first_not_of(' '), line.size()))))
          wide += std::to_string(columnsOf(line)) + ": " + line + "\n";
      CHECK(wide == "");
    }
}

TEST_CASE(
    "rlab run: one line a step where the terminal is wide, the array under the label where "
    "it is not, long arrays show both ends") {
  Terminal wide;
  wide.width = 120;
  const TerminalOutcome one = rlabAt({"run", "barrier"}, wide);
  CHECK(one.out.find("   1  level 1: a[tid] += a[tid + 1] where tid % 2 == 0    3  2  7  4 11  6 "
                     "15  8   4 threads\n") != std::string::npos);
  Terminal narrow;
  narrow.width = 60;
  const TerminalOutcome two = rlabAt({"run", "barrier"}, narrow);
  CHECK(two.out.find("   1  level 1: a[tid] += a[tid + 1] where tid % 2 == 0\n"
                     "       3  2  7  4 11  6 15  8   4 threads\n") != std::string::npos);
  // 1000 values in 60 columns: the first ones, an ellipsis, the last ones and the count.
  const TerminalOutcome many = rlabAt({"run", "shared", "--variant", "multiblock"}, narrow);
  CHECK(many.out.find("   0  input\n"
                      "          1     2     3     4     5  …  1000  (1000 values)\n") !=
        std::string::npos);
  // A ring of 8 GPUs with 1000 elements each: every chunk shows its first values, two where the
  // chunks take two lines.
  const TerminalOutcome ranks =
      rlabAt({"run", "allreduce", "--variant", "ring", "--gpus", "8", "--n", "1000"}, wide);
  const size_t input = ranks.out.find("      GPU 0 ");
  REQUIRE(input != std::string::npos);
  const std::string gpu0 = ranks.out.substr(input, ranks.out.find("      GPU 1 ") - input);
  for (const char* chunk :
       {"|     1     2 … [0]", "|   126   127 … [0]", "|   251   252 … [0]", "|   376   377 … [0]",
        "|   501   502 … [0]", "|   626   627 … [0]", "|   751   752 … [0]", "|   876   877 … [0]"})
    CHECK(gpu0.find(chunk) != std::string::npos);
}

TEST_CASE("terminal width: COLUMNS, else the terminal's own, else 80, never under 40") {
  using rlab::cli::widthFrom;
  CHECK(widthFrom("100", 132) == 100);
  CHECK(widthFrom(nullptr, 132) == 132);
  CHECK(widthFrom("", 132) == 132);
  CHECK(widthFrom("wide", 0) == 80);
  CHECK(widthFrom(nullptr, 0) == 80);
  CHECK(widthFrom("20", 0) == 40);
  CHECK(widthFrom("0", 90) == 90);
  CHECK(widthFrom("99999999", 90) == 90);
}

TEST_CASE("wrapping: words kept whole where they fit, cut where a word is wider than a line") {
  std::ostringstream out;
  rlab::cli::printWrapped("alpha  beta gamma " + std::string(50, 'x') + " 終わりです。", "> ", "  ",
                          20, out);
  CHECK(out.str() ==
        "> alpha  beta gamma\n"
        "  xxxxxxxxxxxxxxxxxx\n"
        "  xxxxxxxxxxxxxxxxxx\n"
        "  xxxxxxxxxxxxxx 終\n"
        "  わりです。\n");
  CHECK(rlab::cli::elided("abcdefghij", 5) == "abcd…");
  CHECK(rlab::cli::elided("abc", 5) == "abc");
  CHECK(rlab::cli::visibleColumns("\033[1;31mWRONG\033[0m 終") == 8);
}

TEST_CASE("tables too wide for the terminal come in bands, the row names in each") {
  rlab::cli::Table table;
  table.header = {"", "level 1", "level 2", "level 3"};
  table.rows = {{"thread 0", std::string(20, 'a'), std::string(20, 'b'), std::string(20, 'c')},
                {"thread 4", std::string(20, 'd'), "", ""}};
  std::ostringstream out;
  rlab::cli::printTable(table, "  ", 60, out);
  CHECK(out.str() ==
        "            level 1               level 2\n"
        "  thread 0  aaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbbbbbbb\n"
        "  thread 4  dddddddddddddddddddd\n"
        "\n"
        "            level 3\n"
        "  thread 0  cccccccccccccccccccc\n"
        "  thread 4\n");
}

TEST_CASE("rlab profile's view fits 80 columns: every recorded profile, in every language") {
  // rlab profile needs a GPU and Nsight Compute; the recordings hold real profiles of both.
  int shown = 0;
  for (const rlab::Recording& r : rlab::recordings())
    for (const rlab::Params& p : rlab::recordedProfileRuns()) {
      rlab::ProfileReport report;
      bool exact = false;
      if (!rlab::recordedProfile(r, p, report, exact) || !exact) continue;
      for (rlab::Language language : rlab::kLanguages) {
        std::ostringstream out;
        rlab::cli::printProfileText(report, language, out, 80);
        CAPTURE(out.str());
        CHECK(linesWiderThan(out.str(), 80) == "");
      }
      ++shown;
    }
  CHECK(shown > 0);
}
