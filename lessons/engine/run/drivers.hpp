// The lesson drivers as a table: one entry per lesson and variant, the same for every backend.
// Included by each backend's translation unit (g++ for the simulator, nvcc for the GPU), which
// instantiates it for its own backend type.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "lessons/allreduce/driver.hpp"
#include "lessons/atomic/driver.hpp"
#include "lessons/barrier/driver.hpp"
#include "lessons/butterfly/driver.hpp"
#include "lessons/divergence/driver.hpp"
#include "lessons/fastest/driver.hpp"
#include "lessons/folding/driver.hpp"
#include "lessons/lastwarp/driver.hpp"
#include "lessons/shared/driver.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab {

// A driver: launches the lesson's kernel(s) on `input` and fills the trace's steps, result and
// notes. `trace` off: no snapshots (timing runs, large n).
template <class B, class T, class Op>
using DriverFunction = void (*)(B&, const Params&, typename B::template Buffer<T>&, bool trace,
                                Trace& out);

template <class B, class T, class Op>
struct DriverEntry {
  DriverId id;
  DriverFunction<B, T, Op> drive;
};

// One entry: the driver instantiated for Op, or none where Op is subtract and the registry does
// not offer it there (kSubtractRuns): each kernel is compiled once more per type for subtract,
// so only for the few the demonstration compares. The branch not taken is never instantiated.
#define RLAB_DRIVER(id, driver)                                                      \
  DriverEntry<B, T, Op> {                                                            \
    DriverId::id, [] {                                                               \
      if constexpr (std::is_same_v<Op, SubtractOp> && !offersSubtract(DriverId::id)) \
        return DriverFunction<B, T, Op>(nullptr);                                    \
      else                                                                           \
        return DriverFunction<B, T, Op>(driver<B, T, Op>);                           \
    }()                                                                              \
  }

template <class B, class T, class Op>
const std::vector<DriverEntry<B, T, Op>>& driverTable() {
  static const std::vector<DriverEntry<B, T, Op>> table = {
      RLAB_DRIVER(Atomic, driveAtomic),
      RLAB_DRIVER(Folding, driveFolding),
      RLAB_DRIVER(FoldingDoubleBuffer, driveFoldingDoubleBuffer),
      RLAB_DRIVER(BarrierGlobal, driveBarrierGlobal),
      RLAB_DRIVER(BarrierShared, driveBarrierShared),
      RLAB_DRIVER(DivergenceInterleaved, driveInterleaved),
      RLAB_DRIVER(DivergenceInterleavedMask, driveInterleavedMask),
      RLAB_DRIVER(DivergenceStrided, driveStrided),
      RLAB_DRIVER(DivergenceSequential, driveSequential),
      RLAB_DRIVER(TreeInGlobal, driveTreeInGlobal),
      RLAB_DRIVER(TreeInShared, driveTreeInShared),
      RLAB_DRIVER(MultiBlock, driveMultiBlock),
      RLAB_DRIVER(Clusters, driveClusters),
      RLAB_DRIVER(Coarsened, driveCoarsened),
      RLAB_DRIVER(LastWarpVolatile, driveLastWarpVolatile),
      RLAB_DRIVER(LastWarpPlain, driveLastWarpPlain),
      RLAB_DRIVER(LastWarpSyncwarp, driveLastWarpSyncwarp),
      RLAB_DRIVER(LastWarpShuffle, driveLastWarpShuffle),
      RLAB_DRIVER(ButterflyShared, driveButterflyShared),
      RLAB_DRIVER(ButterflyShuffle, driveButterflyShuffle),
      RLAB_DRIVER(Fastest, driveFastest),
      RLAB_DRIVER(AllReduceButterfly, driveAllReduceButterfly),
      RLAB_DRIVER(AllReduceRing, driveAllReduceRing),
      RLAB_DRIVER(AllReduceNccl, driveAllReduceNccl),
  };
  return table;
}
#undef RLAB_DRIVER

// The driver the registry names for a variant; std::invalid_argument where this build compiled
// none (subtract where it is not offered: resolve() refuses it before a run gets here).
template <class B, class T, class Op>
DriverFunction<B, T, Op> findDriver(DriverId id) {
  for (const auto& entry : driverTable<B, T, Op>())
    if (entry.drive && entry.id == id) return entry.drive;
  throw std::invalid_argument("no driver for this variant and operator in this build");
}

template <class B>
bool hasDriver(DriverId id) {
  for (const auto& entry : driverTable<B, int, SumOp>())
    if (entry.id == id) return true;
  return false;
}

template <class B, class T, class Op>
void drive(B& b, const Params& p, typename B::template Buffer<T>& input, bool trace, Trace& out) {
  const VariantInfo* variant = variantOf(p);
  if (!variant)
    throw std::invalid_argument("no lesson '" + p.lesson + "' of variant '" + p.variant + "'");
  findDriver<B, T, Op>(variant->driver)(b, p, input, trace, out);
}

// Calls f(T{}, Op{}) with the run's element type and operator: `using T = decltype(type)`.
// Subtract (a demonstration, never timed nor run across GPUs) only where kWithSubtract.
template <bool kWithSubtract = false, class F>
decltype(auto) withTypeAndOp(const Params& p, F&& f) {
  auto withOp = [&](auto type) -> decltype(auto) {
    switch (p.op) {
      case Op::Subtract:
        if constexpr (kWithSubtract) return f(type, SubtractOp{});
        throw std::invalid_argument("subtract is run untimed, on one GPU");
      case Op::Max:
        return f(type, MaxOp{});
      case Op::Min:
        return f(type, MinOp{});
      case Op::Product:
        return f(type, ProductOp{});
      case Op::Sum:
        break;
    }
    return f(type, SumOp{});
  };
  if (p.type == ElementType::Float) return withOp(float{});
  return withOp(int{});
}

// The input uploaded as the run's element type, then the lesson's driver.
template <class B>
void runOnBackend(B& b, const Params& p, const std::vector<double>& input, bool trace, Trace& out) {
  withTypeAndOp<true>(p, [&](auto type, auto op) {
    using T = decltype(type);
    const std::vector<T> host(input.begin(), input.end());
    auto buffer = b.template alloc<T>(host.size());
    b.upload(buffer, host.data(), host.size());
    b.launches.start();
    drive<B, T, decltype(op)>(b, p, buffer, trace, out);
    out.launches = b.launches.stop();
  });
}

}  // namespace rlab
