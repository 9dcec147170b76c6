// Warp operations (__syncwarp, the shuffles, vote, match and reduce): each lane that calls one
// waits at it; when every lane its mask names waits at the same operation, the warp meets, every
// lane gets its result at once, and they go on. A lane named in the mask that has exited, or
// waits at another operation, stops the launch with the line. A new warp operation is a WarpOp
// (detail/hooks.hpp), its function in shim.hpp, and a case in computeWarpResult.
//
// __activemask (and cooperative groups' coalesced_threads) names no mask: its lanes wait until
// no lane of their warp can run any more (each has reached a barrier, a warp operation or its
// end), and then the lanes waiting at the same line are the active mask. On a GPU it is the
// lanes that happen to run together at that moment, which may be fewer.

#include "kernels/sim/detail/block_run.hpp"

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
      const unsigned group = request.mask & existing;
      const std::string site = where(request.file, request.line);
      if (!(group >> l & 1u))
        fail("thread " + std::to_string(warpStart + l) + blockName() +
                 " calls a warp operation at " + site +
                 " with a mask that leaves out its own lane " + std::to_string(l) + ".",
             failure("sim.mask-leaves-out-lane", "sim.mask-leaves-out-lane-in-block",
                     {{"thread", std::to_string(warpStart + l)},
                      {"site", site},
                      {"lane", std::to_string(l)}}));
      bool complete = true;
      for (unsigned m = 0; m < lanesHere; ++m) {
        if (!(group >> m & 1u)) continue;
        if (state[m] == State::Done) {
          fail("the warp operation at " + site + blockName() + " waits for lane " +
                   std::to_string(m) + " (thread " + std::to_string(warpStart + m) +
                   "), which has already exited; every lane in the mask must reach it.",
               failure("sim.lane-exited", "sim.lane-exited-in-block",
                       {{"site", site},
                        {"lane", std::to_string(m)},
                        {"thread", std::to_string(warpStart + m)}}));
        }
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
        if (group >> m & 1u) lanes[m]->warpResult = computeWarpResult(lanes, m, group);
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
