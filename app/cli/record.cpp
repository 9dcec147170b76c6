// rlab record: this machine's GPU measured once (the bench, every lesson's profile, the race
// rates) into assets/recordings/<card>.json, merged with what an earlier run recorded there.
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/gpu_tools/recording.hpp"

namespace rlab::cli {

namespace {

// The command line as the file keeps it.
std::string commandLine(const Command& c) {
  std::string line = "rlab record";
  if (!c.recordParts.empty()) {
    line += " --only ";
    for (size_t k = 0; k < c.recordParts.size(); ++k)
      line += (k ? "," : "") + std::string(name(c.recordParts[k]));
  }
  if (!c.benchSizes.empty()) {
    line += " --sizes ";
    for (size_t k = 0; k < c.benchSizes.size(); ++k)
      line += (k ? "," : "") + std::to_string(c.benchSizes[k]);
  }
  line += " --reps " + std::to_string(c.reps) + " --runs " + std::to_string(c.runs);
  return line;
}

}  // namespace

int recordCommand(const Command& c, std::ostream& out, std::ostream& err, bool) {
  const GpuProbe gpu = probeGpu();
  if (!gpu.usable) throw GpuUnavailable(Message("record.no-gpu", {{"why", gpu.why}}));
  namespace fs = std::filesystem;
  const fs::path file = fs::path(c.recordFolder) / recordingFileName(gpu.name);
  std::error_code made;
  fs::create_directories(c.recordFolder, made);
  if (made)
    throw std::runtime_error("could not make the folder " + c.recordFolder + ": " + made.message() +
                             ".");
  RecordingJson recording = RecordingJson::object();
  if (fs::exists(file)) {  // an earlier recording of this card: its other parts stay
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const Recording earlier = readRecording(file.string(), text.str());
    if (earlier.problem.empty()) recording = earlier.data;
  }
  RecordRequest request;
  if (!c.recordParts.empty()) request.parts = c.recordParts;
  request.sizes = c.benchSizes;
  request.reps = c.reps;
  request.raceRuns = c.runs;
  request.command = commandLine(c);
  recordOnGpu(
      request,
      [&err](const std::string& doing) {
        err << "record: " << doing << std::string(20, ' ') << "\r" << std::flush;
        return true;
      },
      recording);
  err << std::string(80, ' ') << "\r" << std::flush;
  const fs::path written = fs::path(file.string() + ".tmp");
  {
    std::ofstream to(written);
    to << recording.dump(1) << "\n";
    if (!to) throw std::runtime_error("could not write " + written.string() + ".");
  }
  fs::rename(written, file);
  printRecordText(recording, file.string(), out);
  return 0;
}

}  // namespace rlab::cli
