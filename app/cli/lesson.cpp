// rlab lesson: a chapter of the course, in the chosen language.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"

namespace rlab::cli {

int lessonCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  const text::Document* doc = text::chapter(c.chapter, c.language);
  if (!doc) {  // every chapter has English (a test checks)
    err << "rlab: "
        << render(Message("view.chapter-in-english",
                          {{"chapter", c.chapter}, {"language", nativeName(c.language)}}),
                  c.language)
        << "\n";
    doc = text::chapter(c.chapter, Language::En);
  }
  if (!doc) throw UsageError(Message("view.chapter-no-text", {{"chapter", c.chapter}}));
  printChapterText(*doc, c.chapter, out, c.language);
  return 0;
}

}  // namespace rlab::cli
