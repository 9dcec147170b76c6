#include "lessons/engine/run/access_timeline.hpp"

#include <map>
#include <set>
#include <utility>

namespace rlab {

namespace {

Message columnTitle(int launch, int phase, bool manyLaunches) {
  const Message stretch = phase == 0
                              ? Message("access-timeline.before-barriers")
                              : Message("access-timeline.after-barrier", {{"barrier", phase}});
  if (!manyLaunches) return stretch;
  return Message("access-timeline.in-launch", {{"launch", launch}, {"stretch", stretch}});
}

Message threadName(unsigned block, unsigned thread, bool manyBlocks) {
  if (!manyBlocks) return Message("access-timeline.thread", {{"thread", thread}});
  return Message("access-timeline.thread-of-block", {{"thread", thread}, {"block", block}});
}

// Where the first access with `tick` is (a 16-byte load makes four with one tick).
AccessPlace placeOfTick(const Trace& t, const AccessTimeline& tl, long long tick) {
  for (int r = 0; r < int(tl.rows.size()); ++r)
    for (int c = 0; c < int(tl.rows[size_t(r)].cells.size()); ++c)
      for (size_t index : tl.rows[size_t(r)].cells[size_t(c)])
        if (t.accesses[index].tick == tick) return {r, c, index};
  return {};
}

}  // namespace

Message accessText(const MemoryAccess& a) {
  const std::vector<MessageArg> args = {{"tick", a.tick},
                                        {"array", a.array},
                                        {"element", a.element},
                                        {"value", a.valueKnown ? std::to_string(a.value) : "?"}};
  const Message what = a.kind == MemoryAccess::Kind::Read ? Message("access-timeline.read", args)
                       : a.kind == MemoryAccess::Kind::Write
                           ? Message("access-timeline.write", args)
                           : Message("access-timeline.atomic", args);
  if (a.line.empty()) return what;
  return Message("access-timeline.at-line", {{"access", what}, {"line", a.line}});
}

AccessTimeline buildAccessTimeline(const Trace& t) {
  AccessTimeline tl;
  if (t.exercise.empty()) {
    tl.why = Message("access-timeline.exercise-only");
    return tl;
  }
  if (t.accesses.empty()) {
    tl.why = t.traced ? Message("access-timeline.none") : Message("timeline.no-steps");
    return tl;
  }
  tl.available = true;
  std::set<std::pair<int, int>> stretches;  // (launch, phase)
  std::set<std::pair<unsigned, unsigned>> threads;
  std::set<unsigned> blocks;
  for (const MemoryAccess& a : t.accesses) {
    stretches.insert({a.launch, a.phase});
    threads.insert({a.block, a.thread});
    blocks.insert(a.block);
  }
  std::set<int> launches;
  for (const auto& [launch, phase] : stretches) launches.insert(launch);
  std::map<std::pair<int, int>, size_t> columnOf;
  for (const auto& [launch, phase] : stretches) {
    columnOf[{launch, phase}] = tl.columns.size();
    tl.columns.push_back({launch, phase, columnTitle(launch, phase, launches.size() > 1)});
  }
  std::map<std::pair<unsigned, unsigned>, size_t> rowOf;
  for (const auto& [block, thread] : threads) {
    rowOf[{block, thread}] = tl.rows.size();
    tl.rows.push_back({block, thread, threadName(block, thread, blocks.size() > 1),
                       std::vector<std::vector<size_t>>(tl.columns.size())});
  }
  for (size_t k = 0; k < t.accesses.size(); ++k) {
    const MemoryAccess& a = t.accesses[k];
    tl.rows[rowOf[{a.block, a.thread}]].cells[columnOf[{a.launch, a.phase}]].push_back(k);
  }
  tl.summary = Message("access-timeline.summary", {{"accesses", t.accesses.size()},
                                                   {"threads", tl.rows.size()},
                                                   {"schedule", t.params.schedule}});
  if (t.accessesLeft > 0)
    tl.summary =
        Message("access-timeline.summary-cut", {{"summary", tl.summary}, {"left", t.accessesLeft}});
  if (t.raceFirstTick >= 0 && t.raceSecondTick >= 0) {
    tl.raceFirst = placeOfTick(t, tl, t.raceFirstTick);
    tl.raceSecond = placeOfTick(t, tl, t.raceSecondTick);
    if (tl.raceFirst.row >= 0 && tl.raceSecond.row >= 0)
      tl.race = Message("access-timeline.race",
                        {{"firstThread", tl.rows[size_t(tl.raceFirst.row)].name},
                         {"first", accessText(t.accesses[tl.raceFirst.access])},
                         {"secondThread", tl.rows[size_t(tl.raceSecond.row)].name},
                         {"second", accessText(t.accesses[tl.raceSecond.access])}});
  }
  return tl;
}

}  // namespace rlab
