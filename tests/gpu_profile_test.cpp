// rlab profile on the CUDA device: Nsight Compute's counters for the divergence, shared and
// memory-view lessons, and the simulator's bank-conflict and sector counts against them, which
// must be equal for the lessons' access patterns. Part of rlab_gpu_tests (skipped without a
// device); without ncu each case says so and checks nothing.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/system/process.hpp"
#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"

using namespace rlab;

namespace {

// ncu and the rlab built beside these tests (build-device/tests -> build-device/app/cli/rlab);
// RLAB_EXECUTABLE, where set, names another.
bool profilerHere(ProfileOptions& options) {
  options.ncu = findCudaTool("ncu");
  if (options.ncu.empty()) {
    MESSAGE("no ncu beside nvcc, in /usr/local/cuda/bin or on PATH: nothing profiled");
    return false;
  }
  const char* chosen = std::getenv("RLAB_EXECUTABLE");
  options.rlab = chosen && *chosen ? chosen : folderOf(runningExecutable()) + "/../app/cli/rlab";
  REQUIRE_MESSAGE(isExecutableFile(options.rlab), "no rlab at " << options.rlab);
  return true;
}

ProfileReport profiled(const std::string& lesson, const std::string& variant, int64_t n,
                       int block = 0) {
  ProfileOptions options;
  if (!profilerHere(options)) return {};
  Params p;
  p.lesson = lesson;
  p.variant = variant;
  p.n = n;
  p.block = block;
  ProfileReport r = runProfile(p, options);
  REQUIRE_MESSAGE(r.runError.empty(), lesson << " " << variant << ": " << english(r.runError));
  CHECK(r.correct);
  for (const std::string& metric : r.unknownMetrics) MESSAGE("ncu lacks " << metric);
  return r;
}

double measured(const ProfileReport& r, Counter c) {
  const auto found = r.total.counters.find(c);
  REQUIRE_MESSAGE(found != r.total.counters.end(), "ncu gave no " << info(c).key);
  return found->second;
}

double predicted(const ProfileReport& r, Counter c) {
  const auto found = r.predicted.find(c);
  REQUIRE_MESSAGE(found != r.predicted.end(),
                  "no prediction of " << info(c).key << ": " << english(r.predictionNote));
  return found->second;
}

}  // namespace

TEST_CASE("gpu profile: divergence, interleaved's warps and branches against sequential's") {
  const int64_t n = int64_t(1) << 20;
  const ProfileReport interleaved = profiled("divergence", "interleaved", n);
  if (interleaved.total.launches == 0) return;  // no ncu
  const ProfileReport sequential = profiled("divergence", "sequential", n);
  const double warpI = measured(interleaved, Counter::WarpEfficiencyPct),
               warpS = measured(sequential, Counter::WarpEfficiencyPct),
               branchI = measured(interleaved, Counter::BranchEfficiencyPct),
               branchS = measured(sequential, Counter::BranchEfficiencyPct);
  CHECK(warpI < warpS);
  CHECK(branchI <= branchS);
  std::printf(
      "divergence, n = 2^20 on %s: warp execution efficiency interleaved %.1f%%, "
      "sequential %.1f%%; branch efficiency %.1f%%, %.1f%%; duration %.1f us, %.1f us\n",
      interleaved.device.c_str(), warpI, warpS, branchI, branchS,
      measured(interleaved, Counter::DurationUs), measured(sequential, Counter::DurationUs));
}

TEST_CASE("gpu profile: bank conflicts counted by the GPU equal the simulator's") {
  struct Case {
    const char *lesson, *variant;
    int64_t n;
    int block;
  };
  for (const Case& c :
       {Case{"divergence", "interleaved", 64, 64},
        Case{"divergence", "interleaved-mask", 1024, 256}, Case{"divergence", "strided", 64, 64},
        Case{"divergence", "strided", 4096, 256}, Case{"divergence", "sequential", 4096, 256},
        Case{"shared", "shared", 1000, 0}, Case{"shared", "multiblock", 1000, 0},
        Case{"barrier", "shared", 256, 0}}) {
    CAPTURE(std::string(c.lesson) + " " + c.variant + ", n = " + std::to_string(c.n));
    const ProfileReport r = profiled(c.lesson, c.variant, c.n, c.block);
    if (r.total.launches == 0) return;
    const double gpu = measured(r, Counter::SharedBankConflicts),
                 sim = predicted(r, Counter::SharedBankConflicts);
    CHECK(gpu == sim);
    std::printf(
        "%s %s, n = %lld: bank conflicts %g on the GPU, %g predicted; %.2f wavefronts a "
        "request\n",
        c.lesson, c.variant, static_cast<long long>(c.n), gpu, sim,
        measured(r, Counter::SharedWavefrontsPerRequest));
  }
}

TEST_CASE("gpu profile: global sectors and requests equal the simulator's (the memory view)") {
  struct Case {
    const char *lesson, *variant;
    int64_t n;
  };
  for (const Case& c : {Case{"folding", "default", 9}, Case{"folding", "default", 1000},
                        Case{"folding", "double-buffer", 1000}, Case{"barrier", "global", 8},
                        Case{"barrier", "global", 64}, Case{"barrier", "global", 1024},
                        Case{"shared", "global", 1000}}) {
    CAPTURE(std::string(c.lesson) + " " + c.variant + ", n = " + std::to_string(c.n));
    const ProfileReport r = profiled(c.lesson, c.variant, c.n);
    if (r.total.launches == 0) return;
    for (Counter counter :
         {Counter::GlobalLoadRequests, Counter::GlobalStoreRequests,
          Counter::GlobalLoadSectorsPerRequest, Counter::GlobalStoreSectorsPerRequest}) {
      CAPTURE(info(counter).key);
      CHECK(measured(r, counter) == doctest::Approx(predicted(r, counter)));
    }
    std::printf("%s %s, n = %lld: loads %g sectors a request (predicted %g), stores %g (%g)\n",
                c.lesson, c.variant, static_cast<long long>(c.n),
                measured(r, Counter::GlobalLoadSectorsPerRequest),
                predicted(r, Counter::GlobalLoadSectorsPerRequest),
                measured(r, Counter::GlobalStoreSectorsPerRequest),
                predicted(r, Counter::GlobalStoreSectorsPerRequest));
  }
}

TEST_CASE("gpu profile: the fastest kernel's DRAM read bandwidth at 2^24, % of the card's peak") {
  const ProfileReport r = profiled("fastest", "default", int64_t(1) << 24);
  if (r.total.launches == 0) return;
  const double read = measured(r, Counter::DramReadPct);
  CHECK(read > 0);
  CHECK(read <= 100.5);
  std::printf(
      "fastest, n = 2^24 on %s: %.1f us, DRAM read %.1f%% of peak, %.0f GB/s, occupancy "
      "%.1f%%\n",
      r.device.c_str(), measured(r, Counter::DurationUs), read, measured(r, Counter::DramGBs),
      measured(r, Counter::OccupancyPct));
}
