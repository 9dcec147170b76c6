// What the simulator predicts of a profile's counters, from its own run of the same setting:
// the bank conflicts of a tree in shared memory (from the words each warp's combines read and
// wrote, as the lesson view's bank picture counts them) and the sectors and requests of global
// loads and stores (from the addresses the simulator saw each lane touch, as the memory view
// counts them). What the GPU counts for the same run stands beside it.
#include <algorithm>
#include <map>
#include <set>

#include "lessons/engine/gpu_tools/profile.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/run/run.hpp"

namespace rlab {

namespace {

constexpr int kBanks = 32;  // of 4 bytes each: every lesson's elements are 4 bytes wide

// The passes one warp's request over these shared words needs: the most distinct words any
// bank holds among them (lanes reading one word share it).
int wavefronts(const std::vector<long long>& words) {
  std::map<long long, std::set<long long>> byBank;
  size_t most = 0;
  for (long long w : words) {
    auto& inBank = byBank[w % kBanks];
    inBank.insert(w);
    most = std::max(most, inBank.size());
  }
  return int(most);
}

// A tree in shared memory: each combine loads its target's word and its source's word and
// stores its target's; a warp's lanes do each of the three together.
double sharedBankConflicts(const Trace& t) {
  const long long block = t.params.block;
  double extra = 0;
  for (size_t s = 1; s < t.steps.size(); ++s) {
    const StepSnapshot& step = t.steps[s];
    std::map<std::pair<long long, long long>, std::pair<std::vector<long long>,
                                                        std::vector<long long>>>
        warps;  // (block, warp) -> the target words, the source words
    for (size_t k = 0; k < step.active.size() && k < step.pairs.size(); ++k) {
      const long long thread = step.active[k];
      auto& words = warps[{thread / block, thread % block / 32}];
      words.first.push_back(step.pairs[k].second % block);
      words.second.push_back(step.pairs[k].first % block);
    }
    for (const auto& [warp, words] : warps)
      extra += 2.0 * (wavefronts(words.first) - 1) + (wavefronts(words.second) - 1);
  }
  return extra;
}

}  // namespace

std::map<Counter, double> simulatorPredictions(const Trace& t, Message& note) {
  std::map<Counter, double> predicted;
  const VariantInfo* variant = variantOf(t.params);
  if (!variant) {
    note = Message("predict.no-variant");
    return predicted;
  }
  const LessonInfo* lesson = findLesson(t.params.lesson);
  if (variant->sharedTree) {
    if (!t.traced) {
      note = Message("predict.banks-from-steps", {{"n", lesson->traceLimit}});
      return predicted;
    }
    predicted[Counter::SharedBankConflicts] = sharedBankConflicts(t);
  }
  if (variant->globalMemorySteps) {
    if (!t.memoryRecorded) {
      note = Message("predict.sectors-on-linux",
                     {{"n", std::min(kMemoryTraceLimit, lesson->traceLimit)}});
      return predicted;
    }
    double loads = 0, loadSectors = 0, stores = 0, storeSectors = 0;
    for (const StepSnapshot& s : t.steps)
      for (const auto* list : {&s.memory, &s.memoryAfter})
        for (const WarpMemoryRequest& r : *list) {
          (r.write ? stores : loads) += 1;
          (r.write ? storeSectors : loadSectors) += r.sectors;
        }
    predicted[Counter::GlobalLoadRequests] = loads;
    predicted[Counter::GlobalStoreRequests] = stores;
    if (loads > 0) predicted[Counter::GlobalLoadSectorsPerRequest] = loadSectors / loads;
    if (stores > 0) predicted[Counter::GlobalStoreSectorsPerRequest] = storeSectors / stores;
  }
  if (predicted.empty()) {
    note = Message("predict.nothing");
    return predicted;
  }
  note = Message(variant->sharedTree ? "predict.banks" : "predict.sectors");
  return predicted;
}

std::map<Counter, double> predictOnSimulator(const Params& p, Message& note) {
  const LessonInfo& lesson = lessonOrThrow(p.lesson);
  const Resolved resolved = resolve(p);
  const VariantInfo& variant = *lesson.findVariant(resolved.params.variant);
  Params simulated = resolved.params;
  simulated.backend = BackendChoice::Sim;
  simulated.schedule = Params().schedule;
  simulated.trace = true;
  simulated.timed = false;
  simulated.memory = variant.globalMemorySteps;
  if ((variant.sharedTree || variant.globalMemorySteps) && simulated.n > lesson.traceLimit) {
    note = Message("predict.counters-from-steps", {{"n", lesson.traceLimit}});
    return {};
  }
  if (variant.globalMemorySteps && simulated.n > kMemoryTraceLimit) {
    note = Message("predict.sectors-up-to", {{"n", kMemoryTraceLimit}});
    return {};
  }
  if (!variant.sharedTree && !variant.globalMemorySteps) {
    Trace nothingToPredict;
    nothingToPredict.params = simulated;
    return simulatorPredictions(nothingToPredict, note);
  }
  return simulatorPredictions(runLessonOnce(simulated), note);
}

}  // namespace rlab
