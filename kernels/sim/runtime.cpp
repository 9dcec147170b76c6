// The simulator's engine: one worker thread, one fiber per CUDA thread, a deterministic scheduler.
//
// [SECTION] Schedule parsing
// [SECTION] Shared memory poison
// [SECTION] Fiber stacks
// [SECTION] Block scheduler
// [SECTION] Hooks called from kernel code (shim.hpp)
// [SECTION] Worker thread and launch()

#include "kernels/sim/runtime.hpp"

#include <link.h>

#include <memory>
#include <algorithm>
#include <array>
#include <boost/context/fiber.hpp>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "kernels/sim/shim.hpp"

namespace rlab::sim {

// ============================================================================================
// [SECTION] Schedule parsing
// ============================================================================================

namespace {

[[noreturn]] void badSchedule(std::string_view text, const char* why) {
  throw std::invalid_argument("schedule '" + std::string(text) + "' " + why + "; use " +
                              kScheduleHelp + ".");
}

uint64_t parseNumber(std::string_view whole, std::string_view part, const char* name) {
  if (part.empty() || part.size() > 19 ||
      !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    std::string why = std::string("has a malformed ") + name + " (a whole number is expected)";
    badSchedule(whole, why.c_str());
  }
  return std::stoull(std::string(part));
}

std::vector<std::string_view> splitColons(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) return parts;
    start = colon + 1;
  }
}

}  // namespace

Schedule Schedule::parse(std::string_view text) {
  auto parts = splitColons(text);
  Schedule s;
  const std::string_view name = parts[0];
  auto expectParts = [&](size_t count) {
    if (parts.size() != count) badSchedule(text, "has the wrong number of ':' fields");
  };
  if (name == "lockstep" || name == "sequential" || name == "reverse") {
    expectParts(1);
    s.kind = name == "lockstep"     ? Kind::Lockstep
             : name == "sequential" ? Kind::Sequential
                                    : Kind::Reverse;
  } else if (name == "random" || name == "warps-random") {
    expectParts(2);
    s.kind = name == "random" ? Kind::Random : Kind::WarpsRandom;
    s.seed = parseNumber(text, parts[1], "seed");
  } else if (name == "stall") {
    expectParts(4);
    s.kind = Kind::Stall;
    const uint64_t thread = parseNumber(text, parts[1], "thread");
    const uint64_t round = parseNumber(text, parts[2], "round");
    const uint64_t rounds = parseNumber(text, parts[3], "round count");
    if (thread > 1023) badSchedule(text, "names a thread past 1023");
    if (round < 1 || round > 1000000) badSchedule(text, "needs a round from 1 to 1000000");
    if (rounds > 1000000) badSchedule(text, "sits out more than 1000000 rounds");
    s.stallThread = static_cast<unsigned>(thread);
    s.stallRound = static_cast<unsigned>(round);
    s.stallRounds = static_cast<unsigned>(rounds);
  } else {
    badSchedule(text, "is not a schedule");
  }
  return s;
}

std::string Schedule::str() const {
  switch (kind) {
    case Kind::Lockstep:
      return "lockstep";
    case Kind::Sequential:
      return "sequential";
    case Kind::Reverse:
      return "reverse";
    case Kind::Random:
      return "random:" + std::to_string(seed);
    case Kind::WarpsRandom:
      return "warps-random:" + std::to_string(seed);
    case Kind::Stall:
      return "stall:" + std::to_string(stallThread) + ":" + std::to_string(stallRound) + ":" +
             std::to_string(stallRounds);
  }
  return "lockstep";
}

// ============================================================================================
// [SECTION] Shared memory poison
// ============================================================================================
// __shared__ is `static thread_local`, and every block runs on the worker thread, so the
// worker's zero-initialised TLS of this module holds exactly the kernels' shared memory (this
// file and the kernels define no other thread_local). Filling it with a poison byte at each
// block start makes a read before a write show a value that cannot pass for right.

