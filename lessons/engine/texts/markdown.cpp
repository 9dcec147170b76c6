// A chapter's Markdown into blocks (md4c), with the course's own markers: try links, steps,
// predictions and folded answers.
#include <md4c.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "lessons/engine/texts/texts.hpp"

namespace rlab {

namespace text {

namespace {

using Kind = Block::Kind;

// Builds blocks from md4c's callbacks. Open blocks live on a stack by value and move into
// their parent when they close; HTML blocks are kept as Kind::Code with codeLanguage "html"
// until the markers are read (readMarkers).
class Builder {
 public:
  explicit Builder(std::string_view source) : source_(source) {
    open_.emplace_back();
    open_.back().block.kind = Kind::Quote;
    for (size_t i = 0; i < source.size(); ++i)
      if (source[i] == '\n') lineStarts_.push_back(i + 1);
  }

  // The line (from 1) of a pointer into the source; 0 for text md4c made up (entities).
  int lineOf(const char* p) const {
    if (p < source_.data() || p >= source_.data() + source_.size()) return 0;
    const size_t offset = size_t(p - source_.data());
    return int(std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset) -
               lineStarts_.begin()) +
           1;
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
      linkLine_ = href.text ? lineOf(href.text) : 0;
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
    const int line = lineOf(text);
    Block& b = top();
    if (b.line == 0) b.line = line;
    if (!inCell_ && (b.kind == Kind::Code)) {
      b.code += piece;
      return 0;
    }
    if (!inCell_ && (b.kind == Kind::ListItem || b.kind == Kind::Quote)) {
      open_.push_back({Block{}, true});  // a tight list's item: text without a paragraph
      top().line = line;
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
    span.line = link_.empty() ? 0 : (linkLine_ ? linkLine_ : line);
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

  std::string_view source_;
  std::vector<size_t> lineStarts_;
  int linkLine_ = 0;
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
std::vector<Block> readMarkers(std::vector<Block> in, std::vector<Problem>& problems) {
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
        problems.push_back({b.line, Message("chapter.steps-need-list", {{"argument", argument}})});
        continue;
      }
      Block steps;
      steps.kind = Kind::Steps;
      steps.query = argument;
      steps.line = b.line;
      for (const Block& item : in[++i].children) steps.items.push_back(inlineOf(item));
      out.push_back(std::move(steps));
    } else if (name == "predict") {
      Block predict;
      predict.kind = Kind::Predict;
      const size_t space = argument.find(' ');
      predict.predictKind = argument.substr(0, space);
      predict.query = space == std::string::npos ? "" : trim(argument.substr(space + 1));
      predict.line = b.line;
      if (predict.predictKind != "result" && predict.predictKind != "faster" &&
          predict.predictKind != "idle")
        problems.push_back({b.line, Message("chapter.predict-kind", {{"argument", argument}})});
      if (i + 1 >= in.size() || in[i + 1].kind != Kind::Paragraph) {
        problems.push_back(
            {b.line, Message("chapter.predict-needs-paragraph", {{"argument", argument}})});
        continue;
      }
      predict.spans = std::move(in[++i].spans);
      out.push_back(std::move(predict));
    } else if (html.rfind("<details>", 0) == 0) {
      Block details;
      details.kind = Kind::Details;
      details.line = b.line;
      const size_t open = html.find("<summary>"), close = html.find("</summary>");
      if (open == std::string::npos || close == std::string::npos || close < open) {
        problems.push_back({b.line, Message("chapter.details-summary")});
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
      if (j == in.size()) problems.push_back({b.line, Message("chapter.details-unclosed")});
      details.children = readMarkers(std::move(folded), problems);
      i = j;
      // A predict's reason is the folded block right after its question.
      if (!out.empty() && out.back().kind == Kind::Predict && out.back().children.empty())
        out.back().children.push_back(std::move(details));
      else
        out.push_back(std::move(details));
    } else {
      problems.push_back({b.line, Message("chapter.raw-html", {{"html", html.substr(0, 60)}})});
    }
  }
  return out;
}

}  // namespace

Document parse(const std::string& markdown) {
  Builder builder(markdown);
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
    doc.problems.push_back({0, Message("chapter.unparsable")});
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

}  // namespace text
}  // namespace rlab
