// The witness described: the read that came too early, the kernel lines of its combine and of
// the barrier that would have held it, the replay line, and the pause that forces the same
// failure on the simulator and on a GPU.

#include "lessons/engine/races/witness_search.hpp"

#include <sstream>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/embedded.hpp"
#include "lessons/engine/texts/kernel_body.hpp"

namespace rlab::witness_search {

bool firstEarlyRead(const Trace& t, EarlyRead& out) {
  for (size_t k = 1; k < t.steps.size(); ++k)
    for (const CombineRead& c : t.steps[k].combines)
      for (const ValueRead* r : {&c.source, &c.target}) {
        if (!r->stale) continue;
        out.step = int(k);
        out.stepLabel = t.steps[k].label;
        out.reader = c.thread;
        out.element = r->element;
        out.target = c.target.element;
        out.value = r->value;
        out.valueStep = r->writtenAt;
        out.missed = r->missed;
        out.missedWriter = r->missedWriter;
        out.missedStep = r->missedStep;
        out.afterOverwrite = r->overwrittenBy >= 0;
        out.line = c.line;
        out.text = staleReadText(c, *r, t.params.type, t.steps[k].array);
        return true;
      }
  return false;
}

namespace {

// The combine that read too early (the line the kernel recorded) and the switchable barrier of
// the variant's kernel, as embedded. Where the lanes of a warp meet without a barrier, the
// __syncwarp() the read needed (switchableSyncwarp; the kernels share the last warp's code): a
// read too early needed the one after the writes, the first after the combine; a read too late
// (after an overwrite) the one between the reads and the writes, the last before it.
void findKernelLines(const Params& p, Witness& w) {
  const LessonInfo& lesson = lessonOrThrow(p.lesson);
  const VariantInfo* variant = lesson.findVariant(p.variant);
  const std::string* source = embeddedFile(lesson.kernelFile);
  if (!variant || !source) return;
  w.barrierOn = variant->warpSynchronous ? variant->syncwarpSwitch && p.syncwarp : p.barrier;
  std::istringstream lines(*source);
  KernelBody kernel(variant->kernelFunction);
  int number = 0;
  KernelLine warpBefore, warpAfter;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const size_t first = line.find_first_not_of(' ');
    const std::string text = first == std::string::npos ? "" : line.substr(first);
    if (w.readFound && number == w.read.line) w.combineLine = {lesson.kernelFile, number, text};
    if (variant->warpSynchronous && text.rfind("switchableSyncwarp(", 0) == 0) {
      if (!w.combineLine.line) warpBefore = {lesson.kernelFile, number, text};
      if (w.combineLine.line && !warpAfter.line) warpAfter = {lesson.kernelFile, number, text};
    }
    if (!kernel.take(line)) continue;
    if (!w.barrierLine.line && line.find("switchableBarrier(") != std::string::npos)
      w.barrierLine = {lesson.kernelFile, number, text};
  }
  if (variant->warpSynchronous)
    w.barrierLine = w.read.afterOverwrite || !warpAfter.line ? warpBefore : warpAfter;
}

void forceOnGpu(const Params& asked, Witness& w, int runs, Runner& run) {
  GpuForcing& g = w.gpu;
  g.runs = runs;
  if (w.delayed.delayThread < 0) {
    g.why = Message("witness.nothing-to-force");
    return;
  }
  if (asked.backend == BackendChoice::Auto) {
    const GpuProbe probe = probeGpu();
    if (!probe.usable) {
      g.why = probe.why;
      return;
    }
  }
  Params delayed = w.delayed, plain = asked;
  delayed.backend = plain.backend = BackendChoice::Gpu;
  plain.delayThread = -1;
  try {
    int done = 0;
    auto tick = [&](int) {
      run.tick(float(++done) / float(2 * runs));
      return true;
    };
    const RaceResult with = runRace(delayed, runs, 0, tick);
    const RaceResult without = runRace(plain, runs, 0, tick);
    g.ran = true;
    g.device = with.device;
    g.wrongDelayed = with.wrong;
    g.wrongPlain = without.wrong;
  } catch (const GpuUnavailable& e) {
    g.why = e.message();
  }
}

}  // namespace

void describe(const Params& asked, const Params& base, const WitnessOptions& options, Runner& run,
              Witness& w) {
  w.trace = run.traced(w.stall.str(), 0.5f);
  w.readFound = firstEarlyRead(*w.trace, w.read);
  findKernelLines(base, w);
  Params replay = base;
  replay.schedule = w.stall.str();
  w.replay = rlabLine("run", replay);

  // The pause that forces the same read on hardware: the thread whose write was missed, before
  // the level it wrote in. The barrier and lastwarp lessons have such a pause (--delay).
  w.delayed = base;
  w.delayed.schedule = "lockstep";
  w.delayed.delayThread = -1;
  const VariantInfo* variant = lessonOrThrow(base.lesson).findVariant(base.variant);
  if (w.readFound && w.read.missedWriter >= 0 && w.read.missedStep >= 1 && variant &&
      variant->delays) {
    w.delayed.delayThread = w.read.missedWriter;
    w.delayed.delayLevel = w.read.missedStep;
    try {
      resolve(w.delayed);
      const auto t = run.traced(w.delayed, 0.9f);
      w.delayWrongOnSimulator = !t->correct;
      w.delayResultOnSimulator = t->result;
      Params onGpu = w.delayed;
      onGpu.backend = BackendChoice::Gpu;
      w.delayCommand = rlabLine("race", onGpu);
    } catch (const ParamError&) {
      w.delayed.delayThread = -1;
    }
  }
  if (options.gpuRuns > 0 && asked.backend != BackendChoice::Sim) {
    run.phase(0.8f, 1.f);
    forceOnGpu(asked, w, options.gpuRuns, run);
  }
}

}  // namespace rlab::witness_search
