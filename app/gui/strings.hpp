// The app's own words in the learner's language. The English text is the key: the code writes
// tr("Run"), and app/gui/strings/ja.txt and zh.txt give each key's translation, one a line
// ("Run => 実行"), embedded at build time. English needs no file. Sentences the app composes
// are translated whole, with their printf placeholders ("%zu threads worked"), so that each
// language keeps its own word order. tests/strings_test.cpp checks that every key the code
// uses has every language, that no entry is left unused, and that placeholders agree.
#pragma once

#include <string>

#include "lessons/engine/texts/messages.hpp"
#include "lessons/engine/texts/texts.hpp"

#if defined(__GNUC__)
#define RLAB_TR_FORMAT_ARG __attribute__((format_arg(1)))
#define RLAB_PRINTF_FORMAT __attribute__((format(printf, 1, 2)))
#else
#define RLAB_TR_FORMAT_ARG
#define RLAB_PRINTF_FORMAT
#endif

namespace rlab::gui {

// The language tr() answers in; App::frame sets it from UiState::language.
void setUiLanguage(Language language);
Language uiLanguage();

// `english` in the UI's language; the key itself in English or where no translation exists.
// Pass a string literal: the test finds the keys in the sources. A format string stays one
// for the compiler's checks (format_arg).
const char* tr(const char* english) RLAB_TR_FORMAT_ARG;
// A widget or window label: the translation, with the English key as its ImGui ID
// ("実行###Run"), so that state and the tests' widget names hold in every language.
const char* trId(const char* english);

// A sentence of the core (a run's labels and notes, a race's summary, an error) in the UI's
// language: the core's own catalogue (lessons/engine/texts/messages), not the app's.
std::string say(const Message& message);

// printf into a std::string: for sentences with placeholders, printed(tr("Ran on %s"), name).
std::string printed(const char* format, ...) RLAB_PRINTF_FORMAT;

// The language's embedded file, parsed once (English: empty). The same format as the core's
// messages (parseCatalogue), with the English itself as the key.
const Catalogue& uiStrings(Language language);
// "app/gui/strings/ja.txt": the file's text as built in, or nullptr.
const std::string* embeddedStringsFile(const std::string& path);

// Every character the app shows in a language: the course's chapters, the exercises'
// statements and hints, the app's own words, the core's sentences and the language menu, so that
// the font atlas has a glyph for each (theme.hpp's cjkGlyphRanges).
std::string glyphText(Language language);

}  // namespace rlab::gui
