// One lesson run under NVIDIA Nsight Compute (ncu), summarised per kernel: the GPU's own
// counters for that run (duration, DRAM traffic and throughput, occupancy, L2 hits, warp and
// branch efficiency, shared-memory bank conflicts, global sectors per request, the top warp
// stall reasons), beside what the simulator's run of the same setting predicts where it can.
// `rlab profile` prints it; the app's Profile tab draws it; `rlab record` keeps it.
//
// The run is `rlab run ... --backend gpu --no-timings --no-steps --format json` started under
// ncu as a child process (ncu profiles a whole process), so runArguments() reproduces the
// Params exactly; --no-steps leaves out the trace buffer, so the kernels counted are the
// kernels as timed.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lessons/engine/gpu_tools/counters.hpp"
#include "lessons/engine/run/params.hpp"
#include "lessons/engine/run/trace.hpp"

namespace rlab {

// ---- Reading ncu's CSV --------------------------------------------------------------------

// One kernel launch as ncu reported it: its metrics in base units (ns, bytes, %, counts).
struct NcuLaunch {
  int id = 0;               // ncu's result ID: launches in the order they ran
  std::string kernel;       // as ncu names it: "void interleaved<int, SumOp>(const T1 *, ...)"
  std::string function;     // the function alone: "interleaved"
  std::string grid, block;  // "(4, 1, 1)", where the CSV has the columns
  std::map<std::string, double> metrics;
};

struct NcuOutput {
  std::vector<NcuLaunch> launches;  // by ID
  // ncu could not read the GPU's counters: ERR_NVGPUCTRPERM.
  bool permissionDenied = false;
  std::vector<std::string> unknownMetrics;  // metrics this ncu or GPU does not have
  std::vector<std::string> errors;          // other ==ERROR== lines, without the prefix
  std::vector<std::string> warnings;        // ==WARNING== lines, without the prefix
};

// Reads ncu's output with --csv: the details page (a row per metric: "Metric Name",
// "Metric Unit", "Metric Value") or the raw page (a column per metric, units in the second
// row), columns found by their headings; the program's own lines and ncu's ==PROF== lines
// mixed in are passed over. Values may group thousands ("1,234.5"; "1.234,5" in a comma
// locale) and carry scaled units (usecond, Kbyte, Msector), which are brought to base units.
// Pure: no process, no file.
NcuOutput parseNcuOutput(const std::string& output);

// A kernel's function name from the way ncu prints it: "void interleaved<int, SumOp>(const T1
// *, long long, ...)" and "interleaved" both give "interleaved"; "ns::k(int)" gives "k".
std::string kernelFunction(const std::string& kernel);

// ---- The profile -------------------------------------------------------------------------

// A stall reason: ncu's smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, the
// cycles an issued instruction waited, on average, for that reason.
struct StallReason {
  std::string reason;  // "long_scoreboard"
  Message label;       // "long scoreboard: waiting for global or local memory"
  double cyclesPerInstruction = 0;
};
// A stall reason's sentence by ncu's name for it; where this build does not know the name (a
// recording from a newer one), its English words as the recording keeps them.
Message stallLabel(const std::string& reason, const std::string& english);

// One kernel function of the run, its launches together: sums added, percentages and ratios
// weighted by each launch's duration, and the counters computed from those.
struct ProfiledKernel {
  std::string function;       // "interleaved"; the run's total: its lesson kernels' functions
  std::string name;           // ncu's name of its first launch
  bool lessonKernel = false;  // one of the variant's own kernels (the registry's)
  int launches = 0;
  std::map<std::string, double> metrics;
  std::map<Counter, double> counters;  // those its metrics could give
  std::vector<StallReason> stalls;     // every reason measured, the largest first
};

struct ProfileReport {
  Params params;                     // the run profiled
  std::string device;                // the GPU, as the run named it
  std::string clockControl;          // ncu's --clock-control: "none" (the default here) or "base"
  std::vector<std::string> command;  // ncu's command line, one word each
  std::vector<ProfiledKernel> kernels;  // every kernel function, in the order they first ran
  ProfiledKernel total;                 // the variant's own kernels, every launch together
  // The simulator's prediction of counters of `total`, from a run of the same setting:
  // bank conflicts (from the trace's combines) and global sectors and requests (from the
  // addresses it saw). Empty where it has none; `predictionNote` says why, or how.
  std::map<Counter, double> predicted;
  Message predictionNote;
  double result = 0;  // what the profiled run computed
  bool correct = false;
  bool permissionDenied = false;  // ERR_NVGPUCTRPERM: `runError` says how to grant it
  bool cancelled = false;         // keepGoing said stop
  std::vector<std::string> unknownMetrics;
  Message runError;            // the profile could not be made: one sentence
  std::vector<Message> notes;  // what ncu warned of, counters left out
  int exitCode = -1;
};

// The counters that prove the point of the run's variant (the registry's), and the counters a
// view lists: those first, then every other one measured or predicted, in the table's order.
const std::vector<Counter>& proofCounters(const Params& p);
std::vector<Counter> shownCounters(const ProfileReport& report);

// The metrics every profile asks ncu for (the fixed set), in the order they are asked.
const std::vector<std::string>& profileMetrics();

// The kernels of `launches` summarised (pure): one ProfiledKernel per function, and the total
// of the variant's own kernels (its kernelFunction, and the one without the load add).
void summarizeLaunches(const std::vector<NcuLaunch>& launches, const Params& p,
                       ProfileReport& report);

// What the simulator's run of the setting predicts (pure: from its Trace, which must hold
// steps, and memory where the variant's steps work in global memory). Empty, with `note` saying
// why, where the variant has no such prediction or the run recorded too little.
std::map<Counter, double> simulatorPredictions(const Trace& simulated, Message& note);

// The same setting run on the simulator with its steps and memory recorded (lockstep), and its
// predictions; empty where the run is past what the simulator records.
std::map<Counter, double> predictOnSimulator(const Params& p, Message& note);

// How to let ncu read the counters, in one sentence (ERR_NVGPUCTRPERM).
Message counterPermissionSentence();

struct ProfileOptions {
  std::string ncu, rlab;              // empty: find them (findCudaTool, findRlabExecutable)
  std::string clockControl = "none";  // leave the clocks as they are, unless asked
  bool predict = true;                // run the simulator for its predictions
  std::function<bool()> keepGoing;    // false cancels: ncu and the run are killed
  // Called as ncu starts profiling each launch, with how many it has begun.
  std::function<void(int launches)> onLaunch;
};

// Runs the setting under ncu and reads what it counted. Throws GpuUnavailable in one sentence
// without ncu, without rlab, or without a GPU (when no ncu or rlab was named), ParamError for a
// lesson across GPUs, std::runtime_error when ncu cannot be started. A profile that ncu could
// not make (no permission, the run failed, cancelled) comes back with `runError` set.
ProfileReport runProfile(const Params& params, const ProfileOptions& options = {});

}  // namespace rlab
