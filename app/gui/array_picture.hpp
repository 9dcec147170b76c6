// The array panel's picture (array_picture.cpp): the array, or a window of it, as a row of cells,
// how many cells fit, and the heights of its parts, which the panel's height reserves too.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "app/gui/panels.hpp"

namespace rlab::gui {

struct CellMark {
  long long element = -1;
  std::string caption;
  ImU32 colour = 0;
  bool dashed = false;  // a late write: the value is there, but came too late for a reader
};

struct ArrayPicture {
  const std::vector<double>& values;
  ElementType type;
  std::function<bool(size_t)> glows;  // changed in this step
  std::set<int> outlined;             // written by a working thread
  const std::vector<std::pair<int, int>>& pairs;
  const std::vector<CombineRead>* combines = nullptr;  // who combined what, where known
  std::vector<CellMark> marks = {};
  std::string array = "a";          // the kernel's name for it
  long long perBlock = 0;           // elements a block holds (boundaries); 0: not drawn
  std::vector<long long> hot = {};  // elements this step wrote: ticks on the overview strip
  long long paddingFrom = -1;       // cells from here hold no input (threads past n)
  long long perCluster = 0;         // elements a thread block cluster holds; 0: not drawn
};

// The picture's parts, in font sizes, top to bottom: the room above the cells for the arcs, the
// cells, what is under them, the overview strip.
constexpr float kNoArcsRoom = 0.4f;  // a step without pairs needs none
constexpr float kLeastArcsRoom = 1.6f, kMostArcsRoom = 6.f;
constexpr float kLeastCellHeight = 1.4f, kMostCellHeight = 2.2f;
constexpr float kIndicesBelow = 1.3f;   // the indices
constexpr float kCaptionsBelow = 2.4f;  // ... then a line for boundaries, marks and the padding
constexpr float kOverviewHeight = 0.8f;

// How many cells fit, with their values whole: smaller text before paging, up to 64 cells (so
// that a warp's 32 lanes stay on one screen at 1024 pixels); more are shown a window at a time.
struct CellLayout {
  long long shown = 0;
  bool paged = false;
  float textScale = 1;
};
CellLayout fitCells(const ArrayPicture& a, float width);

// The cells in the space left in the window, and the strip under them when they are paged.
void drawPicture(UiState& ui, const ArrayPicture& a, const CellLayout& l, const Palette& pal);

}  // namespace rlab::gui
