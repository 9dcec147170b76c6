// The timeline of a learner's kernel (exercise run --timeline, the desk's Timeline tab): its
// loads and stores of the arrays, in the exact order the simulator ran them, one row per thread
// and a column for each stretch between its block's barriers, the race detector's two accesses
// joined. The lessons' timeline (timeline.hpp) reads the combines their kernels stamp; a
// learner's kernel stamps nothing, so this one is built from what the race detector's hooks
// saw (Trace::accesses). Views draw an AccessTimeline; they compute nothing of it.
#pragma once

#include <cstddef>
#include <vector>

#include "lessons/engine/run/trace.hpp"

namespace rlab {

// A stretch of one launch between two barriers of a block: phase 0 is before its first.
struct AccessColumn {
  int launch = 1, phase = 0;
  Message title;  // "before the first barrier", "launch 2, after barrier 3"
};

struct AccessRow {
  unsigned block = 0, thread = 0;
  Message name;  // "thread 3", or "block 1, thread 3" where the run had more than one block
  // Per column, the thread's accesses there (indices into Trace::accesses), in the order they ran.
  std::vector<std::vector<size_t>> cells;
};

// Where one access is on the timeline.
struct AccessPlace {
  int row = -1, column = -1;
  size_t access = 0;
};

struct AccessTimeline {
  bool available = false;
  Message why;  // not available: why, in one sentence
  std::vector<AccessColumn> columns;
  std::vector<AccessRow> rows;  // threads that read or wrote, by block then thread
  Message summary;              // how many accesses of how many threads, and how many left out
  // The first race's two accesses (row -1: the run had none, or they were not kept), and the
  // sentence that joins them: "#12 thread 0 read a[4] = 11 (k.cu:5) before #17 thread 4 wrote
  // 26 to a[4] (k.cu:5), with no barrier between them".
  AccessPlace raceFirst, raceSecond;
  Message race;
  // Whether the access at `index` of Trace::accesses is one of the race's two.
  bool raced(size_t index) const {
    return (raceFirst.row >= 0 && raceFirst.access == index) ||
           (raceSecond.row >= 0 && raceSecond.access == index);
  }
};

AccessTimeline buildAccessTimeline(const Trace& t);

// One access in words: "#12 read a[4] = 11", "#17 wrote 26 to a[4]", "#20 atomic on out[0],
// then 36"; with its line where known: "... (kernel.cu:5)".
Message accessText(const MemoryAccess& a);

}  // namespace rlab
