// The simulator's engine: one worker thread, one fiber per CUDA thread, a deterministic scheduler.
//
// [SECTION] Schedule parsing
// [SECTION] Shared memory poison
// [SECTION] Fibers
// [SECTION] Block scheduler
// [SECTION] Hooks called from kernel code (shim.hpp)
// [SECTION] Watched global memory
// [SECTION] Worker thread and launch()

#include "kernels/sim/runtime.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <array>
#include <boost/context/detail/fcontext.hpp>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
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
// __shared__ is `static thread_local`, and every block runs on the worker thread, so a kernel's
// shared memory is the worker's copy of the kernel's static thread-local variables. The
// compiler names those after the function: the Itanium ABI spells `s` in `k<int>` as
// `_ZZ<encoding of k<int>>E1s`. So the symbol table of the module that holds the kernel says
// exactly which thread-local bytes are its shared memory; a read before a write then shows a
// poison byte, and nothing else on the worker (any other thread-local) is touched.
// A module without a symbol table (stripped) gets its whole zero-initialised TLS poisoned.

namespace {

struct ByteRange {
  unsigned char* begin = nullptr;
  unsigned char* end = nullptr;
  std::string name;  // the variable's name in the source ("s"); empty when not known
};

// Where the kernel's module lives in this process, and the worker's copy of its TLS.
struct LoadedModule {
  std::string file;
  uintptr_t bias = 0;
  unsigned char* tls = nullptr;  // this thread's TLS block of the module
  size_t tlsFileBytes = 0, tlsBytes = 0;
  size_t tlsModule = 0;  // the dynamic linker's number for the module's TLS block
};

// A library loaded with dlopen (a learner's kernel) gets each thread's copy of its TLS block
// only when that thread first touches one of its thread-locals, so the worker has none before
// the module's first kernel has run there: without one the first block of the first launch
// would go unpoisoned. glibc's __tls_get_addr, which every access from such a library goes
// through, allocates it; asked for offset 0, it returns the block's start.
struct TlsIndex {
  unsigned long module, offset;
};
extern "C" void* __tls_get_addr(TlsIndex*);

unsigned char* allocateTlsBlock(size_t module) {
  TlsIndex index{module, 0};
  return static_cast<unsigned char*>(__tls_get_addr(&index));
}

std::optional<LoadedModule> moduleHolding(const void* address) {
  struct Search {
    uintptr_t address;
    std::optional<LoadedModule> found;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        bool holds = false;
        LoadedModule module;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz)
            holds = true;
          if (ph.p_type == PT_TLS) {
            module.tls = static_cast<unsigned char*>(info->dlpi_tls_data);
            module.tlsFileBytes = ph.p_filesz;
            module.tlsBytes = ph.p_memsz;
            module.tlsModule = info->dlpi_tls_modid;
          }
        }
        if (!holds) return 0;
        const bool mainProgram = !info->dlpi_name || !*info->dlpi_name;
        module.file = mainProgram ? "/proc/self/exe" : info->dlpi_name;
        module.bias = info->dlpi_addr;
        s->found = std::move(module);
        return 1;
      },
      &search);
  return search.found;
}

// The source name in what follows a static local's prefix: "1s" is `s`, "5total_0" the second
// `total` of the function (the Itanium ABI's <source-name> and discriminator).
std::string sourceName(std::string_view rest) {
  size_t digits = 0, length = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
    length = length * 10 + size_t(rest[digits++] - '0');
  if (digits == 0 || digits + length > rest.size()) return "";
  return std::string(rest.substr(digits, length));
}

