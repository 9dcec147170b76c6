// The course's languages. Defined in languages.cpp.
#pragma once

#include <string>

namespace rlab {

enum class Language { En, Ja, Zh };
inline constexpr Language kLanguages[] = {Language::En, Language::Ja, Language::Zh};

const char* code(Language language);        // "en", "ja", "zh"
const char* nativeName(Language language);  // "English", "日本語", "中文"
// "en", "ja" or "zh"; throws ParamError naming what is allowed.
Language parseLanguage(const std::string& text);
// From LC_ALL, LC_MESSAGES or LANG (the first one set): ja_JP.UTF-8 gives Japanese, zh_* gives
// Chinese, anything else English.
Language languageFromEnvironment();

}  // namespace rlab
