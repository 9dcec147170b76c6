// One idea, one term: each language's glossary (assets/glossary/ja.txt, zh.txt; the format is at
// the top of each file) lists the word the course uses for an idea and the words it avoids for
// it. Every chapter, exercise text and core sentence in that language is searched, prose only,
// and each avoided word found fails with its file, line and (for a sentence) its id.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/texts/messages.hpp"
#include "lessons/engine/texts/texts.hpp"

using rlab::Language;

namespace {

struct Entry {
  int line = 0;  // in the glossary file
  std::string preferred, meaning;
  std::vector<std::string> avoided, allowed;
};

struct Glossary {
  std::string file;  // relative to the source tree, as messages name it
  std::vector<Entry> entries;
  std::vector<std::string> problems;  // lines the format does not take
};

std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const size_t last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

// "a | b | \": \"": the words, trimmed, a quoted one as written between its quotes.
std::vector<std::string> words(const std::string& list) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= list.size()) {
    size_t end = list.find(" | ", at);
    if (end == std::string::npos) end = list.size();
    std::string word = trimmed(list.substr(at, end - at));
    if (word.size() >= 2 && word.front() == '"' && word.back() == '"')
      word = word.substr(1, word.size() - 2);
    if (!word.empty()) out.push_back(word);
    at = end + 3;
  }
  return out;
}

Glossary parseGlossary(const std::string& file, const std::string& text) {
  Glossary g{file, {}, {}};
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    Entry e;
    e.line = number;
    const size_t comment = line.find("  # ");
    if (comment != std::string::npos) {
      e.meaning = trimmed(line.substr(comment + 4));
      line = line.substr(0, comment);
    }
    const size_t arrow = line.find(" => ");
    if (arrow == std::string::npos) {
      g.problems.push_back(file + ":" + std::to_string(number) + ": no \" => \" in the entry");
      continue;
    }
    e.preferred = trimmed(line.substr(0, arrow));
    if (e.preferred.size() >= 2 && e.preferred.front() == '"' && e.preferred.back() == '"')
      e.preferred = e.preferred.substr(1, e.preferred.size() - 2);
    std::string rest = line.substr(arrow + 4);
    const size_t bang = rest.find("  ! ");
    if (bang != std::string::npos) {
      e.allowed = words(rest.substr(bang + 4));
      rest = rest.substr(0, bang);
    }
    e.avoided = words(rest);
    const std::string where = file + ":" + std::to_string(number) + ": ";
    if (e.preferred.empty()) g.problems.push_back(where + "no preferred word");
    if (e.avoided.empty()) g.problems.push_back(where + "no avoided word");
    if (e.meaning.empty()) g.problems.push_back(where + "no \"  # \" saying what it means");
    for (const std::string& a : e.avoided)
      if (a == e.preferred) g.problems.push_back(where + a + " is both preferred and avoided");
    g.entries.push_back(e);
  }
  return g;
}

Glossary glossaryOf(Language language) {
  const std::string file = "assets/glossary/" + std::string(rlab::code(language)) + ".txt";
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/" + file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  Glossary g = parseGlossary(file, text.str());
  if (!in && text.str().empty()) g.problems.push_back(file + ": cannot be read");
  return g;
}

bool asciiWord(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Each occurrence of `from` in `text` replaced by a character no word contains.
void blank(std::string& text, const std::string& from) {
  if (from.empty()) return;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
    text.replace(at, from.size(), "\x1f");
}

// Where `word` stands in `text` as a word of its own (an ASCII end must not touch ASCII).
bool uses(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if (asciiWord(word.front()) && at > 0 && asciiWord(text[at - 1])) continue;
    if (asciiWord(word.back()) && end < text.size() && asciiWord(text[end])) continue;
    return true;
  }
  return false;
}

// One sentence per avoided word the prose `text` uses: "<where>: writes X where the glossary
// (file:line) says Y (meaning)".
std::vector<std::string> glossaryProblems(const Glossary& g, const std::string& where,
                                          const std::string& text) {
  std::vector<std::string> problems;
  for (const Entry& e : g.entries) {
    std::string searched = text;
    for (const std::string& ok : e.allowed) blank(searched, ok);
    for (const std::string& avoided : e.avoided)
      if (uses(searched, avoided))
        problems.push_back(where + ": writes \"" + avoided + "\" where " + g.file + ":" +
                           std::to_string(e.line) + " says \"" + e.preferred + "\" (" + e.meaning +
                           "): " + trimmed(text));
  }
  return problems;
}

// `s` with every match of [open, close) (both included) blanked; an unclosed one runs to the end.
std::string without(std::string s, const std::string& open, const std::string& close) {
  for (size_t at = s.find(open); at != std::string::npos; at = s.find(open, at + 1)) {
    const size_t end = s.find(close, at + open.size());
    const size_t stop = end == std::string::npos ? s.size() : end + close.size();
    s.replace(at, stop - at, "\x1f");
  }
  return s;
}

