// [SECTION] The exercises
// [SECTION] Files and texts
// [SECTION] Cases

#include "lessons/engine/exercise/exercises.hpp"

#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

// ============================================================================================
// [SECTION] The exercises
// ============================================================================================

namespace {

Exercise make(const char* id, const char* lesson, const char* variant, const char* kernel,
              ExerciseShape shape) {
  Exercise e;
  e.id = id;
  e.lesson = lesson;
  e.variant = variant;
  e.kernel = kernel;
  e.shape = shape;
  e.folder = std::string("lessons/") + lesson + "/exercises/" + id;
  return e;
}

// The exercises that work in shared memory get an int a thread of a block as dynamic shared
// memory, as CUDA's samples launch such kernels: `extern __shared__ int s[];` is allowed.
constexpr int kIntPerThread = int(sizeof(int));

std::vector<Exercise> describeExercises() {
  using S = ExerciseShape;
  using K = FailureKind;
  std::vector<Exercise> all;

  Exercise queue = make("one-queue", "atomic", "default", "reduce", S::AtomicResult);
  queue.hintFor = {{K::Race, 1}, {K::Bounds, 3}};
  all.push_back(queue);

  Exercise largest = make("largest-element", "atomic", "default", "reduce", S::AtomicResult);
  largest.op = Op::Max;
  largest.hintFor = {{K::Race, 1}};
  all.push_back(largest);

  all.push_back(make("fold-any-length", "folding", "default", "foldStep", S::FoldStep));

  Exercise barrier = make("put-the-barrier-back", "barrier", "global", "treeReduce", S::OneBlock);
  barrier.hintFor = {{K::Race, 1}, {K::Barrier, 2}};
  all.push_back(barrier);

  Exercise sequential =
      make("sequential-addressing", "divergence", "sequential", "reduce", S::BlockPartials);
  sequential.shared = SharedUse::Required;
  sequential.sequentialAddressing = true;
  sequential.dynamicSharedPerThread = kIntPerThread;
  sequential.hintFor = {{K::Race, 2}, {K::Barrier, 2}};
  all.push_back(sequential);

  Exercise inShared = make("tree-in-shared", "shared", "shared", "reduce", S::BlockPartials);
  inShared.shared = SharedUse::Required;
  inShared.dynamicSharedPerThread = kIntPerThread;
  inShared.hintFor = {{K::Race, 3}, {K::Barrier, 3}};
  all.push_back(inShared);

  Exercise groups = make("groups-tree", "shared", "shared", "reduce", S::BlockPartials);
  groups.shared = SharedUse::Required;
  groups.cooperativeGroups = true;
  groups.dynamicSharedPerThread = kIntPerThread;
  groups.hintFor = {{K::Race, 2}, {K::Lanes, 2}};
  all.push_back(groups);

  Exercise perBlock =
      make("one-atomic-per-block", "shared", "multiblock", "reduce", S::AtomicResult);
  perBlock.atomics = AtomicLimit::OnePerBlock;
  perBlock.dynamicSharedPerThread = kIntPerThread;
  perBlock.hintFor = {{K::Race, 1}, {K::Barrier, 1}};
  all.push_back(perBlock);

  Exercise coarsen = make("coarsen-by-four", "shared", "coarsened", "reduce", S::AtomicResult);
  coarsen.perThread = 4;
  coarsen.atomics = AtomicLimit::OnePerBlock;
  coarsen.dynamicSharedPerThread = kIntPerThread;
  coarsen.hintFor = {{K::Bounds, 2}};
  all.push_back(coarsen);

  Exercise lastWarp = make("fix-the-last-warp", "lastwarp", "volatile", "reduce", S::BlockPartials);
  lastWarp.shared = SharedUse::Required;
  lastWarp.hintFor = {{K::Race, 1}, {K::Lanes, 3}};
  all.push_back(lastWarp);

  Exercise shuffle = make("shuffle-butterfly", "butterfly", "shuffle", "allReduce", S::AllReduce);
  shuffle.warpGroups = true;
  shuffle.shared = SharedUse::Forbidden;
  shuffle.hintFor = {{K::Lanes, 2}};
  all.push_back(shuffle);

  Exercise butterfly = make("shared-butterfly", "butterfly", "shared", "allReduce", S::AllReduce);
  butterfly.shared = SharedUse::Required;
  butterfly.dynamicSharedPerThread = kIntPerThread;
  butterfly.hintFor = {{K::Race, 2}, {K::Barrier, 2}};
  all.push_back(butterfly);

  Exercise warps = make("warp-shuffle-reduce", "fastest", "default", "reduce", S::AtomicResult);
  warps.atomics = AtomicLimit::OnePerWarp;
  warps.shared = SharedUse::Forbidden;
  warps.hintFor = {{K::Lanes, 2}};
  all.push_back(warps);

  Exercise fastest = make("beat-coarsened", "fastest", "default", "reduce", S::AtomicResult);
  fastest.gridStride = true;
  fastest.gpuSpeedGoal = true;
  fastest.hintFor = {{K::Lanes, 2}, {K::Bounds, 3}};
  all.push_back(fastest);

  for (Exercise& e : all) e.title = exerciseText(e).title;
  return all;
}

}  // namespace

