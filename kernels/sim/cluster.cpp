// A thread block cluster's run and its distributed shared memory (detail/cluster.hpp says how),
// and the hooks a kernel reaches them by: cluster.sync(), map_shared_rank, query_shared_rank.

#include "kernels/sim/detail/cluster.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/sim/detail/launch_state.hpp"
#include "kernels/sim/detail/race_detector.hpp"

namespace rlab::sim::detail {

dim3 g_clusterDim{1, 1, 1};

ClusterRun::ClusterRun(const std::function<void()>& body, const LaunchOptions& options,
                       FiberPool& fibers, LaunchStats& stats, const std::vector<ByteRange>& shared,
                       RaceDetector* races)
    : options_(options), shared_(shared), races_(races) {
  const dim3 c = g_clusterDim;
  const unsigned size = c.x * c.y * c.z;
  const unsigned threads = g_blockDim.x * g_blockDim.y * g_blockDim.z;
  for (unsigned rank = 0; rank < size; ++rank)
    blocks_.push_back(
        std::make_unique<BlockRun>(body, options, fibers, stats, &shared, rank * threads));
  linear_.resize(size);
  blockIdx_.resize(size);
  if (size == 1) return;  // its one block's shared memory is the worker's: nothing to swap
  for (const ByteRange& r : shared_) {
    offsets_.push_back(storeBytes_);
    storeBytes_ += size_t(r.end - r.begin) + kGap;
  }
  stores_.assign(size, std::vector<unsigned char>(storeBytes_, kSharedPoisonByte));
}

void ClusterRun::enter(unsigned rank) {
  if (!stores_.empty() && rank != resident_) {
    std::vector<unsigned char>& out = stores_[resident_];
    for (size_t i = 0; i < shared_.size(); ++i) {
      const ByteRange& r = shared_[i];
      if (blocks_[resident_]->exited())
        std::memset(out.data() + offsets_[i], kSharedPoisonByte, r.end - r.begin);
      else
        std::memcpy(out.data() + offsets_[i], r.begin, r.end - r.begin);
      std::memcpy(r.begin, stores_[rank].data() + offsets_[i], r.end - r.begin);
    }
  }
  resident_ = rank;
  g_launch.block = blocks_[rank].get();
  g_blockIdx = blockIdx_[rank];
  if (races_) races_->enterBlock(rank);
}

std::vector<unsigned> ClusterRun::turnOrder(uint64_t turn) const {
  std::vector<unsigned> order(size());
  for (unsigned r = 0; r < size(); ++r) order[r] = r;
  const Schedule& s = options_.schedule;
  switch (s.kind) {
    case Schedule::Kind::Reverse:
      std::reverse(order.begin(), order.end());
      break;
    case Schedule::Kind::Random:
    case Schedule::Kind::WarpsRandom:
    case Schedule::Kind::LanesRandom: {
      uint64_t state = s.seed ^ (clusterLinear_ * 0x9e3779b97f4a7c15ull) ^ (turn << 32);
      auto next = [&] {  // splitmix64, as the blocks' own
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
      };
      for (size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[next() % k]);
      break;
    }
    default:
      break;
  }
  return order;
}

void ClusterRun::run(uint3 clusterIdx) {
  const dim3 c = g_clusterDim, g = g_gridDim;
  clusterLinear_ =
      clusterIdx.x + uint64_t(g.x / c.x) * (clusterIdx.y + uint64_t(g.y / c.y) * clusterIdx.z);
  for (unsigned rank = 0; rank < size(); ++rank) {
    const uint3 b{clusterIdx.x * c.x + rank % c.x, clusterIdx.y * c.y + (rank / c.x) % c.y,
                  clusterIdx.z * c.z + rank / (c.x * c.y)};
    blockIdx_[rank] = b;
    linear_[rank] = b.x + g.x * (b.y + g.y * b.z);
    blocks_[rank]->begin(linear_[rank]);
  }
  // The worker's copy, which launch() has poisoned, is rank 0's.
  for (auto& store : stores_) std::fill(store.begin(), store.end(), kSharedPoisonByte);
  resident_ = 0;
  if (races_) races_->startCluster(*this, g_blockDim.x * g_blockDim.y * g_blockDim.z);
  std::vector<uint8_t> done(size(), 0);
  try {
    for (uint64_t turn = 0;; ++turn) {
      for (unsigned rank : turnOrder(turn)) {
        if (done[rank]) continue;
        enter(rank);
        done[rank] = blocks_[rank]->resume();
      }
      if (std::all_of(done.begin(), done.end(), [](uint8_t d) { return d != 0; })) break;
      // Every thread of the cluster that has not exited waits at cluster.sync().
      for (unsigned rank = 0; rank < size(); ++rank)
        if (!done[rank]) blocks_[rank]->openClusterBarrier();
      if (races_) races_->clusterBarrierOpened();
    }
  } catch (...) {
    for (unsigned rank = 0; rank < size(); ++rank) {
      g_launch.block = blocks_[rank].get();
      blocks_[rank]->abandon();
    }
    throw;
  }
}

const ByteRange* ClusterRun::residentVariableAt(uintptr_t address) const {
  for (const ByteRange& r : shared_)
    if (address >= reinterpret_cast<uintptr_t>(r.begin) &&
        address < reinterpret_cast<uintptr_t>(r.end))
      return &r;
  return nullptr;
}

ClusterRun::Place ClusterRun::place(uintptr_t address) const {
  Place p;
  if (const ByteRange* v = residentVariableAt(address)) {
    p.shared = true;
    p.rank = resident_;
    p.variable = v;
    p.offset = address - reinterpret_cast<uintptr_t>(v->begin);
    p.key = stores_.empty() ? address
                            : reinterpret_cast<uintptr_t>(stores_[resident_].data()) +
                                  offsets_[size_t(v - shared_.data())] + p.offset;
    return p;
  }
  for (unsigned rank = 0; rank < stores_.size(); ++rank) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(stores_[rank].data());
    if (address < base || address >= base + storeBytes_) continue;
    p.shared = true;
    p.rank = rank;
    p.key = address;
    const size_t at = address - base;
    size_t i = shared_.size();
    while (i > 0 && offsets_[i - 1] > at) --i;
    const ByteRange& v = shared_[i - 1];
    p.variable = &v;
    p.offset = at - offsets_[i - 1];
    p.outOfBounds = p.offset >= size_t(v.end - v.begin);
    return p;
  }
  return p;
}

