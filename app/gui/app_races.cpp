// The App's race explorer work: the live race rate beside each run that may race, and the
// explorer's runs, witness, charts and racecheck on the worker, their results into its tabs.
#include "app/gui/app.hpp"
#include "lessons/engine/gpu_tools/sanitizer.hpp"
#include "lessons/engine/races/distribution.hpp"
#include "lessons/engine/races/race.hpp"
#include "lessons/engine/races/witness.hpp"

namespace rlab::gui {

void App::followLiveRaceRate() {
  const std::shared_ptr<const Trace> run = ui.trace;
  const bool wanted = run && run->exercise.empty() && run->singleAnswer && runMayRace(run->params);
  if (!wanted || liveRateFor_ == run) {  // once per run: measured, under way, or it failed
    if (!wanted && liveRate_.busy()) liveRate_.cancel();
    return;
  }
  if (liveRate_.busy()) {  // for a run no longer on screen
    liveRate_.cancel();
    return;
  }
  liveRateFor_ = run;
  liveRate_.start("race rate", [run](JobThread::Job& job) -> JobThread::Apply {
    // On a GPU the same setting again and again; on the simulator, where one schedule always
    // gives one result, a different random schedule each run.
    Params params = run->params;
    params.backend = run->backend;
    const RaceResult race = runRace(
        params, kLiveRaceRuns, 0,
        [&job](int done) {
          job.progress = float(done) / float(kLiveRaceRuns);
          return !job.cancel.load();
        },
        run->backend == BackendChoice::Gpu ? RaceSchedules::AsGiven : RaceSchedules::Vary);
    if (race.runs < kLiveRaceRuns) return [](UiState&) {};  // cancelled: a newer run wants it
    return [run, race](UiState& ui) {
      ui.liveRate =
          LiveRaceRate{run, race.runs, race.wrong, race.device, race.backend == BackendChoice::Gpu};
    };
  });
}

void App::startRace() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;
  const int runs = ui.raceRuns;
  longWork_.start("race", [params, runs](JobThread::Job& job) -> JobThread::Apply {
    // The schedule control's lockstep (its default) means "vary it"; any other schedule the
    // learner picked is repeated, and the explorer says which it did.
    const RaceSchedules schedules =
        params.schedule == "lockstep" ? RaceSchedules::Vary : RaceSchedules::AsGiven;
    RaceResult race = runRace(
        params, runs, 10,
        [&](int done) {
          job.progress = float(done) / float(runs);
          return !job.cancel.load();
        },
        schedules);
    OffsetHistogram bins = binRace(race, 30);
    return [race = std::move(race), bins = std::move(bins)](UiState& ui) {
      ui.race.result = race;
      ui.race.bins = bins;
      ui.race.racecheck.reset();
      ui.requestRaceTab = RaceTab::Results;
    };
  });
}

void App::startWitness() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;
  WitnessOptions options;
  options.searchRuns = ui.raceRuns;
  // On the GPU the witness is then forced there, as many runs with the pause as without.
  if (params.backend == BackendChoice::Gpu && ui.gpuUsable) options.gpuRuns = ui.raceRuns;
  longWork_.start("witness", [this, params, options](JobThread::Job& job) -> JobThread::Apply {
    Witness w = findWitness(params, options, [&](int, float fraction) {
      job.progress = fraction;
      return !job.cancel.load();
    });
    return [this, w = std::move(w)](UiState& ui) {
      ui.race.witness = w;
      ui.requestRaceTab = RaceTab::Witness;
      showWitness();
    };
  });
}

void App::showWitness() {
  if (!ui.race.witness || !ui.race.witness->found || !ui.race.witness->trace) return;
  const Witness& w = *ui.race.witness;
  adoptRun(w.trace, w.readFound ? w.read.step : -1);
}

bool App::witnessOnScreen() const {
  return ui.race.witness && ui.race.witness->trace && ui.trace == ui.race.witness->trace;
}

// One of the race explorer's charts: `measure(params, runs, progress)` on the worker over the
// run on screen, its result kept in `slot` and its tab brought to the front.
template <class Result>
void App::startChart(const char* label, RaceTab tab, std::optional<Result> RaceOutcome::*slot,
                     Result (*measure)(const Params&, int, const std::function<bool(float)>&)) {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;
  const int runs = ui.raceRuns;
  longWork_.start(label, [=](JobThread::Job& job) -> JobThread::Apply {
    Result result = measure(params, runs, [&](float fraction) {
      job.progress = fraction;
      return !job.cancel.load();
    });
    return [=, result = std::move(result)](UiState& ui) {
      ui.race.*slot = result;
      ui.requestRaceTab = tab;
    };
  });
}

void App::startRateByBlock() {
  startChart("by block", RaceTab::ByBlock, &RaceOutcome::byBlock, wrongShareByBlock);
}

void App::startFloatSums() {
  startChart("float sums", RaceTab::FloatSums, &RaceOutcome::floatSums, floatSumSpread);
}

void App::startRacecheck() {
  validate();
  if (!ui.paramError.empty() || longWork_.busy()) return;
  const Params params = ui.params;  // the run on screen: every control, --values included
  // No sanitizer or no rlab throws GpuUnavailable: the worker shows its sentence.
  longWork_.start("racecheck", [params](JobThread::Job&) -> JobThread::Apply {
    SanitizerReport report = runSanitizer(params, SanitizerTool::Racecheck);
    return [report = std::move(report)](UiState& ui) { ui.race.racecheck = report; };
  });
}

}  // namespace rlab::gui
