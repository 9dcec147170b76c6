// One word for one thing, and Japanese and Chinese punctuation as it is typeset: the checks the
// course texts (texts_test.cpp) and the core's sentences (messages_test.cpp) both pass.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/texts/language.hpp"

namespace course_terms {

// The word the course uses, and the variants a text in that language must not use instead.
struct Term {
  rlab::Language language;
  const char* use;
  std::vector<const char*> notThese;
};
inline const Term kTerms[] = {
    {rlab::Language::Ja, "このコース", {"この講座"}},
    {rlab::Language::Ja, "interleaved", {"インターリーブ"}},
    {rlab::Language::Ja, "strided", {"ストライド方式"}},
    {rlab::Language::Ja, "sequential（連続した添字）", {"連続アドレッシング"}},
    {rlab::Language::Ja, "all-reduce", {"オールリデュース"}},
    {rlab::Language::Zh, "归约", {"规约"}},
    {rlab::Language::Zh, "核函数", {"内核", "kernel", "Kernel"}},
    {rlab::Language::Zh, "洗牌", {"shuffle", "Shuffle"}},
    {rlab::Language::Zh, "伙伴", {"搭档"}},
    {rlab::Language::Zh, "interleaved、strided", {"交错式", "跨步式"}},
    {rlab::Language::Zh, "序号（`rank`）", {"rank", "Rank"}},
};

// Whether `text` has `word` other than inside a longer name of code (`rank` in
// `map_shared_rank`, `Kernel` in `cudaLaunchKernelEx`).
inline bool usesWord(const std::string& text, const std::string& word) {
  auto partOfName = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    const bool inName = (partOfName(word.front()) && at > 0 && partOfName(text[at - 1])) ||
                        (partOfName(word.back()) && end < text.size() && partOfName(text[end]));
    if (!inName) return true;
  }
  return false;
}

// One sentence per forbidden variant `text` uses.
inline std::vector<std::string> termProblems(rlab::Language language, const std::string& text) {
  std::vector<std::string> problems;
  for (const Term& term : kTerms) {
    if (term.language != language) continue;
    for (const char* variant : term.notThese)
      if (usesWord(text, variant))
        problems.push_back(std::string("writes ") + variant + " where the course says " + term.use +
                           ": " + text);
  }
  return problems;
}

// An ASCII space after 、。，：；！？ is a gap no typesetter leaves (a Japanese question mark
// inside a paragraph takes the full-width space instead): one sentence per gap.
inline std::vector<std::string> punctuationProblems(const std::string& text) {
  const char* const kPunctuation[] = {"、", "。", "，", "：", "；", "！", "？"};
  std::vector<std::string> problems;
  for (const char* mark : kPunctuation)
    if (text.find(std::string(mark) + " ") != std::string::npos)
      problems.push_back(std::string("a space after ") + mark + ": " + text);
  return problems;
}

}  // namespace course_terms
