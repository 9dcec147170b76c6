// A chapter of the course in a terminal: Markdown as plain text wrapped to the terminal's width,
// 80 columns at most (a Japanese or Chinese character is two columns wide), every try link with its
// command line, the folded answers folded (a line that says so) or, with --answers, each under its
// question.
#include <algorithm>
#include <ostream>
#include <sstream>

#include "app/cli/terminal.hpp"
#include "app/cli/views.hpp"

namespace rlab::cli {

namespace {

constexpr int kWidestProse = 80;  // prose reads best no wider, however wide the terminal

class ChapterPrinter {
 public:
  ChapterPrinter(const std::string& chapter, std::ostream& out, Language language, int width,
                 bool unfoldAnswers)
      : chapter_(chapter),
        out_(out),
        language_(language),
        width_(width),
        unfoldAnswers_(unfoldAnswers) {}

  void blocks(const std::vector<text::Block>& blocks, const std::string& indent) {
    for (const auto& b : blocks) block(b, indent);
  }

 private:
  std::string inlineText(const text::Inline& spans) {
    std::string s;
    for (size_t i = 0; i < spans.size(); ++i) {
      const text::Span& span = spans[i];
      s += span.code ? "`" + span.text + "`" : span.text;
      const bool linkEnds =
          !span.link.empty() && (i + 1 == spans.size() || spans[i + 1].link != span.link);
      if (linkEnds)
        s += span.link.rfind("try:", 0) == 0 ? " [" + commandLineFor(chapter_, span.link) + "]"
                                             : " <" + span.link + ">";
    }
    return s;
  }

  void block(const text::Block& b, const std::string& indent) {
    using Kind = text::Block::Kind;
    switch (b.kind) {
      case Kind::Heading:
        heading(b, indent);
        break;
      case Kind::Paragraph:
        printWrapped(inlineText(b.spans), indent, indent, width_, out_);
        out_ << "\n";
        break;
      case Kind::Code: {
        std::istringstream lines(b.code);
        for (std::string line; std::getline(lines, line);) out_ << indent << "    " << line << "\n";
        out_ << "\n";
        break;
      }
      case Kind::List:
        list(b, indent);
        break;
      case Kind::ListItem:
      case Kind::Quote:
        blocks(b.children, indent + "  | ");
        break;
      case Kind::Table:
        table(b, indent);
        break;
      case Kind::Rule:
        out_ << indent << std::string(size_t(width_) - indent.size(), '-') << "\n\n";
        break;
      case Kind::Details:
        details(b, indent);
        break;
      case Kind::Steps:
        steps(b, indent);
        break;
      case Kind::Predict:
        predict(b, indent);
        break;
    }
  }

  void heading(const text::Block& b, const std::string& indent) {
    const std::string title = inlineText(b.spans);
    out_ << "\n" << indent << title << "\n";
    out_ << indent << std::string(size_t(text::columns(title)), b.level <= 2 ? '=' : '-') << "\n\n";
  }

  // Each item after its bullet or number, its first paragraph on the bullet's line.
  void list(const text::Block& b, const std::string& indent) {
    using Kind = text::Block::Kind;
    int number = 1;
    for (const auto& item : b.children) {
      const std::string bullet = b.ordered ? std::to_string(number++) + ". " : "- ";
      const std::string inner = indent + std::string(bullet.size(), ' ');
      bool first = true;
      for (const auto& child : item.children) {
        if (first && child.kind == Kind::Paragraph) {
          printWrapped(inlineText(child.spans), indent + bullet, inner, width_, out_);
        } else {
          block(child, inner);
        }
        first = false;
      }
    }
    out_ << "\n";
  }

  // A table in columns as wide as their widest cells, the header ruled off; stacked rows where
  // the columns do not fit the width.
  void table(const text::Block& b, const std::string& indent) {
    std::vector<size_t> widths;
    for (const auto& row : b.rows)
      for (size_t c = 0; c < row.size(); ++c) {
        if (widths.size() <= c) widths.resize(c + 1, 0);
        widths[c] = std::max(widths[c], size_t(text::columns(inlineText(row[c]))));
      }
    size_t wide = indent.size();
    for (size_t c = 0; c < widths.size(); ++c) wide += widths[c] + (c ? 2 : 0);
    if (int(wide) > width_) {
      stackedRows(b, indent);
      return;
    }
    for (size_t r = 0; r < b.rows.size(); ++r) {
      out_ << indent;
      for (size_t c = 0; c < b.rows[r].size(); ++c) {
        const std::string cell = inlineText(b.rows[r][c]);
        out_ << (c ? "  " : "") << cell
             << std::string(widths[c] - size_t(text::columns(cell)), ' ');
      }
      out_ << "\n";
      if (r == 0) {
        out_ << indent;
        for (size_t c = 0; c < widths.size(); ++c)
          out_ << (c ? "  " : "") << std::string(widths[c], '-');
        out_ << "\n";
      }
    }
    out_ << "\n";
  }