// The symbols of one ELF file that matter here: functions (to name a kernel by its address)
// and thread-local variables (offsets into the module's TLS block).
class SymbolTable {
 public:
  explicit SymbolTable(const std::string& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && size_t(st.st_size) >= sizeof(ElfW(Ehdr))) {
      void* map = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED) {
        read(static_cast<const unsigned char*>(map), size_t(st.st_size));
        ::munmap(map, size_t(st.st_size));
      }
    }
    ::close(fd);
  }

  bool empty() const { return functions_.empty(); }

  // The name of the function whose code holds `offset` (an address less the load bias).
  const std::string* functionAt(uintptr_t offset) const {
    auto after =
        std::upper_bound(functions_.begin(), functions_.end(), offset,
                         [](uintptr_t value, const Function& f) { return value < f.start; });
    if (after == functions_.begin()) return nullptr;
    const Function& f = *std::prev(after);
    return offset < f.start + std::max<uint64_t>(f.size, 1) ? &f.name : nullptr;
  }

  // The thread-local variables whose names start with `prefix`: (offset in the TLS block, size).
  struct Found {
    uint64_t offset, size;
    std::string name;  // as the source spells it
  };
  std::vector<Found> threadLocalsNamed(std::string_view prefix) const {
    std::vector<Found> found;
    for (const auto& v : threadLocals_)
      if (std::string_view(v.name).substr(0, prefix.size()) == prefix)
        found.push_back(
            {v.offset, v.size, sourceName(std::string_view(v.name).substr(prefix.size()))});
    return found;
  }

 private:
  struct Function {
    uint64_t start, size;
    std::string name;
  };
  struct ThreadLocal {
    uint64_t offset, size;
    std::string name;
  };

  void read(const unsigned char* image, size_t bytes) {
    const auto& header = *reinterpret_cast<const ElfW(Ehdr)*>(image);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_shoff == 0 ||
        header.e_shoff + uint64_t(header.e_shnum) * sizeof(ElfW(Shdr)) > bytes)
      return;
    const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(image + header.e_shoff);
    for (unsigned i = 0; i < header.e_shnum; ++i) {
      const ElfW(Shdr)& table = sections[i];
      if (table.sh_type != SHT_SYMTAB || table.sh_link >= header.e_shnum) continue;
      const ElfW(Shdr)& strings = sections[table.sh_link];
      if (table.sh_offset + table.sh_size > bytes || strings.sh_offset + strings.sh_size > bytes)
        return;
      const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(image + table.sh_offset);
      const char* names = reinterpret_cast<const char*>(image + strings.sh_offset);
      for (size_t k = 0; k < table.sh_size / sizeof(ElfW(Sym)); ++k) {
        const ElfW(Sym)& sym = symbols[k];
        if (sym.st_name >= strings.sh_size || sym.st_shndx == SHN_UNDEF) continue;
        const char* name = names + sym.st_name;
        if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC)
          functions_.push_back({sym.st_value, sym.st_size, name});
        else if (ELF64_ST_TYPE(sym.st_info) == STT_TLS && std::strncmp(name, "_ZZ", 3) == 0)
          threadLocals_.push_back({sym.st_value, sym.st_size, name});
      }
    }
    std::sort(functions_.begin(), functions_.end(),
              [](const Function& a, const Function& b) { return a.start < b.start; });
  }

  std::vector<Function> functions_;
  std::vector<ThreadLocal> threadLocals_;  // function-local statics only (names "_ZZ...")
};

// What a static local of `function` is called begins with this: "_ZZ", the function's
// encoding (its mangled name less "_Z", or length and name for an extern "C" one), then "E".
std::string staticLocalPrefix(const std::string& function) {
  if (function.rfind("_Z", 0) == 0) return "_ZZ" + function.substr(2) + "E";
  return "_ZZ" + std::to_string(function.size()) + function + "E";
}

// The byte ranges of the calling thread's copy of each kernel's shared memory, found once per
// kernel and module. Used on the worker thread only.
class SharedMemoryMap {
 public:
  const std::vector<ByteRange>& of(const void* kernel) {
    auto known = kernels_.find(kernel);
    if (known != kernels_.end()) return known->second;
    static const std::vector<ByteRange> none;
    auto module = moduleHolding(kernel);
    if (!module) return none;
    if (module->tlsBytes && !module->tls) module->tls = allocateTlsBlock(module->tlsModule);
    std::vector<ByteRange>& ranges = kernels_[kernel];
    if (!module->tlsBytes) return ranges;  // the module has no thread-locals at all
    auto table = tables_.find(module->file);
    if (table == tables_.end()) table = tables_.emplace(module->file, module->file).first;
    const std::string* name =
        table->second.functionAt(reinterpret_cast<uintptr_t>(kernel) - module->bias);
    if (!name) {  // no symbols: every zero-initialised thread-local of the module
      ranges.push_back({module->tls + module->tlsFileBytes, module->tls + module->tlsBytes, ""});
      return ranges;
    }
    for (const auto& v : table->second.threadLocalsNamed(staticLocalPrefix(*name)))
      if (v.offset + v.size <= module->tlsBytes)
        ranges.push_back({module->tls + v.offset, module->tls + v.offset + v.size, v.name});
    return ranges;
  }

 private:
  std::map<const void*, std::vector<ByteRange>> kernels_;
  std::map<std::string, SymbolTable> tables_;
};

}  // namespace

// ============================================================================================
// [SECTION] Fibers
// ============================================================================================
// Thread i of every block runs on fiber i, and fibers live as long as the process: a block
// starts by resuming fibers that already exist, not by creating 256 new ones. Each fiber loops
// forever: run one simulated thread to its end, hand control back, wait for the next block.
// The raw fcontext jump is the cheapest switch Boost.Context has; the fiber keeps nothing on
// its stack between threads, so an idle fiber needs no unwinding.

