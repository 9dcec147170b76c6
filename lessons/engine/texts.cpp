#include "lessons/engine/texts.hpp"

#include <md4c.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "lessons/engine/embedded.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

const char* code(Language language) {
  switch (language) {
    case Language::Ja:
      return "ja";
    case Language::Zh:
      return "zh";
    case Language::En:
      break;
  }
  return "en";
}

const char* nativeName(Language language) {
  switch (language) {
    case Language::Ja:
      return "日本語";
    case Language::Zh:
      return "中文";
    case Language::En:
      break;
  }
  return "English";
}

Language parseLanguage(const std::string& text) {
  for (Language l : kLanguages)
    if (text == code(l)) return l;
  throw ParamError("--lang '" + text + "' is not a language of the course; use en, ja or zh.");
}

Language languageFromEnvironment() {
  for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = std::getenv(variable);
    if (!value || !*value) continue;
    const std::string locale = value;
    if (locale.rfind("ja", 0) == 0) return Language::Ja;
    if (locale.rfind("zh", 0) == 0) return Language::Zh;
    return Language::En;
  }
  return Language::En;
}

const std::vector<std::string>& chapterIds() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> all = {"basics"};
    for (const auto& lesson : lessons()) all.push_back(lesson.id);
    return all;
  }();
  return ids;
}

namespace text {

namespace {

using Kind = Block::Kind;

// Builds blocks from md4c's callbacks. Open blocks live on a stack by value and move into
// their parent when they close; HTML blocks are kept as Kind::Code with codeLanguage "html"
// until the markers are read (readMarkers).
class Builder {
 public:
  Builder() {
    open_.emplace_back();
    open_.back().block.kind = Kind::Quote;
  }

  std::vector<Block> finish() { return std::move(open_.front().block.children); }

