// A block's run: its threads' lives on their fibers, its barrier, and the diagnostics of a
// block that cannot go on (a barrier some threads never reach, threads at different barriers,
// a thread that threw or failed an assertion): the launch stops with a sentence naming threads
// and line, never a hang. Which thread runs next is schedule.cpp's; warp operations are
// warp_ops.cpp's.

#include "kernels/sim/detail/block_run.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "kernels/sim/detail/launch_state.hpp"
#include "kernels/sim/detail/race_detector.hpp"

namespace rlab::sim::detail {

namespace {

const char* shortFile(const char* file) {
  const char* slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

// "0-15, 17, 20-21": thread lists stay readable in diagnostics.
std::string ranges(const std::vector<unsigned>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ids[i]);
    if (j > i) {
      out += '-';
      out += std::to_string(ids[j]);
    }
    i = j + 1;
  }
  return out;
}

// "thread 5" or "threads 0-31", and the verb to match: English has a singular.
std::string threadsNamed(const std::vector<unsigned>& ids) {
  return (ids.size() == 1 ? "thread " : "threads ") + ranges(ids);
}
const char* waitFor(const std::vector<unsigned>& ids) {
  return ids.size() == 1 ? "waits" : "wait";
}

}  // namespace

std::string stopped(const std::string& english) {
  return "kernel stopped: " + english;
}

std::string where(const char* file, int line) {
  return std::string(shortFile(file)) + ":" + std::to_string(line);
}

// ---- The threads' lives -------------------------------------------------------------------------

void BlockRun::begin(unsigned blockLinear) {
  blockLinear_ = blockLinear;
  const dim3 b = g_blockDim;
  total_ = b.x * b.y * b.z;
  contexts_ = fibers_.contexts(firstFiber_ + total_) + firstFiber_;
  stacks_ = fibers_.stacks() + firstFiber_;
  state_.assign(total_, State::Runnable);
  started_.assign(total_, 0);
  barrierSite_.assign(total_, Site{});
  waiting_.assign(total_, Waiting{});
  warpSteps_.assign(total_, 0);
  atWarpStep_.assign(total_, 0);
  laneHeld_ = 0;
  idx_.resize(total_);
  for (unsigned i = 0; i < total_; ++i) idx_[i] = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
  count_ = {};
  count_[static_cast<int>(State::Runnable)] = total_;
  pendingTrue_ = 0;
  rng_ = options_.schedule.seed ^ (0x5851f42d4c957f2dull * (blockLinear_ + 1));
}

bool BlockRun::resume() {
  switches_ = 0;
  bool done = false;
  try {
    done = schedule();
  } catch (...) {
    unwindSuspended();
    stats_.switches += switches_;
    throw;
  }
  stats_.switches += switches_;
  if (!done) return false;
  for (unsigned t = 0; t < total_; ++t)
    if (warpSteps_[t] > 0) {
      stats_.warpSteps = std::max<uint64_t>(stats_.warpSteps, warpSteps_[t]);
      stats_.warpStepThreads = std::max(stats_.warpStepThreads, t + 1);
    }
  const Schedule& s = options_.schedule;
  if (s.kind == Schedule::Kind::Lane && s.stallThread < total_)
    stats_.laneThreadWarpSteps =
        std::max<uint64_t>(stats_.laneThreadWarpSteps, warpSteps_[s.stallThread]);
  return true;
}

void BlockRun::abandon() {
  switches_ = 0;
  unwindSuspended();
  stats_.switches += switches_;
}

void BlockRun::openClusterBarrier() {
  for (unsigned t = 0; t < total_; ++t)
    if (state_[t] == State::AtClusterBarrier) moveTo(t, State::Runnable);
}

void fiberMain(fc::transfer_t start) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  *static_cast<fc::fcontext_t*>(start.data) = start.fctx;
  for (;;) {
    g_launch.block->runThread();
    g_launch.block->suspend(true);  // idle until the next block resumes this fiber
  }
}

