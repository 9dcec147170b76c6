// A teacher's own chapter: one Markdown file in the lesson format, checked as the course's
// chapters are (rlab lesson --check, reduction-lab --chapter): a broken try link or a narration
// that does not match its run is refused with its line and the reason.
#include <doctest/doctest.h>

#include <fstream>

#include "lessons/engine/texts/chapter_check.hpp"
#include "tests/cli_driver.hpp"
#include "tests/temp_folder.hpp"

namespace {

// A 50-minute class on the barrier: try links, a narration, a prediction, a folded answer.
const char* const kClass = R"(# Class 3: the missing barrier

Start with [eight values, thread 4 late](try:lesson=barrier&n=8&barrier=off&schedule=stall:4:2:1),
then put the barrier back: [the same run, barrier on](try:lesson=barrier&n=8&schedule=stall:4:2:1).

<!-- steps: lesson=barrier&n=8&barrier=off&schedule=stall:4:2:1 -->
- the input, 1 to 8
- level 1: four threads add pairs
- level 2: thread 4 is late
- level 3: thread 0 reads 11 too early

<!-- predict: result lesson=barrier&n=8&barrier=off&schedule=stall:4:2:1 -->
What sum does thread 0 end with?

<details><summary>Why 21?</summary>

Thread 0 read a[4] before thread 4 wrote 26 there.

</details>
)";

std::string write(const TempFolder& folder, const std::string& name, const std::string& text) {
  const std::string path = (folder / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("chapter: a teacher's class passes the course's checks and prints") {
  TempFolder folder("chapter");
  const std::string file = write(folder, "class3.md", kClass);
  const auto doc = rlab::readChapterFile(file);
  CHECK(doc.title == "Class 3: the missing barrier");
  CHECK(rlab::checkChapter(doc, "class3.md").empty());
  const Outcome checked = rlabWith({"lesson", "--check", file});
  CHECK(checked.code == 0);
  CHECK(checked.err == "");
  CHECK(checked.out == file +
                           ": 2 try links, 1 predictions and 1 narrations: every link and "
                           "prediction runs, and every narration has one item for each step of "
                           "its run.\n");
  const Outcome printed = rlabWith({"lesson", file});
  CHECK(printed.code == 0);
  CHECK(printed.out.find("rlab run barrier --n 8 --no-barrier --schedule stall:4:2:1") !=
        std::string::npos);
}

TEST_CASE("chapter: a broken try link is refused with its line and the reason") {
  TempFolder folder("chapter");
  // Line 4's link asks for n = 0.
  const std::string file =
      write(folder, "broken.md",
            replaced(kClass, "[the same run, barrier on](try:lesson=barrier&n=8&",
                     "[the same run, barrier on](try:lesson=barrier&n=0&"));
  const auto problems = rlab::checkChapter(rlab::readChapterFile(file), "broken.md");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].line == 4);
  const std::string why = rlab::english(problems[0].reason);
  CHECK(why.find("the try link [the same run, barrier on]") == 0);
  CHECK(why.find("n") != std::string::npos);
  // In the reader's language, the refusal of n too.
  const std::string japanese = rlab::render(problems[0].reason, rlab::Language::Ja);
  CHECK(japanese.find("try リンク [the same run, barrier on]") == 0);
  for (const rlab::MessageArg& arg : problems[0].reason.args)
    if (arg.name == "why") {
      REQUIRE(arg.sentences.size() == 1);
      const std::string refusal = rlab::render(arg.sentences[0], rlab::Language::Ja);
      CHECK(refusal != rlab::english(arg.sentences[0]));
      CHECK(japanese.find(refusal) != std::string::npos);
    }
  const Outcome refused = rlabWith({"lesson", file});
  CHECK(refused.code == 1);
  CHECK(refused.out == "");
  CHECK(refused.err.rfind(file +
                              ":4: the try link [the same run, barrier on](try:lesson=barrier&n=0&"
                              "schedule=stall:4:2:1) cannot run: ",
                          0) == 0);
  CHECK(refused.err.find("rlab: " + file + ": 1 problem; the chapter is refused") !=
        std::string::npos);
}

TEST_CASE("chapter: a link that names no lesson, a short narration and a bad prediction") {
  TempFolder folder("chapter");
  std::string text = replaced(kClass, "try:lesson=barrier&n=8&barrier=off", "try:n=8&barrier=off");
  text = replaced(text, "- level 3: thread 0 reads 11 too early\n", "");
  text =
      replaced(text, "predict: result lesson=barrier&n=8", "predict: result lesson=barrier&n=-3");
  const auto problems =
      rlab::checkChapter(rlab::readChapterFile(write(folder, "c.md", text)), "c.md");
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].line == 3);
  CHECK(rlab::english(problems[0].reason).find("must name its lesson") != std::string::npos);
  CHECK(problems[1].line == 6);
  CHECK(rlab::english(problems[1].reason) ==
        "the narration of rlab run barrier --n 8 --no-barrier --schedule stall:4:2:1 has 3 "
        "items, but that run has 4 steps (step 0 is the input): one item a step.");
  CHECK(problems[2].line == 11);
  CHECK(rlab::english(problems[2].reason).find("the prediction's run") == 0);
}

TEST_CASE("chapter: files that are no chapter are refused in one sentence") {
  TempFolder folder("chapter");
  CHECK_THROWS_WITH_AS(
      rlab::readChapterFile((folder / "none.md").string()),
      ((folder / "none.md").string() + " cannot be read; give a Markdown file (a chapter).")
          .c_str(),
      rlab::ParamError);
  const std::string empty = write(folder, "empty.md", "\n  \n");
  CHECK_THROWS_WITH_AS(rlab::readChapterFile(empty),
                       (empty + " is empty; a chapter starts with '# ' and its title.").c_str(),
                       rlab::ParamError);
  const std::string latin1 = write(folder, "latin1.md", "# Title\n\ncaf\xe9\n");
  CHECK_THROWS_WITH_AS(rlab::readChapterFile(latin1),
                       (latin1 + ":3: this line is not UTF-8; save the chapter as UTF-8.").c_str(),
                       rlab::ParamError);
  const Outcome missing = rlabWith({"lesson", "--check", (folder / "none.md").string()});
  CHECK(missing.code == 2);
  const auto untitled = rlab::checkChapter(rlab::text::parse("no title\n"), "x.md");
  REQUIRE(untitled.size() == 1);
  CHECK(untitled[0].line == 1);
  const auto badMarker =
      rlab::checkChapter(rlab::text::parse("# T\n\n<!-- steps: n=8 -->\n\ntext\n"), "x.md");
  REQUIRE(badMarker.size() == 1);  // the marker has no list after it
  CHECK(badMarker[0].line == 3);
}

TEST_CASE("chapter: the course's own chapters pass rlab lesson --check in every language") {
  const Outcome barrier = rlabWith({"lesson", "--check", "barrier"});
  CHECK(barrier.code == 0);
  CHECK(barrier.out.find("lessons/barrier/ja.md: ") != std::string::npos);
  CHECK(rlabWith({"lesson", "nonsense"}).code == 2);
}

TEST_CASE("chapter: the example class the package ships passes its check") {
  const std::string file =
      std::string(RLAB_SOURCE_DIR) + "/assets/manual/examples/barrier-class.md";
  const auto doc = rlab::readChapterFile(file);
  for (const auto& problem : rlab::checkChapter(doc, "barrier-class.md"))
    FAIL_CHECK(rlab::problemLine(file, problem));
  CHECK(rlab::text::tryLinks(doc).size() == 3);
}