namespace {

static thread_local unsigned char t_moduleMarker;  // finds this module's TLS block

struct ByteRange {
  unsigned char* begin = nullptr;
  unsigned char* end = nullptr;
};

ByteRange findSharedMemoryRange() {
  struct Search {
    const unsigned char* marker;
    ByteRange found;
  } search{&t_moduleMarker, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        if (!info->dlpi_tls_data) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_TLS) continue;
          auto* base = static_cast<unsigned char*>(info->dlpi_tls_data);
          if (s->marker >= base && s->marker < base + ph.p_memsz) {
            s->found = {base + ph.p_filesz, base + ph.p_memsz};  // the zero-initialised part
            return 1;
          }
        }
        return 0;
      },
      &search);
  return search.found;
}

}  // namespace

// ============================================================================================
// [SECTION] Fiber stacks
// ============================================================================================

namespace {

namespace ctx = boost::context;

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kStackBytes = 256 * 1024;
#else
constexpr size_t kStackBytes = 64 * 1024;
#endif

// Stacks are reused across blocks and launches: a 2^20-thread grid allocates 256 of them, once.
// They come in 2 MiB slabs, and each stack top sits at its own offset within a page so that the
// tops do not all fall into the same cache set.
class StackPool {
 public:
  ~StackPool() {
    for (void* p : slabs_) std::free(p);
  }
  ctx::stack_context allocate() {
    if (free_.empty()) addSlab();
    ctx::stack_context sc = free_.back();
    free_.pop_back();
    return sc;
  }
  void deallocate(ctx::stack_context& sc) { free_.push_back(sc); }

 private:
  static constexpr size_t kSlabBytes = 2 * 1024 * 1024;
  static constexpr size_t kSlot = kStackBytes + 4096;

  void addSlab() {
    void* slab = std::aligned_alloc(kSlabBytes, kSlabBytes);
    if (!slab) throw std::bad_alloc();
    slabs_.push_back(slab);
    for (size_t offset = 0; offset + kSlot <= kSlabBytes; offset += kSlot) {
      ctx::stack_context sc;
      sc.size = kStackBytes;
      const size_t stagger = ((offset / kSlot) % 61) * 64;
      sc.sp = static_cast<char*>(slab) + offset + kStackBytes + stagger;
      free_.push_back(sc);
    }
    std::reverse(free_.begin(), free_.end());  // hand out in address order
  }

  std::vector<void*> slabs_;
  std::vector<ctx::stack_context> free_;
};

// What boost::context copies around: a handle to the pool.
struct PooledStack {
  StackPool* pool;
  ctx::stack_context allocate() { return pool->allocate(); }
  void deallocate(ctx::stack_context& sc) { pool->deallocate(sc); }
};

}  // namespace

// ============================================================================================
// [SECTION] Block scheduler
// ============================================================================================

