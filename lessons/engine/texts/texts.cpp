// A chapter as the course uses it: its text by id and language, its try links read as runs, the
// command a link stands for, predictions' runs, and the narration of a run's steps. The
// Markdown is parsed in markdown.cpp, measured in wrapping.cpp; languages.cpp names them.
#include "lessons/engine/texts/texts.hpp"

#include <map>
#include <memory>
#include <mutex>

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run_parameters.hpp"

namespace rlab {
namespace text {

std::string plain(const Inline& spans) {
  std::string all;
  for (const Span& s : spans) all += s.text;
  return all;
}

const Document* chapter(const std::string& id, Language language) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Document>> parsed;
  const std::string path = "lessons/" + id + "/" + code(language) + ".md";
  std::lock_guard<std::mutex> lock(mutex);
  auto found = parsed.find(path);
  if (found == parsed.end()) {
    const std::string* markdown = embeddedFile(path);
    std::unique_ptr<Document> doc;
    if (markdown) {
      // Figures measured on a GPU come from the recordings ({{rec:CARD:PATH}}).
      std::vector<std::string> unfilled;
      doc = std::make_unique<Document>(parse(fillRecordingLinks(*markdown, &unfilled)));
      for (const std::string& link : unfilled)
        doc->problems.push_back({0, Message("chapter.recording-link", {{"link", link}})});
    }
    found = parsed.emplace(path, std::move(doc)).first;
  }
  return found->second.get();
}

std::string lessonTitle(const std::string& id, Language language) {
  if (const Document* doc = chapter(id, language)) return doc->title;
  const Document* english = chapter(id, Language::En);
  return english ? english->title : id;
}

namespace {
void collectLinks(const Inline& spans, std::vector<Link>& links) {
  for (size_t i = 0; i < spans.size(); ++i) {
    if (spans[i].link.rfind("try:", 0) != 0) continue;
    if (i > 0 && spans[i - 1].link == spans[i].link) {  // one link in several looks
      links.back().label += spans[i].text;
      continue;
    }
    links.push_back({spans[i].text, spans[i].link.substr(4), spans[i].line});
  }
}
void collectLinks(const std::vector<Block>& blocks, std::vector<Link>& links) {
  for (const Block& b : blocks) {
    collectLinks(b.spans, links);
    for (const auto& row : b.rows)
      for (const auto& cell : row) collectLinks(cell, links);
    for (const auto& item : b.items) collectLinks(item, links);
    collectLinks(b.children, links);
  }
}
}  // namespace

std::vector<Link> tryLinks(const Document& doc) {
  std::vector<Link> links;
  collectLinks(doc.blocks, links);
  return links;
}

}  // namespace text

namespace {

std::vector<std::pair<std::string, std::string>> queryPairs(std::string query) {
  if (query.rfind("try:", 0) == 0) query = query.substr(4);
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t start = 0;
  while (start <= query.size()) {
    const size_t amp = std::min(query.find('&', start), query.size());
    const std::string item = query.substr(start, amp - start);
    if (!item.empty()) {
      const size_t eq = item.find('=');
      pairs.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
    }
    start = amp + 1;
  }
  return pairs;
}

}  // namespace

Params paramsFromQuery(const std::string& chapter, const std::string& query) {
  Params p;
  p.lesson = chapter;
  for (const auto& [key, value] : queryPairs(query)) setRunParameter(p, key, value);
  if (!findLesson(p.lesson))
    throw ParamError(
        Message("params.link-lesson", {{"chapter", chapter}, {"lessons", lessonIds()}}));
  resolve(p);
  return p;
}

std::string commandLineFor(const std::string& chapter, const std::string& query) {
  return commandLineFor(chapter, queryPairs(query));
}

std::vector<std::string> predictionQueries(const text::Block& predict) {
  if (predict.predictKind != "faster") return {predict.query};
  std::string others, variants;
  for (const auto& [key, value] : queryPairs(predict.query)) {
    if (key == "variant")
      variants = value;
    else
      others += "&" + key + (value.empty() ? "" : "=" + value);
  }
  const size_t comma = variants.find(',');
  if (comma == std::string::npos || variants.find(',', comma + 1) != std::string::npos)
    throw ParamError(Message("params.faster-two-variants"));
  return {"variant=" + variants.substr(0, comma) + others,
          "variant=" + variants.substr(comma + 1) + others};
}

std::vector<Params> predictionRuns(const std::string& chapter, const text::Block& predict) {
  std::vector<Params> runs;
  for (const std::string& query : predictionQueries(predict))
    runs.push_back(paramsFromQuery(chapter, query));
  return runs;
}

namespace {
bool sameRun(const Resolved& a, const Resolved& b) {
  const Params &x = a.params, &y = b.params;
  return x.lesson == y.lesson && x.variant == y.variant && x.n == y.n && x.block == y.block &&
         x.op == y.op && x.type == y.type && a.dataLabel == b.dataLabel && x.values == y.values &&
         x.barrier == y.barrier && x.syncwarp == y.syncwarp && x.perturb == y.perturb &&
         x.printing == y.printing && x.schedule == y.schedule && x.gpus == y.gpus &&
         x.perThread == y.perThread && x.loadAdd == y.loadAdd;
}
const text::Block* findSteps(const std::vector<text::Block>& blocks, const std::string& chapter,
                             const Resolved& run) {
  for (const text::Block& b : blocks) {
    if (b.kind == text::Block::Kind::Steps) {
      try {
        if (sameRun(resolve(paramsFromQuery(chapter, b.query)), run)) return &b;
      } catch (const ParamError&) {
      }
    }
    if (const text::Block* inside = findSteps(b.children, chapter, run)) return inside;
  }
  return nullptr;
}
}  // namespace

const text::Block* narrationIn(const text::Document& doc, const std::string& chapter,
                               const Params& run, bool ranOnSimulator) {
  // On a GPU a race without its barrier, and some lessons' steps, differ from run to run.
  if (!ranOnSimulator &&
      (!run.barrier || run.perturb || run.printing || !lessonOrThrow(run.lesson).gpuStepsRepeat))
    return nullptr;
  return findSteps(doc.blocks, chapter, resolve(run));
}

const text::Block* narrationFor(const Params& run, bool ranOnSimulator, Language language) {
  const text::Document* doc = text::chapter(run.lesson, language);
  return doc ? narrationIn(*doc, run.lesson, run, ranOnSimulator) : nullptr;
}

}  // namespace rlab
