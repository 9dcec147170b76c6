// What a run is asked to do (Params), checked and completed (Resolved), and its input data.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"

namespace rlab {

// Subtract is a demonstration, not a reduction: it is not associative, and 0 is an identity
// only on its right (x - 0 = x, 0 - x = -x), so every order of operations has its own answer.
enum class Op { Sum, Max, Min, Product, Subtract };
enum class ElementType { Int, Float };
enum class BackendChoice { Sim, Gpu, Auto };

const char* name(Op op);
// Sum, max, min and product: any order of operations gives the same answer (up to rounding).
bool isAssociative(Op op);
const char* name(ElementType type);
const char* name(BackendChoice backend);

// What a combine does, in the kernel's terms: "a[i] += a[i + 5]", "a[i] = max(a[i], a[i + 5])".
std::string combineText(Op op, const std::string& target, const std::string& source);
// The operator applied to two operands, as an expression: "x + y", "max(x, y)".
std::string applyText(Op op, const std::string& x, const std::string& y);

// A value as the views print it: whole numbers without decimals, floats to 6 digits.
std::string formatValue(double v, ElementType type);

// Bad input: one sentence naming the option and what is allowed; what() is its English.
class ParamError : public std::invalid_argument, public MessageCarrier {
 public:
  explicit ParamError(Message message)
      : std::invalid_argument(english(message)), MessageCarrier(std::move(message)) {}
  explicit ParamError(const std::string& text) : ParamError(verbatim(text)) {}
};

inline constexpr int64_t kMaxN = int64_t(1) << 28;
inline constexpr int kMaxPerThread = 32;
// Without the add during the load a block keeps perThread · block elements in shared memory:
// kernels/shared.cuh's kMaxTreeSlots.
inline constexpr int kMaxSharedSlots = 8192;

struct Params {
  std::string lesson;
  std::string variant;  // empty: the lesson's default
  int64_t n = 0;        // 0: the lesson's default
  int block = 0;        // 0: smallest power of two covering n, at most 256
  Op op = Op::Sum;
  ElementType type = ElementType::Int;
  // iota, ones, random:SEED, mixed:SEED; empty: the lesson's default (iota, or for floats its
  // defaultFloatData)
  std::string data;
  std::vector<double> values;  // --values: overrides data and n
  bool barrier = true;
  // lastwarp syncwarp: its __syncwarp() calls are in (--no-syncwarp takes them out).
  bool syncwarp = true;
  bool perturb = false;
  // Barrier lesson: every third thread calls printf at each level (--printf). The lines come
  // back in the run's Trace::kernelOutput; printing delays those threads, as perturb's pause.
  bool printing = false;
  // Barrier and lastwarp lessons: one thread held back before one level (rlab race --delay
  // T:L), to force a race witness on hardware. On a GPU it sleeps (__nanosleep); on the simulator
  // the pause is a yield, so it sits out the rest of that round. -1: nobody is held back.
  int delayThread = -1;
  int delayLevel = 0;  // 1-based, as a run's steps number the levels
  std::string schedule = "lockstep";
  // allreduce: the GPUs (ranks) taking part, 1, 2, 4 or 8; each holds n elements. 0: the
  // lesson's default (other lessons run on one GPU and refuse --gpus).
  int gpus = 0;
  // shared coarsened: elements each thread combines (--per-thread, 1 to 32; 0: the kernel's
  // own, 8), and whether it adds them while loading (--no-load-add: the tree's first levels
  // add them in shared memory instead).
  int perThread = 0;
  bool loadAdd = true;
  BackendChoice backend = BackendChoice::Sim;
  bool trace = true;  // record steps (small n only)
  // Record every warp's global loads and stores in each step (the coalescing view): the
  // simulator, traced runs, variants whose steps work in global memory.
  bool memory = false;
  bool timed = true;  // GPU: measure timings after the run
  // The simulator looks for races in this run even where it is not traced (rlab race counts
  // the runs that had one); a traced run always looks.
  bool detectRaces = false;
};

struct LessonInfo;
struct VariantInfo;
namespace sim {
struct Schedule;
}

// A run as it will run: resolved once where it enters (the command line, the app), then passed
// down, so nothing below looks the lesson up again.
struct Resolved {
  Params params;  // lesson, variant, n, block filled in
  std::string dataLabel;
  const LessonInfo* lesson = nullptr;  // the registry's descriptors of params' lesson and variant
  const VariantInfo* variant = nullptr;
  std::shared_ptr<const sim::Schedule> schedule;  // params.schedule, parsed: the simulator's
};

// Checks every field against the lesson and fills in defaults. Throws ParamError.
Resolved resolve(const Params& params);

Op parseOp(const std::string& text);
ElementType parseType(const std::string& text);
BackendChoice parseBackend(const std::string& text);
std::vector<double> parseValues(const std::string& text);  // "3,1,4,1,5"
// "T:L" into params.delayThread and params.delayLevel. Throws ParamError naming --delay.
void parseDelay(const std::string& text, Params& params);
std::string delayText(const Params& params);  // "4:2", or empty when nobody is held back

struct LessonInfo;
struct TourStop;
// The run a tour stop shows, with every other field at its default.
Params tourStopParams(const LessonInfo& lesson, const TourStop& stop);

// The input the run will reduce, as doubles (exact for both types). allreduce: n elements per
// GPU, rank after rank (gpus · n in all). mixed:SEED: values of mixed magnitude, 2^-10 to 2^20
// times 1 to 9 with either sign, each exact as a float; in floats their sum depends on the
// order of the additions (ints: whole numbers from 1 to 10^5 with either sign).
std::vector<double> makeInput(const Resolved& r);

}  // namespace rlab
