// The per-thread timeline: built from the clock stamps the barrier kernels record, exactly in
// the simulator's order; a late thread's gap and the read that came before the write it needed.
#include <doctest/doctest.h>

#include <sstream>

#include "app/cli/cli.hpp"
#include "lessons/engine/run/run.hpp"
#include "lessons/engine/run/timeline.hpp"

using namespace rlab;

namespace {

Params barrierRun(const std::string& variant, int64_t n, bool barrier,
                  const std::string& schedule) {
  Params p;
  p.lesson = "barrier";
  p.variant = variant;
  p.n = n;
  p.barrier = barrier;
  p.schedule = schedule;
  return p;
}

const TimelineCell* cellOf(const Timeline& tl, int thread, int level) {
  for (const TimelineRow& r : tl.rows)
    if (r.thread == thread)
      for (const TimelineCell& c : r.cells)
        if (c.level == level) return &c;
  return nullptr;
}

// Every combine's reads of values an earlier level wrote, against that write's stamps, straight
// from the trace (not through the timeline): (reads before their write, reads after).
std::pair<int, int> readsAgainstWrites(const Trace& t) {
  int before = 0, after = 0;
  for (size_t k = 1; k < t.steps.size(); ++k)
    for (const CombineRead& c : t.steps[k].combines)
      for (const ValueRead* r : {&c.target, &c.source}) {
        const CombineRead* writer = nullptr;  // the latest earlier level's write to the element
        for (size_t w = k - 1; w >= 1 && !writer; --w)
          for (const CombineRead& o : t.steps[w].combines)
            if (o.target.element == r->element) writer = &o;
        if (!writer) continue;
        (c.readClock < writer->wroteClock ? before : after) += 1;
      }
  return {before, after};
}

}  // namespace

TEST_CASE(
    "timeline, stall:4:2:1 without the barrier: thread 0 reads a[4] = 11, then thread 4 "
    "writes 26") {
  for (const char* variant : {"global", "shared"}) {
    CAPTURE(variant);
    const Trace t = runLesson(barrierRun(variant, 8, false, "stall:4:2:1"));
    const Timeline tl = buildTimeline(t);
    REQUIRE(tl.available);
    CHECK_FALSE(tl.measured);
    const TimelineCell* reader = cellOf(tl, 0, 3);
    const TimelineCell* writer = cellOf(tl, 4, 2);
    REQUIRE(reader);
    REQUIRE(writer);
    CHECK(reader->combine.source.element == 4);
    CHECK(reader->combine.source.value == 11);
    CHECK(writer->combine.wrote == 26);
    // In that order, on the simulator's clock: the read, then the write it needed.
    CHECK(reader->readClock < writer->wroteClock);
    CHECK(reader->readTick < writer->writeTick);
    // Thread 4's level 2 ran in level 3's time: late, and after thread 0's level 3 in it.
    CHECK(writer->late);
    CHECK(writer->column == 2);
    CHECK(reader->column == 2);
    CHECK(reader->orderInColumn < writer->orderInColumn);
    CHECK_FALSE(cellOf(tl, 0, 2)->late);
    REQUIRE(tl.earlyReads.size() == 1);
    const TimelineEarlyRead& e = tl.earlyReads[0];
    CHECK(rlab::english(e.text) == "read 11 before thread 4 wrote 26");
    CHECK(tl.rows[size_t(e.readerRow)].thread == 0);
    CHECK(tl.rows[size_t(e.writerRow)].thread == 4);
    REQUIRE(e.fromRow >= 0);  // the 11 thread 4 wrote at level 1
    CHECK(tl.rows[size_t(e.fromRow)].cells[size_t(e.fromCell)].level == 1);
    CHECK(tl.readsBeforeTheirWrite == 1);
    CHECK(readsAgainstWrites(t).first == 1);
  }
}

TEST_CASE("timeline with the barrier on: no read precedes the write it needs, under any schedule") {
  for (const char* variant : {"global", "shared"})
    for (const char* schedule : {"lockstep", "sequential", "reverse", "random:3", "warps-random:5",
                                 "stall:4:2:1", "stall:0:1:3"})
      for (int64_t n : {8, 33, 64}) {
        CAPTURE(variant);
        CAPTURE(schedule);
        CAPTURE(n);
        const Trace t = runLesson(barrierRun(variant, n, true, schedule));
        const Timeline tl = buildTimeline(t);
        REQUIRE(tl.available);
        const auto [before, after] = readsAgainstWrites(t);
        CHECK(before == 0);
        CHECK(after > 0);
        CHECK(tl.readsBeforeTheirWrite == 0);
        CHECK(tl.readsAfterTheirWrite == after);
        CHECK(tl.earlyReads.empty());
        for (const TimelineRow& r : tl.rows)
          for (const TimelineCell& c : r.cells) {
            CHECK_FALSE(c.late);
            CHECK(c.column + 1 == c.level);
            CHECK(c.readClock < c.wroteClock);
          }
      }
}

TEST_CASE(
    "timeline: a race the timeline shows is a race the clocks show, and each early read "
    "was stale") {
  int races = 0;
  for (int seed = 1; seed <= 20; ++seed) {
    const Trace t = runLesson(barrierRun("global", 32, false, "random:" + std::to_string(seed)));
    const Timeline tl = buildTimeline(t);
    REQUIRE(tl.available);
    CHECK(tl.readsBeforeTheirWrite == readsAgainstWrites(t).first);
    for (const TimelineEarlyRead& e : tl.earlyReads) {
      const TimelineCell& reader = tl.rows[size_t(e.readerRow)].cells[size_t(e.readerCell)];
      CHECK(reader.staleRead);
      CHECK(rlab::english(e.text).find(" before thread ") != std::string::npos);
    }
    races += !tl.earlyReads.empty();
    if (!t.correct) CHECK_FALSE(tl.earlyReads.empty());
  }
  CHECK(races > 0);
}

TEST_CASE("timeline: lessons without clock stamps say so, rlab run --timeline prints it") {
  Params p;
  p.lesson = "shared";
  p.n = 64;
  CHECK_FALSE(buildTimeline(runLesson(p)).available);

  std::ostringstream out, err;
  CHECK(cli::main({"run", "barrier", "--no-barrier", "--schedule", "stall:4:2:1", "--timeline"},
                  out, err, false) == 0);
  const std::string text = out.str();
  CHECK(text.find("thread 4  #5-6 5+6=11  ...waiting...  #13-14 11+15=26 (level 2, late)") !=
        std::string::npos);
  CHECK(text.find("thread 0  #1-2 1+2=3   #9-10 3+7=10   #11-12 10+11=21 !") != std::string::npos);
  CHECK(text.find("#11 read 11 before thread 4 wrote 26 (#14)") != std::string::npos);

  std::ostringstream json, jsonErr;
  CHECK(cli::main({"run", "barrier", "--no-barrier", "--schedule", "stall:4:2:1", "--timeline",
                   "--format", "json"},
                  json, jsonErr, false) == 0);
  CHECK(json.str().find("\"early_reads\":[{") != std::string::npos);
  CHECK(json.str().find("\"read_clock\"") != std::string::npos);

  std::ostringstream bad, badErr;
  CHECK(cli::main({"run", "shared", "--timeline"}, bad, badErr, false) == 2);
  CHECK(bad.str().empty());
  CHECK(badErr.str().find("--timeline is only for") != std::string::npos);
}