namespace detail {

uint3 g_threadIdx;
uint3 g_blockIdx;
dim3 g_blockDim;
dim3 g_gridDim;
bool g_recordAtomics = false;

namespace {

enum class State { Runnable, AtBarrier, AtWarpOp, Done };

struct WarpRequest {
  WarpOp op = WarpOp::Sync;
  unsigned mask = 0;
  uint64_t bits = 0;
  int arg = 0;
  int width = 32;
  const char* file = "";
  int line = 0;
};

struct SimThread {
  unsigned linear = 0;
  uint3 idx;
  State state = State::Runnable;
  bool started = false;
  ctx::fiber fiber;  // the thread itself, while suspended
  ctx::fiber back;   // the scheduler, while the thread runs
  const char* waitFile = "";
  int waitLine = 0;
  WarpRequest warp;
  uint64_t warpResult = 0;
};

// Thrown inside a fiber to end a thread that failed an assertion; caught at the fiber's top.
struct AssertionFailure {
  std::string message;
};

const char* shortFile(const char* file) {
  const char* slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

std::string where(const char* file, int line) {
  return std::string(shortFile(file)) + ":" + std::to_string(line);
}

// "0-15, 17, 20-21": thread lists stay readable in diagnostics.
std::string ranges(const std::vector<unsigned>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ids[i]);
    if (j > i) out += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

class BlockRun {
 public:
  BlockRun(const std::function<void()>& body, const LaunchOptions& options, unsigned blockLinear,
           StackPool& pool, LaunchStats& stats)
      : body_(body), options_(options), blockLinear_(blockLinear), pool_(pool), stats_(stats) {}

  void run();
  SimThread* current() const { return current_; }
  void moveTo(SimThread& t, State next) {
    --count_[static_cast<int>(t.state)];
    ++count_[static_cast<int>(next)];
    t.state = next;
  }
  unsigned count(State s) const { return count_[static_cast<int>(s)]; }

  // Called from the running fiber: hand control back to the scheduler.
  void suspend() {
    SimThread* t = current_;
    t->back = std::move(t->back).resume();
    current_ = t;
    g_threadIdx = t->idx;
  }

 private:
  void advance(SimThread& t);
  bool releaseWaiters();
  bool releaseWarps();
  [[noreturn]] void stuck();
  [[noreturn]] void fail(const std::string& message);
  std::string blockName() const;
  using WarpLanes = std::array<SimThread*, 32>;
  static uint64_t computeWarpResult(const WarpLanes& lanes, const SimThread& t, unsigned groupMask);

  const std::function<void()>& body_;
  const LaunchOptions& options_;
  unsigned blockLinear_;
  StackPool& pool_;
  LaunchStats& stats_;
  std::vector<SimThread> threads_;
  std::array<unsigned, 4> count_{};  // threads in each State
  SimThread* current_ = nullptr;
  std::optional<std::string> failure_;
  uint64_t rng_ = 0;

  uint64_t nextRandom() {  // splitmix64: the same numbers on every platform
    uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

BlockRun* g_block = nullptr;

std::string BlockRun::blockName() const {
  if (g_gridDim.x * g_gridDim.y * g_gridDim.z == 1) return "";
  return " of block " + std::to_string(blockLinear_);
}

void BlockRun::fail(const std::string& message) {
  throw LaunchError("kernel stopped: " + message);
}

void BlockRun::advance(SimThread& t) {
  current_ = &t;
  g_threadIdx = t.idx;
  ++stats_.switches;
  if (!t.started) {
    t.started = true;
    t.fiber = ctx::fiber(std::allocator_arg, PooledStack{&pool_}, [this, &t](ctx::fiber&& back) {
      t.back = std::move(back);
      try {
        body_();
      } catch (const ctx::detail::forced_unwind&) {
        throw;  // the scheduler is tearing this fiber down
      } catch (const AssertionFailure& a) {
        failure_ = "thread " + std::to_string(t.linear) + blockName() + " " + a.message;
      } catch (const std::exception& e) {
        failure_ = "thread " + std::to_string(t.linear) + blockName() + " threw: " + e.what();
      } catch (...) {
        failure_ = "thread " + std::to_string(t.linear) + blockName() + " threw an exception";
      }
      moveTo(t, State::Done);
      return std::move(t.back);
    });
  }
  t.fiber = std::move(t.fiber).resume();
  current_ = nullptr;
  if (failure_) fail(*failure_);
}

uint64_t BlockRun::computeWarpResult(const WarpLanes& lanes, const SimThread& t,
                                     unsigned groupMask) {
  const WarpRequest& r = t.warp;
  const int lane = static_cast<int>(t.linear % 32);
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
  }
  return 0;
}

bool BlockRun::releaseWarps() {
  bool released = false;
  const unsigned total = static_cast<unsigned>(threads_.size());
  for (unsigned warpStart = 0; warpStart < total; warpStart += 32) {
    const unsigned lanesHere = std::min(32u, total - warpStart);
    const unsigned existing = lanesHere == 32 ? 0xffffffffu : (1u << lanesHere) - 1;
    if (count(State::AtWarpOp) == 0) break;
    bool anyWaiting = false;
    for (unsigned l = 0; l < lanesHere; ++l)
      anyWaiting |= threads_[warpStart + l].state == State::AtWarpOp;
    if (!anyWaiting) continue;
    WarpLanes lanes{};
    for (unsigned l = 0; l < lanesHere; ++l) lanes[l] = &threads_[warpStart + l];
    for (unsigned l = 0; l < lanesHere; ++l) {
      SimThread& t = *lanes[l];
      if (t.state != State::AtWarpOp) continue;
      const unsigned group = t.warp.mask & existing;
      const std::string site = where(t.warp.file, t.warp.line);
      if (!(group >> l & 1u))
        fail("thread " + std::to_string(t.linear) + blockName() + " calls a warp operation at " +
             site + " with a mask that leaves out its own lane " + std::to_string(l) + ".");
      bool complete = true;
      for (unsigned m = 0; m < lanesHere; ++m) {
        if (!(group >> m & 1u)) continue;
        const SimThread& other = *lanes[m];
        if (other.state == State::Done) {
          fail("the warp operation at " + site + blockName() + " waits for lane " +
               std::to_string(m) + " (thread " + std::to_string(other.linear) +
               "), which has already exited; every lane in the mask must reach it.");
        }
        if (other.state != State::AtWarpOp) {
          complete = false;
          break;
        }
        if (other.warp.op != t.warp.op || other.warp.mask != t.warp.mask)
          fail("lanes of warp " + std::to_string(warpStart / 32) + blockName() +
               " meet at different warp operations (" + site + " and " +
               where(other.warp.file, other.warp.line) + ").");
      }
      if (!complete) continue;
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) lanes[m]->warpResult = computeWarpResult(lanes, *lanes[m], group);
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) moveTo(*lanes[m], State::Runnable);
      released = true;
    }
  }
  return released;
}

bool BlockRun::releaseWaiters() {
  bool released = count(State::AtWarpOp) > 0 && releaseWarps();
  // The barrier opens when every live thread of the block waits at it.
  if (count(State::Runnable) > 0 || count(State::AtWarpOp) > 0 || count(State::AtBarrier) == 0)
    return released;
  const SimThread* first = nullptr;
  for (const SimThread& t : threads_) {
    if (t.state != State::AtBarrier) continue;
    if (!first) {
      first = &t;
    } else if (t.waitLine != first->waitLine ||
               (t.waitFile != first->waitFile && std::strcmp(t.waitFile, first->waitFile) != 0)) {
      std::vector<unsigned> here, there;
      for (const SimThread& u : threads_) {
        if (u.state != State::AtBarrier) continue;
        (u.waitLine == first->waitLine ? here : there).push_back(u.linear);
      }
      fail("threads " + ranges(here) + blockName() + " wait at the barrier at " +
           where(first->waitFile, first->waitLine) + ", threads " + ranges(there) +
           " at another barrier (" + where(t.waitFile, t.waitLine) +
           "); every thread of a block must reach the same __syncthreads().");
    }
  }
  for (SimThread& t : threads_)
    if (t.state == State::AtBarrier) moveTo(t, State::Runnable);
  return true;
}

void BlockRun::stuck() {
  std::vector<unsigned> atBarrier, atWarp, done;
  const SimThread* barrierThread = nullptr;
  const SimThread* warpThread = nullptr;
  for (const SimThread& t : threads_) {
    if (t.state == State::AtBarrier) {
      atBarrier.push_back(t.linear);
      barrierThread = &t;
    } else if (t.state == State::AtWarpOp) {
      atWarp.push_back(t.linear);
      warpThread = &t;
    } else if (t.state == State::Done) {
      done.push_back(t.linear);
    }
  }
  std::string message = "no thread" + blockName() + " can go on: ";
  if (barrierThread)
    message += "threads " + ranges(atBarrier) + " wait at the barrier at " +
               where(barrierThread->waitFile, barrierThread->waitLine);
  if (warpThread)
    message += std::string(barrierThread ? ", " : "") + "threads " + ranges(atWarp) +
               " wait at the warp operation at " +
               where(warpThread->warp.file, warpThread->warp.line);
  message += "; a barrier or warp operation must be reached by every thread it waits for.";
  fail(message);
}

void BlockRun::run() {
  const dim3 b = g_blockDim;
  const unsigned total = b.x * b.y * b.z;
  threads_.resize(total);
  for (unsigned i = 0; i < total; ++i) {
    threads_[i].linear = i;
    threads_[i].idx = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
  }
  count_ = {};
  count_[static_cast<int>(State::Runnable)] = total;
  rng_ = options_.schedule.seed ^ (0x5851f42d4c957f2dull * (blockLinear_ + 1));
  const Schedule& s = options_.schedule;
  constexpr uint64_t kRoundLimit = 100'000'000;  // a kernel that spins forever, not a hang
  uint64_t rounds = 0;
  std::vector<unsigned> runnable;
  runnable.reserve(total);

  for (;;) {
    if (count(State::Done) == total) break;
    if (count(State::Runnable) == 0) {
      if (!releaseWaiters()) stuck();
      continue;
    }
    if (++rounds > kRoundLimit)
      fail("block " + std::to_string(blockLinear_) + " made no progress in " +
           std::to_string(kRoundLimit) + " scheduling rounds; does a thread wait forever?");
    if (s.usesRounds()) {
      // One round: every runnable thread, in thread order, runs to its next yield point.
      // Nothing becomes runnable during a round: waiters are released after it.
      const bool stalling = s.kind == Schedule::Kind::Stall && rounds >= s.stallRound &&
                            rounds < uint64_t(s.stallRound) + s.stallRounds;
      for (SimThread& t : threads_)
        if (t.state == State::Runnable && !(stalling && t.linear == s.stallThread)) advance(t);
    } else {
      runnable.clear();
      for (const SimThread& t : threads_)
        if (t.state == State::Runnable) runnable.push_back(t.linear);
      switch (s.kind) {
        case Schedule::Kind::Sequential: {
          // The lowest runnable thread runs until it has to wait.
          SimThread& t = threads_[runnable.front()];
          while (t.state == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Reverse: {
          SimThread& t = threads_[runnable.back()];
          while (t.state == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Random:
          advance(threads_[runnable[nextRandom() % runnable.size()]]);
          break;
        case Schedule::Kind::WarpsRandom: {
          // Lanes of a warp stay together: pick a warp, advance all its runnable lanes.
          std::vector<unsigned> warps;
          for (unsigned id : runnable)
            if (warps.empty() || warps.back() != id / 32) warps.push_back(id / 32);
          const unsigned w = warps[nextRandom() % warps.size()];
          for (unsigned id : runnable)
            if (id / 32 == w) advance(threads_[id]);
          break;
        }
        default:
          break;
      }
    }
    if (count(State::Runnable) == 0 || count(State::AtWarpOp) > 0) releaseWaiters();
  }
  stats_.rounds += s.usesRounds() ? rounds : 0;
}

}  // namespace

// ============================================================================================
// [SECTION] Hooks called from kernel code (shim.hpp)
// ============================================================================================

namespace {
SimThread& runningThread(const char* what) {
  if (!g_block || !g_block->current())
    throw std::logic_error(std::string(what) + " called outside a simulated kernel");
  return *g_block->current();
}
}  // namespace

void barrier(const char* file, int line) {
  SimThread& t = runningThread("__syncthreads");
  g_block->moveTo(t, State::AtBarrier);
  t.waitFile = file;
  t.waitLine = line;
  g_block->suspend();
}

void yieldPoint(const char*, int) {
  runningThread("a yield point");
  g_block->suspend();
}

uint64_t warpCollective(WarpOp op, unsigned mask, uint64_t bits, int arg, int width,
                        const char* file, int line) {
  SimThread& t = runningThread("a warp operation");
  if (width <= 0 || width > 32 || (width & (width - 1)))
    throw std::invalid_argument("warp operation at " + where(file, line) + " has width " +
                                std::to_string(width) +
                                "; width must be a power of two from 1 to 32");
  g_block->moveTo(t, State::AtWarpOp);
  t.warp = {op, mask, bits, arg, width, file, line};
  g_block->suspend();
  return t.warpResult;
}

std::vector<AtomicEvent>* g_atomicSink = nullptr;  // set by launch() when it records atomics
unsigned g_blockLinear = 0;

void noteAtomic(const void* address, double old, double operand) {
  SimThread& t = runningThread("an atomic");
  if (g_atomicSink) g_atomicSink->push_back({g_blockLinear, t.linear, address, old, operand});
}

void failAssertion(const char* expression, const char* file, int line) {
  std::string message = std::string("failed assertion '") + expression + "'";
  if (line > 0) message += " at " + where(file, line);
  if (g_block && g_block->current()) throw AssertionFailure{message};
  throw std::logic_error(message);
}

}  // namespace detail

// ============================================================================================
// [SECTION] Worker thread and launch()
// ============================================================================================

namespace {

// All simulated threads run here, so that __shared__ (thread_local) means "this block".
class Worker {
 public:
  static Worker& instance() {
    static Worker worker;
    return worker;
  }

  template <class Job>
  void runOnWorker(Job&& job) {
    std::unique_lock<std::mutex> callerLock(callers_);  // one launch at a time
    std::exception_ptr error;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      job_ = [&] {
        try {
          job();
        } catch (...) {
          error = std::current_exception();
        }
      };
      done_ = false;
      wake_.notify_one();
      finished_.wait(lock, [&] { return done_; });
    }
    if (error) std::rethrow_exception(error);
  }

  StackPool& stacks() { return stacks_; }
  ByteRange shared() const { return shared_; }

 private:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
      wake_.notify_one();
    }
    thread_.join();
  }

  void loop() {
    shared_ = findSharedMemoryRange();
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return quit_ || job_ != nullptr; });
      if (quit_) return;
      auto job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      lock.lock();
      done_ = true;
      finished_.notify_all();
    }
  }

  std::mutex callers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::function<void()> job_;
  bool done_ = true;
  bool quit_ = false;
  StackPool stacks_;
  ByteRange shared_;
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options,
                   const std::function<void()>& body) {
  const uint64_t threadsPerBlock = uint64_t(block.x) * block.y * block.z;
  if (threadsPerBlock == 0 || threadsPerBlock > 1024)
    throw std::invalid_argument("a block has " + std::to_string(threadsPerBlock) +
                                " threads; CUDA allows 1 to 1024");
  if (uint64_t(grid.x) * grid.y * grid.z == 0)
    throw std::invalid_argument("the grid has no blocks; launch at least one");
  LaunchStats stats;
  Worker& worker = Worker::instance();
  worker.runOnWorker([&] {
    detail::g_blockDim = block;
    detail::g_gridDim = grid;
    detail::g_recordAtomics = options.recordAtomics;
    detail::g_atomicSink = options.recordAtomics ? &stats.atomics : nullptr;
    const auto shared = worker.shared();
    unsigned linear = 0;
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x, ++linear) {
          if (shared.begin) std::memset(shared.begin, kSharedPoisonByte, shared.end - shared.begin);
          detail::g_blockIdx = {x, y, z};
          detail::g_blockLinear = linear;
          auto run =
              std::make_unique<detail::BlockRun>(body, options, linear, worker.stacks(), stats);
          detail::g_block = run.get();
          try {
            run->run();
          } catch (...) {
            detail::g_block = nullptr;
            detail::g_atomicSink = nullptr;
            detail::g_recordAtomics = false;
            run.reset();  // unwinds the suspended fibers before the error leaves
            throw;
          }
          detail::g_block = nullptr;
        }
    detail::g_atomicSink = nullptr;
    detail::g_recordAtomics = false;
  });
  return stats;
}

}  // namespace rlab::sim
