// The hardware counters a profile reports (rlab profile, the app's Profile tab, the recordings),
// each computed from Nsight Compute's metrics of the kernels of a run. The registry names, for
// every variant, the counters that prove the lesson's point (VariantInfo::proofCounters).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rlab {

enum class Counter {
  DurationUs,                    // gpu__time_duration, summed over the launches
  DramReadBytes,                 // dram__bytes_read
  DramWriteBytes,                // dram__bytes_write
  DramGBs,                       // (read + write) bytes / duration
  DramThroughputPct,             // dram__throughput, % of the card's peak
  DramReadPct,                   // dram__bytes_read, % of the card's peak read bandwidth
  OccupancyPct,                  // achieved occupancy: warps active / the SM's warp slots
  L2HitPct,                      // lts__t_sector_hit_rate
  WarpEfficiencyPct,             // threads that did an instruction's work / 32, on average
  BranchEfficiencyPct,           // branches whose warp all went one way
  SharedRequests,                // shared-memory load and store instructions, per warp
  SharedWavefrontsPerRequest,    // 1 without bank conflicts
  SharedBankConflicts,           // wavefronts beyond one per request: the conflicts' cost
  GlobalLoadRequests,            // global load instructions, per warp
  GlobalLoadSectorsPerRequest,   // 32-byte sectors a warp's load touched, on average
  GlobalStoreRequests,           // global store instructions, per warp
  GlobalStoreSectorsPerRequest,  // the same for stores
};

struct CounterInfo {
  Counter id;
  const char* key;    // in JSON and in a recording's path: "branch_efficiency_pct"
  const char* label;  // "branch efficiency" (the app translates it)
  const char* unit;   // "%", "µs", "bytes", "GB/s", "" (a count or a ratio)
  // What it shows, in one sentence (rlab profile's legend, the app's tooltip).
  const char* meaning;
};

// Every counter, in the order views list them.
const std::vector<CounterInfo>& counterTable();
const CounterInfo& info(Counter counter);
std::optional<Counter> counterByKey(const std::string& key);

// "12.3 µs", "64.0%", "1.00", "2048", "33.6 MB": how every view prints a counter's value.
std::string formatCounter(Counter counter, double value);
// Three significant digits without an exponent: 0.0123, 4.26, 25.2, 344, 3120.
std::string threeSignificant(double value);

}  // namespace rlab