namespace {

namespace fc = boost::context::detail;

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kStackBytes = 256 * 1024;
#else
constexpr size_t kStackBytes = 64 * 1024;
#endif

// A stack as AddressSanitizer must be told about it at every switch (unused without ASan).
struct Stack {
  const void* bottom = nullptr;
  size_t size = 0;
  void* fakeStack = nullptr;  // ASan's home for this stack's escaped locals while it sleeps
};

// Stacks come in 2 MiB slabs, and each stack top sits at its own offset within a page so that
// the tops do not all fall into the same cache set.
class FiberPool {
 public:
  // Room for the largest block from the start: a suspended fiber keeps pointers to its own
  // context and stack entries, so the arrays must never move.
  explicit FiberPool(void (*entry)(fc::transfer_t)) : entry_(entry) {
    contexts_.reserve(kMaxFibers);
    stacks_.reserve(kMaxFibers);
  }
  ~FiberPool() {
    for (void* p : slabs_) std::free(p);
  }
  FiberPool(const FiberPool&) = delete;
  FiberPool& operator=(const FiberPool&) = delete;

  // The suspended contexts of the first `count` fibers; the scheduler updates them in place.
  fc::fcontext_t* contexts(size_t count) {
    while (contexts_.size() < count) addSlab();
    return contexts_.data();
  }
  Stack* stacks() { return stacks_.data(); }  // as many as contexts()

 private:
  static constexpr size_t kSlabBytes = 2 * 1024 * 1024;
  static constexpr size_t kSlot = kStackBytes + 4096;
  static constexpr size_t kStacksPerSlab = kSlabBytes / kSlot;
  static constexpr size_t kMaxFibers =
      (1024 + kStacksPerSlab - 1) / kStacksPerSlab * kStacksPerSlab;

  void addSlab() {
    void* slab = std::aligned_alloc(kSlabBytes, kSlabBytes);
    if (!slab) throw std::bad_alloc();
    slabs_.push_back(slab);
    for (size_t offset = 0; offset + kSlot <= kSlabBytes; offset += kSlot) {
      const size_t stagger = ((offset / kSlot) % 61) * 64;
      void* top = static_cast<char*>(slab) + offset + kStackBytes + stagger;
      contexts_.push_back(fc::make_fcontext(top, kStackBytes, entry_));
      stacks_.push_back({static_cast<char*>(top) - kStackBytes, kStackBytes});
    }
  }

