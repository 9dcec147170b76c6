// The terminal rlab writes to: how wide it is, and text fitted to that width (prose wrapped
// between words, tables cut into bands of columns). No line a function here prints is longer
// than the width it is given, however long its words.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace rlab::cli {

inline constexpr int kDefaultWidth = 80;    // not a terminal and no COLUMNS
inline constexpr int kNarrowestWidth = 40;  // narrower terminals get lines of 40

// The width lines may take: COLUMNS where it holds a whole number, else `terminalColumns` (the
// terminal's own width; 0 where stdout is no terminal), else 80; never less than 40.
int widthFrom(const char* columnsVariable, int terminalColumns);
// widthFrom with this process's COLUMNS and the width of the terminal on stdout.
int terminalWidth();

// `text` through $PAGER (default `less -FRX`: it quits at once where the text fits the screen
// and keeps colours), for a person at a terminal. False where no pager could be started.
bool showInPager(const std::string& text);

// Columns a string takes in a terminal: a Japanese or Chinese character two, an ANSI colour
// escape none.
int visibleColumns(const std::string& s);

// `text` in lines of at most `width` columns, broken between words and between Japanese or
// Chinese characters; spaces inside a line kept as written. The first line starts with
// `firstIndent`, the others with `indent`. A word wider than a line is cut into pieces.
void printWrapped(const std::string& text, const std::string& firstIndent,
                  const std::string& indent, int width, std::ostream& out);

// `text` cut to at most `width` columns, ending in "…" where something was cut off.
std::string elided(const std::string& text, int width);

// A table: a header row and rows of cells (ANSI colours allowed), `gap` between columns, each
// column as wide as its widest cell, numbers right-aligned where `rightAligned` (the first
// column too, unless it holds the rows' names: `namesLeft`). Where the columns do not fit the
// width, the table is printed in bands of the columns that do, the first column repeated in
// every band. Trailing empty cells print nothing.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  bool rightAligned = false;
  std::string gap = "  ";
  bool namesLeft = false;
};
void printTable(const Table& table, const std::string& indent, int width, std::ostream& out);

}  // namespace rlab::cli