void BlockRun::runThread() {
  const unsigned thread = current_;
  started_[thread] = 1;  // from here on its fiber holds frames to unwind if the launch fails
  try {
    body_();
  } catch (const Unwind&) {
    // the launch has failed in another thread; nothing to report from this one
  } catch (const KernelFailure& f) {
    auto args = f.args;
    args.insert(args.begin(), {"thread", std::to_string(thread)});
    failure_.emplace(stopped("thread " + std::to_string(thread) + blockName() + " " + f.english),
                     failure(f.id, f.idInBlock, std::move(args)));
  } catch (const std::exception& e) {
    failure_.emplace(
        stopped("thread " + std::to_string(thread) + blockName() + " threw: " + e.what()),
        failure("sim.threw", "sim.threw-in-block",
                {{"thread", std::to_string(thread)}, {"what", e.what()}}));
  } catch (...) {
    failure_.emplace(
        stopped("thread " + std::to_string(thread) + blockName() + " threw an exception."),
        failure("sim.threw-unknown", "sim.threw-unknown-in-block",
                {{"thread", std::to_string(thread)}}));
  }
  moveTo(thread, State::Done);
}

// Every thread that has started and not finished unwinds its frames, so that its fiber is
// idle again before the launch's error leaves.
void BlockRun::unwindSuspended() {
  failure_.reset();
  inRound_ = false;
  ordered_ = false;
  unwinding_ = true;
  for (unsigned i = 0; i < total_; ++i)
    if (started_[i] && state_[i] != State::Done) advance(i);
  unwinding_ = false;
}

// ---- The barrier --------------------------------------------------------------------------------

bool BlockRun::releaseWaiters() {
  bool released = count(State::AtWarpOp) > 0 && releaseWarps();
  // The barrier opens when every live thread of the block waits at it.
  if (count(State::Runnable) > 0 || count(State::AtWarpOp) > 0 || count(State::AtBarrier) == 0 ||
      count(State::AtClusterBarrier) > 0)
    return released;
  if (barrierSplit_) barrierMismatch();
  if (count(State::Done) > 0) barrierAfterExit();
  if (options_.onBarrier) {
    std::vector<SharedSpan> spans;
    if (shared_)
      for (const ByteRange& r : *shared_)
        spans.push_back({r.begin, size_t(r.end - r.begin), r.name});
    options_.onBarrier(blockLinear_, spans);
  }
  if (t_raceDetector) t_raceDetector->barrierOpened();
  barrierArrived_ = count(State::AtBarrier);
  barrierTrue_ = pendingTrue_;
  pendingTrue_ = 0;
  for (State& s : state_)
    if (s == State::AtBarrier) s = State::Runnable;
  count_[static_cast<int>(State::Runnable)] += count(State::AtBarrier);
  count_[static_cast<int>(State::AtBarrier)] = 0;
  return true;
}

// ---- A block that cannot go on ------------------------------------------------------------------

std::string BlockRun::blockName() const {
  if (g_gridDim.x * g_gridDim.y * g_gridDim.z == 1) return "";
  return " of block " + std::to_string(blockLinear_);
}

LaunchFailure BlockRun::failure(const char* id, const char* idInBlock,
                                std::vector<std::pair<std::string, std::string>> args) const {
  if (blockName().empty()) return {id, std::move(args), {}};
  args.emplace_back("block", std::to_string(blockLinear_));
  return {idInBlock, std::move(args), {}};
}

void BlockRun::fail(const std::string& english, LaunchFailure failure) const {
  throw LaunchError(stopped(english), std::move(failure));
}

void BlockRun::barrierMismatch() {
  unsigned first = 0;
  while (state_[first] != State::AtBarrier) ++first;
  const Site& a = barrierSite_[first];
  std::vector<unsigned> here, there;
  const Site* other = nullptr;
  for (unsigned i = first; i < total_; ++i) {
    if (state_[i] != State::AtBarrier) continue;
    const Site& w = barrierSite_[i];
    const bool same = sameSite(w.file, w.line, a.file, a.line);
    (same ? here : there).push_back(i);
    if (!same && !other) other = &w;
  }
  fail(threadsNamed(here) + blockName() + " " + waitFor(here) + " at the barrier at " +
           where(a.file, a.line) + ", " + threadsNamed(there) + " at another barrier (" +
           where(other->file, other->line) +
           "); every thread of a block must reach the same __syncthreads().",
       failure("sim.barrier-mismatch", "sim.barrier-mismatch-in-block",
               {{"threads", ranges(here)},
                {"count", std::to_string(here.size())},
                {"site", where(a.file, a.line)},
                {"others", ranges(there)},
                {"otherCount", std::to_string(there.size())},
                {"otherSite", where(other->file, other->line)}}));
}

