// Cooperative groups for the simulator: <cooperative_groups.h> as CUDA 13 has it, for a thread
// block, its tiles of 1 to 32 threads, the coalesced lanes of a warp and (partly) the grid.
// Every operation is one the runtime knows: a block's sync is its barrier, a tile's shuffle,
// vote, match or sync a warp operation over the tile's lanes, so schedules, stale reads, the
// trace and the diagnostics see them as they see __syncthreads and __shfl_down_sync. The mask
// is the group: a tile's operations name exactly its lanes, and a lane of it that has exited or
// waits elsewhere stops the launch with the line. cg::reduce is in <cooperative_groups/reduce.h>.
// Differs: each function takes the caller's file and line as defaulted parameters, as the shim's
// do; tiles of more than 32 threads and the grid's sync are not offered (the grid's sync needs
// a cooperative launch, which no exercise makes), nor a cluster's split barrier.
#pragma once

#include "kernels/sim/shim.hpp"

namespace cooperative_groups {

namespace details {

inline unsigned threadRankInBlock() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned blockThreads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
inline unsigned laneid() {
  return threadRankInBlock() % 32;
}
inline unsigned lanemaskLessThan() {
  return (1u << laneid()) - 1;
}

// A shuffle of any trivially copyable value, 8 bytes at a time, as CUDA's shuffles a value of
// any size 4 bytes at a time.
template <class T>
T shuffle(::rlab::sim::detail::WarpOp op, unsigned mask, const T& value, int arg, int width,
          const char* file, int line) {
  static_assert(std::is_trivially_copyable_v<T>,
                "a group's shuffle moves trivially copyable values");
  if constexpr (sizeof(T) <= 8) {
    return ::rlab::sim::detail::warpValue(op, mask, value, arg, width, file, line);
  } else {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (size_t at = 0; at < sizeof(T); at += 8) {
      uint64_t chunk = 0;
      const size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
      std::memcpy(&chunk, bytes + at, n);
      chunk = ::rlab::sim::detail::warpCollective(op, mask, chunk, arg, width, file, line);
      std::memcpy(bytes + at, &chunk, n);
    }
    T out;
    std::memcpy(&out, bytes, sizeof(T));
    return out;
  }
}

// The bits of `ballot` at `mask`'s lanes, packed: bit k for the group's k-th lane.
inline unsigned packLanes(unsigned mask, unsigned ballot) {
  unsigned packed = 0, rank = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    if (ballot >> lane & 1u) packed |= 1u << rank;
    ++rank;
  }
  return packed;
}

template <class T>
uint64_t matchBits(const T& value) {
  static_assert(std::is_arithmetic_v<T>, "a group's match_any and match_all take numbers");
  return ::rlab::sim::detail::toBits(value);
}

struct GroupAccess;  // what cg::reduce reads of a group: its lanes

}  // namespace details

class thread_block;
class coalesced_group;

// Any group, its kind known at run time: a block, a tile made by tiled_partition(parent, n), or
// coalesced lanes.
class thread_group {
 public:
  unsigned long long size() const { return kind_ == Kind::Block ? details::blockThreads() : size_; }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    if (kind_ == Kind::Block) return details::threadRankInBlock();
    return __popc(mask_ & details::lanemaskLessThan());
  }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    if (kind_ == Kind::Block)
      __syncthreads(file, line);
    else
      __syncwarp(mask_, file, line);
  }
  unsigned meta_group_rank() const { return metaRank_; }
  unsigned meta_group_size() const { return metaSize_; }

 protected:
  enum class Kind { Block, Tile, Coalesced };
  explicit thread_group(Kind kind, unsigned mask = 0, unsigned size = 0, unsigned metaRank = 0,
                        unsigned metaSize = 1)
      : kind_(kind), mask_(mask), size_(size), metaRank_(metaRank), metaSize_(metaSize) {}
  Kind kind_;
  unsigned mask_, size_, metaRank_, metaSize_;
  friend struct details::GroupAccess;
  friend thread_group tiled_partition(const thread_group& parent, unsigned tileSize,
                                      const char* file, int line);
};

