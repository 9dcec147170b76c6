// The course texts: the format is read as assets/manual/texts.md describes it, every chapter in
// every language is complete and runs what it says, and the Japanese and Chinese texts keep one
// word for one thing and their own punctuation.
#include <doctest/doctest.h>

#include <cstdlib>
#include <functional>
#include <regex>

#include "lessons/engine/texts/chapter_check.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/texts/texts.hpp"
#include "tests/course_terms.hpp"

using rlab::Language;
using rlab::text::Block;
using Kind = rlab::text::Block::Kind;

namespace {

const char* const kSample = R"(# Folding

Fold the **strip** in half: `a[i] += a[i + remain]`, [try it](try:values=7,9,11,13,5).

<!-- steps: values=7,9,11,13,5 -->
- the input
- *two* threads add
- one thread adds

<!-- predict: result n=8&barrier=off&schedule=stall:4:2:1&lesson=barrier -->
What does thread 0 end with?

<details><summary>Why?</summary>

Thread 4 was **late**.

</details>

| GPU | ms |
|---|---|
| H100 | 0.34 |

<details><summary>A question</summary>

- an answer in a list

</details>
)";

void forEachBlock(const std::vector<Block>& blocks, const std::function<void(const Block&)>& f) {
  for (const Block& b : blocks) {
    f(b);
    forEachBlock(b.children, f);
  }
}

}  // namespace

TEST_CASE("texts: the format's conventions are read into blocks") {
  const auto doc = rlab::text::parse(kSample);
  CHECK(doc.problems.empty());
  CHECK(doc.title == "Folding");
  REQUIRE(doc.blocks.size() == 5);
  const Block& p = doc.blocks[0];
  CHECK(p.kind == Kind::Paragraph);
  CHECK(rlab::text::plain(p.spans) == "Fold the strip in half: a[i] += a[i + remain], try it.");
  const auto links = rlab::text::tryLinks(doc);
  REQUIRE(links.size() == 1);
  CHECK(links[0].label == "try it");
  CHECK(links[0].query == "values=7,9,11,13,5");
  const Block& steps = doc.blocks[1];
  CHECK(steps.kind == Kind::Steps);
  REQUIRE(steps.items.size() == 3);
  CHECK(rlab::text::plain(steps.items[1]) == "two threads add");
  const Block& predict = doc.blocks[2];
  CHECK(predict.kind == Kind::Predict);
  CHECK(predict.predictKind == "result");
  CHECK(rlab::text::plain(predict.spans) == "What does thread 0 end with?");
  REQUIRE(predict.children.size() == 1);
  CHECK(predict.children[0].kind == Kind::Details);
  CHECK(doc.blocks[3].kind == Kind::Table);
  CHECK(rlab::text::plain(doc.blocks[3].rows.at(1).at(1)) == "0.34");
  CHECK(doc.blocks[4].kind == Kind::Details);
  CHECK(rlab::text::plain(doc.blocks[4].spans) == "A question");
  CHECK(doc.blocks[4].children.at(0).kind == Kind::List);
  // The seed's five values fold to 45 in three steps: input and two launches... as run.
  const auto params = rlab::paramsFromQuery("folding", steps.query);
  CHECK(params.values.size() == 5);
  CHECK(rlab::commandLineFor("barrier", "n=8&barrier=off&schedule=stall:4:2:1") ==
        "rlab run barrier --n 8 --no-barrier --schedule stall:4:2:1");
}

TEST_CASE("texts: a broken marker or a bad try link is named") {
  CHECK(rlab::text::parse("<!-- steps: n=8 -->\n\nno list\n").problems.size() == 1);
  CHECK(rlab::text::parse("<!-- predict: guess n=8 -->\nWhat?\n").problems.size() == 1);
  CHECK(rlab::text::parse("<details><summary>Q</summary>\n\nA\n").problems.size() == 1);
  CHECK(rlab::text::parse("<div>raw</div>\n").problems.size() == 1);
  CHECK_THROWS_AS(rlab::paramsFromQuery("barrier", "n=0"), rlab::ParamError);
  CHECK_THROWS_AS(rlab::paramsFromQuery("barrier", "colour=red"), rlab::ParamError);
  CHECK_THROWS_AS(rlab::paramsFromQuery("barrier", "schedule=sideways"), rlab::ParamError);
  CHECK_THROWS_AS(rlab::paramsFromQuery("basics", "n=8"), rlab::ParamError);  // names no lesson
  CHECK_THROWS_AS(rlab::parseLanguage("fr"), rlab::ParamError);
}