// CUDA's rule (Programming Guide, "Synchronization Functions"): __syncthreads() is allowed in
// conditional code only if the conditional evaluates identically across the entire block.
// Threads that exit, or skip the barrier by a branch and run to their end, break it. A GPU from
// Volta on lets the waiting threads go once the others have exited, so the kernel may well
// give the right result there; the simulator holds the kernel to the rule and names the line.
void BlockRun::barrierAfterExit() {
  std::vector<unsigned> waiting, exited;
  const Site* site = nullptr;
  for (unsigned i = 0; i < total_; ++i) {
    if (state_[i] == State::AtBarrier) {
      waiting.push_back(i);
      if (!site) site = &barrierSite_[i];
    } else if (state_[i] == State::Done) {
      exited.push_back(i);
    }
  }
  fail(threadsNamed(waiting) + blockName() + " " + waitFor(waiting) + " at the barrier at " +
           where(site->file, site->line) + ", but " + threadsNamed(exited) +
           (exited.size() == 1 ? " has" : " have") +
           " already exited without reaching it; CUDA allows __syncthreads() in conditional "
           "code only where the condition is the same for the whole block (a GPU from Volta on "
           "lets the waiting threads go when the others exit, so the result may still come out "
           "right there).",
       failure("sim.barrier-after-exit", "sim.barrier-after-exit-in-block",
               {{"threads", ranges(waiting)},
                {"count", std::to_string(waiting.size())},
                {"site", where(site->file, site->line)},
                {"others", ranges(exited)},
                {"otherCount", std::to_string(exited.size())}}));
}

void BlockRun::stuck() {
  // The barriers threads wait at, each site with its threads (threads at two different
  // __syncthreads() are two sites), and likewise the warp operations (lanes of one warp that
  // name each other in different masks wait at two sites).
  std::vector<std::pair<const Site*, std::vector<unsigned>>> atBarrier, atClusterBarrier;
  std::vector<std::pair<const WarpRequest*, std::vector<unsigned>>> atWarp;
  for (unsigned i = 0; i < total_; ++i) {
    if (state_[i] == State::AtClusterBarrier) {
      if (atClusterBarrier.empty()) atClusterBarrier.push_back({&barrierSite_[i], {}});
      atClusterBarrier.front().second.push_back(i);
    } else if (state_[i] == State::AtBarrier) {
      const Site& b = barrierSite_[i];
      auto site = std::find_if(atBarrier.begin(), atBarrier.end(), [&](const auto& s) {
        return sameSite(s.first->file, s.first->line, b.file, b.line);
      });
      if (site == atBarrier.end()) site = atBarrier.insert(atBarrier.end(), {&b, {}});
      site->second.push_back(i);
    } else if (state_[i] == State::AtWarpOp) {
      const WarpRequest& r = waiting_[i].warp;
      auto site = std::find_if(atWarp.begin(), atWarp.end(), [&](const auto& s) {
        return sameSite(s.first->file, s.first->line, r.file, r.line);
      });
      if (site == atWarp.end()) site = atWarp.insert(atWarp.end(), {&r, {}});
      site->second.push_back(i);
    }
  }
  // One sentence a site: the barriers', then up to four warp operations'.
  std::string english;
  std::vector<LaunchFailure> sites;
  auto waitAt = [&](const char* id, const char* what, const std::vector<unsigned>& threads,
                    const char* file, int line) {
    english += (english.empty() ? "" : ", ") + threadsNamed(threads) + " " + waitFor(threads) +
               " at the " + what + " at " + where(file, line);
    sites.push_back({id,
                     {{"threads", ranges(threads)},
                      {"count", std::to_string(threads.size())},
                      {"site", where(file, line)}},
                     {}});
  };
  for (const auto& [site, threads] : atBarrier)
    waitAt("sim.waiting-at-barrier", "barrier", threads, site->file, site->line);
  for (const auto& [site, threads] : atClusterBarrier)
    waitAt("sim.waiting-at-cluster-barrier", "cluster barrier", threads, site->file, site->line);
  for (size_t k = 0; k < atWarp.size() && k < 4; ++k)
    waitAt("sim.waiting-at-warp-op", "warp operation", atWarp[k].second, atWarp[k].first->file,
           atWarp[k].first->line);
  LaunchFailure stuck = failure("sim.stuck", "sim.stuck-in-block", {});
  stuck.sites = std::move(sites);
  fail("no thread" + blockName() + " can go on: " + english +
           "; a barrier or warp operation must be reached by every thread it waits for.",
       std::move(stuck));
}

}  // namespace rlab::sim::detail
