#include "app/gui/strings.hpp"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <iterator>
#include <map>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"

namespace rlab::gui {

namespace {

std::atomic<Language> g_language{Language::En};

}  // namespace

void setUiLanguage(Language language) {
  g_language = language;
}

Language uiLanguage() {
  return g_language;
}

const Catalogue& uiStrings(Language language) {
  static const auto load = [](Language l) {
    if (l == Language::En) return Catalogue{};
    const std::string* file =
        embeddedStringsFile("app/gui/strings/" + std::string(code(l)) + ".txt");
    return file ? parseCatalogue(*file) : Catalogue{{}, {"no strings file was built in"}};
  };
  static const Catalogue files[] = {load(kLanguages[0]), load(kLanguages[1]), load(kLanguages[2])};
  static_assert(std::size(files) == std::size(kLanguages));
  return files[int(language)];
}

const char* tr(const char* english) {
  const Language language = g_language;
  if (language == Language::En) return english;
  const auto& entries = uiStrings(language).entries;
  const auto found = entries.find(std::string_view(english));
  return found == entries.end() ? english : found->second.c_str();
}

const char* trId(const char* english) {
  // Built once per key and language; the UI thread alone draws.
  static std::map<std::string, std::string, std::less<>> labels[std::size(kLanguages)];
  auto& built = labels[int(uiLanguage())];
  auto found = built.find(std::string_view(english));
  if (found == built.end())
    found = built.emplace(english, std::string(tr(english)) + "###" + english).first;
  return found->second.c_str();
}

std::string glyphText(Language language) {
  const std::string lang = code(language);
  std::string all;
  for (const std::string& id : chapterIds())
    if (const std::string* text = embeddedFile("lessons/" + id + "/" + lang + ".md")) all += *text;
  for (const Exercise& e : exercises())
    if (const std::string* text = embeddedFile(e.folder + "/" + lang + ".md")) all += *text;
  if (const std::string* labels = embeddedStringsFile("app/gui/strings/" + lang + ".txt"))
    all += *labels;
  if (const std::string* messages = embeddedFile("lessons/engine/texts/messages/" + lang + ".txt"))
    all += *messages;                                          // the core's sentences
  for (Language other : kLanguages) all += nativeName(other);  // the language menu
  return all;
}

std::string say(const Message& message) {
  return render(message, uiLanguage());
}

std::string printed(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(size_t(std::max(size, 0)), '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  return text;
}

}  // namespace rlab::gui
