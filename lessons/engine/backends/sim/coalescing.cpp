#include "lessons/engine/backends/sim/coalescing.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace rlab {

namespace {

constexpr long long kSectorBytes = 32, kLineBytes = 128;

// What makes accesses one request: the step, the warp, the instruction and its k-th run.
using RequestKey = std::tuple<int, unsigned, unsigned, uintptr_t, int, int>;

}  // namespace

std::vector<std::vector<WarpMemoryRequest>> warpRequests(
    const std::vector<sim::MemoryAccess>& accesses, int steps) {
  const int after = steps > 0 ? steps : 0;  // the list of accesses after the last mark
  std::vector<std::vector<WarpMemoryRequest>> out(size_t(after + 1));
  // Each thread's accesses, waiting for the step mark that claims them.
  std::map<std::pair<unsigned, unsigned>, std::vector<const sim::MemoryAccess*>> pending;
  std::map<RequestKey, std::vector<const sim::MemoryAccess*>> requests;
  for (const sim::MemoryAccess& a : accesses) {
    auto& mine = pending[{a.block, a.thread}];
    if (a.buffer >= 0) {
      mine.push_back(&a);
      continue;
    }
    if (a.step < 0 || a.step >= steps) {
      mine.clear();
      continue;
    }
    std::map<std::pair<uintptr_t, bool>, int> runs;  // k-th run of an instruction
    for (const sim::MemoryAccess* m : mine) {
      const int k = runs[{m->instruction, m->write}]++;
      requests[{a.step, a.block, a.thread / 32, m->instruction, int(m->write), k}].push_back(m);
    }
    mine.clear();
  }
  for (const auto& [thread, mine] : pending) {
    std::map<std::pair<uintptr_t, bool>, int> runs;
    for (const sim::MemoryAccess* m : mine) {
      const int k = runs[{m->instruction, m->write}]++;
      requests[{after, thread.first, thread.second / 32, m->instruction, int(m->write), k}]
          .push_back(m);
    }
  }
  for (const auto& [key, lanes] : requests) {
    WarpMemoryRequest r;
    r.block = int(std::get<1>(key));
    r.warp = int(std::get<2>(key));
    r.write = std::get<4>(key) != 0;
    r.buffer = lanes.front()->buffer;
    std::set<long long> sectors, lines, bytes;
    for (const sim::MemoryAccess* m : lanes) {
      r.lanes.push_back({int(m->thread % 32), m->offset, int(m->bytes), m->offset / kSectorBytes});
      for (long long b = m->offset; b < m->offset + m->bytes; ++b) {
        bytes.insert(b);
        sectors.insert(b / kSectorBytes);
        lines.insert(b / kLineBytes);
      }
    }
    std::sort(r.lanes.begin(), r.lanes.end(),
              [](const LaneAddress& x, const LaneAddress& y) { return x.lane < y.lane; });
    r.sectors = int(sectors.size());
    r.lines = int(lines.size());
    r.usefulBytes = (long long)bytes.size();
    r.minSectors = int((r.usefulBytes + kSectorBytes - 1) / kSectorBytes);
    out[size_t(std::get<0>(key))].push_back(std::move(r));
  }
  return out;
}

}  // namespace rlab
