// Every UI string has every language: the keys the app's sources pass to tr() and trId() are
// read from app/gui/*.cpp as built, and each strings file must translate exactly those, with
// the same printf placeholders in the same order (tests/catalogue_checks.hpp, which checks the
// core's messages too). Every character shown has a glyph.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/exercise/exercises.hpp"
#include "tests/catalogue_checks.hpp"

namespace {

using rlab::Language;

// The printf conversions of a format, in order ("%%" included: the player's slider needs it).
std::vector<std::string> placeholders(const std::string& format) {
  static const std::regex conversion(
      R"(%%|%[-+ #0]*[0-9*]*(\.[0-9*]+)?(hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGaAcsp])");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(format.begin(), format.end(), conversion);
       it != std::sregex_iterator(); ++it)
    found.push_back(it->str());
  return found;
}

}  // namespace

TEST_CASE("strings: every UI string the app's sources use has every language, and no more") {
  std::vector<std::string> sourceProblems;
  const auto keys = catalogue_checks::keysInSources({"app/gui"}, {".cpp"}, {"strings.cpp"},
                                                    {"tr(", "trId("}, false, sourceProblems);
  for (const auto& problem : sourceProblems) FAIL_CHECK(problem);
  CHECK(keys.size() > 50);  // the scan found the app's words
  for (Language language : {Language::Ja, Language::Zh})
    catalogue_checks::checkCatalogue(
        "app/gui/strings/" + std::string(rlab::code(language)) + ".txt",
        rlab::gui::uiStrings(language), keys, [](const std::string& key) { return key; },
        placeholders);
}

TEST_CASE("strings: a strings file's lines, and what tr() and trId() answer") {
  const auto parsed = rlab::parseCatalogue(
      "# a comment\n\nRun => 実行\r\n  Step %d of %d  =>  ステップ %d / %d \nno separator\n"
      "Run => 走る\n => empty key\n");
  CHECK(parsed.entries.size() == 2);
  CHECK(parsed.entries.at("Run") == "実行");
  CHECK(parsed.entries.at("Step %d of %d") == "ステップ %d / %d");
  REQUIRE(parsed.problems.size() == 3);
  CHECK(parsed.problems[0].find("line 5") == 0);
  CHECK(parsed.problems[1].find("given twice") != std::string::npos);
  CHECK(parsed.problems[2].find("line 7") == 0);

  CHECK(placeholders("%.1f GB/s = %.1f%% of %s, %lld, %zu") ==
        std::vector<std::string>{"%.1f", "%.1f", "%%", "%s", "%lld", "%zu"});

  using rlab::gui::tr;
  using rlab::gui::trId;
  const Language before = rlab::gui::uiLanguage();
  rlab::gui::setUiLanguage(Language::Ja);
  CHECK(std::string(tr("Run")) == "実行");
  CHECK(std::string(trId("Run")) == "実行###Run");  // the ID stays the English
  CHECK(std::string(tr("a sentence nobody translated")) == "a sentence nobody translated");
  rlab::gui::setUiLanguage(Language::Zh);
  CHECK(std::string(tr("Run")) == "运行");
  rlab::gui::setUiLanguage(Language::En);
  CHECK(std::string(tr("Run")) == "Run");
  CHECK(std::string(trId("Run")) == "Run###Run");
  rlab::gui::setUiLanguage(before);
  CHECK(rlab::gui::printed("%d of %s", 3, "8") == "3 of 8");
}