std::string Exercise::signature() const {
  switch (shape) {
    case ExerciseShape::AtomicResult:
      return "__global__ void " + kernel + "(const int* in, long long n, int* result)";
    case ExerciseShape::BlockPartials:
    case ExerciseShape::AllReduce:
      return "__global__ void " + kernel + "(const int* in, long long n, int* out)";
    case ExerciseShape::FoldStep:
      return "__global__ void " + kernel + "(int* a, long long len)";
    case ExerciseShape::OneBlock:
      return "__global__ void " + kernel + "(int* a, int n)";
    case ExerciseShape::Probe:
      return "__global__ void " + kernel + "(const int* in, int n, int* out)";
  }
  return "";
}

std::string Exercise::pointerType() const {
  switch (shape) {
    case ExerciseShape::FoldStep:
      return "void (*)(int*, long long)";
    case ExerciseShape::OneBlock:
      return "void (*)(int*, int)";
    case ExerciseShape::Probe:
      return "void (*)(const int*, int, int*)";
    default:
      return "void (*)(const int*, long long, int*)";
  }
}

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = describeExercises();
  return all;
}

const Exercise& probeExercise() {
  static const Exercise probe = [] {
    Exercise e = make("probe", "shared", "shared", "probe", ExerciseShape::Probe);
    e.title = "The simulator's conformance suite";
    e.folder.clear();
    return e;
  }();
  return probe;
}

const Exercise* findExercise(const std::string& id) {
  for (const Exercise& e : exercises())
    if (e.id == id) return &e;
  return nullptr;
}

const Exercise& exerciseOrThrow(const std::string& id) {
  if (const Exercise* e = findExercise(id)) return *e;
  throw ParamError(Message("check.no-exercise", {{"exercise", id}, {"exercises", exerciseIds()}}));
}

std::string exerciseIds() {
  std::string ids;
  for (const Exercise& e : exercises()) ids += (ids.empty() ? "" : ", ") + e.id;
  return ids;
}

std::vector<const Exercise*> exercisesOf(const std::string& lesson) {
  std::vector<const Exercise*> found;
  for (const Exercise& e : exercises())
    if (e.lesson == lesson) found.push_back(&e);
  return found;
}

// ============================================================================================
// [SECTION] Files and texts
// ============================================================================================

