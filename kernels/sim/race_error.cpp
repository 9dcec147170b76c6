// The sentence of a launch's race: the LaunchError for its first race, or else its first read of
// unwritten shared memory, naming the element, the threads and the kernel's lines as the launch's
// options name them (the detector that finds them: race_detector.cpp).

#include "kernels/sim/detail/race_detector.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace rlab::sim {

namespace detail {

namespace {

std::string hex(uintptr_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", (unsigned long long)value);
  return text;
}

std::string elementName(const LaunchOptions& options, uintptr_t address, bool shared,
                        const std::string& variable, size_t offset, unsigned bytes) {
  if (shared && !variable.empty())
    return variable + "[" + std::to_string(offset / std::max(bytes, 1u)) + "]";
  if (options.nameAddress) {
    const std::string name = options.nameAddress(address);
    if (!name.empty()) return name;
  }
  return hex(address);  // no buffer of the caller's: its address, the same in every language
}

std::string siteName(const LaunchOptions& options, uintptr_t instruction) {
  if (options.nameInstruction) {
    const std::string name = options.nameInstruction(instruction);
    if (!name.empty()) return name;
  }
  return hex(instruction);
}

const char* verb(bool write) {
  return write ? "wrote" : "read";
}

}  // namespace

}  // namespace detail

namespace {

LaunchError raceSentence(const Race& r, const LaunchOptions& options, bool severalBlocks) {
  using namespace detail;
  const RaceAccess &a = r.earlier, &b = r.later;
  const std::string element =
      elementName(options, r.address, r.shared, r.variable, r.offset, a.bytes);
  const std::string firstSite = siteName(options, a.instruction),
                    secondSite = siteName(options, b.instruction);
  std::vector<std::pair<std::string, std::string>> args = {{"element", element},
                                                           {"first", std::to_string(a.thread)},
                                                           {"firstWrites", a.write ? "1" : "2"},
                                                           {"firstSite", firstSite},
                                                           {"second", std::to_string(b.thread)},
                                                           {"secondWrites", b.write ? "1" : "2"},
                                                           {"secondSite", secondSite}};
  std::string english = "kernel raced on " + element;
  std::string id;
  if (a.block != b.block && r.shared) {  // a block's shared memory, reached by its cluster
    id = "sim.race-in-cluster";
    args.emplace_back("owner", std::to_string(r.owner));
    args.emplace_back("firstBlock", std::to_string(a.block));
    args.emplace_back("secondBlock", std::to_string(b.block));
    english += " of block " + std::to_string(r.owner) + ": thread " + std::to_string(a.thread) +
               " of block " + std::to_string(a.block) + " " + verb(a.write) + " it at " +
               firstSite + ", then thread " + std::to_string(b.thread) + " of block " +
               std::to_string(b.block) + " " + verb(b.write) + " it at " + secondSite +
               ", with no cluster.sync() between them; CUDA does not order two blocks of a "
               "cluster without one, so on a GPU either may come first.";
  } else if (a.block != b.block) {
    id = "sim.race-across-blocks";
    args.emplace_back("firstBlock", std::to_string(a.block));
    args.emplace_back("secondBlock", std::to_string(b.block));
    english += ": thread " + std::to_string(a.thread) + " of block " + std::to_string(a.block) +
               " " + verb(a.write) + " it at " + firstSite + ", then thread " +
               std::to_string(b.thread) + " of block " + std::to_string(b.block) + " " +
               verb(b.write) + " it at " + secondSite +
               "; nothing orders two blocks of one launch but atomics (and a __threadfence() "
               "before the atomic that tells the other block the data is there), so on a GPU "
               "either may come first.";
  } else {
    const bool warp = a.thread / 32 == b.thread / 32;
    id = warp ? (severalBlocks ? "sim.race-in-warp-in-block" : "sim.race-in-warp")
              : (severalBlocks ? "sim.race-in-block" : "sim.race");
    if (severalBlocks) {
      args.emplace_back("block", std::to_string(a.block));
      english += " in block " + std::to_string(a.block);
    }
    english += ": thread " + std::to_string(a.thread) + " " + verb(a.write) + " it at " +
               firstSite + ", then thread " + std::to_string(b.thread) +
               (warp ? " of the same warp " : " ") + verb(b.write) + " it at " + secondSite +
               (warp ? ", with no __syncwarp() or __syncthreads() between them; CUDA does not "
                       "keep a warp's lanes in step, so on a GPU either may come first."
                     : ", with no __syncthreads() between them; CUDA does not order the two, "
                       "so on a GPU either may come first.");
  }
  return LaunchError(english, {id, std::move(args), {}});
}

LaunchError unwrittenSentence(const UninitialisedRead& u, const LaunchOptions& options,
                              bool severalBlocks) {
  using namespace detail;
  const std::string element =
      elementName(options, u.address, true, u.variable, u.offset, u.read.bytes);
  const std::string site = siteName(options, u.read.instruction);
  std::vector<std::pair<std::string, std::string>> args = {
      {"element", element}, {"site", site}, {"thread", std::to_string(u.read.thread)}};
  std::string who = "thread " + std::to_string(u.read.thread);
  if (u.owner != u.read.block) {  // a neighbour's in the cluster, through map_shared_rank
    args.emplace_back("block", std::to_string(u.read.block));
    args.emplace_back("owner", std::to_string(u.owner));
    const std::string owner = "block " + std::to_string(u.owner);
    return LaunchError("kernel read " + element + " of " + owner + " at " + site + " (" + who +
                           " of block " + std::to_string(u.read.block) + ") before any thread of " +
                           owner +
                           " wrote it; on a GPU it holds whatever the block before left there.",
                       {"sim.uninitialised-in-cluster", std::move(args), {}});
  }
  const char* id = severalBlocks ? "sim.uninitialised-shared-in-block" : "sim.uninitialised-shared";
  if (severalBlocks) {
    args.emplace_back("block", std::to_string(u.read.block));
    who += " of block " + std::to_string(u.read.block);
  }
  return LaunchError("kernel read " + element + " at " + site + " (" + who +
                         ") before any thread of its block wrote it; on a GPU it holds whatever "
                         "the block before left there.",
                     {id, std::move(args), {}});
}

}  // namespace

LaunchError raceError(const LaunchStats& stats, const LaunchOptions& options, bool severalBlocks) {
  if (!stats.races.empty()) return raceSentence(stats.races.front(), options, severalBlocks);
  return unwrittenSentence(stats.uninitialisedReads.front(), options, severalBlocks);
}

namespace detail {
void failOnRace(const LaunchStats& stats, const LaunchOptions& options, bool severalBlocks) {
  throw raceError(stats, options, severalBlocks);
}
}  // namespace detail

}  // namespace rlab::sim
