#include "lessons/engine/gpu_tools/counters.hpp"

#include <cmath>
#include <cstdio>

namespace rlab {

const std::vector<CounterInfo>& counterTable() {
  static const std::vector<CounterInfo> table = {
      {Counter::DurationUs, "duration_us", "duration", "µs",
       "The kernels' own time on the GPU, every launch added."},
      {Counter::DramReadBytes, "dram_read_bytes", "DRAM read", "bytes",
       "Bytes the kernels read from the card's memory (not from its caches)."},
      {Counter::DramWriteBytes, "dram_write_bytes", "DRAM written", "bytes",
       "Bytes the kernels wrote to the card's memory."},
      {Counter::DramGBs, "dram_gb_per_s", "DRAM throughput", "GB/s",
       "Bytes read and written in DRAM per second of the kernels' time."},
      {Counter::DramThroughputPct, "dram_throughput_pct", "DRAM throughput, share of peak", "%",
       "How busy the card's memory was, against the most it can do."},
      {Counter::DramReadPct, "dram_read_pct", "DRAM read bandwidth, share of peak", "%",
       "Bytes read per second against the card's peak read bandwidth: the roofline of a sum."},
      {Counter::OccupancyPct, "achieved_occupancy_pct", "achieved occupancy", "%",
       "Warps resident on an SM, on average, against the warps it can hold."},
      {Counter::L2HitPct, "l2_hit_rate_pct", "L2 hit rate", "%",
       "Sectors the L2 cache already held when they were asked for."},
      {Counter::WarpEfficiencyPct, "warp_execution_efficiency_pct", "warp execution efficiency",
       "%",
       "Lanes that did an instruction's work, on average, of a warp's 32: idle lanes of "
       "a divergent warp lower it."},
      {Counter::BranchEfficiencyPct, "branch_efficiency_pct", "branch efficiency", "%",
       "Branches at which every active lane of the warp went the same way."},
      {Counter::SharedRequests, "shared_requests", "shared-memory requests", "",
       "Shared-memory loads and stores, one for each warp that ran such an instruction."},
      {Counter::SharedWavefrontsPerRequest, "shared_wavefronts_per_request",
       "shared wavefronts per request", "",
       "Passes a shared-memory request needed: 1 when no two lanes asked one bank for "
       "different words."},
      {Counter::SharedBankConflicts, "shared_bank_conflicts", "bank conflicts", "",
       "Extra passes over shared memory because lanes asked one bank for different words "
       "(wavefronts beyond one a request)."},
      {Counter::GlobalLoadRequests, "global_load_requests", "global load requests", "",
       "Global-memory loads, one for each warp that ran a load instruction."},
      {Counter::GlobalLoadSectorsPerRequest, "global_load_sectors_per_request",
       "global load sectors per request", "",
       "32-byte sectors a warp's load touched, on average: 4 for 32 lanes reading 4 "
       "consecutive bytes each, more when the addresses scatter."},
      {Counter::GlobalStoreRequests, "global_store_requests", "global store requests", "",
       "Global-memory stores, one for each warp that ran a store instruction."},
      {Counter::GlobalStoreSectorsPerRequest, "global_store_sectors_per_request",
       "global store sectors per request", "",
       "32-byte sectors a warp's store touched, on average."},
  };
  return table;
}

const CounterInfo& info(Counter counter) {
  for (const CounterInfo& c : counterTable())
    if (c.id == counter) return c;
  return counterTable().front();
}

std::optional<Counter> counterByKey(const std::string& key) {
  for (const CounterInfo& c : counterTable())
    if (key == c.key) return c.id;
  return std::nullopt;
}

std::string threeSignificant(double v) {
  char text[64];
  const double size = std::fabs(v);
  if (size >= 100 || size == 0)
    std::snprintf(text, sizeof text, "%.0f", v);
  else if (size >= 10)
    std::snprintf(text, sizeof text, "%.1f", v);
  else if (size >= 1)
    std::snprintf(text, sizeof text, "%.2f", v);
  else
    std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string formatCounter(Counter counter, double value) {
  if (!std::isfinite(value)) return "-";
  const std::string unit = info(counter).unit;
  char text[64];
  if (unit == "%") {
    std::snprintf(text, sizeof text, "%.1f%%", value);
    return text;
  }
  if (unit == "µs")
    return value >= 1000 ? threeSignificant(value / 1000) + " ms" : threeSignificant(value) + " µs";
  if (unit == "bytes") {
    static const char* const prefixes[] = {"B", "kB", "MB", "GB", "TB"};
    int k = 0;
    while (std::fabs(value) >= 1000 && k < 4) value /= 1000, ++k;
    return (k == 0 ? std::to_string((long long)std::llround(value)) : threeSignificant(value)) +
           " " + prefixes[k];
  }
  if (unit == "GB/s") return threeSignificant(value) + " GB/s";
  switch (counter) {
    case Counter::SharedWavefrontsPerRequest:
    case Counter::GlobalLoadSectorsPerRequest:
    case Counter::GlobalStoreSectorsPerRequest:
      std::snprintf(text, sizeof text, "%.2f", value);
      return text;
    default:
      return std::to_string((long long)std::llround(value));
  }
}

}  // namespace rlab