// The block the calling thread belongs to.
class thread_block : public thread_group {
 public:
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    __syncthreads(file, line);
  }
  static unsigned size() { return details::blockThreads(); }
  static unsigned num_threads() { return details::blockThreads(); }
  static unsigned thread_rank() { return details::threadRankInBlock(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 group_dim() { return blockDim; }
  static dim3 dim_threads() { return blockDim; }

 private:
  thread_block() : thread_group(Kind::Block) {}
  friend thread_block this_thread_block();
};

inline thread_block this_thread_block() {
  return thread_block();
}

// The lanes of a warp that are active where it is made (see __activemask).
class coalesced_group : public thread_group {
 public:
  unsigned num_threads() const { return size_; }
  unsigned size() const { return size_; }
  unsigned thread_rank() const { return __popc(mask_ & details::lanemaskLessThan()); }
  unsigned meta_group_rank() const { return metaRank_; }
  unsigned meta_group_size() const { return metaSize_; }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    __syncwarp(mask_, file, line);
  }

  template <class T>
  T shfl(T value, int srcRank, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) const {
    const unsigned lane = srcRank == 0   ? unsigned(__ffs(int(mask_)) - 1)
                          : size() == 32 ? unsigned(srcRank)
                                         : __fns(mask_, 0, srcRank + 1);
    return details::shuffle(::rlab::sim::detail::WarpOp::Shfl, mask_, value, int(lane), 32, file,
                            line);
  }
  template <class T>
  T shfl_down(T value, unsigned delta, const char* file = __builtin_FILE(),
              int line = __builtin_LINE()) const {
    if (size() == 32)
      return details::shuffle(::rlab::sim::detail::WarpOp::ShflDown, 0xffffffffu, value, int(delta),
                              32, file, line);
    unsigned lane = __fns(mask_, details::laneid(), int(delta) + 1);
    if (lane >= 32) lane = details::laneid();
    return details::shuffle(::rlab::sim::detail::WarpOp::Shfl, mask_, value, int(lane), 32, file,
                            line);
  }
  template <class T>
  T shfl_up(T value, int delta, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    if (size() == 32)
      return details::shuffle(::rlab::sim::detail::WarpOp::ShflUp, 0xffffffffu, value, delta, 32,
                              file, line);
    unsigned lane = __fns(mask_, details::laneid(), -(delta + 1));
    if (lane >= 32) lane = details::laneid();
    return details::shuffle(::rlab::sim::detail::WarpOp::Shfl, mask_, value, int(lane), 32, file,
                            line);
  }
  int any(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __ballot_sync(mask_, predicate, file, line) != 0;
  }
  int all(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __ballot_sync(mask_, predicate, file, line) == mask_;
  }
  unsigned ballot(int predicate, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) const {
    const unsigned lanes = __ballot_sync(mask_, predicate, file, line);
    return size() == 32 ? lanes : details::packLanes(mask_, lanes);
  }
  template <class T>
  unsigned match_any(T value, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) const {
    const unsigned lanes = static_cast<unsigned>(
        ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::MatchAny, mask_,
                                            details::matchBits(value), 0, 32, file, line));
    return size() == 32 ? lanes : details::packLanes(mask_, lanes);
  }
  template <class T>
  unsigned match_all(T value, int& pred, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) const {
    const unsigned lanes = static_cast<unsigned>(
        ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::MatchAll, mask_,
                                            details::matchBits(value), 0, 32, file, line));
    pred = lanes != 0;
    return size() == 32 ? lanes : details::packLanes(mask_, lanes);
  }

 private:
  explicit coalesced_group(unsigned mask, unsigned metaRank = 0, unsigned metaSize = 1)
      : thread_group(Kind::Coalesced, mask, unsigned(__popc(mask)), metaRank, metaSize) {}
  friend coalesced_group coalesced_threads(const char* file, int line);
  friend coalesced_group tiled_partition(const coalesced_group& parent, unsigned tileSize,
                                         const char* file, int line);
};

inline coalesced_group coalesced_threads(const char* file = __builtin_FILE(),
                                         int line = __builtin_LINE()) {
  return coalesced_group(__activemask(file, line));
}

