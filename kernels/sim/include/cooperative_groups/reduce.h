// cg::reduce for the simulator, as CUDA 13's <cooperative_groups/reduce.h> computes it, so that
// a float reduction adds in the GPU's order: over a tile of 16 or 32 threads (or coalesced
// lanes) an int or unsigned with one of CUDA's functors is one __reduce_*_sync, as on sm_80 and
// later; any other value or function goes round the tile's butterfly (shfl_xor from half the
// tile down); coalesced lanes that are not the whole warp scan by rank and take the last lane's.
#pragma once

#include <utility>

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {  // keeps the lesser: reduce with it is the minimum
  T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T>
struct greater {  // keeps the greater: reduce with it is the maximum
  T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

namespace details {

template <class Op>
struct ReduceFunctor {  // which of CUDA's functors Op is, and of what type
  static constexpr bool known = false;
};
#define RLAB_REDUCE_FUNCTOR(name, warpOp)                                                  \
  template <class T>                                                                       \
  struct ReduceFunctor<name<T>> {                                                          \
    static constexpr bool known = true;                                                    \
    using Value = T;                                                                       \
    static constexpr ::rlab::sim::detail::WarpOp op = ::rlab::sim::detail::WarpOp::warpOp; \
  };
RLAB_REDUCE_FUNCTOR(plus, ReduceAdd)
RLAB_REDUCE_FUNCTOR(less, ReduceMin)
RLAB_REDUCE_FUNCTOR(greater, ReduceMax)
RLAB_REDUCE_FUNCTOR(bit_and, ReduceAnd)
RLAB_REDUCE_FUNCTOR(bit_or, ReduceOr)
RLAB_REDUCE_FUNCTOR(bit_xor, ReduceXor)
#undef RLAB_REDUCE_FUNCTOR

template <class Group>
inline constexpr bool kReduxGroup = false;  // groups CUDA reduces with __reduce_*_sync
template <unsigned Size, class ParentT>
inline constexpr bool kReduxGroup<thread_block_tile<Size, ParentT>> = Size >= 16;
template <>
inline constexpr bool kReduxGroup<coalesced_group> = true;

template <class Group>
inline constexpr bool kReducible = false;  // groups cg::reduce takes
template <unsigned Size, class ParentT>
inline constexpr bool kReducible<thread_block_tile<Size, ParentT>> = true;
template <>
inline constexpr bool kReducible<coalesced_group> = true;

template <unsigned Size, class ParentT, class T, class Op>
T butterfly(const thread_block_tile<Size, ParentT>& tile, T value, Op& op, const char* file,
            int line) {
  for (unsigned mask = Size >> 1; mask > 0; mask >>= 1)
    value = op(value, tile.shfl_xor(value, mask, file, line));
  return value;
}

// Coalesced lanes that are not the whole warp: an inclusive scan by rank (each step takes the
// value `step` ranks down), then every lane takes the last lane's.
template <class T, class Op>
T scanThenLast(const coalesced_group& group, T value, Op& op, const char* file, int line) {
  const unsigned mask = GroupAccess::lanes(group), rank = group.thread_rank();
  for (unsigned step = 1; step < group.size(); step <<= 1) {
    const unsigned from = rank >= step ? __fns(mask, 0, int(rank - step) + 1) : laneid();
    const T other =
        shuffle(::rlab::sim::detail::WarpOp::Shfl, mask, value, int(from), 32, file, line);
    if (step <= rank) value = op(value, other);
  }
  const unsigned last = 31u - unsigned(__clz(int(mask)));
  return shuffle(::rlab::sim::detail::WarpOp::Shfl, mask, value, int(last), 32, file, line);
}

}  // namespace details

// Every thread of the group gets op over the group's values.
template <class Group, class T, class Op>
auto reduce(const Group& group, T&& value, Op&& op, const char* file = __builtin_FILE(),
            int line = __builtin_LINE()) -> std::remove_cvref_t<T> {
  using G = std::remove_cvref_t<Group>;
  using V = std::remove_cvref_t<T>;
  using F = details::ReduceFunctor<std::remove_cvref_t<Op>>;
  static_assert(details::kReducible<G>,
                "cg::reduce takes a thread_block_tile or a coalesced_group, as in CUDA");
  if constexpr (F::known) {
    static_assert(std::is_same_v<typename F::Value, V>, "Operator and argument types differ");
    if constexpr (std::is_integral_v<V> && sizeof(V) <= 4 && details::kReduxGroup<G>) {
      const unsigned mask = details::GroupAccess::lanes(group);
      const uint32_t bits = std::is_unsigned_v<V> ? uint32_t(value) : uint32_t(int(value));
      return V(::rlab::sim::detail::warpCollective(F::op, mask, bits, std::is_signed_v<V> ? 1 : 0,
                                                   32, file, line));
    }
  }
  V v = value;
  if constexpr (std::is_same_v<G, coalesced_group>) {
    if (group.size() == 32) {
      const thread_block_tile<32> whole(0, 1);
      return details::butterfly(whole, v, op, file, line);
    }
    return details::scanThenLast(group, v, op, file, line);
  } else {
    return details::butterfly(group, v, op, file, line);
  }
}

}  // namespace cooperative_groups
