// The course's languages: their codes, names, the locale's choice, and the chapters there are.
#include <cstdlib>

#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab {

const char* code(Language language) {
  switch (language) {
    case Language::Ja:
      return "ja";
    case Language::Zh:
      return "zh";
    case Language::En:
      break;
  }
  return "en";
}

const char* nativeName(Language language) {
  switch (language) {
    case Language::Ja:
      return "日本語";
    case Language::Zh:
      return "中文";
    case Language::En:
      break;
  }
  return "English";
}

Language parseLanguage(const std::string& text) {
  for (Language l : kLanguages)
    if (text == code(l)) return l;
  throw ParamError(Message("params.bad-language", {{"language", text}}));
}

Language languageFromEnvironment() {
  for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(variable);
    if (!value || !*value) continue;
    const std::string locale = value;
    if (locale.rfind("ja", 0) == 0) return Language::Ja;
    if (locale.rfind("zh", 0) == 0) return Language::Zh;
    return Language::En;
  }
  return Language::En;
}

const std::vector<std::string>& chapterIds() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> all = {kBasicsChapter};
    for (const auto& lesson : lessons()) all.push_back(lesson.id);
    return all;
  }();
  return ids;
}

}  // namespace rlab