// A tile of Size threads (1, 2, 4, 8, 16 or 32) of its parent: lanes Size-aligned in a warp.
template <unsigned Size, class ParentT = void>
class thread_block_tile : public thread_group {
  static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32 ||
                    Size == 64 || Size == 128 || Size == 256 || Size == 512 || Size == 1024,
                "a tile's size must be a power of two from 1 to 1024");
  static_assert(Size <= 32,
                "tiles of more than 32 threads are CUDA, but the simulator does not offer them "
                "(it has tiles of 1 to 32 threads); check on a GPU with --backend gpu");

 public:
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  static unsigned thread_rank() { return details::threadRankInBlock() & (Size - 1); }
  unsigned meta_group_rank() const { return metaRank_; }
  unsigned meta_group_size() const { return metaSize_; }
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    __syncwarp(lanes(), file, line);
  }

  template <class T>
  T shfl(T value, int srcRank, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) const {
    return details::shuffle(::rlab::sim::detail::WarpOp::Shfl, lanes(), value, srcRank, int(Size),
                            file, line);
  }
  template <class T>
  T shfl_down(T value, unsigned delta, const char* file = __builtin_FILE(),
              int line = __builtin_LINE()) const {
    return details::shuffle(::rlab::sim::detail::WarpOp::ShflDown, lanes(), value, int(delta),
                            int(Size), file, line);
  }
  template <class T>
  T shfl_up(T value, unsigned delta, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) const {
    return details::shuffle(::rlab::sim::detail::WarpOp::ShflUp, lanes(), value, int(delta),
                            int(Size), file, line);
  }
  template <class T>
  T shfl_xor(T value, unsigned laneMask, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) const {
    return details::shuffle(::rlab::sim::detail::WarpOp::ShflXor, lanes(), value, int(laneMask),
                            int(Size), file, line);
  }
  int any(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __ballot_sync(lanes(), predicate, file, line) != 0;
  }
  int all(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __ballot_sync(lanes(), predicate, file, line) == lanes();
  }
  unsigned ballot(int predicate, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) const {
    return __ballot_sync(lanes(), predicate, file, line) >> firstLane();
  }
  template <class T>
  unsigned match_any(T value, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) const {
    return static_cast<unsigned>(
               ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::MatchAny, lanes(),
                                                   details::matchBits(value), 0, 32, file, line)) >>
           firstLane();
  }
  template <class T>
  unsigned match_all(T value, int& pred, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) const {
    const unsigned all = static_cast<unsigned>(
        ::rlab::sim::detail::warpCollective(::rlab::sim::detail::WarpOp::MatchAll, lanes(),
                                            details::matchBits(value), 0, 32, file, line));
    pred = all != 0;
    return all >> firstLane();
  }

  // A tile with its parent's type forgotten (thread_block_tile<32> from
  // thread_block_tile<32, thread_block>), as CUDA converts it.
  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other)
      : thread_group(Kind::Tile, lanes(), Size, other.meta_group_rank(), other.meta_group_size()) {}

  thread_block_tile(unsigned metaRank, unsigned metaSize)
      : thread_group(Kind::Tile, lanes(), Size, metaRank, metaSize) {}

 private:
  static unsigned firstLane() { return details::laneid() & ~(Size - 1); }
  // The tile's lanes: the mask of every one of its operations.
  static unsigned lanes() { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << firstLane(); }
};

// Tiles of Size threads of a block or of a larger tile.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent) {
  if constexpr (!std::is_same_v<ParentT, thread_block>)
    static_assert(ParentT::num_threads() >= Size, "a tile is split into smaller tiles only");
  const unsigned rank = unsigned(parent.thread_rank()), size = unsigned(parent.num_threads());
  return thread_block_tile<Size, ParentT>(rank / Size, (size + Size - 1) / Size);
}

// The calling thread alone, as a tile of one.
inline thread_block_tile<1, void> this_thread() {
  return thread_block_tile<1, void>(details::threadRankInBlock(), details::blockThreads());
}

// Tiles made at run time: of a block (or a group that is one), n a power of two up to 32.
inline thread_group tiled_partition(const thread_group& parent, unsigned tileSize,
                                    const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  if (tileSize == 0 || tileSize > 32 || (tileSize & (tileSize - 1)))
    ::rlab::sim::detail::failInKernel(
        "sim.tile-size", "sim.tile-size-in-block",
        "called tiled_partition with a tile size that is not a power of two from 1 to 32 (tiles "
        "of 64 to 1024 threads are CUDA, but the simulator does not offer them).",
        file, line);
  if (parent.kind_ != thread_group::Kind::Block)
    ::rlab::sim::detail::failInKernel(
        "sim.tile-of-tile", "sim.tile-of-tile-in-block",
        "called tiled_partition(group, n) on a tile made at run time; the simulator splits a "
        "thread_block, a thread_block_tile or a coalesced_group.",
        file, line);
  const unsigned rank = details::threadRankInBlock(), lane = details::laneid();
  // The block's last tile holds the threads left over: as on a GPU, its size is theirs.
  const unsigned first = rank / tileSize * tileSize;
  const unsigned left = unsigned(details::blockThreads()) - first;
  const unsigned size = left < tileSize ? left : tileSize;
  const unsigned mask = (size == 32 ? 0xffffffffu : (1u << size) - 1) << (lane & ~(tileSize - 1));
  return thread_group(thread_group::Kind::Tile, mask, size, rank / tileSize,
                      (details::blockThreads() + tileSize - 1) / tileSize);
}
inline thread_group tiled_partition(const thread_block& parent, unsigned tileSize,
                                    const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  return tiled_partition(static_cast<const thread_group&>(parent), tileSize, file, line);
}
// Tiles of coalesced lanes stay coalesced: the parent's lanes taken tileSize at a time.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tileSize,
                                       const char* file = __builtin_FILE(),
                                       int line = __builtin_LINE()) {
  if (tileSize == 0 || tileSize > 32 || (tileSize & (tileSize - 1)))
    ::rlab::sim::detail::failInKernel(
        "sim.coalesced-tile-size", "sim.coalesced-tile-size-in-block",
        "called tiled_partition with a tile size that is not a power of two from 1 to 32.", file,
        line);
  if (parent.size() <= tileSize) return parent;
  unsigned mask = 0, taken = 0;
  int skip = int(parent.thread_rank() / tileSize * tileSize);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(parent.mask_ >> lane & 1u)) continue;
    if (skip <= 0 && taken < tileSize) {
      mask |= 1u << lane;
      ++taken;
    }
    --skip;
  }
  return coalesced_group(mask, parent.thread_rank() / tileSize,
                         (parent.size() + tileSize - 1) / tileSize);
}