void ClusterRun::refuseReach(const Place& at, const std::string& site) const {
  // On a GPU that memory belongs to no one, or by now to another block.
  const std::string rank = std::to_string(at.rank), name = at.variable->name;
  if (!at.outOfBounds)
    failThread({"sim.cluster-after-exit",
                "sim.cluster-after-exit-in-block",
                {{"rank", rank}, {"site", site}},
                "at " + site + " reaches the shared memory of block rank " + rank +
                    " of its cluster after that block has exited; a block's shared memory lives "
                    "only as long as the block, so the cluster must sync before a block whose "
                    "shared memory others read exits."},
               "", 0);
  failThread({"sim.cluster-out-of-bounds",
              "sim.cluster-out-of-bounds-in-block",
              {{"rank", rank}, {"variable", name}, {"site", site}},
              "at " + site + " reaches past " + name + " in the shared memory of block rank " +
                  rank + " of its cluster."},
             "", 0);
}

void* ClusterRun::mapSharedRank(const void* p, unsigned rank, const char* file, int line) {
  if (rank >= size())
    failThread(
        {"sim.cluster-rank",
         "sim.cluster-rank-in-block",
         {{"rank", std::to_string(rank)}, {"blocks", std::to_string(size())}},
         "asks map_shared_rank for block rank " + std::to_string(rank) + ", but its cluster has " +
             std::to_string(size()) + (size() == 1 ? " block" : " blocks") + ", ranked from 0."},
        file, line);
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  const ByteRange* v = residentVariableAt(address);
  if (!v)  // one past a variable's end is an address of it too
    for (const ByteRange& r : shared_)
      if (address == reinterpret_cast<uintptr_t>(r.end)) v = &r;
  if (!v)
    failThread({"sim.cluster-map-not-shared",
                "sim.cluster-map-not-shared-in-block",
                {},
                "gives map_shared_rank an address that is not in its block's shared memory; it "
                "maps the address of a __shared__ variable of the calling block to the same "
                "variable of another block of the cluster."},
               file, line);
  if (rank == resident_ || stores_.empty()) return const_cast<void*>(p);
  return stores_[rank].data() + offsets_[size_t(v - shared_.data())] +
         (address - reinterpret_cast<uintptr_t>(v->begin));
}

unsigned ClusterRun::querySharedRank(const void* p, const char* file, int line) const {
  const Place at = place(reinterpret_cast<uintptr_t>(p));
  if (!at.shared)
    failThread({"sim.cluster-query-not-shared",
                "sim.cluster-query-not-shared-in-block",
                {},
                "gives query_shared_rank an address that is in no block's shared memory."},
               file, line);
  return at.rank;
}

// ---- The hooks ----------------------------------------------------------------------------------

namespace {
ClusterRun& runningCluster(const char* what) {
  if (g_launch.thread() == kNoThread || !g_launch.cluster) [[unlikely]]
    throw std::logic_error(std::string(what) + " called outside a simulated kernel");
  return *g_launch.cluster;
}
}  // namespace

void clusterBarrier(const char* file, int line) {
  runningCluster("cluster.sync()");
  BlockRun& block = *g_launch.block;
  block.arriveAtClusterBarrier(file, line);
  block.suspend();
}

void* clusterMapShared(const void* p, unsigned rank, const char* file, int line) {
  return runningCluster("map_shared_rank").mapSharedRank(p, rank, file, line);
}

unsigned clusterQueryShared(const void* p, const char* file, int line) {
  return runningCluster("query_shared_rank").querySharedRank(p, file, line);
}

}  // namespace rlab::sim::detail
