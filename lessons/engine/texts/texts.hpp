// The course texts: one Markdown file per chapter and language (lessons/<id>/<lang>.md),
// parsed once into blocks that the app draws and rlab prints. The format, with its "try it"
// links, step narration, predictions and folded answers, is in assets/manual/texts.md.
// Defined in languages.cpp (languages, chapter ids), markdown.cpp (parse), wrapping.cpp
// (columns, words) and texts.cpp (chapters, try links, predictions, narration).
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/texts/language.hpp"
#include "lessons/engine/run/params.hpp"

namespace rlab {

// The chapters in course order: "basics" (text only), then every lesson's id.
const std::vector<std::string>& chapterIds();

namespace text {

// A run of inline text with one look. `link` is the target of the link it is part of.
struct Span {
  std::string text;
  std::string link;
  bool code = false, emphasis = false, strong = false;
  int line = 0;  // of the Markdown, from 1, where the span's link starts (0: unknown)
};
using Inline = std::vector<Span>;

struct Block {
  enum class Kind {
    Heading,    // level, spans
    Paragraph,  // spans
    Code,       // code, codeLanguage
    List,       // ordered, children: one ListItem each
    ListItem,   // children
    Quote,      // children
    Table,      // rows (row 0 is the header), each cell an Inline
    Rule,
    Details,  // spans: the summary; children: the folded answer
    Steps,    // query; items: one Inline per step (step 0 is the input)
    Predict,  // predictKind, query; spans: the question; children: the reason
  };
  Kind kind = Kind::Paragraph;
  int level = 0;
  bool ordered = false;
  Inline spans;
  std::string code, codeLanguage;
  std::vector<std::vector<Inline>> rows;
  std::vector<Block> children;
  std::vector<Inline> items;
  std::string query, predictKind;
  int line = 0;  // of the Markdown, from 1, where the block's text (or its marker) starts
};

// Something wrong with a chapter: its line in the Markdown (0: the whole file) and why.
struct Problem {
  int line = 0;
  Message reason;  // in the reader's language where it is shown
};

struct Document {
  std::string title;
  std::vector<Block> blocks;      // the title's heading left out
  std::vector<Problem> problems;  // the format broken: one sentence each, with its line
};

Document parse(const std::string& markdown);

// The chapter's text in that language, parsed once; nullptr where the file does not exist.
const Document* chapter(const std::string& id, Language language);
// A lesson's title: its chapter's heading in that language, else the English chapter's (the one
// place a title is written).
std::string lessonTitle(const std::string& id, Language language);

// All the text of an Inline, as one string.
std::string plain(const Inline& spans);

// Where a line of text may break: words of Latin text (runs without spaces), and every single
// Japanese or Chinese character, except that closing punctuation (、。，）」...) stays with the
// character before it. A word starting with '\n' is a forced line break.
struct Word {
  size_t begin = 0, end = 0;
  bool spaceBefore = false;
  bool newline = false;
  int columns = 0;  // in a terminal: a CJK character is two columns wide
};
std::vector<Word> words(const std::string& utf8);
int columns(const std::string& utf8);

// Every try link's query with its label and line, in reading order.
struct Link {
  std::string label, query;
  int line = 0;
};
std::vector<Link> tryLinks(const Document& doc);

}  // namespace text

// A "try:" query ("n=8&barrier=off&schedule=stall:4:2:1"; the "try:" itself may be left on)
// as the run it asks for, in the lesson `chapter` unless it names one. Checked like rlab run's
// options (resolve included); throws ParamError with one sentence.
Params paramsFromQuery(const std::string& chapter, const std::string& query);
// The same run as an rlab command line: "rlab run barrier --n 8 --no-barrier ...".
std::string commandLineFor(const std::string& chapter, const std::string& query);

// The runs a prediction is answered with: one for "result" and "idle", two for "faster"
// (its query names two variants, "variant=global,shared&n=16777216"). Throws ParamError.
std::vector<std::string> predictionQueries(const text::Block& predict);
std::vector<Params> predictionRuns(const std::string& chapter, const text::Block& predict);

// The narration for a run: the Steps block of the run's lesson whose query asks for exactly
// this run (same lesson, variant, n, block, op, type, input, barrier, perturb, printf, schedule),
// or nullptr. A GPU run matches only where its steps are the same on every run.
const text::Block* narrationFor(const Params& run, bool ranOnSimulator, Language language);
// The same, found among the blocks of a given chapter (a teacher's own), whose try links
// default to the lesson `chapter`.
const text::Block* narrationIn(const text::Document& doc, const std::string& chapter,
                               const Params& run, bool ranOnSimulator);

}  // namespace rlab