  void (*entry_)(fc::transfer_t);
  std::vector<void*> slabs_;
  std::vector<fc::fcontext_t> contexts_;
  std::vector<Stack> stacks_;
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

// One byte per thread, in an array of its own: the scheduler scans it every round.
enum class State : uint8_t { Runnable, AtBarrier, AtWarpOp, Done };

struct WarpRequest {
  WarpOp op = WarpOp::Sync;
  unsigned mask = 0;
  uint64_t bits = 0;
  int arg = 0;
  int width = 32;
  const char* file = "";
  int line = 0;
};

struct Site {  // a barrier's place in the source
  const char* file = "";
  int line = 0;
};

// The warp operation a waiting thread waits at, and what it gets when the warp meets.
struct Waiting {
  WarpRequest warp;
  uint64_t warpResult = 0;
};

// Thrown inside a fiber to end a thread that failed an assertion; caught at the fiber's top.
struct AssertionFailure {
  std::string message;
};

// Thrown inside a suspended fiber when its launch has failed elsewhere, so that its frames
// unwind and the fiber is free for the next block; caught at the fiber's top.
struct Unwind {};

fc::fcontext_t g_scheduler = nullptr;  // where the running fiber hands control back to
Stack g_schedulerStack;                // the worker thread's own stack

// Every jump names where the one who jumps is to be kept (its thread's slot, or g_scheduler),
// and whoever it lands on stores it there: threads can hand control to each other directly.
// Under AddressSanitizer every switch is announced, so that it checks the right stack.
void jumpTo(fc::fcontext_t target, const Stack& targetStack, fc::fcontext_t* keepMeIn,
            Stack& myStack) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(&myStack.fakeStack, targetStack.bottom, targetStack.size);
#else
  (void)targetStack;
  (void)myStack;
#endif
  const fc::transfer_t from = fc::jump_fcontext(target, keepMeIn);
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(myStack.fakeStack, nullptr, nullptr);
#endif
  *static_cast<fc::fcontext_t*>(from.data) = from.fctx;
}

const char* shortFile(const char* file) {
  const char* slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

std::string where(const char* file, int line) {
  return std::string(shortFile(file)) + ":" + std::to_string(line);
}

bool sameSite(const char* fileA, int lineA, const char* fileB, int lineB) {
  return lineA == lineB && (fileA == fileB || std::strcmp(fileA, fileB) == 0);
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

constexpr unsigned kNoThread = ~0u;

class BlockRun {
 public:
  BlockRun(const std::function<void()>& body, const LaunchOptions& options, FiberPool& fibers,
           LaunchStats& stats, const std::vector<ByteRange>* shared)
      : body_(body), options_(options), fibers_(fibers), stats_(stats), shared_(shared) {}

  void run(unsigned blockLinear);
  void runThread();  // on fiber current(): the thread's whole life
  unsigned current() const { return current_; }

  void arriveAtBarrier(const char* file, int line);
  void arriveAtWarpOp(const WarpRequest& request);
  uint64_t warpResult() const { return waiting_[current_].warpResult; }

  // Called from the running fiber at a yield point: in a round, hand control straight to the
  // next thread of the round; else, or at the round's end, to the scheduler.
  void suspend() {
    const unsigned self = current_;
    const unsigned next = inRound_ ? nextInRound(self + 1) : kNoThread;
    if (next != kNoThread) {
      enter(next);
      // The thread after it most likely runs next: start fetching its saved registers now.
      // Its stack sits 64 KiB from this one, too far for the hardware to guess (measured:
      // about a tenth more elements a second).
      if (next + 1 < total_) {
        const char* after = static_cast<const char*>(contexts_[next + 1]);
        __builtin_prefetch(after);
        __builtin_prefetch(after + 64);
      }
      jumpTo(contexts_[next], stacks_[next], &contexts_[self], stacks_[self]);
    } else {
      current_ = kNoThread;
      jumpTo(g_scheduler, g_schedulerStack, &contexts_[self], stacks_[self]);
    }
    if (unwinding_) throw Unwind{};
  }

 private:
  void moveTo(unsigned thread, State next) {
    --count_[static_cast<int>(state_[thread])];
    ++count_[static_cast<int>(next)];
    state_[thread] = next;
  }
  unsigned count(State s) const { return count_[static_cast<int>(s)]; }
  void enter(unsigned thread) {
    current_ = thread;
    g_threadIdx = idx_[thread];
    ++switches_;
  }
  unsigned nextInRound(unsigned from) const {
    if (failure_) return kNoThread;  // the scheduler reports it
    for (unsigned i = from; i < total_; ++i)
      if (state_[i] == State::Runnable && i != roundSkips_) return i;
    return kNoThread;
  }
  void advance(unsigned thread);
  void schedule();
  void unwindSuspended();
  bool releaseWaiters();
  bool releaseWarps();
  [[noreturn]] void barrierMismatch();
  [[noreturn]] void stuck();
  [[noreturn]] void fail(const std::string& message);
  std::string blockName() const;
  using WarpLanes = std::array<Waiting*, 32>;
  static uint64_t computeWarpResult(const WarpLanes& lanes, unsigned lane, unsigned groupMask);

  const std::function<void()>& body_;
  const LaunchOptions& options_;
  FiberPool& fibers_;
  unsigned blockLinear_ = 0;
  LaunchStats& stats_;
  const std::vector<ByteRange>* shared_;  // the kernel's __shared__ variables
  unsigned total_ = 0;
  fc::fcontext_t* contexts_ = nullptr;  // fiber i runs thread i
  Stack* stacks_ = nullptr;
  std::vector<State> state_;
  std::vector<uint8_t> started_;
  std::vector<uint3> idx_;
  std::vector<Site> barrierSite_;
  std::vector<Waiting> waiting_;
  std::array<unsigned, 4> count_{};  // threads in each State
  const char* barrierFile_ = "";     // where the first thread to wait at the barrier waits
  int barrierLine_ = 0;
  bool barrierSplit_ = false;  // a waiting thread waits at another barrier
  unsigned current_ = kNoThread;
  bool inRound_ = false;             // lockstep and stall: threads hand over to each other
  unsigned roundSkips_ = kNoThread;  // the stalled thread, while it sits out
  bool unwinding_ = false;
  uint64_t switches_ = 0;
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

void fiberMain(fc::transfer_t start) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  *static_cast<fc::fcontext_t*>(start.data) = start.fctx;
  for (;;) {
    g_block->runThread();
    g_block->suspend();  // idle until the next block resumes this fiber
  }
}

std::string BlockRun::blockName() const {
  if (g_gridDim.x * g_gridDim.y * g_gridDim.z == 1) return "";
  return " of block " + std::to_string(blockLinear_);
}

void BlockRun::fail(const std::string& message) {
  throw LaunchError("kernel stopped: " + message);
}

void BlockRun::runThread() {
  const unsigned thread = current_;
  started_[thread] = 1;  // from here on its fiber holds frames to unwind if the launch fails
  try {
    body_();
  } catch (const Unwind&) {
    // the launch has failed in another thread; nothing to report from this one
  } catch (const AssertionFailure& a) {
    failure_ = "thread " + std::to_string(thread) + blockName() + " " + a.message;
  } catch (const std::exception& e) {
    failure_ = "thread " + std::to_string(thread) + blockName() + " threw: " + e.what();
  } catch (...) {
    failure_ = "thread " + std::to_string(thread) + blockName() + " threw an exception";
  }
  moveTo(thread, State::Done);
}

void BlockRun::advance(unsigned thread) {
  enter(thread);
  jumpTo(contexts_[thread], stacks_[thread], &g_scheduler, g_schedulerStack);
  current_ = kNoThread;
  if (failure_) fail(*failure_);
}

// Every thread that has started and not finished unwinds its frames, so that its fiber is
// idle again before the launch's error leaves.
void BlockRun::unwindSuspended() {
  failure_.reset();
  inRound_ = false;
  unwinding_ = true;
  for (unsigned i = 0; i < total_; ++i)
    if (started_[i] && state_[i] != State::Done) advance(i);
  unwinding_ = false;
}

void BlockRun::arriveAtBarrier(const char* file, int line) {
  moveTo(current_, State::AtBarrier);
  barrierSite_[current_] = {file, line};
  if (count(State::AtBarrier) == 1) {
    barrierFile_ = file;
    barrierLine_ = line;
  } else if (!sameSite(file, line, barrierFile_, barrierLine_)) {
    barrierSplit_ = true;
  }
}

void BlockRun::arriveAtWarpOp(const WarpRequest& request) {
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
  }
  return 0;
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
      if (state[l] != State::AtWarpOp) continue;
      const WarpRequest& request = lanes[l]->warp;
      const unsigned group = request.mask & existing;
      const std::string site = where(request.file, request.line);
      if (!(group >> l & 1u))
        fail("thread " + std::to_string(warpStart + l) + blockName() +
             " calls a warp operation at " + site + " with a mask that leaves out its own lane " +
             std::to_string(l) + ".");
      bool complete = true;
      for (unsigned m = 0; m < lanesHere; ++m) {
        if (!(group >> m & 1u)) continue;
        if (state[m] == State::Done) {
          fail("the warp operation at " + site + blockName() + " waits for lane " +
               std::to_string(m) + " (thread " + std::to_string(warpStart + m) +
               "), which has already exited; every lane in the mask must reach it.");
        }
        if (state[m] != State::AtWarpOp) {
          complete = false;
          break;
        }
        const WarpRequest& other = lanes[m]->warp;
        if (other.op != request.op || other.mask != request.mask)
          fail("lanes of warp " + std::to_string(warpStart / 32) + blockName() +
               " meet at different warp operations (" + site + " and " +
               where(other.file, other.line) + ").");
      }
      if (!complete) continue;
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) lanes[m]->warpResult = computeWarpResult(lanes, m, group);
      for (unsigned m = 0; m < lanesHere; ++m)
        if (group >> m & 1u) moveTo(warpStart + m, State::Runnable);
      released = true;
    }
  }
  return released;
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
  fail("threads " + ranges(here) + blockName() + " wait at the barrier at " +
       where(a.file, a.line) + ", threads " + ranges(there) + " at another barrier (" +
       where(other->file, other->line) +
       "); every thread of a block must reach the same __syncthreads().");
}

