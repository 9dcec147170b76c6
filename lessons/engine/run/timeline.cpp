#include "lessons/engine/run/timeline.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace rlab {

namespace {

struct Place {
  int row = -1, cell = -1;
};

// (level, element) -> the cell that wrote it
using WriterMap = std::map<std::pair<int, int>, Place>;

// The threads with a stamped combine, thread -> row (rows still 0).
std::map<int, int> stampedThreads(const Trace& t) {
  std::map<int, int> rowOf;
  for (size_t k = 1; k < t.steps.size(); ++k)
    for (const CombineRead& c : t.steps[k].combines)
      if (c.readClock >= 0 && c.wroteClock >= 0) rowOf.emplace(c.thread, 0);
  return rowOf;
}

// The cells, each in its thread's row, and where each level's writes are; the stamps, in order
// and each once.
std::vector<long long> placeCells(const Trace& t, std::map<int, int>& rowOf, Timeline& tl,
                                  WriterMap& writerOf) {
  std::vector<long long> clocks;
  for (size_t k = 1; k < t.steps.size(); ++k)
    for (const CombineRead& c : t.steps[k].combines) {
      if (c.readClock < 0 || c.wroteClock < 0) continue;
      TimelineCell cell;
      cell.level = int(k);
      cell.readClock = c.readClock;
      cell.wroteClock = c.wroteClock;
      cell.combine = c;
      cell.staleRead = c.target.stale || c.source.stale;
      TimelineRow& row = tl.rows[size_t(rowOf[c.thread])];
      writerOf[{int(k), c.target.element}] = {rowOf[c.thread], int(row.cells.size())};
      row.cells.push_back(cell);
      clocks.push_back(c.readClock);
      clocks.push_back(c.wroteClock);
    }
  std::sort(clocks.begin(), clocks.end());
  clocks.erase(std::unique(clocks.begin(), clocks.end()), clocks.end());
  return clocks;
}

// Columns: a combine runs in its level's column unless another thread had already begun a
// later level when it read; then it ran in that level's time, late.
void placeInColumns(Timeline& tl, const std::vector<long long>& clocks) {
  auto tick = [&](long long clock) {
    return int(std::lower_bound(clocks.begin(), clocks.end(), clock) - clocks.begin()) + 1;
  };
  std::vector<TimelineCell*> byRead;
  for (TimelineRow& row : tl.rows)
    for (TimelineCell& cell : row.cells) {
      cell.readTick = tick(cell.readClock);
      cell.writeTick = tick(cell.wroteClock);
      byRead.push_back(&cell);
    }
  std::stable_sort(byRead.begin(), byRead.end(), [](const TimelineCell* a, const TimelineCell* b) {
    return a->readClock < b->readClock;
  });
  int begunBefore = 0;  // the latest level begun strictly before the current stamp
  for (size_t i = 0, j = 0; i < byRead.size(); i = j) {
    for (j = i; j < byRead.size() && byRead[j]->readClock == byRead[i]->readClock; ++j) {
      TimelineCell& cell = *byRead[j];
      cell.column = std::max(cell.level, begunBefore) - 1;
      cell.late = cell.column + 1 > cell.level;
    }
    for (size_t k = i; k < j; ++k) begunBefore = std::max(begunBefore, byRead[k]->level);
  }
  std::map<int, int> perColumn;
  for (TimelineCell* cell : byRead) cell->orderInColumn = perColumn[cell->column]++;
  for (TimelineCell* cell : byRead) cell->inColumn = perColumn[cell->column];
}

// The cell that last wrote `element` at a level before `level` (row -1: none).
Place writerBefore(const WriterMap& writerOf, int level, int element) {
  Place writer;
  for (int l = level - 1; l >= 1 && writer.row < 0; --l) {
    auto found = writerOf.find({l, element});
    if (found != writerOf.end()) writer = found->second;
  }
  return writer;
}

// The read `read` of the cell at (r, c), which came before the write of `writer` it needed or
// read a value the array no longer held.
TimelineEarlyRead earlyRead(const Trace& t, const Timeline& tl, const WriterMap& writerOf, int r,
                            int c, const ValueRead& read, Place writer, bool before) {
  const TimelineCell& cell = tl.rows[size_t(r)].cells[size_t(c)];
  const TimelineCell& w = tl.rows[size_t(writer.row)].cells[size_t(writer.cell)];
  TimelineEarlyRead e;
  e.readerRow = r;
  e.readerCell = c;
  e.writerRow = writer.row;
  e.writerCell = writer.cell;
  if (auto from = writerOf.find({read.writtenAt, read.element}); from != writerOf.end()) {
    e.fromRow = from->second.row;
    e.fromCell = from->second.cell;
  }
  e.element = read.element;
  e.value = read.value;
  e.missed = w.combine.wrote;
  e.readTick = cell.readTick;
  e.writeTick = w.writeTick;
  const ElementType type = t.params.type;
  const std::vector<MessageArg> args = {{"value", formatValue(e.value, type)},
                                        {"writer", w.combine.thread},
                                        {"missed", formatValue(e.missed, type)}};
  e.text = before ? Message("timeline.read-before", args) : Message("timeline.read-not", args);
  e.sentence = read.stale
                   ? staleReadText(cell.combine, read, type, t.steps[size_t(cell.level)].array)
                   : e.text;
  return e;
}

// Every read of a value an earlier level wrote, against that write's stamp.
void findEarlyReads(const Trace& t, const WriterMap& writerOf, Timeline& tl) {
  for (int r = 0; r < int(tl.rows.size()); ++r)
    for (int c = 0; c < int(tl.rows[size_t(r)].cells.size()); ++c) {
      const TimelineCell& cell = tl.rows[size_t(r)].cells[size_t(c)];
      for (const ValueRead* read : {&cell.combine.target, &cell.combine.source}) {
        if (read->element < 0 || (read == &cell.combine.source &&
                                  cell.combine.source.element == cell.combine.target.element))
          continue;
        const Place writer = writerBefore(writerOf, cell.level, read->element);
        if (writer.row < 0) continue;  // the input: written before the launch
        const TimelineCell& w = tl.rows[size_t(writer.row)].cells[size_t(writer.cell)];
        const bool before = cell.readClock < w.wroteClock;
        (before ? tl.readsBeforeTheirWrite : tl.readsAfterTheirWrite) += 1;
        if (!before && !read->stale) continue;
        tl.earlyReads.push_back(earlyRead(t, tl, writerOf, r, c, *read, writer, before));
      }
    }
}

}  // namespace