  void details(const text::Block& b, const std::string& indent) {
    // A folded answer stays folded (the reader predicts first) unless --answers unfolds
    // every one, each right under its question.
    if (!unfoldAnswers_) {
      printWrapped("? " + inlineText(b.spans) + "  " + say(Message("view.answer-folded")), indent,
                   indent + "  ", width_, out_);
      out_ << "\n";
      return;
    }
    printWrapped("> " + inlineText(b.spans), indent, indent + "  ", width_, out_);
    blocks(b.children, indent + "    ");
  }

  // A narrated run: its command line, then each step's sentence under its number.
  void steps(const text::Block& b, const std::string& indent) {
    out_ << indent << commandLineFor(chapter_, b.query) << "\n";
    for (size_t k = 0; k < b.items.size(); ++k)
      printWrapped(inlineText(b.items[k]),
                   indent + "  " + say(Message("view.step-number", {{"step", k}})) + " ",
                   indent + "          ", width_, out_);
    out_ << "\n";
  }

  // A prediction: the question, the run that answers it, then its reasons.
  void predict(const text::Block& b, const std::string& indent) {
    printWrapped(say(Message("view.predict", {{"question", inlineText(b.spans)}})), indent,
                 indent + "  ", width_, out_);
    printWrapped(say(predictCommands(b)), indent + "  ", indent + "    ", width_, out_);
    for (const auto& reason : b.children) block(reason, indent);
    out_ << "\n";
  }

  // A table too wide for the terminal: each row a block of its own, its first cell as the
  // block's head and each other cell under it, named by its column's header.
  void stackedRows(const text::Block& b, const std::string& indent) {
    if (b.rows.empty()) return;
    const auto& header = b.rows.front();
    for (size_t r = 1; r < b.rows.size(); ++r) {
      const auto& row = b.rows[r];
      for (size_t c = 0; c < row.size(); ++c) {
        const std::string cell = inlineText(row[c]);
        const std::string name = c < header.size() ? inlineText(header[c]) : "";
        if (c == 0)
          printWrapped((name.empty() ? "" : name + ": ") + cell, indent + "- ", indent + "  ",
                       width_, out_);
        else
          printWrapped((name.empty() ? "" : name + ": ") + cell, indent + "    ", indent + "      ",
                       width_, out_);
      }
    }
    out_ << "\n";
  }

  // "then run: rlab run ..." (two commands for a "which is faster" question).
  Message predictCommands(const text::Block& b) {
    try {
      std::vector<std::string> commands;
      for (const std::string& query : predictionQueries(b))
        commands.push_back(commandLineFor(chapter_, query));
      if (commands.size() == 2)
        return Message("view.then-run-both", {{"first", commands[0]}, {"second", commands[1]}});
      return Message("view.then-run", {{"command", commands.empty() ? "" : commands[0]}});
    } catch (const ParamError& e) {
      return e.message();
    }
  }

  std::string say(const Message& m) const { return render(m, language_); }

  const std::string& chapter_;
  std::ostream& out_;
  Language language_;
  const int width_;
  const bool unfoldAnswers_;
};

}  // namespace

void printChapterText(const text::Document& doc, const std::string& chapter, std::ostream& out,
                      Language language, int width, bool unfoldAnswers) {
  width = std::min(width, kWidestProse);
  out << doc.title << "\n" << std::string(size_t(width), '=') << "\n";
  ChapterPrinter printer(chapter, out, language, width, unfoldAnswers);
  printer.blocks(doc.blocks, "");
}

void printNarration(const text::Inline& item, std::ostream& out, int width) {
  printWrapped(text::plain(item), "        > ", "          ", width, out);
}

}  // namespace rlab::cli