  int enterBlock(MD_BLOCKTYPE type, void* detail) {
    closeImplicit();
    Block b;
    switch (type) {
      case MD_BLOCK_DOC:
      case MD_BLOCK_THEAD:
      case MD_BLOCK_TBODY:
        return 0;
      case MD_BLOCK_TR:
        top().rows.emplace_back();
        return 0;
      case MD_BLOCK_TH:
      case MD_BLOCK_TD:
        top().rows.back().emplace_back();
        inCell_ = true;
        return 0;
      case MD_BLOCK_QUOTE:
        b.kind = Kind::Quote;
        break;
      case MD_BLOCK_UL:
        b.kind = Kind::List;
        break;
      case MD_BLOCK_OL:
        b.kind = Kind::List;
        b.ordered = true;
        break;
      case MD_BLOCK_LI:
        b.kind = Kind::ListItem;
        break;
      case MD_BLOCK_HR:
        b.kind = Kind::Rule;
        break;
      case MD_BLOCK_H:
        b.kind = Kind::Heading;
        b.level = int(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
        break;
      case MD_BLOCK_CODE: {
        b.kind = Kind::Code;
        const MD_ATTRIBUTE& lang = static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang;
        b.codeLanguage.assign(lang.text ? lang.text : "", lang.size);
        break;
      }
      case MD_BLOCK_HTML:
        b.kind = Kind::Code;
        b.codeLanguage = "html";
        break;
      case MD_BLOCK_TABLE:
        b.kind = Kind::Table;
        break;
      case MD_BLOCK_P:
      default:
        b.kind = Kind::Paragraph;
        break;
    }
    open_.push_back({std::move(b), false});
    return 0;
  }

  int leaveBlock(MD_BLOCKTYPE type) {
    closeImplicit();
    switch (type) {
      case MD_BLOCK_DOC:
      case MD_BLOCK_THEAD:
      case MD_BLOCK_TBODY:
      case MD_BLOCK_TR:
        return 0;
      case MD_BLOCK_TH:
      case MD_BLOCK_TD:
        inCell_ = false;
        return 0;
      default:
        close();
        return 0;
    }
  }

  int enterSpan(MD_SPANTYPE type, void* detail) {
    if (type == MD_SPAN_EM) ++emphasis_;
    if (type == MD_SPAN_STRONG) ++strong_;
    if (type == MD_SPAN_CODE) ++code_;
    if (type == MD_SPAN_A) {
      const MD_ATTRIBUTE& href = static_cast<MD_SPAN_A_DETAIL*>(detail)->href;
      link_.assign(href.text ? href.text : "", href.size);
    }
    return 0;
  }

  int leaveSpan(MD_SPANTYPE type) {
    if (type == MD_SPAN_EM) --emphasis_;
    if (type == MD_SPAN_STRONG) --strong_;
    if (type == MD_SPAN_CODE) --code_;
    if (type == MD_SPAN_A) link_.clear();
    return 0;
  }

  int text(MD_TEXTTYPE type, const char* text, size_t size) {
    std::string piece(text, size);
    if (type == MD_TEXT_NULLCHAR) piece = "\xEF\xBF\xBD";
    if (type == MD_TEXT_ENTITY) piece = entity(piece);
    Block& b = top();
    if (!inCell_ && (b.kind == Kind::Code)) {
      b.code += piece;
      return 0;
    }
    if (!inCell_ && (b.kind == Kind::ListItem || b.kind == Kind::Quote)) {
      open_.push_back({Block{}, true});  // a tight list's item: text without a paragraph
    }
    Inline& spans = inCell_ ? top().rows.back().back() : top().spans;
    if (type == MD_TEXT_BR) piece = "\n";
    if (type == MD_TEXT_SOFTBR) {
      // Japanese and Chinese break lines without a space between the words.
      const bool wide = !spans.empty() && !spans.back().text.empty() &&
                        static_cast<unsigned char>(spans.back().text.back()) >= 0x80;
      piece = wide ? "" : " ";
    }
    const bool isCode = code_ > 0 || type == MD_TEXT_CODE;
    if (!spans.empty()) {
      Span& last = spans.back();
      if (last.code == isCode && last.emphasis == (emphasis_ > 0) && last.strong == (strong_ > 0) &&
          last.link == link_) {
        last.text += piece;
        return 0;
      }
    }
    Span span;
    span.text = piece;
    span.link = link_;
    span.code = isCode;
    span.emphasis = emphasis_ > 0;
    span.strong = strong_ > 0;
    spans.push_back(std::move(span));
    return 0;
  }

 private:
  struct Open {
    Block block;
    bool implicit = false;  // a paragraph md4c did not announce (tight list items)
  };

  Block& top() { return open_.back().block; }

  void close() {
    Block done = std::move(open_.back().block);
    open_.pop_back();
    top().children.push_back(std::move(done));
  }
  void closeImplicit() {
    if (open_.back().implicit) close();
  }

  static std::string entity(const std::string& name) {
    static const std::map<std::string, std::string> named = {
        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", "\xC2\xA0"}};
    const auto found = named.find(name);
    if (found != named.end()) return found->second;
    if (name.size() > 3 && name[1] == '#') {  // &#955; or &#x3bb;
      const bool hex = name[2] == 'x' || name[2] == 'X';
      const unsigned long cp = std::strtoul(name.c_str() + (hex ? 3 : 2), nullptr, hex ? 16 : 10);
      std::string utf8;
      if (cp < 0x80) {
        utf8 += char(cp);
      } else if (cp < 0x800) {
        utf8 += char(0xC0 | (cp >> 6));
        utf8 += char(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        utf8 += char(0xE0 | (cp >> 12));
        utf8 += char(0x80 | ((cp >> 6) & 0x3F));
        utf8 += char(0x80 | (cp & 0x3F));
      } else {
        utf8 += char(0xF0 | (cp >> 18));
        utf8 += char(0x80 | ((cp >> 12) & 0x3F));
        utf8 += char(0x80 | ((cp >> 6) & 0x3F));
        utf8 += char(0x80 | (cp & 0x3F));
      }
      return utf8;
    }
    return name;
  }

  std::vector<Open> open_;
  bool inCell_ = false;
  int emphasis_ = 0, strong_ = 0, code_ = 0;
  std::string link_;
};

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const size_t last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

bool isHtml(const Block& b) {
  return b.kind == Kind::Code && b.codeLanguage == "html";
}

// "<!-- steps: n=8 -->" -> ("steps", "n=8"); anything else -> ("", "").
std::pair<std::string, std::string> marker(const Block& b) {
  const std::string html = trim(b.code);
  if (html.rfind("<!--", 0) != 0 || html.size() < 7 || html.compare(html.size() - 3, 3, "-->"))
    return {};
  const std::string inside = trim(html.substr(4, html.size() - 7));
  const size_t colon = inside.find(':');
  if (colon == std::string::npos) return {trim(inside), ""};
  return {trim(inside.substr(0, colon)), trim(inside.substr(colon + 1))};
}

Inline inlineOf(const Block& item) {  // a list item's text, its paragraphs joined
  Inline all;
  for (const Block& child : item.children)
    if (child.kind == Kind::Paragraph) {
      if (!all.empty()) all.push_back({" ", "", false, false, false});
      all.insert(all.end(), child.spans.begin(), child.spans.end());
    }
  return all;
}

// Reads the HTML markers of one sequence of sibling blocks (and, recursively, their children)
// into Steps, Predict and Details blocks.
std::vector<Block> readMarkers(std::vector<Block> in, std::vector<std::string>& problems) {
  std::vector<Block> out;
  for (size_t i = 0; i < in.size(); ++i) {
    Block b = std::move(in[i]);
    if (!isHtml(b)) {
      b.children = readMarkers(std::move(b.children), problems);
      out.push_back(std::move(b));
      continue;
    }
    const std::string html = trim(b.code);
    const auto [name, argument] = marker(b);
    if (name == "steps") {
      if (i + 1 >= in.size() || in[i + 1].kind != Kind::List) {
        problems.push_back("<!-- steps: " + argument + " --> must be followed by a list.");
        continue;
      }
      Block steps;
      steps.kind = Kind::Steps;
      steps.query = argument;
      for (const Block& item : in[++i].children) steps.items.push_back(inlineOf(item));
      out.push_back(std::move(steps));
    } else if (name == "predict") {
      Block predict;
      predict.kind = Kind::Predict;
      const size_t space = argument.find(' ');
      predict.predictKind = argument.substr(0, space);
      predict.query = space == std::string::npos ? "" : trim(argument.substr(space + 1));
      if (predict.predictKind != "result" && predict.predictKind != "faster" &&
          predict.predictKind != "idle")
        problems.push_back("<!-- predict: " + argument +
                           " --> names no kind of prediction; use result, faster or idle.");
      if (i + 1 >= in.size() || in[i + 1].kind != Kind::Paragraph) {
        problems.push_back("<!-- predict: " + argument + " --> must be followed by a paragraph.");
        continue;
      }
      predict.spans = std::move(in[++i].spans);
      out.push_back(std::move(predict));
    } else if (html.rfind("<details>", 0) == 0) {
      Block details;
      details.kind = Kind::Details;
      const size_t open = html.find("<summary>"), close = html.find("</summary>");
      if (open == std::string::npos || close == std::string::npos || close < open) {
        problems.push_back("A <details> block needs <summary>...</summary> on its first line.");
        continue;
      }
      const Document summary = parse(html.substr(open + 9, close - open - 9));
      if (!summary.blocks.empty()) details.spans = summary.blocks.front().spans;
      std::vector<Block> folded;
      size_t j = i + 1;
      for (; j < in.size(); ++j) {
        if (isHtml(in[j]) && trim(in[j].code) == "</details>") break;
        folded.push_back(std::move(in[j]));
      }
      if (j == in.size()) problems.push_back("A <details> block has no </details>.");
      details.children = readMarkers(std::move(folded), problems);
      i = j;
      // A predict's reason is the folded block right after its question.
      if (!out.empty() && out.back().kind == Kind::Predict && out.back().children.empty())
        out.back().children.push_back(std::move(details));
      else
        out.push_back(std::move(details));
    } else {
      problems.push_back("Raw HTML is not part of the lesson format: " + html.substr(0, 60));
    }
  }
  return out;
}

}  // namespace

Document parse(const std::string& markdown) {
  Builder builder;
  MD_PARSER parser{};
  parser.abi_version = 0;
  parser.flags = MD_FLAG_TABLES | MD_FLAG_NOINDENTEDCODEBLOCKS;
  parser.enter_block = [](MD_BLOCKTYPE t, void* d, void* u) {
    return static_cast<Builder*>(u)->enterBlock(t, d);
  };
  parser.leave_block = [](MD_BLOCKTYPE t, void*, void* u) {
    return static_cast<Builder*>(u)->leaveBlock(t);
  };
  parser.enter_span = [](MD_SPANTYPE t, void* d, void* u) {
    return static_cast<Builder*>(u)->enterSpan(t, d);
  };
  parser.leave_span = [](MD_SPANTYPE t, void*, void* u) {
    return static_cast<Builder*>(u)->leaveSpan(t);
  };
  parser.text = [](MD_TEXTTYPE t, const MD_CHAR* s, MD_SIZE n, void* u) {
    return static_cast<Builder*>(u)->text(t, s, n);
  };
  Document doc;
  if (md_parse(markdown.data(), MD_SIZE(markdown.size()), &parser, &builder) != 0) {
    doc.problems.push_back("The Markdown could not be parsed.");
    return doc;
  }
  doc.blocks = readMarkers(builder.finish(), doc.problems);
  if (!doc.blocks.empty() && doc.blocks.front().kind == Kind::Heading &&
      doc.blocks.front().level == 1) {
    doc.title = plain(doc.blocks.front().spans);
    doc.blocks.erase(doc.blocks.begin());
  }
  return doc;
}

namespace {

// The code point at s[i] and its length in bytes.
std::pair<uint32_t, size_t> codePoint(const std::string& s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const size_t bytes = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  uint32_t cp = bytes == 1 ? c : c & (0xFF >> (bytes + 1));
  for (size_t k = 1; k < bytes && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
  return {cp, std::min(bytes, s.size() - i)};
}

bool isWide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6);
}

bool closesPunctuation(uint32_t cp) {  // never starts a line
  for (uint32_t c : {0x3001u, 0x3002u, 0xFF0Cu, 0xFF0Eu, 0xFF09u, 0x300Du, 0x300Fu, 0xFF01u,
                     0xFF1Fu, 0xFF1Au, 0xFF1Bu, 0x30FCu, 0x3011u, 0x3009u, 0x300Bu})
    if (cp == c) return true;
  return false;
}

}  // namespace

int columns(const std::string& utf8) {
  int n = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto [cp, bytes] = codePoint(utf8, i);
    n += isWide(cp) ? 2 : 1;
    i += bytes;
  }
  return n;
}

std::vector<Word> words(const std::string& s) {
  std::vector<Word> all;
  size_t i = 0;
  while (i < s.size()) {
    Word w;
    if (s[i] == '\n') {
      w.begin = i;
      w.end = ++i;
      w.newline = true;
      all.push_back(w);
      continue;
    }
    while (i < s.size() && s[i] == ' ') ++i, w.spaceBefore = true;
    w.begin = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\n') {
      const auto [cp, bytes] = codePoint(s, i);
      if (isWide(cp) && i > w.begin && !closesPunctuation(cp)) break;  // starts its own word
      i += bytes;
      w.columns += isWide(cp) ? 2 : 1;
      if (isWide(cp)) {  // ends the word, with any closing punctuation after it
        while (i < s.size()) {
          const auto [next, nextBytes] = codePoint(s, i);
          if (!closesPunctuation(next)) break;
          i += nextBytes;
          w.columns += 2;
        }
        break;
      }
    }
    w.end = i;
    if (w.end > w.begin) all.push_back(w);
  }
  return all;
}

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
    found = parsed.emplace(path, markdown ? std::make_unique<Document>(parse(*markdown)) : nullptr)
                .first;
  }
  return found->second.get();
}