// The whole grid. Its sync needs a cooperative launch (cudaLaunchCooperativeKernel, every block
// resident at once); no exercise launches that way, so is_valid() is false and sync() stops the
// launch with the line, where on a GPU it would wait for blocks that have not started.
class grid_group {
 public:
  static bool is_valid() { return false; }
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ::rlab::sim::detail::failInKernel(
        "sim.grid-sync", "sim.grid-sync-in-block",
        "called this_grid().sync(), a barrier across the whole grid, which needs a cooperative "
        "launch (cudaLaunchCooperativeKernel, every block resident at once); this kernel was "
        "launched with <<<grid, block>>>, where it would wait for blocks that have not started.",
        file, line);
  }
  static unsigned long long size() {
    return (unsigned long long)details::blockThreads() * gridDim.x * gridDim.y * gridDim.z;
  }
  static unsigned long long num_threads() { return size(); }
  static unsigned long long block_rank() {
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  static unsigned long long thread_rank() {
    return block_rank() * details::blockThreads() + details::threadRankInBlock();
  }
  static unsigned long long num_blocks() {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 dim_threads() { return blockDim; }
};

inline grid_group this_grid() {
  return grid_group();
}

// The thread block cluster the calling block belongs to (sm_90): its blocks run together,
// cluster.sync() is a barrier of all of their threads, and map_shared_rank reaches a
// neighbour's shared memory. A launch without clusters is a cluster of one block.
class cluster_group {
 public:
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    __rlab_cluster_sync(file, line);
  }
  template <class T>
  static T* map_shared_rank(T* addr, int rank, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE()) {
    return static_cast<T*>(
        __cluster_map_shared_rank(addr, static_cast<unsigned>(rank), file, line));
  }
  static unsigned query_shared_rank(const void* addr, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
    return __cluster_query_shared_rank(addr, file, line);
  }
  static dim3 block_index() { return __clusterRelativeBlockIdx(); }
  static unsigned block_rank() { return __clusterRelativeBlockRank(); }
  static dim3 dim_blocks() { return __clusterDim(); }
  static unsigned num_blocks() { return __clusterSizeInBlocks(); }
  static dim3 dim_threads() {
    const dim3 c = __clusterDim();
    return dim3(c.x * blockDim.x, c.y * blockDim.y, c.z * blockDim.z);
  }
  static unsigned num_threads() { return num_blocks() * details::blockThreads(); }
  static unsigned size() { return num_threads(); }
  static unsigned thread_rank() {
    return block_rank() * details::blockThreads() + details::threadRankInBlock();
  }
  static dim3 thread_index() {
    const dim3 b = block_index();
    return dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y,
                b.z * blockDim.z + threadIdx.z);
  }
  static bool is_valid() { return true; }
  // The split barrier (arrive, then wait) is not offered: sync() is both at once.
  template <class... Args>
  static void barrier_arrive(Args&&...) {
    static_assert(::rlab::sim::detail::kRefused<Args...>,
                  RLAB_NOT_OFFERED_SENTENCE("cluster_group::barrier_arrive"));
  }
  template <class... Args>
  static void barrier_wait(Args&&...) {
    static_assert(::rlab::sim::detail::kRefused<Args...>,
                  RLAB_NOT_OFFERED_SENTENCE("cluster_group::barrier_wait"));
  }

 private:
  cluster_group() = default;
  friend cluster_group this_cluster();
};

inline cluster_group this_cluster() {
  return cluster_group();
}

// The free forms of a group's members.
template <class Group>
void sync(const Group& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  g.sync(file, line);
}
template <class Group>
auto thread_rank(const Group& g) -> decltype(g.thread_rank()) {
  return g.thread_rank();
}
template <class Group>
auto group_size(const Group& g) -> decltype(g.num_threads()) {
  return g.num_threads();
}

namespace details {
struct GroupAccess {
  static unsigned lanes(const thread_group& g) { return g.mask_; }
};
}  // namespace details

// CUDA names the simulator does not offer, refused at the line that uses them.
#define RLAB_CG_NOT_OFFERED(name) \
  RLAB_REFUSED_FUNCTION(name, RLAB_NOT_OFFERED_SENTENCE("cooperative_groups::" #name))
#include "kernels/sim/cuda_surface.def"

}  // namespace cooperative_groups