namespace {

// The code points of a UTF-8 text.
std::vector<unsigned> codePoints(const std::string& utf8) {
  std::vector<unsigned> points;
  for (size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    const int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    unsigned point = length == 1 ? c : c & (0x7F >> length);
    for (int k = 1; k < length && i + k < utf8.size(); ++k)
      point = (point << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    points.push_back(point);
    i += size_t(length);
  }
  return points;
}

bool inRanges(const ImVector<ImWchar>& ranges, unsigned point) {
  for (int k = 0; k + 1 < ranges.Size && ranges[k]; k += 2)
    if (point >= ranges[k] && point <= ranges[k + 1]) return true;
  return false;
}

}  // namespace

TEST_CASE("strings: every character of the course, the exercises and the app's words has a glyph") {
  const bool ownContext = ImGui::GetCurrentContext() == nullptr;
  if (ownContext) ImGui::CreateContext();
  for (Language language : {Language::Ja, Language::Zh}) {
    const std::string lang = rlab::code(language);
    CAPTURE(lang);
    ImVector<ImWchar> ranges;
    rlab::gui::cjkGlyphRanges(language, rlab::gui::glyphText(language), ranges);
    // What the app shows in this language, file by file, so that a failure names the file: its
    // own words, the core's sentences, the chapters and the exercises.
    std::vector<std::string> files = {"app/gui/strings/" + lang + ".txt",
                                      "lessons/engine/texts/messages/" + lang + ".txt"};
    for (const std::string& id : rlab::chapterIds())
      files.push_back("lessons/" + id + "/" + lang + ".md");
    for (const rlab::Exercise& e : rlab::exercises())
      files.push_back(e.folder + "/" + lang + ".md");
    for (const std::string& file : files) {
      CAPTURE(file);
      const std::string* text = file.rfind("app/", 0) == 0 ? rlab::gui::embeddedStringsFile(file)
                                                           : rlab::embeddedFile(file);
      REQUIRE(text != nullptr);
      std::string missing;
      for (unsigned point : codePoints(*text))
        if (point >= 0x20 && !inRanges(ranges, point) && missing.size() < 40)
          missing += std::to_string(point) + " ";
      CHECK_MESSAGE(missing.empty(), "code points without a glyph: " << missing);
    }
    // A character outside the language's common ranges gets its glyph only from the texts.
    ImVector<ImWchar> without;
    rlab::gui::cjkGlyphRanges(language, "", without);
    CHECK_FALSE(inRanges(without, 0x9F98));  // 龘, in no text
  }
  if (ownContext) ImGui::DestroyContext();
}

TEST_CASE(
    "strings: Japanese and Chinese characters are drawn as large as the Latin text beside them") {
  const bool ownContext = ImGui::GetCurrentContext() == nullptr;
  if (ownContext) ImGui::CreateContext();
  const std::string fonts = std::string(RLAB_SOURCE_DIR) + "/assets/fonts.txt";
  for (Language language : {Language::Ja, Language::Zh}) {
    CAPTURE(rlab::code(language));
    if (!rlab::gui::loadFonts(fonts, 32, language, "日本中文")) {
      MESSAGE("skipped: the fonts assets/fonts.txt lists are not installed");
      break;
    }
    ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
    const ImFontGlyph* latin = font->FindGlyph('H');
    const ImFontGlyph* cjk = font->FindGlyph(0x65E5);  // 日
    REQUIRE(latin);
    REQUIRE(cjk);
    REQUIRE(cjk->Codepoint == 0x65E5);  // the CJK font's, not the fallback
    // Set in one em, an ideograph stands a little taller than a Latin capital (Noto Sans CJK's
    // 日 against DejaVu Sans's H: 1.1). At the same pixel height instead of the same em the
    // CJK font's characters came out at 0.88 of the capital, a fifth too small.
    const float ratio = (cjk->Y1 - cjk->Y0) / (latin->Y1 - latin->Y0);
    CAPTURE(ratio);
    CHECK(ratio > 1.0f);
    CHECK(ratio < 1.3f);
    // On the same baseline: the ideograph's foot within the Latin descender's reach.
    CHECK(cjk->Y1 > latin->Y1);
    CHECK(cjk->Y1 - latin->Y1 < 0.25f * 32);
  }
  ImGui::GetIO().Fonts->Clear();
  if (ownContext) ImGui::DestroyContext();
}
