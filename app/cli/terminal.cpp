// The terminal's width and text fitted to it (terminal.hpp).
#include "app/cli/terminal.hpp"

#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "app/cli/terminal_style.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab::cli {

namespace {

// The length of the ANSI escape starting at s[i] ("\033[1;31m"), or 0 where none starts there.
size_t escapeLength(const std::string& s, size_t i) {
  if (s[i] != '\033' || i + 1 >= s.size() || s[i + 1] != '[') return 0;
  size_t end = i + 2;
  while (end < s.size() && !(s[end] >= 0x40 && s[end] <= 0x7E)) ++end;
  return std::min(end + 1, s.size()) - i;
}

size_t codePointLength(const std::string& s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const size_t bytes = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(bytes, s.size() - i);
}

// How many bytes of `s` fit in `columns` (escapes cost nothing); at least one character, so
// that cutting a word always gets on.
size_t bytesFitting(const std::string& s, int columns) {
  size_t i = 0;
  int used = 0;
  while (i < s.size()) {
    if (const size_t escape = escapeLength(s, i)) {
      i += escape;
      continue;
    }
    const size_t bytes = codePointLength(s, i);
    const int wide = text::columns(s.substr(i, bytes));
    if (used + wide > columns && i > 0) break;
    used += wide;
    i += bytes;
  }
  return i;
}

}  // namespace

int widthFrom(const char* columnsVariable, int terminalColumns) {
  int width = 0;
  if (columnsVariable && *columnsVariable) {
    const std::string text = columnsVariable;
    if (text.size() <= 5 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      width = std::stoi(text);
  }
  if (width <= 0) width = terminalColumns > 0 ? terminalColumns : kDefaultWidth;
  return std::max(width, kNarrowestWidth);
}

int terminalWidth() {
  winsize size{};
  const int columns =
      isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  return widthFrom(std::getenv("COLUMNS"), columns);
}

bool showInPager(const std::string& text) {
  const char* given = std::getenv("PAGER");
  const std::string command = given && *given ? given : "less -FRX";
  std::fflush(stdout);
  // A reader who quits the pager before the end closes the pipe: that is no error of ours.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  FILE* pipe = popen(command.c_str(), "w");
  bool shown = false;
  if (pipe) {
    std::fwrite(text.data(), 1, text.size(), pipe);
    const int status = pclose(pipe);
    // 127: the shell found no such program, and nothing was shown.
    shown = status != -1 && !(WIFEXITED(status) && WEXITSTATUS(status) == 127);
  }
  std::signal(SIGPIPE, previous);
  return shown;
}

int visibleColumns(const std::string& s) {
  std::string shown;
  for (size_t i = 0; i < s.size();) {
    if (const size_t escape = escapeLength(s, i)) {
      i += escape;
      continue;
    }
    shown += s[i++];
  }
  return text::columns(shown);
}

void printWrapped(const std::string& text, const std::string& firstIndent,
                  const std::string& indent, int width, std::ostream& out) {
  std::string line = firstIndent;
  int column = visibleColumns(firstIndent);
  bool hasWords = false, printed = false;
  auto endLine = [&] {
    out << line << "\n";
    line = indent;
    column = visibleColumns(indent);
    hasWords = false;
    printed = true;
  };
  size_t previousEnd = 0;
  for (const text::Word& w : text::words(text)) {
    if (w.newline) {
      endLine();
      previousEnd = w.end;
      continue;
    }
    std::string word = text.substr(w.begin, w.end - w.begin);
    int wordColumns = visibleColumns(word);
    std::string gap = hasWords ? text.substr(previousEnd, w.begin - previousEnd) : "";
    previousEnd = w.end;
    if (hasWords && column + int(gap.size()) + wordColumns > width) {
      endLine();
      gap.clear();
    }
    while (column + wordColumns > width) {  // wider than a whole line: cut it
      const size_t bytes = bytesFitting(word, width - column);
      line += word.substr(0, bytes);
      word.erase(0, bytes);
      wordColumns = visibleColumns(word);
      hasWords = true;
      endLine();
    }
    if (word.empty()) continue;
    line += gap + word;
    column += int(gap.size()) + wordColumns;
    hasWords = true;
  }
  if (hasWords || (!printed && firstIndent != indent)) out << line << "\n";
}

std::string elided(const std::string& text, int width) {
  if (visibleColumns(text) <= width) return text;
  std::string cut = text.substr(0, bytesFitting(text, width - 1)) + "…";
  if (text.find('\033') != std::string::npos) cut += kReset;  // never leave a colour open
  return cut;
}

void printTable(const Table& table, const std::string& indent, int width, std::ostream& out) {
  const size_t columns = table.header.size();
  std::vector<int> widths(columns, 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size() && c < columns; ++c)
      widths[c] = std::max(widths[c], visibleColumns(row[c]));
  };
  measure(table.header);
  for (const auto& row : table.rows) measure(row);
  const int gap = visibleColumns(table.gap);
  const int indentColumns = visibleColumns(indent);

  auto printRow = [&](const std::vector<std::string>& row, size_t first, size_t last) {
    std::vector<size_t> shown{0};
    for (size_t c = first; c < last; ++c) shown.push_back(c);
    while (shown.size() > 1 && (shown.back() >= row.size() || row[shown.back()].empty()))
      shown.pop_back();
    std::string line = indent;
    for (size_t k = 0; k < shown.size(); ++k) {
      const size_t c = shown[k];
      const std::string& cell = c < row.size() ? row[c] : std::string();
      const std::string pad(size_t(widths[c] - visibleColumns(cell)), ' ');
      if (k > 0) line += table.gap;
      if (table.rightAligned && !(k == 0 && table.namesLeft))
        line += pad + cell;
      else
        line += cell + (k + 1 < shown.size() ? pad : "");
    }
    out << elided(line, width) << "\n";  // only a column wider than the whole line is cut
  };

  // Bands: the first column, then as many of the others as fit beside it (at least one).
  for (size_t first = 1; first < columns || first == 1;) {
    int used = indentColumns + widths[0];
    size_t last = first;
    while (last < columns && (last == first || used + gap + widths[last] <= width))
      used += gap + widths[last++];
    if (first > 1) out << "\n";
    printRow(table.header, first, last);
    for (const auto& row : table.rows) printRow(row, first, last);
    if (last >= columns) break;
    first = last;
  }
}

}  // namespace rlab::cli