bool BlockRun::releaseWaiters() {
  bool released = count(State::AtWarpOp) > 0 && releaseWarps();
  // The barrier opens when every live thread of the block waits at it.
  if (count(State::Runnable) > 0 || count(State::AtWarpOp) > 0 || count(State::AtBarrier) == 0)
    return released;
  if (barrierSplit_) barrierMismatch();
  if (options_.onBarrier) {
    std::vector<SharedSpan> spans;
    if (shared_)
      for (const ByteRange& r : *shared_)
        spans.push_back({r.begin, size_t(r.end - r.begin), r.name});
    options_.onBarrier(blockLinear_, spans);
  }
  for (State& s : state_)
    if (s == State::AtBarrier) s = State::Runnable;
  count_[static_cast<int>(State::Runnable)] += count(State::AtBarrier);
  count_[static_cast<int>(State::AtBarrier)] = 0;
  return true;
}

void BlockRun::stuck() {
  std::vector<unsigned> atBarrier, atWarp;
  const Site* barrierThread = nullptr;
  const Waiting* warpThread = nullptr;
  for (unsigned i = 0; i < total_; ++i) {
    if (state_[i] == State::AtBarrier) {
      atBarrier.push_back(i);
      barrierThread = &barrierSite_[i];
    } else if (state_[i] == State::AtWarpOp) {
      atWarp.push_back(i);
      warpThread = &waiting_[i];
    }
  }
  std::string message = "no thread" + blockName() + " can go on: ";
  if (barrierThread)
    message += "threads " + ranges(atBarrier) + " wait at the barrier at " +
               where(barrierThread->file, barrierThread->line);
  if (warpThread)
    message += std::string(barrierThread ? ", " : "") + "threads " + ranges(atWarp) +
               " wait at the warp operation at " +
               where(warpThread->warp.file, warpThread->warp.line);
  message += "; a barrier or warp operation must be reached by every thread it waits for.";
  fail(message);
}

