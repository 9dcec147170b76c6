#include "lessons/engine/registry.hpp"

#include <algorithm>

#include "lessons/engine/run/params.hpp"

namespace rlab {

namespace {

constexpr int64_t kLargest = int64_t(1) << 28;

int64_t levels(int64_t n) {  // of a tree over n elements
  int64_t k = 0;
  while ((int64_t(1) << k) < n) ++k;
  return k;
}
int64_t blocks(int64_t n, int64_t perBlock) {
  return (n + perBlock - 1) / perBlock;
}

// Longest chains (see ChainLength), one per kernel shape.
int64_t oneAddress(int64_t n, int) {
  return n;
}
int64_t halving(int64_t n, int) {
  return levels(n);
}
int64_t blockTree(int64_t, int block) {
  return levels(block);
}
// A tree per block, then again over the block partials, until one is left.
int64_t treePasses(int64_t n, int block) {
  int64_t chain = 0;
  for (int64_t len = n; len > 1; len = blocks(len, block)) chain += levels(block);
  return chain;
}
// A tree per block, then one atomic per block on the result.
int64_t treeThenAtomics(int64_t n, int block) {
  return levels(block) + blocks(n, block);
}
// A tree per block, its levels across the blocks of a cluster (kClusterBlocks: 4), then one
// atomic per cluster on the result.
int64_t treeThenClusterThenAtomics(int64_t n, int block) {
  return levels(block) + 2 + blocks(blocks(n, block), 4);
}
// Each thread's K elements in a row, the tree over the threads' sums, one atomic per block;
// without the add during the load, a tree over the block's K · block elements.
int64_t coarsenedChain(int64_t n, int block, int perThread, bool loadAdd) {
  const int64_t slots = int64_t(block) * perThread;
  return (loadAdd ? perThread + levels(block) : levels(slots)) + blocks(n, slots);
}
int64_t coarsenedChain(int64_t n, int block) {
  return coarsenedChain(n, block, 8, true);
}
// All-reduce across G GPUs: each element's chain is at most G - 1 combines long (the ring: a
// chunk travels past every other rank; the butterfly: log2 G <= G - 1). The GPUs are not in
// (n, block), so the bound is taken at the largest G, 8.
int64_t acrossGpus(int64_t, int) {
  return 7;
}
// Each thread's grid-stride loop (at most n / block elements even with a single block), its
// four accumulators, the warp and block trees, and the totals of the blocks (at most one per
// 16 elements per thread).
int64_t gridStride(int64_t n, int block) {
  return blocks(n, block) + 2 + 2 * levels(block) + blocks(n, int64_t(block) * 16) + 10;
}

// The counters the lessons' points rest on, named once.
using C = Counter;
const std::vector<Counter> kGlobalAccesses = {C::GlobalLoadSectorsPerRequest,
                                              C::GlobalStoreSectorsPerRequest,
                                              C::GlobalLoadRequests, C::DurationUs};
const std::vector<Counter> kDivergence = {C::BranchEfficiencyPct, C::WarpEfficiencyPct,
                                          C::SharedBankConflicts, C::SharedWavefrontsPerRequest,
                                          C::DurationUs};
const std::vector<Counter> kSharedTree = {C::SharedBankConflicts, C::SharedWavefrontsPerRequest,
                                          C::DramReadBytes, C::DurationUs};
// The last warp: how many shared-memory accesses its steps make (none kept in registers by
// volatile, some by plain), and whether its lanes idle.
const std::vector<Counter> kLastWarp = {C::SharedRequests, C::WarpEfficiencyPct, C::DurationUs};
const std::vector<Counter> kBandwidth = {C::DramReadPct, C::DramThroughputPct, C::DramGBs,
                                         C::OccupancyPct, C::DurationUs};

std::vector<LessonInfo> describeLessons() {
  std::vector<LessonInfo> all;

  LessonInfo atomic;
  atomic.id = "atomic";
  atomic.variants = {{.id = "default",
                      .driver = DriverId::Atomic,
                      .kernelFunction = "atomicReduce",
                      .longestChain = oneAddress,
                      .proofCounters = {C::DurationUs, C::DramGBs, C::L2HitPct}}};
  atomic.gpuStepsRepeat = false;        // the atomics land in another order on every GPU run
  atomic.defaultFloatData = "mixed:1";  // the lesson is the order: a float sum that shows it
  atomic.maxN = kLargest;
  atomic.defaultN = 16;
  atomic.traceLimit = 4096;  // one step per atomic
  atomic.kernelFile = "kernels/atomic.cuh";
  atomic.picture = LessonPicture::AtomicQueue;
  atomic.tour = {{"default", 8, 0, true, "random:3", Message("tour.atomic")}};
  all.push_back(atomic);

  LessonInfo folding;
  folding.id = "folding";
  folding.variants = {{.id = "default",
                       .driver = DriverId::Folding,
                       .kernelFunction = "foldStep",
                       .inPlace = true,
                       .longestChain = halving,
                       .globalMemorySteps = true,
                       .proofCounters = kGlobalAccesses},
                      {.id = "double-buffer",
                       .driver = DriverId::FoldingDoubleBuffer,
                       .kernelFunction = "foldInto",
                       .inPlace = true,
                       .longestChain = halving,
                       .doubleBuffer = true,
                       .globalMemorySteps = true,
                       .proofCounters = kGlobalAccesses}};
  folding.maxN = kLargest;
  folding.defaultN = 9;
  folding.kernelFile = "kernels/folding.cuh";
  folding.picture = LessonPicture::Fold;
  folding.tour = {{"default", 9, 0, true, "lockstep", Message("tour.folding")}};
  all.push_back(folding);

  LessonInfo barrier;
  barrier.id = "barrier";
  // The global tree runs its levels over n (i < n), the shared one over the whole block.
  barrier.variants = {{.id = "global",
                       .driver = DriverId::BarrierGlobal,
                       .kernelFunction = "treeGlobal",
                       .inPlace = true,
                       .longestChain = halving,
                       .barrierSwitch = true,
                       .perturbs = true,
                       .delays = true,
                       .globalMemorySteps = true,
                       .proofCounters = kGlobalAccesses},
                      {.id = "shared",
                       .driver = DriverId::BarrierShared,
                       .kernelFunction = "treeShared",
                       .inPlace = true,
                       .longestChain = blockTree,
                       .barrierSwitch = true,
                       .perturbs = true,
                       .delays = true,
                       .proofCounters = kSharedTree,
                       .sharedTree = true}};
  barrier.maxN = 1024;
  barrier.defaultN = 8;
  barrier.switchableBarrier = true;
  barrier.oneBlock = true;
  barrier.timeline = true;
  barrier.timed = false;  // the lesson is the race, not the speed
  barrier.kernelFile = "kernels/barrier.cuh";
  barrier.picture = LessonPicture::Barrier;
  // The race first, then the barrier that stops it, as the chapter tells them (its narration of
  // the barrier-on run speaks of the barrier-off run before it).
  barrier.tour = {{"global", 8, 0, false, "stall:4:2:1", Message("tour.barrier-off")},
                  {"global", 8, 0, true, "stall:4:2:1", Message("tour.barrier-on")}};
  all.push_back(barrier);

  LessonInfo divergence;
  divergence.id = "divergence";
  divergence.variants = {{.id = "interleaved",
                          .driver = DriverId::DivergenceInterleaved,
                          .kernelFunction = "interleaved",
                          .minBlock = 2,
                          .longestChain = treePasses,
                          .proofCounters = kDivergence,
                          .sharedTree = true},
                         {.id = "interleaved-mask",
                          .driver = DriverId::DivergenceInterleavedMask,
                          .kernelFunction = "interleavedMask",
                          .minBlock = 2,
                          .longestChain = treePasses,
                          .proofCounters = kDivergence,
                          .sharedTree = true},
                         {.id = "strided",
                          .driver = DriverId::DivergenceStrided,
                          .kernelFunction = "strided",
                          .minBlock = 2,
                          .longestChain = treePasses,
                          .proofCounters = kDivergence,
                          .sharedTree = true},
                         {.id = "sequential",
                          .driver = DriverId::DivergenceSequential,
                          .kernelFunction = "sequential",
                          .minBlock = 2,
                          .longestChain = treePasses,
                          .proofCounters = kDivergence,
                          .sharedTree = true}};
  divergence.maxN = kLargest;
  divergence.defaultN = 64;
  divergence.kernelFile = "kernels/divergence.cuh";
  divergence.picture = LessonPicture::WarpGrid;
  divergence.tour = {
      {"interleaved", 64, 64, true, "lockstep", Message("tour.divergence-interleaved")},
      {"strided", 64, 64, true, "lockstep", Message("tour.divergence-strided")},
      {"sequential", 64, 64, true, "lockstep", Message("tour.divergence-sequential")}};
  all.push_back(divergence);

  LessonInfo shared;
  shared.id = "shared";
  shared.variants = {
      {.id = "global",
       .driver = DriverId::TreeInGlobal,
       .kernelFunction = "treeInGlobal",
       .minBlock = 2,
       .inPlace = true,
       .longestChain = treePasses,
       .globalMemorySteps = true,
       .proofCounters = kGlobalAccesses},
      {.id = "shared",
       .driver = DriverId::TreeInShared,
       .kernelFunction = "treeInShared",
       .minBlock = 2,
       .longestChain = treePasses,
       .proofCounters = kSharedTree,
       .sharedTree = true},
      {.id = "multiblock",
       .driver = DriverId::MultiBlock,
       .kernelFunction = "multiBlock",
       .longestChain = treeThenAtomics,
       .proofCounters = {C::DurationUs, C::DramReadBytes, C::SharedBankConflicts, C::OccupancyPct},
       .sharedTree = true},
      {.id = "clusters",
       .driver = DriverId::Clusters,
       .kernelFunction = "clusterTree",
       .longestChain = treeThenClusterThenAtomics,
       .barrierSwitch = true,
       .proofCounters = {C::DurationUs, C::DramReadBytes, C::SharedBankConflicts, C::OccupancyPct},
       .sharedTree = true,
       .needsClusters = true},
      {.id = "coarsened",
       .driver = DriverId::Coarsened,
       .kernelFunction = "coarsened",
       .longestChain = coarsenedChain,
       .defaultPerThread = 8,  // kCoarsening in kernels/shared.cuh
       .noLoadAddKernelFunction = "coarsenedNoLoadAdd",
       .proofCounters = kBandwidth}};
  shared.maxN = kLargest;
  shared.defaultN = 1000;
  shared.kernelFile = "kernels/shared.cuh";
  shared.picture = LessonPicture::BlockPartials;
  shared.tour = {{"shared", 12, 4, true, "lockstep", Message("tour.shared-shared")}};
  all.push_back(shared);

  LessonInfo lastwarp;
  lastwarp.id = "lastwarp";
  // Harris's kernel 5 and its fixes: the shared tree's passes, warp 0 alone from stride 32 on,
  // so a block needs 64 threads at least.
  lastwarp.variants = {{.id = "volatile",
                        .driver = DriverId::LastWarpVolatile,
                        .kernelFunction = "lastWarpVolatile",
                        .minBlock = 64,
                        .longestChain = treePasses,
                        .warpSynchronous = true,
                        .perturbs = true,
                        .delays = true,
                        .proofCounters = kLastWarp},
                       {.id = "plain",
                        .driver = DriverId::LastWarpPlain,
                        .kernelFunction = "lastWarpPlain",
                        .minBlock = 64,
                        .longestChain = treePasses,
                        .warpSynchronous = true,
                        .perturbs = true,
                        .delays = true,
                        .proofCounters = kLastWarp},
                       {.id = "syncwarp",
                        .driver = DriverId::LastWarpSyncwarp,
                        .kernelFunction = "lastWarpSyncwarp",
                        .minBlock = 64,
                        .longestChain = treePasses,
                        .syncwarpSwitch = true,
                        .warpSynchronous = true,
                        .perturbs = true,
                        .delays = true,
                        .proofCounters = kLastWarp},
                       {.id = "shuffle",
                        .driver = DriverId::LastWarpShuffle,
                        .kernelFunction = "lastWarpShuffle",
                        .minBlock = 64,
                        .longestChain = treePasses,
                        .perturbs = true,
                        .delays = true,
                        .proofCounters = kLastWarp}};
  lastwarp.maxN = kLargest;
  lastwarp.defaultN = 64;
  lastwarp.timeline = true;
  lastwarp.laneSchedules = true;
  lastwarp.kernelFile = "kernels/lastwarp.cuh";
  lastwarp.picture = LessonPicture::BlockPartials;
  lastwarp.tour = {{"volatile", 64, 0, true, "lockstep", Message("tour.lastwarp-lockstep")},
                   {"volatile", 64, 0, true, "lane:16:1:1", Message("tour.lastwarp-lane")}};
  all.push_back(lastwarp);

  LessonInfo butterfly;
  butterfly.id = "butterfly";
  butterfly.variants = {
      {.id = "shared",
       .driver = DriverId::ButterflyShared,
       .kernelFunction = "butterflyShared",
       .longestChain = treeThenAtomics,
       .barrierSwitch = true,  // the barrier between reads and writes
       .perturbs = true,
       .proofCounters = {C::DurationUs, C::SharedRequests, C::SharedBankConflicts,
                         C::WarpEfficiencyPct}},
      {.id = "shuffle",
       .driver = DriverId::ButterflyShuffle,
       .kernelFunction = "butterflyShuffle",
       .minBlock = 32,
       .longestChain = treeThenAtomics,
       .proofCounters = {C::DurationUs, C::SharedRequests, C::WarpEfficiencyPct}}};
  butterfly.maxN = kLargest;
  butterfly.defaultN = 8;
  butterfly.kernelFile = "kernels/butterfly.cuh";
  butterfly.picture = LessonPicture::Butterfly;
  butterfly.tour = {{"shared", 8, 0, true, "lockstep", Message("tour.butterfly")}};
  all.push_back(butterfly);

  LessonInfo fastest;
  fastest.id = "fastest";
  fastest.variants = {{.id = "default",
                       .driver = DriverId::Fastest,
                       .kernelFunction = "fastestReduce",
                       .minBlock = 32,
                       .longestChain = gridStride,
                       .proofCounters = kBandwidth}};
  fastest.maxN = kLargest;
  fastest.defaultN = 1000;
  fastest.kernelFile = "kernels/fastest.cuh";
  fastest.tour = {{"default", 1000, 0, true, "lockstep", Message("tour.fastest")}};
  all.push_back(fastest);

  LessonInfo allreduce;
  allreduce.id = "allreduce";
  allreduce.variants = {{.id = "butterfly",
                         .driver = DriverId::AllReduceButterfly,
                         .kernelFunction = "combineChunk",
                         .longestChain = acrossGpus},
                        {.id = "ring",
                         .driver = DriverId::AllReduceRing,
                         .kernelFunction = "combineChunk",
                         .longestChain = acrossGpus},
                        {.id = "nccl",
                         .driver = DriverId::AllReduceNccl,
                         .kernelFunction = "combineChunk",
                         .longestChain = acrossGpus}};
  allreduce.maxN = int64_t(1) << 22;  // per GPU; rlab bench goes to 2^28 (1 GB of floats)
  allreduce.defaultN = 8;
  allreduce.traceLimit = 4096;
  allreduce.defaultGpus = 2;
  allreduce.kernelFile = "kernels/allreduce.cuh";
  allreduce.picture = LessonPicture::Ranks;
  allreduce.tour = {{"ring", 8, 0, true, "lockstep", Message("tour.allreduce-ring"), 4}};
  all.push_back(allreduce);

  for (LessonInfo& lesson : all) {
    lesson.textFolder = "lessons/" + lesson.id;
    lesson.hostFile = lesson.textFolder + "/driver.hpp";
    for (VariantInfo& variant : lesson.variants)
      variant.offersSubtract = offersSubtract(variant.driver);
  }
  return all;
}

}  // namespace

int64_t longestChainOf(const VariantInfo& variant, const Params& p) {
  // The variants with a choice of elements per thread are shared coarsened's shape.
  if (variant.defaultPerThread > 0)
    return coarsenedChain(p.n, p.block, p.perThread > 0 ? p.perThread : variant.defaultPerThread,
                          p.loadAdd);
  return variant.longestChain(p.n, p.block);
}

const VariantInfo* LessonInfo::findVariant(const std::string& variant) const {
  if (variant.empty()) return &variants.front();
  for (const VariantInfo& v : variants)
    if (v.id == variant) return &v;
  return nullptr;
}

std::vector<std::string> LessonInfo::variantList() const {
  std::vector<std::string> ids;
  for (const VariantInfo& v : variants) ids.push_back(v.id);
  return ids;
}

std::string LessonInfo::variantIds() const {
  std::string ids;
  for (const VariantInfo& v : variants) ids += (ids.empty() ? "" : ", ") + v.id;
  return ids;
}

bool runMayRace(const Params& p) {
  const VariantInfo* variant = variantOf(p);
  return variant && ((variant->barrierSwitch && !p.barrier) ||
                     (variant->syncwarpSwitch && !p.syncwarp) || variant->needsLanesInStep());
}

bool recordsMemory(const Params& p) {
  const VariantInfo* variant = variantOf(p);
  return p.memory && p.trace && variant && variant->globalMemorySteps &&
         p.n <= std::min(kMemoryTraceLimit, findLesson(p.lesson)->traceLimit);
}

Params openingRun() {
  Params p;
  p.lesson = "barrier";
  p.variant = "global";
  p.n = 8;
  return p;
}

const std::vector<LessonInfo>& lessons() {
  static const std::vector<LessonInfo> all = describeLessons();
  return all;
}

const LessonInfo* findLesson(const std::string& id) {
  for (const LessonInfo& l : lessons())
    if (l.id == id) return &l;
  return nullptr;
}

const LessonInfo& lessonOrThrow(const std::string& id) {
  if (const LessonInfo* lesson = findLesson(id)) return *lesson;
  throw ParamError(Message("params.no-lesson", {{"lesson", id}, {"lessons", lessonIds()}}));
}

const VariantInfo* variantOf(const Params& p) {
  const LessonInfo* lesson = findLesson(p.lesson);
  return lesson ? lesson->findVariant(p.variant) : nullptr;
}

std::vector<std::pair<std::string, std::string>> subtractRuns() {
  std::vector<std::pair<std::string, std::string>> runs;
  for (const LessonInfo& l : lessons())
    for (const VariantInfo& v : l.variants)
      if (v.offersSubtract) runs.emplace_back(l.id, v.id);
  return runs;
}

std::string variantsWith(bool VariantInfo::*field) {
  std::string text;
  for (const LessonInfo& l : lessons())
    for (const VariantInfo& v : l.variants)
      if (v.*field)
        text += (text.empty() ? "" : ", ") + l.id + (l.variants.size() > 1 ? " " + v.id : "");
  return text;
}

std::string subtractRunsText() {
  return variantsWith(&VariantInfo::offersSubtract);
}

std::string globalMemoryRunsText() {
  return variantsWith(&VariantInfo::globalMemorySteps);
}

std::string runName(const std::string& lesson, const std::string& variant) {
  return variant == "default" ? lesson : lesson + " " + variant;
}

bool hasCoarsenedVariant(const std::string& lesson) {
  const LessonInfo* l = findLesson(lesson);
  return l && std::any_of(l->variants.begin(), l->variants.end(),
                          [](const VariantInfo& v) { return v.defaultPerThread > 0; });
}

std::string lessonIds() {
  std::string ids;
  for (const LessonInfo& l : lessons()) ids += (ids.empty() ? "" : ", ") + l.id;
  return ids;
}

}  // namespace rlab