namespace {
void collectLinks(const Inline& spans, std::vector<Link>& links) {
  for (size_t i = 0; i < spans.size(); ++i) {
    if (spans[i].link.rfind("try:", 0) != 0) continue;
    if (i > 0 && spans[i - 1].link == spans[i].link) {  // one link in several looks
      links.back().label += spans[i].text;
      continue;
    }
    links.push_back({spans[i].text, spans[i].link.substr(4)});
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

int64_t wholeNumber(const std::string& key, const std::string& value, int64_t high) {
  const bool digits =
      !value.empty() && value.size() <= 18 &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int64_t v = digits ? std::stoll(value) : -1;
  if (!digits || v < 1 || v > high)
    throw ParamError(key + "=" + value + " is not allowed; give a whole number from 1 to " +
                     std::to_string(high) + ".");
  return v;
}

}  // namespace

Params paramsFromQuery(const std::string& chapter, const std::string& query) {
  Params p;
  p.lesson = chapter;
  for (const auto& [key, value] : queryPairs(query)) {
    if (key == "lesson") {
      p.lesson = value;
    } else if (key == "variant") {
      p.variant = value;
    } else if (key == "n") {
      p.n = wholeNumber(key, value, kMaxN);
    } else if (key == "block") {
      p.block = int(wholeNumber(key, value, 1024));
    } else if (key == "op") {
      p.op = parseOp(value);
    } else if (key == "type") {
      p.type = parseType(value);
    } else if (key == "data") {
      p.data = value;
    } else if (key == "values") {
      p.values = parseValues(value);
    } else if (key == "barrier") {
      if (value != "off" && value != "on")
        throw ParamError("barrier=" + value + " is not allowed; use barrier=off or barrier=on.");
      p.barrier = value == "on";
    } else if (key == "perturb") {
      p.perturb = true;
    } else if (key == "printf") {
      p.printing = true;
    } else if (key == "memory") {
      p.memory = true;
    } else if (key == "schedule") {
      p.schedule = value;
    } else if (key == "backend") {
      p.backend = parseBackend(value);
    } else if (key == "gpus") {
      p.gpus = int(wholeNumber(key, value, 8));
    } else if (key == "per-thread") {
      p.perThread = int(wholeNumber(key, value, kMaxPerThread));
    } else if (key == "load-add") {
      if (value != "off" && value != "on")
        throw ParamError("load-add=" + value + " is not allowed; use load-add=off or load-add=on.");
      p.loadAdd = value == "on";
    } else {
      throw ParamError("'" + key +
                       "' is not a key of a try link; use lesson, variant, n, block, op, type, "
                       "data, values, barrier, perturb, printf, memory, schedule, gpus, per-thread, "
                       "load-add or backend.");
    }
  }
  if (!findLesson(p.lesson))
    throw ParamError("A try link in chapter '" + chapter +
                     "' must name its lesson (lesson=" + lessonIds() + ").");
  resolve(p);
  return p;
}

std::string commandLineFor(const std::string& chapter, const std::string& query) {
  std::string lesson = chapter, options;
  for (const auto& [key, value] : queryPairs(query)) {
    if (key == "lesson")
      lesson = value;
    else if (key == "barrier")
      options += value == "off" ? " --no-barrier" : "";
    else if (key == "perturb" || key == "printf")
      options += " --" + key;
    else if (key == "memory")  // the app opens its memory view
      options += " --memory";
    else if (key == "load-add")
      options += value == "off" ? " --no-load-add" : "";
    else if (key == "values")
      options += " --values=" + value;
    else
      options += " --" + key + " " + value;
  }
  return "rlab run " + lesson + options;
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
    throw ParamError("A 'faster' prediction names two variants, e.g. variant=global,shared.");
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
         x.barrier == y.barrier && x.perturb == y.perturb && x.printing == y.printing &&
         x.schedule == y.schedule && x.gpus == y.gpus && x.perThread == y.perThread &&
         x.loadAdd == y.loadAdd;
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

const text::Block* narrationFor(const Params& run, bool ranOnSimulator, Language language) {
  const Resolved resolved = resolve(run);
  // On a GPU the order of atomics and a race without its barrier differ from run to run.
  if (!ranOnSimulator && (!run.barrier || run.perturb || run.printing || run.lesson == "atomic"))
    return nullptr;
  const text::Document* doc = text::chapter(run.lesson, language);
  return doc ? findSteps(doc->blocks, run.lesson, resolved) : nullptr;
}

}  // namespace rlab