Timeline buildTimeline(const Trace& t) {
  Timeline tl;
  tl.measured = t.backend == BackendChoice::Gpu;
  std::map<int, int> rowOf = stampedThreads(t);  // thread -> row
  if (!t.traced || rowOf.empty()) {
    tl.why = t.traced ? Message("timeline.no-stamps") : Message("timeline.no-steps");
    return tl;
  }
  tl.available = true;
  tl.clockText = tl.measured ? Message("timeline.clock-measured") : Message("timeline.clock-exact");
  for (auto& [thread, row] : rowOf) {
    row = int(tl.rows.size());
    tl.rows.push_back({thread, {}});
  }
  for (size_t k = 1; k < t.steps.size(); ++k)
    tl.columns.push_back(Message("timeline.level", {{"level", k}}));

  WriterMap writerOf;
  const std::vector<long long> clocks = placeCells(t, rowOf, tl, writerOf);
  tl.ticks = int(clocks.size());
  tl.firstClock = clocks.front();
  tl.lastClock = clocks.back();
  placeInColumns(tl, clocks);
  findEarlyReads(t, writerOf, tl);
  return tl;
}

std::string cellText(const TimelineCell& cell, Op op, ElementType type) {
  const std::string a = formatValue(cell.combine.target.value, type);
  const std::string b = formatValue(cell.combine.source.value, type);
  const std::string c = formatValue(cell.combine.wrote, type);
  switch (op) {
    case Op::Sum:
      return a + "+" + b + "=" + c;
    case Op::Product:
      return a + "*" + b + "=" + c;
    case Op::Subtract:
      return a + "-" + b + "=" + c;
    case Op::Max:
      return "max(" + a + "," + b + ")=" + c;
    case Op::Min:
      return "min(" + a + "," + b + ")=" + c;
  }
  return c;
}

}  // namespace rlab