// A Markdown text's prose, line by line (first line 1): fenced code blocks, inline code, link
// targets, HTML comments and {{rec:...}} figures blanked.
std::vector<std::string> proseLines(const std::string& markdown) {
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  bool fenced = false;
  for (std::string line; std::getline(in, line);) {
    const std::string t = trimmed(line);
    if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
      fenced = !fenced;
      lines.push_back("");
      continue;
    }
    if (fenced) {
      lines.push_back("");
      continue;
    }
    line = without(line, "<!--", "-->");
    line = without(line, "{{rec:", "}}");
    line = without(line, "`", "`");
    line = without(line, "](", ")");
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> markdownProblems(const Glossary& g, const std::string& path,
                                          const std::string& markdown) {
  std::vector<std::string> problems;
  const auto lines = proseLines(markdown);
  for (size_t i = 0; i < lines.size(); ++i)
    for (std::string& p : glossaryProblems(g, path + ":" + std::to_string(i + 1), lines[i]))
      problems.push_back(p);
  return problems;
}

// A sentence's words: its placeholders ({name}, {n:one|other}) are code, read as {}.
std::string sentenceWords(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i);
      if (close != std::string::npos && text.find('{', i + 1) > close) {
        out += "{}";
        i = close;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// The line of `id => ` in a catalogue file's text; 0 where it is not found.
int lineOfId(const std::string& fileText, const std::string& id) {
  std::istringstream in(fileText);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.rfind(id + " =>", 0) == 0) return number;
  }
  return 0;
}

}  // namespace

TEST_CASE("glossary: each language's file parses, and the check finds what it looks for") {
  for (Language language : {Language::Ja, Language::Zh}) {
    const Glossary g = glossaryOf(language);
    CAPTURE(g.file);
    for (const std::string& problem : g.problems) FAIL_CHECK(problem);
    CHECK(g.entries.size() >= 4);
  }

  const Glossary g = parseGlossary(
      "sample.txt",
      "# a comment\n"
      "stride => ストライド | 步长  ! グリッドストライド  # the distance a level adds\n"
      "\"：\" => \": \"  ! \"steps: \"  # the colon\n"
      "broken line\n");
  REQUIRE(g.entries.size() == 2);
  CHECK(g.problems.size() == 1);
  CHECK(g.entries[0].line == 2);
  CHECK(g.entries[0].avoided == std::vector<std::string>{"ストライド", "步长"});
  CHECK(g.entries[0].allowed == std::vector<std::string>{"グリッドストライド"});
  CHECK(g.entries[1].preferred == "：");
  CHECK(g.entries[1].avoided == std::vector<std::string>{": "});

  // Found in prose, with the file and line; not in code, links, markers or allowed compounds.
  const auto found = markdownProblems(g, "x/ja.md",
                                      "# 題\n"
                                      "レーン 0 はストライド 16 で読みます。\n"
                                      "```cuda\n"
                                      "int ストライド = 1;  // ストライド\n"
                                      "```\n"
                                      "`ストライド` と [ストライドなし](try:x=ストライド)\n"
                                      "<!-- steps: n=8 -->\n"
                                      "グリッドストライドループ\n"
                                      "部分和: 3\n");
  REQUIRE(found.size() == 3);
  CHECK(found[0].find("x/ja.md:2: writes \"ストライド\" where sample.txt:2 says \"stride\"") == 0);
  CHECK(found[1].find("x/ja.md:6: writes \"ストライド\"") == 0);  // the link's text is prose
  CHECK(found[2].find("x/ja.md:9: writes \": \"") == 0);
  // An ASCII word matches only as a word of its own.
  const Glossary ascii = parseGlossary("s.txt", "步长 => stride  # the distance\n");
  CHECK(glossaryProblems(ascii, "m", "stride 16").size() == 1);
  CHECK(glossaryProblems(ascii, "m", "strided，grid-stride_x").empty());
  // A sentence's placeholders are not its words.
  CHECK(sentenceWords("{n} 個の {x:a|b}、{{rec") == "{} 個の {}、{{rec");
}

TEST_CASE("glossary: no chapter, exercise text or sentence uses a word its glossary avoids") {
  for (Language language : {Language::Ja, Language::Zh}) {
    const Glossary g = glossaryOf(language);
    REQUIRE_MESSAGE(!g.entries.empty(), g.file << " has no entries");
    const std::string lang(rlab::code(language));

    for (const std::string& id : rlab::chapterIds()) {
      const std::string path = "lessons/" + id + "/" + lang + ".md";
      CHECK_MESSAGE(rlab::text::chapter(id, language) != nullptr, path << " is missing");
      const std::string* markdown = rlab::embeddedFile(path);
      REQUIRE_MESSAGE(markdown, path << " is not embedded");
      for (const std::string& problem : markdownProblems(g, path, *markdown)) FAIL_CHECK(problem);
    }

    for (const rlab::Exercise& e : rlab::exercises()) {
      const std::string path = e.folder + "/" + lang + ".md";
      CHECK_MESSAGE(rlab::exerciseText(e, language).language == language, path << " is missing");
      const std::string* markdown = rlab::embeddedFile(path);
      REQUIRE_MESSAGE(markdown, path << " is not embedded");
      for (const std::string& problem : markdownProblems(g, path, *markdown)) FAIL_CHECK(problem);
    }

    const std::string catalogue = "lessons/engine/texts/messages/" + lang + ".txt";
    const std::string* catalogueText = rlab::embeddedFile(catalogue);
    for (const auto& [id, text] : rlab::messageCatalogue(language).entries) {
      const int line = catalogueText ? lineOfId(*catalogueText, id) : 0;
      const std::string where = catalogue + ":" + std::to_string(line) + ": " + id;
      for (const std::string& problem : glossaryProblems(g, where, sentenceWords(text)))
        FAIL_CHECK(problem);
    }
  }
}