TEST_CASE("texts: the language comes from the locale") {
  const char* saved = std::getenv("LC_ALL");
  const std::string restore = saved ? saved : "";
  setenv("LC_ALL", "ja_JP.UTF-8", 1);
  CHECK(rlab::languageFromEnvironment() == Language::Ja);
  setenv("LC_ALL", "zh_CN.UTF-8", 1);
  CHECK(rlab::languageFromEnvironment() == Language::Zh);
  setenv("LC_ALL", "de_DE.UTF-8", 1);
  CHECK(rlab::languageFromEnvironment() == Language::En);
  if (saved)
    setenv("LC_ALL", restore.c_str(), 1);
  else
    unsetenv("LC_ALL");
}

TEST_CASE("texts: a narration speaks of its own run only: the same run on other GPUs gets none") {
  for (Language language : rlab::kLanguages) {
    const auto* doc = rlab::text::chapter("allreduce", language);
    REQUIRE(doc);
    int checked = 0;
    forEachBlock(doc->blocks, [&](const Block& b) {
      if (b.kind != Kind::Steps) return;
      rlab::Params run = rlab::paramsFromQuery("allreduce", b.query);
      REQUIRE(rlab::narrationFor(run, true, language) != nullptr);
      const int gpus = rlab::resolve(run).params.gpus;
      run.gpus = gpus == 2 ? 4 : 2;
      CAPTURE(b.query);
      CHECK(rlab::narrationFor(run, true, language) == nullptr);
      ++checked;
    });
    CHECK(checked >= 1);
  }
}

TEST_CASE("texts: every chapter in every language is complete and runs what it says") {
  for (const std::string& id : rlab::chapterIds()) {
    for (Language language : rlab::kLanguages) {
      CAPTURE(id);
      const std::string lang = rlab::code(language);
      CAPTURE(lang);
      const auto* doc = rlab::text::chapter(id, language);
      REQUIRE_MESSAGE(doc, "lessons/" << id << "/" << rlab::code(language) << ".md is missing");
      // The checks a teacher's chapter gets (rlab lesson --check): format, links, runs.
      for (const auto& problem : rlab::checkChapter(*doc, id))
        FAIL_CHECK(rlab::problemLine(id, problem));
      CHECK(!doc->title.empty());
      CHECK(rlab::text::tryLinks(*doc).size() >= 2);
      int narrations = 0, predictions = 0;
      forEachBlock(doc->blocks, [&](const Block& b) {
        if (b.kind == Kind::Steps) {
          ++narrations;
          CAPTURE(b.query);
          const rlab::Params run = rlab::paramsFromQuery(id, b.query);
          if (run.lesson == id) CHECK(rlab::narrationFor(run, true, language) != nullptr);
        }
        if (b.kind == Kind::Predict) ++predictions;
      });
      if (id != "basics") {
        CHECK(narrations >= 1);
        CHECK(predictions >= 1);
      }
    }
  }
}

// ---- One word for one thing, and Japanese and Chinese punctuation as it is typeset ----------
namespace {

// Every piece of prose of a text: title, paragraphs, list items, table cells, summaries, steps
// and questions. Code blocks are left out; inline code too, unless asked for.
void collectProse(const std::vector<Block>& blocks, bool withCode, std::vector<std::string>& out) {
  auto spansOf = [&](const rlab::text::Inline& spans) {
    std::string text;
    for (const auto& span : spans) text += span.code && !withCode ? std::string(" ") : span.text;
    out.push_back(text);
  };
  for (const Block& b : blocks) {
    if (b.kind == Kind::Code) continue;
    spansOf(b.spans);
    for (const auto& row : b.rows)
      for (const auto& cell : row) spansOf(cell);
    for (const auto& item : b.items) spansOf(item);
    collectProse(b.children, withCode, out);
  }
}
std::vector<std::string> prose(const rlab::text::Document& doc, bool withCode) {
  std::vector<std::string> out{doc.title};
  collectProse(doc.blocks, withCode, out);
  return out;
}

// One sentence per forbidden variant a text's prose uses, and per gap after its punctuation.
// A recording link ({{rec:H100:bench/int/butterfly-shuffle/...}}) reaches the reader as a number:
// the words of its path are not the text's.
std::vector<std::string> termProblems(Language language, const rlab::text::Document& doc) {
  static const std::regex recordingLink(R"(\{\{rec:[^}]*\}\})");
  std::vector<std::string> problems;
  for (const std::string& text : prose(doc, false))
    for (std::string& p :
         course_terms::termProblems(language, std::regex_replace(text, recordingLink, "1.00")))
      problems.push_back(p);
  return problems;
}
std::vector<std::string> punctuationProblems(const rlab::text::Document& doc) {
  std::vector<std::string> problems;
  for (const std::string& text : prose(doc, true))
    for (std::string& p : course_terms::punctuationProblems(text)) problems.push_back(p);
  return problems;
}

// The Japanese and Chinese texts: every chapter and every exercise, as their files hold them.
struct CourseText {
  std::string path;
  Language language;
  rlab::text::Document doc;
};
std::vector<CourseText> japaneseAndChineseTexts() {
  std::vector<std::string> folders;
  for (const std::string& id : rlab::chapterIds()) folders.push_back("lessons/" + id);
  for (const rlab::Exercise& e : rlab::exercises()) folders.push_back(e.folder);
  std::vector<CourseText> texts;
  for (const std::string& folder : folders)
    for (Language language : {Language::Ja, Language::Zh}) {
      const std::string path = folder + "/" + rlab::code(language) + ".md";
      const std::string* markdown = rlab::embeddedFile(path);
      REQUIRE_MESSAGE(markdown, path << " is not embedded");
      texts.push_back({path, language, rlab::text::parse(*markdown)});
    }
  return texts;
}

}  // namespace

