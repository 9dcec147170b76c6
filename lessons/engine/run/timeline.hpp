// The per-thread timeline of a run: one row per thread, the levels as columns, when each thread
// read and wrote, and the reads that came before the write they needed. Built from the clock
// stamps the kernel records with each combine (the barrier lesson's kernels stamp them): on the
// simulator its logical clock, so the order is exactly the schedule's; on a GPU clock64(),
// measured. Views draw a Timeline; they compute nothing of it.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/run/trace.hpp"

namespace rlab {

// One thread's combine at one level.
struct TimelineCell {
  int level = 0;   // the trace's step: level k is steps[k]
  int column = 0;  // the time slot it ran in, from 0: column c is when level c + 1 ran
  // Its place among the combines of its column, by when they read (0: first).
  int orderInColumn = 0, inColumn = 1;
  long long readClock = 0, wroteClock = 0;
  int readTick = 0, writeTick = 0;  // the order of all reads and writes, from 1
  CombineRead combine;
  // Other threads had begun a later level before this one read: its row has a gap from its
  // level's column to `column`.
  bool late = false;
  bool staleRead = false;  // it read a value that the array no longer held (trace's check)
};

struct TimelineRow {
  int thread = 0;
  std::vector<TimelineCell> cells;  // in the order the thread ran them
};

// A read that came before the write it needed: "read 11 before thread 4 wrote 26".
struct TimelineEarlyRead {
  int readerRow = 0, readerCell = 0;
  int writerRow = -1, writerCell = -1;  // the write it missed (-1: not on the timeline)
  int fromRow = -1, fromCell = -1;      // the write whose value it read (-1: the input)
  int element = 0;
  double value = 0, missed = 0;
  int readTick = 0, writeTick = 0;
  Message text;      // "read 11 before thread 4 wrote 26"
  Message sentence;  // the trace's stale-read sentence
};

struct Timeline {
  bool available = false;
  Message why;                    // not available: why, in one sentence
  bool measured = false;          // GPU clock64() stamps, not the simulator's exact order
  Message clockText;              // what the clock is and what it can tell
  std::vector<Message> columns;   // "level 1", ...
  std::vector<TimelineRow> rows;  // threads that combined, in thread order
  std::vector<TimelineEarlyRead> earlyReads;
  int ticks = 0;  // distinct stamps
  long long firstClock = 0, lastClock = 0;
  // Every read of a value written at an earlier level, set against that write's stamp.
  int readsAfterTheirWrite = 0, readsBeforeTheirWrite = 0;
};

Timeline buildTimeline(const Trace& t);

// What a cell's combine computed, with the operator that ran: "10+11=21", "max(3,7)=7".
std::string cellText(const TimelineCell& cell, Op op, ElementType type);

}  // namespace rlab
