// rlab lesson: a chapter of the course, in the chosen language.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"

namespace rlab::cli {

int lessonCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  const text::Document* doc = text::chapter(c.chapter, c.language);
  if (!doc) {  // every chapter has English (a test checks)
    err << "rlab: chapter '" << c.chapter << "' has no text in " << nativeName(c.language)
        << " yet; here it is in English.\n";
    doc = text::chapter(c.chapter, Language::En);
  }
  if (!doc) throw UsageError("chapter '" + c.chapter + "' has no text.");
  printChapterText(*doc, c.chapter, out, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