TEST_CASE("texts: the term and punctuation checks catch what they look for, and only that") {
  const auto bad = rlab::text::parse(
      "# 规约\n\n这个内核用 shuffle 归约、 然后。 再算，`rank` 不算。\n\n| a | b |\n|---|---|\n"
      "| 搭档 | x |\n");
  CHECK(termProblems(Language::Zh, bad).size() == 4);  // 规约, 内核, shuffle, 搭档; not `rank`
  CHECK(punctuationProblems(bad).size() == 2);         // after 、 and 。
  const auto good = rlab::text::parse("# 归约\n\n这个核函数用洗牌归约，然后再算。\n");
  CHECK(termProblems(Language::Zh, good).empty());
  CHECK(termProblems(
            Language::Zh,
            rlab::text::parse("洗牌版 {{rec:H100:bench/int/butterfly-shuffle/1024/ms}} ms。\n"))
            .empty());
  CHECK(punctuationProblems(good).empty());
  CHECK(termProblems(Language::Ja, rlab::text::parse("この講座では\n")).size() == 1);
  CHECK(punctuationProblems(rlab::text::parse("なぜ？　次は？\n")).empty());
}

TEST_CASE("texts: ja and zh keep one word for one thing and their own punctuation") {
  int checked = 0;
  for (const CourseText& t : japaneseAndChineseTexts()) {
    CAPTURE(t.path);
    for (const std::string& problem : termProblems(t.language, t.doc)) FAIL_CHECK(problem);
    for (const std::string& problem : punctuationProblems(t.doc)) FAIL_CHECK(problem);
    ++checked;
  }
  CHECK(checked == 2 * int(rlab::chapterIds().size() + rlab::exercises().size()));
}

TEST_CASE("try links: a switch takes on or off, and off means off") {
  for (const char* key : {"perturb", "printf", "memory"}) {
    CAPTURE(key);
    const std::string k = key;
    const rlab::Params off = rlab::paramsFromQuery("barrier", "n=8&" + k + "=off");
    const rlab::Params on = rlab::paramsFromQuery("barrier", "n=8&" + k + "=on");
    const rlab::Params bare = rlab::paramsFromQuery("barrier", "n=8&" + k);
    auto field = [&](const rlab::Params& p) {
      return k == "perturb" ? p.perturb : k == "printf" ? p.printing : p.memory;
    };
    CHECK_FALSE(field(off));
    CHECK(field(on));
    CHECK(field(bare));
    CHECK(rlab::commandLineFor("barrier", "n=8&" + k + "=off") == "rlab run barrier --n 8");
    CHECK(rlab::commandLineFor("barrier", "n=8&" + k) == "rlab run barrier --n 8 --" + k);
    CHECK_THROWS_WITH_AS(rlab::paramsFromQuery("barrier", "n=8&" + k + "=yes"),
                         (k + "=yes is not allowed; use " + k + "=on or " + k + "=off.").c_str(),
                         rlab::ParamError);
  }
  CHECK(rlab::commandLineFor("barrier", "barrier=off&load-add=off") ==
        "rlab run barrier --no-barrier --no-load-add");
  CHECK_THROWS_WITH_AS(rlab::paramsFromQuery("barrier", "colour=red"),
                       "'colour' is not a key of a try link; use lesson, variant, n, block, op, "
                       "type, data, values, barrier, syncwarp, perturb, printf, memory, delay, "
                       "schedule, gpus, per-thread, load-add, backend, timings.",
                       rlab::ParamError);
}
