#include "lessons/engine/texts/chapter_check.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "lessons/engine/run/run.hpp"

namespace rlab {

namespace {

void forEachBlock(const std::vector<text::Block>& blocks,
                  const std::function<void(const text::Block&)>& f) {
  for (const text::Block& b : blocks) {
    f(b);
    forEachBlock(b.children, f);
  }
}

// The line of the first byte that is not UTF-8, or 0 where all of it is.
int firstBadUtf8Line(const std::string& text) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = (unsigned char)text[i];
    if (c == '\n') ++line;
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (length == 0 || i + length > text.size()) return line;
    for (size_t k = 1; k < length; ++k)
      if (((unsigned char)text[i + k] >> 6) != 0x2) return line;
    i += length;
  }
  return 0;
}

}  // namespace

std::vector<text::Problem> checkChapter(const text::Document& doc, const std::string& chapter,
                                        const std::function<bool()>& keepGoing) {
  std::vector<text::Problem> problems = doc.problems;
  if (doc.title.empty()) problems.push_back({1, Message("chapter.no-title")});
  for (const text::Link& link : text::tryLinks(doc)) {
    try {
      paramsFromQuery(chapter, link.query);
    } catch (const ParamError& e) {
      problems.push_back(
          {link.line,
           Message("chapter.try-link-cannot-run",
                   {{"label", link.label}, {"query", link.query}, {"why", e.message()}})});
    }
  }
  bool stopped = false;
  forEachBlock(doc.blocks, [&](const text::Block& b) {
    if (stopped) return;
    if (b.kind == text::Block::Kind::Predict) {
      try {
        predictionRuns(chapter, b);
      } catch (const ParamError& e) {
        problems.push_back({b.line, Message("chapter.prediction-cannot-run",
                                            {{"query", b.query}, {"why", e.message()}})});
      }
    }
    if (b.kind != text::Block::Kind::Steps) return;
    if (keepGoing && !keepGoing()) {
      stopped = true;
      return;
    }
    try {
      Params run = paramsFromQuery(chapter, b.query);
      run.backend = BackendChoice::Sim;
      const size_t steps = runLesson(run).steps.size();
      if (steps != b.items.size())
        problems.push_back({b.line, Message("chapter.narration-items",
                                            {{"command", commandLineFor(chapter, b.query)},
                                             {"items", b.items.size()},
                                             {"steps", steps}})});
    } catch (const ParamError& e) {
      problems.push_back({b.line, Message("chapter.narration-cannot-run",
                                          {{"query", b.query}, {"why", e.message()}})});
    } catch (const std::exception& e) {
      problems.push_back({b.line, Message("chapter.narration-failed",
                                          {{"query", b.query}, {"why", messageOf(e)}})});
    }
  });
  std::stable_sort(problems.begin(), problems.end(),
                   [](const text::Problem& a, const text::Problem& b) { return a.line < b.line; });
  return problems;
}

text::Document readChapterFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParamError(Message("chapter.unreadable", {{"path", path}}));
  std::ostringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  if (text.size() > (size_t(1) << 20))
    throw ParamError(Message("chapter.too-large", {{"path", path}}));
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ParamError(Message("chapter.empty", {{"path", path}}));
  if (const int line = firstBadUtf8Line(text))
    throw ParamError(Message("chapter.not-utf8", {{"path", path}, {"line", line}}));
  return text::parse(text);
}

std::string problemLine(const std::string& file, const text::Problem& problem, Language language) {
  return file + (problem.line > 0 ? ":" + std::to_string(problem.line) : "") + ": " +
         render(problem.reason, language);
}

}  // namespace rlab