void BlockRun::run(unsigned blockLinear) {
  blockLinear_ = blockLinear;
  const dim3 b = g_blockDim;
  total_ = b.x * b.y * b.z;
  contexts_ = fibers_.contexts(total_);
  stacks_ = fibers_.stacks();
  state_.assign(total_, State::Runnable);
  started_.assign(total_, 0);
  barrierSite_.assign(total_, Site{});
  waiting_.assign(total_, Waiting{});
  idx_.resize(total_);
  for (unsigned i = 0; i < total_; ++i) idx_[i] = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
  count_ = {};
  count_[static_cast<int>(State::Runnable)] = total_;
  rng_ = options_.schedule.seed ^ (0x5851f42d4c957f2dull * (blockLinear_ + 1));
  switches_ = 0;
  try {
    schedule();
  } catch (...) {
    unwindSuspended();
    stats_.switches += switches_;
    throw;
  }
  stats_.switches += switches_;
}

void BlockRun::schedule() {
  const Schedule& s = options_.schedule;
  constexpr uint64_t kRoundLimit = 100'000'000;  // a kernel that spins forever, not a hang
  uint64_t rounds = 0;
  std::vector<unsigned> runnable;
  runnable.reserve(total_);

  for (;;) {
    if (count(State::Done) == total_) break;
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
      roundSkips_ = stalling ? s.stallThread : kNoThread;
      const unsigned first = nextInRound(0);
      if (first != kNoThread) {
        inRound_ = true;  // the threads hand over to each other; the last one returns here
        advance(first);
        inRound_ = false;
      }
    } else {
      runnable.clear();
      for (unsigned i = 0; i < total_; ++i)
        if (state_[i] == State::Runnable) runnable.push_back(i);
      switch (s.kind) {
        case Schedule::Kind::Sequential: {
          // The lowest runnable thread runs until it has to wait.
          const unsigned t = runnable.front();
          while (state_[t] == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Reverse: {
          const unsigned t = runnable.back();
          while (state_[t] == State::Runnable) advance(t);
          break;
        }
        case Schedule::Kind::Random:
          advance(runnable[nextRandom() % runnable.size()]);
          break;
        case Schedule::Kind::WarpsRandom: {
          // Lanes of a warp stay together: pick a warp, advance all its runnable lanes.
          std::vector<unsigned> warps;
          for (unsigned id : runnable)
            if (warps.empty() || warps.back() != id / 32) warps.push_back(id / 32);
          const unsigned w = warps[nextRandom() % warps.size()];
          for (unsigned id : runnable)
            if (id / 32 == w) advance(id);
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
[[noreturn]] __attribute__((noinline, cold)) void outsideKernel(const char* what) {
  throw std::logic_error(std::string(what) + " called outside a simulated kernel");
}

inline BlockRun& runningBlock(const char* what) {
  if (!g_block || g_block->current() == kNoThread) [[unlikely]]
    outsideKernel(what);
  return *g_block;
}
}  // namespace

void barrier(const char* file, int line) {
  BlockRun& block = runningBlock("__syncthreads");
  block.arriveAtBarrier(file, line);
  block.suspend();
}

void yieldPoint(const char*, int) {
  runningBlock("a yield point").suspend();
}

uint64_t warpCollective(WarpOp op, unsigned mask, uint64_t bits, int arg, int width,
                        const char* file, int line) {
  BlockRun& block = runningBlock("a warp operation");
  if (width <= 0 || width > 32 || (width & (width - 1)))
    throw std::invalid_argument("warp operation at " + where(file, line) + " has width " +
                                std::to_string(width) +
                                "; width must be a power of two from 1 to 32");
  block.arriveAtWarpOp({op, mask, bits, arg, width, file, line});
  block.suspend();
  return block.warpResult();
}

long long g_logicalClock = 0;
std::vector<AtomicEvent>* g_atomicSink = nullptr;  // set by launch() when it records atomics
LaunchStats* g_printSink = nullptr;                // set by launch() when it captures printf
unsigned g_blockLinear = 0;

int kernelPrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const bool inKernel = g_block && g_block->current() != kNoThread;
  int length = 0;
  if (inKernel && g_printSink) {
    char small[256];
    va_list again;
    va_copy(again, args);
    length = std::vsnprintf(small, sizeof small, format, args);
    std::string text;
    if (length >= 0 && size_t(length) < sizeof small) {
      text = small;
    } else if (length > 0) {
      text.resize(size_t(length) + 1);
      std::vsnprintf(text.data(), text.size(), format, again);
      text.pop_back();
    }
    va_end(again);
    std::string& out = g_printSink->printed;
    if (out.size() + text.size() <= kPrintedBytes)
      out += text;
    else
      g_printSink->printedCut = true;
  } else {
    length = std::vprintf(format, args);
  }
  va_end(args);
  if (inKernel) g_block->suspend();  // printing takes a GPU thread time: the others go on
  return length;
}

void noteAtomic(const void* address, double old, double operand, double after) {
  const unsigned thread = runningBlock("an atomic").current();
  if (g_atomicSink) g_atomicSink->push_back({g_blockLinear, thread, address, old, operand, after});
}

void failAssertion(const char* expression, const char* file, int line) {
  std::string message = std::string("failed assertion '") + expression + "'";
  if (line > 0) message += " at " + where(file, line);
  if (g_block && g_block->current() != kNoThread) throw AssertionFailure{message};
  throw std::logic_error(message);
}

}  // namespace detail

// ============================================================================================
// [SECTION] Watched global memory
// ============================================================================================
// The kernel's global memory is plain host memory and its loads and stores plain instructions,
// so the simulator cannot see them pass, unless it takes the pages away: for a launch that
// watches memory the watched pages are PROT_NONE, each access faults, the SIGSEGV handler
// records the faulting address (si_addr), the instruction and whether it wrote, opens the
// pages and sets the trap flag; the instruction then runs, and the SIGTRAP that follows it
// closes the pages again. Only the worker thread's faults in watched pages are ours; any other
// fault goes to the handler that was there before, as if we had never been.

namespace detail {

bool g_recordingMemory = false;

namespace {

const std::vector<WatchedMemory>* g_watched = nullptr;
std::vector<MemoryAccess>* g_memorySink = nullptr;
pthread_t g_watcher{};
bool g_stepping = false;
struct sigaction g_previousSegv {
}, g_previousTrap{};

const WatchedMemory* watchedAt(uintptr_t address) {
  if (!g_watched) return nullptr;
  for (const WatchedMemory& w : *g_watched) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(w.begin);
    if (address >= begin && address < begin + w.bytes) return &w;
  }
  return nullptr;
}

void setWatchedPages(int protection) {
  for (const WatchedMemory& w : *g_watched)
    mprotect(const_cast<void*>(w.begin), w.bytes, protection);
}

#if defined(__x86_64__)
constexpr greg_t kTrapFlag = 0x100;

void onWatchedFault(int, siginfo_t* info, void* context) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  const WatchedMemory* w = watchedAt(address);
  if (!w || !pthread_equal(pthread_self(), g_watcher)) {
    sigaction(SIGSEGV, &g_previousSegv, nullptr);  // not ours: it faults again, theirs
    return;
  }
  auto& registers = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  if (g_memorySink && g_block && g_block->current() != kNoThread) {
    // The interrupted code is a kernel's load or store, never the allocator, so growing the
    // vector here is safe in practice.
    MemoryAccess a;
    a.block = g_blockLinear;
    a.thread = g_block->current();
    a.buffer = w->buffer;
    a.offset = (long long)(address - reinterpret_cast<uintptr_t>(w->begin));
    a.bytes = w->elementBytes;
    a.write = (registers[REG_ERR] & 2) != 0;
    a.instruction = uintptr_t(registers[REG_RIP]);
    g_memorySink->push_back(a);
  }
  setWatchedPages(PROT_READ | PROT_WRITE);
  registers[REG_EFL] |= kTrapFlag;
  g_stepping = true;
}

void onStepped(int, siginfo_t*, void* context) {
  if (!g_stepping || !pthread_equal(pthread_self(), g_watcher)) {
    sigaction(SIGTRAP, &g_previousTrap, nullptr);
    raise(SIGTRAP);
    return;
  }
  static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
  g_stepping = false;
  setWatchedPages(PROT_NONE);
}
#endif

}  // namespace

void noteStep(int step) {
  if (!g_memorySink || !g_block || g_block->current() == kNoThread) return;
  MemoryAccess mark;
  mark.block = g_blockLinear;
  mark.thread = g_block->current();
  mark.step = step;
  g_memorySink->push_back(mark);
}

// Watches `watched` from construction to destruction, on the worker thread.
class MemoryWatch {
 public:
  MemoryWatch(const std::vector<WatchedMemory>& watched, std::vector<MemoryAccess>& sink) {
    if (watched.empty()) return;
#if defined(__x86_64__)
    active_ = true;
    g_watched = &watched;
    g_memorySink = &sink;
    g_watcher = pthread_self();
    g_stepping = false;
    struct sigaction fault {
    }, step{};
    fault.sa_sigaction = onWatchedFault;
    fault.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&fault.sa_mask);
    step.sa_sigaction = onStepped;
    step.sa_flags = SA_SIGINFO;
    sigemptyset(&step.sa_mask);
    sigaction(SIGSEGV, &fault, &g_previousSegv);
    sigaction(SIGTRAP, &step, &g_previousTrap);
    g_recordingMemory = true;
    setWatchedPages(PROT_NONE);
#else
    (void)sink;
    throw std::invalid_argument(
        "counting memory transactions needs an x86-64 CPU; this simulator runs without them");
#endif
  }
  ~MemoryWatch() {
    if (!active_) return;
    setWatchedPages(PROT_READ | PROT_WRITE);
    sigaction(SIGSEGV, &g_previousSegv, nullptr);
    sigaction(SIGTRAP, &g_previousTrap, nullptr);
    g_recordingMemory = false;
    g_watched = nullptr;
    g_memorySink = nullptr;
  }
  MemoryWatch(const MemoryWatch&) = delete;
  MemoryWatch& operator=(const MemoryWatch&) = delete;

 private:
  bool active_ = false;
};

}  // namespace detail

