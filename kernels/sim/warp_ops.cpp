// Warp operations (__syncwarp, the shuffles, vote, match and reduce): each lane that calls one
// waits at it; when every lane its mask names that has not exited waits at the same operation
// (the PTX ISA's "all non-exited threads named in membermask"), the warp meets, every lane gets
// its result at once, and they go on. A lane named in the mask that waits at another operation,
// or a shuffle that reads a lane that has exited or that the mask leaves out, stops the launch
// with the line. A new warp operation is a WarpOp
// (detail/hooks.hpp), its function in shim.hpp, and a case in computeWarpResult.
//
// __activemask (and cooperative groups' coalesced_threads) names no mask: its lanes wait until
// no lane of their warp can run any more (each has reached a barrier, a warp operation or its
// end), and then the lanes waiting at the same line are the active mask. On a GPU it is the
// lanes that happen to run together at that moment, which may be fewer.

#include "kernels/sim/detail/block_run.hpp"
#include "kernels/sim/detail/race_detector.hpp"

#include <algorithm>
#include <string>

namespace rlab::sim::detail {

void BlockRun::arriveAtWarpOp(const WarpRequest& request) {
  countWarpStep(current_);  // a lane schedule may hold it once the warp has met
  moveTo(current_, State::AtWarpOp);
  waiting_[current_].warp = request;
}

uint64_t BlockRun::computeWarpResult(const WarpLanes& lanes, unsigned laneIndex,
                                     unsigned groupMask) {
  const WarpRequest& r = lanes[laneIndex]->warp;
  const int lane = static_cast<int>(laneIndex);
  const int width = r.width;
  const int segment = lane & ~(width - 1);
  auto valueOf = [&](int src) -> uint64_t {
    if (src < 0 || src > 31 || !(groupMask >> src & 1u)) return r.bits;  // undefined in CUDA
    return lanes[src]->warp.bits;
  };
  switch (r.op) {
    case WarpOp::Sync:
      return 0;
    case WarpOp::Shfl:
      return valueOf(segment + (r.arg & (width - 1)));
    case WarpOp::ShflUp:
      return (lane - segment) < r.arg ? r.bits : valueOf(lane - r.arg);
    case WarpOp::ShflDown:
      return (lane - segment) + r.arg >= width ? r.bits : valueOf(lane + r.arg);
    case WarpOp::ShflXor: {
      const int src = lane ^ r.arg;
      return (src & ~(width - 1)) != segment ? r.bits : valueOf(src);
    }
    case WarpOp::Ballot:
    case WarpOp::Any:
    case WarpOp::All: {
      unsigned ballot = 0;
      for (int l = 0; l < 32; ++l)
        if ((groupMask >> l & 1u) && lanes[l]->warp.bits) ballot |= 1u << l;
      if (r.op == WarpOp::Ballot) return ballot;
      if (r.op == WarpOp::Any) return ballot != 0;
      return ballot == groupMask;
    }
    case WarpOp::MatchAny:
    case WarpOp::MatchAll: {
      unsigned same = 0;
      for (int l = 0; l < 32; ++l)
        if ((groupMask >> l & 1u) && lanes[l]->warp.bits == r.bits) same |= 1u << l;
      if (r.op == WarpOp::MatchAny) return same;
      return same == groupMask ? groupMask : 0;
    }
    case WarpOp::ReduceAdd:
    case WarpOp::ReduceMin:
    case WarpOp::ReduceMax:
    case WarpOp::ReduceAnd:
    case WarpOp::ReduceOr:
    case WarpOp::ReduceXor:
      return reduceLanes(lanes, r.op, r.arg != 0, groupMask);
    case WarpOp::ActiveMask:
      break;  // released by releaseActiveMasks
  }
  return 0;
}

// The lane a shuffle reads for `lane`, or -1 where it reads its own value (a source outside
// its segment of `width` lanes: CUDA's defined result).
namespace {
int shuffleSource(const WarpRequest& r, int lane) {
  const int width = r.width, segment = lane & ~(width - 1);
  switch (r.op) {
    case WarpOp::Shfl:
      return segment + (r.arg & (width - 1));
    case WarpOp::ShflUp:
      return (lane - segment) < r.arg ? -1 : lane - r.arg;
    case WarpOp::ShflDown:
      return (lane - segment) + r.arg >= width ? -1 : lane + r.arg;
    case WarpOp::ShflXor: {
      const int src = lane ^ r.arg;
      return (src & ~(width - 1)) != segment ? -1 : src;
    }
    default:
      return -1;
  }
}
}  // namespace

// The PTX ISA leaves undefined the value a shuffle reads from a lane that is not active: one that
// has exited, one its mask leaves out, or one a block that is not a whole number of warps does
// not have at all. The simulator stops the kernel there rather than make a value up; a GPU runs
// on with some value.
void BlockRun::refuseReadFromAbsentLane(const WarpLanes& lanes, unsigned warpStart, unsigned lane,
                                        unsigned group, unsigned exited) const {
  const WarpRequest& r = lanes[lane]->warp;
  const int src = shuffleSource(r, int(lane));
  if (src < 0 || src > 31 || (group >> src & 1u)) return;
  const std::string site = where(r.file, r.line), reader = std::to_string(warpStart + lane);
  if (!lanes[src]) {
    int present = 0;
    for (const auto* l : lanes) present += l != nullptr;
    fail("thread " + reader + blockName() + " reads lane " + std::to_string(src) +
             " in the shuffle at " + site + ", which the block does not have (its last warp has " +
             std::to_string(present) +
             " lanes); the value a shuffle reads from a lane that is not there is undefined in "
             "CUDA.",
         failure("sim.read-missing-lane", "sim.read-missing-lane-in-block",
                 {{"thread", reader},
                  {"site", site},
                  {"lane", std::to_string(src)},
                  {"lanes", std::to_string(present)}}));
  }
  const bool gone = exited >> src & 1u;
  const std::string source = std::to_string(warpStart + src);
  const std::vector<std::pair<std::string, std::string>> args = {
      {"thread", reader}, {"site", site}, {"lane", std::to_string(src)}, {"source", source}};
  if (gone)
    fail("thread " + reader + blockName() + " reads lane " + std::to_string(src) + " (thread " +
             source + ") in the shuffle at " + site +
             ", which has already exited; the value a shuffle reads from such a lane is "
             "undefined in CUDA.",
         failure("sim.read-exited-lane", "sim.read-exited-lane-in-block", args));
  fail("thread " + reader + blockName() + " reads lane " + std::to_string(src) + " (thread " +
           source + ") in the shuffle at " + site +
           ", which its mask leaves out; the value a shuffle reads from such a lane is undefined "
           "in CUDA.",
       failure("sim.read-lane-outside-mask", "sim.read-lane-outside-mask-in-block", args));
}

// __reduce_*_sync: 32-bit values, the sum wrapping around as the GPU's does.
uint64_t BlockRun::reduceLanes(const WarpLanes& lanes, WarpOp op, bool isSigned,
                               unsigned groupMask) {
  bool first = true;
  uint32_t total = 0;
  for (int l = 0; l < 32; ++l) {
    if (!(groupMask >> l & 1u)) continue;
    const uint32_t v = static_cast<uint32_t>(lanes[l]->warp.bits);
    if (first) {
      total = v;
      first = false;
      continue;
    }
    const bool less = isSigned ? int32_t(v) < int32_t(total) : v < total;
    switch (op) {
      case WarpOp::ReduceAdd:
        total += v;
        break;
      case WarpOp::ReduceMin:
        total = less ? v : total;
        break;
      case WarpOp::ReduceMax:
        total = less ? total : v;
        break;
      case WarpOp::ReduceAnd:
        total &= v;
        break;
      case WarpOp::ReduceOr:
        total |= v;
        break;
      default:
        total ^= v;
        break;
    }
  }
  return total;
}

// The lanes of one warp (`lanes` of them from `warpStart`) that wait at __activemask: once none
// of the warp's lanes can run (none is runnable, and no warp operation of theirs has just been
// released), those waiting at one line get the mask of that line's lanes.
bool BlockRun::releaseActiveMasks(unsigned warpStart, unsigned lanesHere) {
  const State* state = &state_[warpStart];
  for (unsigned l = 0; l < lanesHere; ++l)
    if (state[l] == State::Runnable) return false;
  bool released = false;
  for (unsigned l = 0; l < lanesHere; ++l) {
    const WarpRequest& r = waiting_[warpStart + l].warp;
    if (state[l] != State::AtWarpOp || r.op != WarpOp::ActiveMask) continue;
    unsigned group = 0;
    for (unsigned m = l; m < lanesHere; ++m) {
      const WarpRequest& other = waiting_[warpStart + m].warp;
      if (state[m] == State::AtWarpOp && other.op == WarpOp::ActiveMask &&
          sameSite(other.file, other.line, r.file, r.line))
        group |= 1u << m;
    }
    for (unsigned m = l; m < lanesHere; ++m)
      if (group >> m & 1u) {
        waiting_[warpStart + m].warpResult = group;
        moveTo(warpStart + m, State::Runnable);
      }
    released = true;
  }
  return released;
}

bool BlockRun::releaseWarps() {
  bool released = false;
  for (unsigned warpStart = 0; warpStart < total_; warpStart += 32) {
    const unsigned lanesHere = std::min(32u, total_ - warpStart);
    const unsigned existing = lanesHere == 32 ? 0xffffffffu : (1u << lanesHere) - 1;
    if (count(State::AtWarpOp) == 0) break;
    const State* state = &state_[warpStart];
    bool anyWaiting = false;
    for (unsigned l = 0; l < lanesHere; ++l) anyWaiting |= state[l] == State::AtWarpOp;
    if (!anyWaiting) continue;
    WarpLanes lanes{};
    for (unsigned l = 0; l < lanesHere; ++l) lanes[l] = &waiting_[warpStart + l];
    for (unsigned l = 0; l < lanesHere; ++l) {
      if (state[l] != State::AtWarpOp || lanes[l]->warp.op == WarpOp::ActiveMask) continue;
      const WarpRequest& request = lanes[l]->warp;
      unsigned group = request.mask & existing;
      const std::string site = where(request.file, request.line);
      if (!(group >> l & 1u))
        fail("thread " + std::to_string(warpStart + l) + blockName() +
                 " calls a warp operation at " + site +
                 " with a mask that leaves out its own lane " + std::to_string(l) + ".",
             failure("sim.mask-leaves-out-lane", "sim.mask-leaves-out-lane-in-block",
                     {{"thread", std::to_string(warpStart + l)},
                      {"site", site},
                      {"lane", std::to_string(l)}}));
      // The PTX ISA waits for "all non-exited threads named in membermask": a lane that has
      // exited is not waited for; only a value read from it is undefined (readsFromAbsentLane).
      unsigned exited = 0;
      for (unsigned m = 0; m < lanesHere; ++m)
        if (state[m] == State::Done) exited |= 1u << m;
      group &= ~exited;
      bool complete = true;
      for (unsigned m = 0; m < lanesHere; ++m) {
        if (!(group >> m & 1u)) continue;
        // A lane still running, waiting at __activemask (which lets it go on), or at an
        // operation of another group of lanes (a smaller tile before this one): not yet here.
        const WarpRequest& other = lanes[m]->warp;
        if (state[m] != State::AtWarpOp || other.op == WarpOp::ActiveMask ||
            other.mask != request.mask) {
          complete = false;
          break;
        }
        // The same lanes at another operation: each waits for the other, for ever.
        if (other.op != request.op)
          fail("lanes of warp " + std::to_string(warpStart / 32) + blockName() +
                   " meet at different warp operations (" + site + " and " +
                   where(other.file, other.line) + ").",
               failure("sim.different-warp-ops", "sim.different-warp-ops-in-block",
                       {{"warp", std::to_string(warpStart / 32)},
                        {"site", site},
                        {"otherSite", where(other.file, other.line)}}));
      }
      if (!complete) continue;
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) refuseReadFromAbsentLane(lanes, warpStart, m, group, exited);
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) lanes[m]->warpResult = computeWarpResult(lanes, m, group);
      // __syncwarp orders memory among its lanes (the Programming Guide); a shuffle or a vote
      // only exchanges values.
      if (request.op == WarpOp::Sync && t_raceDetector)
        t_raceDetector->warpSynced(warpStart, group);
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) moveTo(warpStart + m, State::Runnable);
      released = true;
    }
    // Last: a lane just released by the loop above runs again before __activemask answers.
    released |= releaseActiveMasks(warpStart, lanesHere);
  }
  return released;
}

}  // namespace rlab::sim::detail
