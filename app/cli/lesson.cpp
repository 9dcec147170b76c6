// rlab lesson: a chapter of the course, in the chosen language, or a teacher's own chapter (a
// Markdown file); with --check, the chapter checked instead of printed.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/chapter_check.hpp"

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

// Prints the problems on err; true where there were none.
bool checked(const text::Document& doc, const std::string& chapter, const std::string& file,
             std::ostream& out, std::ostream& err, bool report) {
  const auto problems = checkChapter(doc, chapter);
  for (const text::Problem& p : problems) err << problemLine(file, p) << "\n";
  if (!problems.empty()) {
    err << "rlab: " << file << ": " << problems.size()
        << (problems.size() == 1 ? " problem" : " problems")
        << "; the chapter is refused until it has none.\n";
    return false;
  }
  if (report) {
    Counts counts;
    count(doc.blocks, counts);
    counts.links = int(text::tryLinks(doc).size());
    out << file << ": " << counts.links << " try links, " << counts.predictions
        << " predictions and " << counts.narrations
        << " narrations: every link and prediction runs, and every narration has one item for "
           "each step of its run.\n";
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
    if (!checked(doc, fileName(c.chapter), c.chapter, out, err, c.checkChapter)) return 1;
    if (!c.checkChapter) printChapterText(doc, fileName(c.chapter), out, c.terminal.width);
    return 0;
  }
  if (c.checkChapter) {  // the course's own chapter, in every language it has
    bool clean = true;
    for (Language language : kLanguages)
      if (const text::Document* doc = text::chapter(c.chapter, language))
        clean &= checked(*doc, c.chapter, "lessons/" + c.chapter + "/" + code(language) + ".md",
                         out, err, true);
    return clean ? 0 : 1;
  }
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
