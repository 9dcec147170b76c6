// The core's sentences (lessons/engine/texts/messages.hpp): every id the sources give Message() has
// an English, a Japanese and a Chinese sentence with the same placeholders, no entry is unused,
// the Japanese and Chinese keep the course's terms and punctuation, and render() fills them in.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "lessons/engine/texts/messages.hpp"
#include "tests/catalogue_checks.hpp"
#include "tests/course_terms.hpp"

using rlab::Language;
using rlab::Message;

namespace {

// A message's placeholders as a set: each language orders them as its grammar wants.
std::vector<std::string> placeholderSet(const std::string& text) {
  auto names = rlab::messagePlaceholders(text);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("messages: every id the sources use has every language, and no more") {
  std::vector<std::string> sourceProblems;
  const std::vector<std::string> folders = {"lessons", "app"},
                                 extensions = {".cpp", ".hpp", ".cu", ".cuh"},
                                 skip = {"messages.hpp"};
  // The ids given to Message() as literals, and every literal that is an id (chosen at run
  // time: cond ? "step.a" : "step.b").
  auto ids = catalogue_checks::keysInSources(folders, extensions, skip, {"Message("}, true,
                                             sourceProblems);
  for (const auto& problem : sourceProblems) FAIL_CHECK(problem);
  CHECK(ids.count("verbatim"));  // the scan found the sources' ids
  const auto& english = rlab::messageCatalogue(Language::En).entries;
  ids.merge(catalogue_checks::literalsAmong(folders, extensions, skip, english));
  // The simulator's launch failures (kernels/sim, below the engine) name their sentences as
  // literals "sim.<what>", which the engine turns into messages: each one needs its entry.
  catalogue_checks::forEachSource(
      {"kernels/sim"}, {".cpp", ".hpp", ".h"}, {},
      [&](const std::filesystem::path& path, const std::string& source) {
        static const std::regex literal(R"re("(sim\.[a-z0-9-]+)")re");
        for (auto it = std::sregex_iterator(source.begin(), source.end(), literal);
             it != std::sregex_iterator(); ++it)
          ids.emplace((*it)[1].str(),
                      catalogue_checks::whereIn(path, source, size_t(it->position())));
      });
  for (Language language : rlab::kLanguages) {
    const std::string file =
        "lessons/engine/texts/messages/" + std::string(rlab::code(language)) + ".txt";
    catalogue_checks::checkCatalogue(
        file, rlab::messageCatalogue(language), ids,
        [&](const std::string& id) {
          const auto found = english.find(id);
          return found == english.end() ? std::string() : found->second;
        },
        placeholderSet);
    if (language == Language::En) continue;
    CAPTURE(file);
    for (const auto& [id, text] : rlab::messageCatalogue(language).entries) {
      // The placeholders' names are code ({rank}, {kernel}), not the sentence's words.
      const std::string words = std::regex_replace(text, std::regex(R"(\{[^{}]*\})"), "{}");
      for (const auto& problem : course_terms::termProblems(language, words)) FAIL_CHECK(problem);
      for (const auto& problem : course_terms::punctuationProblems(text)) FAIL_CHECK(problem);
    }
  }
}

TEST_CASE("messages: a message is rendered with its arguments, in the language asked for") {
  const Message verbatim = rlab::verbatim("error: expected ';' {at} 3");
  for (Language language : rlab::kLanguages)
    CHECK(rlab::render(verbatim, language) == "error: expected ';' {at} 3");  // no placeholder
  CHECK(rlab::render(Message(), Language::Ja).empty());

  // An id no catalogue has: the id and its arguments, nothing lost (the test above fails on it).
  CHECK(rlab::render(Message("no.such-id", {{"n", 8}, {"why", verbatim}}), Language::Zh) ==
        "no.such-id n=8 why=error: expected ';' {at} 3");

  CHECK(rlab::messagePlaceholders("{a} and {b:one|other}, {{not}} {a}") ==
        std::vector<std::string>{"a", "b"});
  CHECK(Message("x", {{"n", 3}}).arg("n") == "3");
  CHECK(Message("x", {{"n", 3}}) == Message("x", {{"n", 3}}));
  CHECK(Message("x", {{"n", 3}}) != Message("x", {{"n", 4}}));
}

TEST_CASE("messages: placeholders, English plurals, sentences and lists") {
  const Message m("x", {{"n", 1},
                        {"who", "thread 4"},
                        {"why", rlab::verbatim("late")},
                        {"list", std::vector<Message>{rlab::verbatim("a"), rlab::verbatim("b")}}});
  CHECK(rlab::fill("{n} {n:thread|threads}: {who}, {why}", m, Language::En) ==
        "1 thread: thread 4, late");
  Message two = m;
  two.args[0] = {"n", 2};
  CHECK(rlab::fill("{n} {n:thread|threads}", two, Language::En) == "2 threads");
  CHECK(rlab::fill("{list}", m, Language::En) == "a, b");
  CHECK(rlab::fill("{list}", m, Language::Ja) == "a、b");
  CHECK(rlab::fill("{{n}} {missing} {n", m, Language::En) == "{n} {missing} {n");
  CHECK(rlab::fill("failed:{list:lines}", m, Language::Ja) == "failed:\na\nb");
}

TEST_CASE("messages: one line each way, for the exercise runner's reports") {
  const Message m(
      "x.y",
      {{"text", "a \"quoted\" \\ tab\there\nand a line"},
       {"n", 3},
       {"list", std::vector<Message>{Message("a.b", {{"k", "v,(x)"}}), rlab::verbatim("plain")}},
       {"empty", ""}});
  const std::string line = rlab::encodeMessage(m);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find('\t') == std::string::npos);
  CHECK(rlab::decodeMessage(line) == m);
  CHECK(rlab::decodeMessage(rlab::encodeMessage(Message("lone"))) == Message("lone"));
  // Not a message: the text itself, as it is.
  for (const char* text : {"the kernel crashed (signal 11)", "x.y(name=\"open", "", "a(b)c"})
    CHECK(rlab::decodeMessage(text) == rlab::verbatim(text));
}