bool canWatchMemory() {
#if defined(__x86_64__) && defined(__linux__)
  return true;
#else
  return false;
#endif
}

// ============================================================================================
// [SECTION] Worker thread and launch()
// ============================================================================================

namespace {

// The calling thread's own stack, where the scheduler runs.
Stack threadStack() {
  Stack stack;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return stack;
  void* bottom = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attributes, &bottom, &size) == 0) stack = {bottom, size};
  pthread_attr_destroy(&attributes);
  return stack;
}

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

  FiberPool& fibers() { return fibers_; }
  SharedMemoryMap& sharedMemory() { return sharedMemory_; }

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
    detail::g_schedulerStack = threadStack();
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
  FiberPool fibers_{detail::fiberMain};
  SharedMemoryMap sharedMemory_;
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options,
                   const std::function<void()>& body) {
  return launch(grid, block, options, nullptr, body);
}

RunningThread runningThread() noexcept {
  RunningThread r;
  const detail::BlockRun* block = detail::g_block;
  if (!block || block->current() == detail::kNoThread) return r;
  r.running = true;
  r.block = detail::g_blockLinear;
  r.thread = block->current();
  return r;
}

void runOnWorkerThread(const std::function<void()>& job) {
  Worker::instance().runOnWorker(job);
}

size_t sharedMemoryBytes(const void* kernel) {
  size_t bytes = 0;
  Worker::instance().runOnWorker([&] {
    for (const ByteRange& r : Worker::instance().sharedMemory().of(kernel))
      bytes += r.end - r.begin;
  });
  return bytes;
}

LaunchStats launch(dim3 grid, dim3 block, const LaunchOptions& options, const void* kernel,
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
    detail::g_printSink = options.capturePrintf ? &stats : nullptr;
    static const std::vector<ByteRange> noKernel;
    const auto& shared = kernel ? worker.sharedMemory().of(kernel) : noKernel;
    detail::BlockRun run(body, options, worker.fibers(), stats, &shared);  // for every block
    detail::g_block = &run;
    struct ClearLaunchGlobals {  // on the way out, thrown or not
      ~ClearLaunchGlobals() {
        detail::g_block = nullptr;
        detail::g_atomicSink = nullptr;
        detail::g_printSink = nullptr;
        detail::g_recordAtomics = false;
      }
    } clear;
    detail::MemoryWatch watch(options.watch, stats.memory);  // before the blocks, after: off
    unsigned linear = 0;
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x, ++linear) {
          for (const ByteRange& r : shared)
            std::memset(r.begin, kSharedPoisonByte, r.end - r.begin);
          detail::g_blockIdx = {x, y, z};
          detail::g_blockLinear = linear;
          run.run(linear);  // a failed block has unwound its fibers before it throws
        }
  });
  return stats;
}

}  // namespace rlab::sim
