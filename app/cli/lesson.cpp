// rlab lesson: a chapter of the course, in the chosen language, or a teacher's own chapter (a
// Markdown file); with --check, the chapter checked instead of printed.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/texts/chapter_check.hpp"

namespace rlab::cli {

namespace {

struct Counts {
  int links = 0, narrations = 0, predictions = 0;
};

void count(const std::vector<text::Block>& blocks, Counts& counts) {
  for (const text::Block& b : blocks) {
    counts.narrations += b.kind == text::Block::Kind::Steps;
    counts.predictions += b.kind == text::Block::Kind::Predict;
    count(b.children, counts);
  }
}

// Prints the problems on err, in `language`; true where there were none.
bool checked(const text::Document& doc, const std::string& chapter, const std::string& file,
             std::ostream& out, std::ostream& err, bool report, Language language) {
  const auto problems = checkChapter(doc, chapter);
  for (const text::Problem& p : problems) err << problemLine(file, p, language) << "\n";
  if (!problems.empty()) {
    err << "rlab: "
        << render(Message("chapter.refused", {{"path", file}, {"count", problems.size()}}),
                  language)
        << "\n";
    return false;
  }
  if (report) {
    Counts counts;
    count(doc.blocks, counts);
    counts.links = int(text::tryLinks(doc).size());
    out << render(Message("chapter.checked", {{"path", file},
                                              {"links", counts.links},
                                              {"predictions", counts.predictions},
                                              {"narrations", counts.narrations}}),
                  language)
        << "\n";
  }
  return true;
}

std::string fileName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int lessonCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  if (c.chapterIsFile) {
    // A teacher's chapter: its links name their lesson; the file's name stands for the chapter.
    const text::Document doc = readChapterFile(c.chapter);
    if (!checked(doc, fileName(c.chapter), c.chapter, out, err, c.checkChapter, c.language))
      return 1;
    if (!c.checkChapter)
      printChapterText(doc, fileName(c.chapter), out, c.language, c.terminal.width, c.answers);
    return 0;
  }
  if (c.checkChapter) {  // the course's own chapter (without one, every chapter), in every
                         // language it has
    bool clean = true;
    for (const std::string& id :
         c.chapter.empty() ? chapterIds() : std::vector<std::string>{c.chapter})
      for (Language language : kLanguages)
        if (const text::Document* doc = text::chapter(id, language))
          clean &= checked(*doc, id, "lessons/" + id + "/" + code(language) + ".md", out, err, true,
                           c.language);
    return clean ? 0 : 1;
  }
  if (c.chapter.empty()) {  // the course's chapters, in order, each with its title
    printWrapped(render(Message("view.chapters"), c.language), "", "", c.terminal.width, out);
    for (const std::string& id : chapterIds()) {
      const text::Document* doc = text::chapter(id, c.language);
      if (!doc) doc = text::chapter(id, Language::En);
      out << "  " << id << (doc ? " — " + doc->title : "") << "\n";
    }
    printWrapped(render(Message("view.chapters-how"), c.language), "", "", c.terminal.width, out);
    return 0;
  }
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
  printChapterText(*doc, c.chapter, out, c.language, c.terminal.width, c.answers);
  return 0;
}

}  // namespace rlab::cli