namespace {

const std::string& embeddedOrThrow(const std::string& path) {
  if (const std::string* text = embeddedFile(path)) return *text;
  throw ParamError(Message("check.not-embedded", {{"path", path}}));
}

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

const std::string& startFile(const Exercise& e) {
  return embeddedOrThrow(e.folder + "/start.cu");
}

const std::string& solutionFile(const Exercise& e) {
  return embeddedOrThrow(e.folder + "/solution.cu");
}

const std::string& groupsSolutionFile(const Exercise& e) {
  return e.cooperativeGroups ? solutionFile(e) : embeddedOrThrow(e.folder + "/solution-groups.cu");
}

// <language>.md: "# Title", the statement, then each hint as
//   <details><summary>Hint 1</summary>
//   ...
//   </details>
// which a Markdown viewer (GitHub's too) shows closed, one at a time.
ExerciseText exerciseText(const Exercise& e, Language language) {
  ExerciseText t;
  t.language = language;
  const std::string* md = embeddedFile(e.folder + "/" + code(language) + ".md");
  if (!md && language != Language::En) {
    t.language = Language::En;
    md = embeddedFile(e.folder + "/en.md");
  }
  if (!md) {
    t.title = e.id;
    return t;
  }
  std::string text = *md;
  if (text.rfind("# ", 0) == 0) {
    const size_t end = text.find('\n');
    t.title = trimmed(text.substr(2, end - 2));
    text = end == std::string::npos ? "" : text.substr(end + 1);
  } else {
    t.title = e.id;
  }
  const std::string open = "<details>", close = "</details>", summaryEnd = "</summary>";
  size_t at = text.find(open);
  t.statement = trimmed(text.substr(0, at));
  while (at != std::string::npos) {
    const size_t bodyStart = text.find(summaryEnd, at);
    const size_t end = text.find(close, at);
    if (bodyStart == std::string::npos || end == std::string::npos || bodyStart > end) break;
    t.hints.push_back(
        trimmed(text.substr(bodyStart + summaryEnd.size(), end - bodyStart - summaryEnd.size())));
    at = text.find(open, end);
  }
  return t;
}

// ============================================================================================
// [SECTION] Cases
// ============================================================================================

namespace {

// The awkward sizes: around a warp, a block, a multiple of four and a page, and one
// past a hundred thousand, so that a grid of a few blocks must loop.
constexpr int64_t kSizes[] = {1, 2, 3, 7, 31, 32, 33, 255, 257, 1000, 4097, 100003};
// Up to this size every block size meets every size; beyond, the default, smallest and largest.
constexpr int64_t kEveryBlockUpTo = 4097;
// Schedules that let threads overtake each other: a missing or misplaced barrier gives the
// right total in lockstep (every thread runs to the same barrier before any goes on) and the
// wrong one here. Random orders, warps taken as units, both thread orders, and one thread
// (in the first warp, the second, the fourth) late for one to three rounds.
const char* const kSchedules[] = {"random:101",       "random:202",       "random:303",
                                  "warps-random:404", "warps-random:505", "reverse",
                                  "sequential",       "stall:0:1:2",      "stall:3:1:2",
                                  "stall:33:2:1",     "stall:40:2:1",     "stall:100:3:3"};
// Where the lesson's races are between the lanes of a warp: the lanes of a warp in a random
// order, one held back now and then, and one lane late after a warp step (a __syncwarp or a
// shuffle: the only places a learner's lanes part on the simulator).
const char* const kLaneSchedules[] = {"lanes-random:808", "lanes-random:909", "lane:0:1:1",
                                      "lane:1:2:1", "lane:16:1:2"};
constexpr int64_t kScheduleSizes[] = {33, 257, 1000};
constexpr int64_t kGpuLargest = (int64_t(1) << 24) + 3;

}  // namespace

std::vector<VerifyCase> exerciseCases(const Exercise& e, const std::string& replayWith,
                                      VerifyScope scope) {
  const LessonInfo& lesson = lessonOrThrow(e.lesson);
  const VariantInfo& variant = *lesson.findVariant(e.variant);
  std::vector<VerifyCase> cases;
  auto add = [&](int64_t n, int block, VerifyData data, uint64_t seed, const char* schedule) {
    VerifyCase c =
        makeVerifyCase(lesson, variant, scope, n, block, e.op, ElementType::Int, data, seed);
    c.params.trace = false;
    c.params.schedule = schedule;
    c.subject = Message("verify.exercise", {{"exercise", e.id}});
    c.replayWith = replayWith;
    cases.push_back(std::move(c));
  };

  int turn = 0;
  for (int64_t n : kSizes) {
    if (n > lesson.maxN) continue;
    std::vector<int> blocks = verifyBlockSizes(lesson, variant, n);
    if (n > kEveryBlockUpTo) blocks = {blocks.front(), blocks[1], blocks.back()};
    const VerifyData main = mainVerifyData(e.op, n);
    for (size_t k = 0; k < blocks.size(); ++k)
      add(n, blocks[k], main, uint64_t(n) * 64 + k, "lockstep");
    if (n < 2 || n > kEveryBlockUpTo) continue;
    // The elements a kernel most often loses: the first and the last.
    std::vector<VerifyData> patterns = {VerifyData::OneAtLast};
    if (e.op == Op::Max || e.op == Op::Min)
      patterns = {VerifyData::ExtremeFirst, VerifyData::ExtremeLast};
    for (VerifyData data : patterns) {
      add(n, blocks[size_t(turn) % blocks.size()], data, uint64_t(n) * 64 + 30 + turn, "lockstep");
      ++turn;
    }
  }

  if (scope == VerifyScope::Gpu) {  // a size where a kernel's grid and tail both matter
    const int64_t n = kGpuLargest;
    if (n <= lesson.maxN) {
      const std::vector<int> blocks = verifyBlockSizes(lesson, variant, n);
      for (int block : {blocks.front(), blocks[1], blocks.back()})
        add(n, block, mainVerifyData(e.op, n), uint64_t(n) % 1000 + 7, "lockstep");
    }
    return cases;
  }
  for (int64_t n : kScheduleSizes) {
    if (n > lesson.maxN) continue;
    std::vector<int> blocks = verifyBlockSizes(lesson, variant, n);
    // Races between warps need two of them: 128 threads and more where the lesson allows.
    if (blocks.back() >= 128) std::erase_if(blocks, [](int b) { return b != 0 && b < 128; });
    std::vector<const char*> schedules(std::begin(kSchedules), std::end(kSchedules));
    if (lesson.laneSchedules)
      schedules.insert(schedules.end(), std::begin(kLaneSchedules), std::end(kLaneSchedules));
    for (const char* schedule : schedules) {
      add(n, blocks[size_t(turn) % blocks.size()], mainVerifyData(e.op, n),
          uint64_t(n) * 64 + 40 + turn, schedule);
      ++turn;
      // A stall of a thread this case's block does not have is no run at all (resolve refuses
      // it): the larger sizes' blocks have that thread.
      try {
        resolve(cases.back().params);
      } catch (const ParamError&) {
        cases.pop_back();
      }
    }
  }
  return cases;
}

Params exerciseRunParams(const Exercise& e, Params p) {
  p.lesson = e.lesson;
  p.variant = e.variant;
  p.op = e.op;
  p.type = ElementType::Int;
  p.trace = false;
  p.timed = false;
  const BackendChoice backend = p.backend;
  p.backend = BackendChoice::Sim;  // resolve() checks the schedule, which only the simulator takes
  Params resolved;
  try {
    resolved = resolve(p).params;
  } catch (const ParamError& error) {
    // The lesson variant's smallest block is the exercise's: said in the exercise's terms, not
    // in the lesson's the learner never named.
    const Message& m = error.message();
    if (m.id == "params.block-warp-operations" || m.id == "params.block-passes")
      throw ParamError(
          Message("params.exercise-block",
                  {{"block", m.arg("block")}, {"exercise", e.id}, {"least", m.arg("least")}}));
    throw;
  }
  resolved.backend = backend;
  return resolved;
}

}  // namespace rlab
