#include "lessons/registry.hpp"

namespace rlab {

int LessonInfo::minBlock(const std::string& variant) const {
  if (id == "fastest" || (id == "butterfly" && variant == "shuffle")) return 32;
  return 1;
}

const std::vector<LessonInfo>& lessons() {
  static const std::vector<LessonInfo> all = {
      {"atomic",
       "Atomic baseline",
       "Every thread atomicAdds its element into one address: one checkout counter, one long "
       "queue. Int sums are combined per warp by the compiler; float sums land in a different "
       "order every run, so they round differently.",
       {"default"},
       int64_t(1) << 28,
       16,
       false,
       false,
       "kernels/atomic.cuh"},
      {"folding",
       "Folding in half",
       "Add the back half onto the front half, one launch per step, for any length: reduce = "
       "len/2, remain = len - reduce. log2(n) launches instead of n atomics.",
       {"default"},
       int64_t(1) << 28,
       9,
       false,
       false,
       "kernels/folding.cuh"},
      {"barrier",
       "The barrier and the race",
       "A tree in one block: at level i, thread tid (a multiple of 2i) adds its neighbour i "
       "away. Switch the barrier off and a thread reads its neighbour before the neighbour "
       "has finished: the race breaks the result.",
       {"global", "shared"},
       1024,
       8,
       true,
       true,
       "kernels/barrier.cuh"},
      {"divergence",
       "Divergence, bank conflicts",
       "Interleaved (tid % 2s == 0) keeps every warp busy and divergent; strided index "
       "(2*s*tid) packs the work into few warps but causes bank conflicts; sequential (tid < s) "
       "has neither.",
       {"interleaved", "strided", "sequential"},
       int64_t(1) << 28,
       64,
       false,
       false,
       "kernels/divergence.cuh"},
      {"shared",
       "Shared memory, many blocks",
       "The tree in global memory, then in shared memory, then many blocks with one atomic "
       "each, then threads that each add several elements before the tree starts.",
       {"global", "shared", "multiblock", "coarsened"},
       int64_t(1) << 28,
       1000,
       false,
       false,
       "kernels/shared.cuh"},
      {"butterfly",
       "Butterfly all-reduce",
       "Partner i ^ b: both partners end up with the same pair total, so after log2(n) steps "
       "every thread holds the total (all-reduce). In shared memory with two barriers a step, "
       "or in registers with __shfl_xor_sync.",
       {"shared", "shuffle"},
       int64_t(1) << 28,
       8,
       false,
       false,
       "kernels/butterfly.cuh"},
      {"fastest",
       "The fastest kernel",
       "What production code does: a grid-stride loop, 16-byte vector loads, independent "
       "accumulators, warp shuffles, and one pass with one atomic per block (int) or one "
       "block adding the block totals in order (float, deterministic).",
       {"default"},
       int64_t(1) << 28,
       1000,
       false,
       false,
       "kernels/fastest.cuh"},
  };
  return all;
}

const LessonInfo* findLesson(const std::string& id) {
  for (const LessonInfo& l : lessons())
    if (l.id == id) return &l;
  return nullptr;
}

std::string lessonIds() {
  std::string ids;
  for (const LessonInfo& l : lessons()) ids += (ids.empty() ? "" : ", ") + l.id;
  return ids;
}

}  // namespace rlab
