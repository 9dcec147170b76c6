// [SECTION] Reading compute-sanitizer's output
// [SECTION] Finding the programs
// [SECTION] Running them

#include "lessons/engine/gpu_tools/sanitizer.hpp"

#include <charconv>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "lessons/engine/backends/backends.hpp"
#include "lessons/engine/system/installation.hpp"
#include "lessons/engine/system/process.hpp"
#include "lessons/engine/registry.hpp"

// Set by app/cli/CMakeLists.txt, which builds rlab: the CUDA toolkit's bin folder of this build
// (empty without CUDA) and where rlab itself lands.
#ifndef RLAB_CUDA_BIN_DIR
#define RLAB_CUDA_BIN_DIR ""
#endif

namespace rlab {

const char* name(SanitizerTool tool) {
  switch (tool) {
    case SanitizerTool::Racecheck:
      return "racecheck";
    case SanitizerTool::Memcheck:
      return "memcheck";
    case SanitizerTool::Synccheck:
      return "synccheck";
    case SanitizerTool::Initcheck:
      return "initcheck";
  }
  return "racecheck";
}

SanitizerTool parseSanitizerTool(const std::string& text) {
  for (SanitizerTool tool : {SanitizerTool::Racecheck, SanitizerTool::Memcheck,
                             SanitizerTool::Synccheck, SanitizerTool::Initcheck})
    if (text == name(tool)) return tool;
  throw ParamError(Message("sanitizer.bad-tool", {{"tool", text}}));
}

// ============================================================================================
// [SECTION] Reading compute-sanitizer's output
// ============================================================================================
//
// Every line of the sanitizer starts with "=========". A report opens with a line indented by
// one space and goes on with deeper-indented lines, up to "=========" alone (and a space) or the
// next report. As compute-sanitizer 2025.3 prints them:
//
//   ========= Error: Race reported between Read access at void treeShared<int, SumOp>(T1 *, int,
//   bool, bool, StepRecorder<T1>)+0x470 in barrier.cuh:38
//   =========     and Write access at void treeShared<int, SumOp>(T1 *, int, bool, bool,
//   StepRecorder<T1>)+0x4c0 in barrier.cuh:39 [520 hazards]
//   ========= Invalid __global__ read of size 4 bytes
//   =========     at oob(const int *, int *)+0x60 in f.cu:3
//   =========     by thread (0,0,0) in block (0,0,0)
//
// Lines without the prefix are the checked program's own output.

namespace {

constexpr const char kPrefix[] = "=========";
constexpr size_t kPrefixLength = sizeof kPrefix - 1;

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::string collapsedSpaces(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  return trimmed(out);
}

// Top-level lines about the process rather than a kernel: notes, not hazards.
bool aboutTheProcess(const std::string& text) {
  for (const char* known : {"process didn't terminate successfully", "Target application",
                            "No attachable process", "Process ID"})
    if (text.find(known) != std::string::npos) return true;
  return false;
}

// Lines of a report that come after its description: where, which thread, the host stack.
bool detailLine(const std::string& text) {
  for (const char* known : {"by thread", "Address ", "Access ", "and is ", "Saved host backtrace",
                            "Host Frame", "Device Frame", "Current Value"})
    if (text.starts_with(known)) return true;
  return false;
}

// "[Write access |Write Thread (3,0,0) ]at KERNEL+0xOFFSET[ in FILE:LINE]"; KERNEL never holds
// " at ".
const std::regex& siteExpression() {
  static const std::regex site(
      R"(((?:Read|Write|Atomic) (?:access|Thread \([0-9, ]+\)) )?at ((?:(?! at ).)+?)\+0x[0-9a-fA-F]+(?: in ([^\s\[\]]+):([0-9]+))?)");
  return site;
}

void describe(SanitizerHazard& h) {
  std::string first = h.lines.front();
  for (const char* severity : {"Error", "Warning", "ERROR", "WARN"}) {
    const std::string tag = std::string(severity) + ": ";
    if (first.starts_with(tag)) {
      h.severity = severity[0] == 'E' ? "Error" : "Warning";
      first = first.substr(tag.size());
      break;
    }
  }
  // The description: the first line and its continuations up to the first detail line.
  std::string description = first;
  bool details = false;
  for (size_t k = 1; k < h.lines.size(); ++k) {
    const std::string text = trimmed(h.lines[k]);
    details = details || detailLine(text);
    if (details) {
      if (text.starts_with("by thread") && h.thread.empty()) h.thread = text.substr(3);
      continue;
    }
    description += " " + text;
  }
  const std::regex& site = siteExpression();
  for (std::sregex_iterator it(description.begin(), description.end(), site), end; it != end;
       ++it) {
    const std::smatch& m = *it;
    SanitizerSite s;
    s.access = trimmed(m[1].str());
    s.kernel = m[2].str();
    s.file = m[3].str();
    s.line = m[4].matched ? std::atoi(m[4].str().c_str()) : 0;
    h.sites.push_back(s);
  }
  static const std::regex hazards(R"(\[([0-9]+) hazards?\])");
  for (std::sregex_iterator it(description.begin(), description.end(), hazards), end; it != end;
       ++it)
    h.count += std::atoi((*it)[1].str().c_str());
  // The kind is the description without its places: "Race reported between Write access and
  // Read access".
  h.kind =
      collapsedSpaces(std::regex_replace(std::regex_replace(description, site, "$1"), hazards, ""));
  if (!h.sites.empty()) {
    h.kernel = h.sites.front().kernel;
    h.file = h.sites.front().file;
    h.line = h.sites.front().line;
  }
}

void addNote(std::vector<Message>& notes, const Message& note) {
  for (const auto& existing : notes)
    if (existing == note) return;
  notes.push_back(note);
}

}  // namespace

SanitizerReport parseSanitizerOutput(SanitizerTool tool, const std::string& output, int exitCode) {
  SanitizerReport r;
  r.tool = tool;
  r.exitCode = exitCode;
  bool open = false;  // the last hazard still takes continuation lines
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.starts_with(kPrefix)) {
      if (line.starts_with("rlab: ") && r.runError.empty()) r.runError = verbatim(line.substr(6));
      continue;
    }
    const std::string rest = line.substr(kPrefixLength);
    const std::string text = trimmed(rest);
    if (text.empty()) {
      open = false;
      continue;
    }
    const bool continuation = rest.size() > 1 && rest[0] == ' ' && rest[1] == ' ';
    if (continuation) {
      if (open) r.hazards.back().lines.push_back(rest.substr(1));
      continue;
    }
    open = false;
    if (text == "COMPUTE-SANITIZER") continue;
    if (text.find("SUMMARY:") != std::string::npos) {
      if (r.summary.empty())
        r.summary = text;
      else
        addNote(r.notes, verbatim(text));
    } else if (aboutTheProcess(text)) {
      if (!text.starts_with("Process ID")) addNote(r.notes, verbatim(text));
    } else {
      r.hazards.emplace_back();
      r.hazards.back().lines.push_back(text);
      open = true;
    }
  }
  for (SanitizerHazard& h : r.hazards) describe(h);

  if (exitCode != 0 && exitCode != kSanitizerErrorExit && r.runError.empty())
    r.runError = exitCode < 0 ? Message("sanitizer.run-killed")
                              : Message("sanitizer.run-exit", {{"code", exitCode}});
  r.clean = exitCode == 0 && r.hazards.empty() && r.runError.empty();
  if (!r.runError.empty()) addNote(r.notes, Message("sanitizer.run-failed"));
  if (tool == SanitizerTool::Racecheck) addNote(r.notes, Message("sanitizer.shared-only"));
  return r;
}

// ============================================================================================
// [SECTION] Finding the programs
// ============================================================================================

std::string findCudaTool(const std::string& program) {
  std::vector<std::string> folders = {RLAB_CUDA_BIN_DIR, "/usr/local/cuda/bin"};
  if (const char* path = std::getenv("PATH")) {
    std::istringstream entries(path);
    for (std::string folder; std::getline(entries, folder, ':');) folders.push_back(folder);
  }
  for (const auto& folder : folders)
    if (!folder.empty() && isExecutableFile(folder + "/" + program)) return folder + "/" + program;
  return "";
}

std::string findComputeSanitizer() {
  return findCudaTool("compute-sanitizer");
}

std::string findRlabExecutable() {
  if (const char* chosen = std::getenv("RLAB_EXECUTABLE"); chosen && *chosen) return chosen;
  return siblingProgram("rlab");
}

// ============================================================================================
// [SECTION] Running them
// ============================================================================================

SanitizerReport runSanitizer(const Params& params, SanitizerTool tool,
                             const SanitizerPrograms& programs) {
  const std::string sanitizer =
      programs.sanitizer.empty() ? findComputeSanitizer() : programs.sanitizer;
  if (!isExecutableFile(sanitizer)) throw GpuUnavailable(Message("sanitizer.not-found"));
  const std::string rlab = programs.rlab.empty() ? findRlabExecutable() : programs.rlab;
  if (!isExecutableFile(rlab)) {
    const char* chosen = std::getenv("RLAB_EXECUTABLE");
    throw GpuUnavailable(chosen && *chosen && programs.rlab.empty()
                             ? Message("sanitizer.rlab-not-executable", {{"path", rlab}})
                             : Message("sanitizer.rlab-not-found"));
  }
  Params checked = params;
  checked.backend = BackendChoice::Gpu;  // the sanitizer instruments GPU code only
  checked.timed = false;                 // one run: repetitions under the sanitizer take minutes
  checked.schedule = Params().schedule;  // a GPU schedules its threads itself
  std::vector<std::string> argv = {
      sanitizer, "--tool", name(tool), "--error-exitcode", std::to_string(kSanitizerErrorExit),
      rlab,      "run"};
  for (auto& a : runArguments(checked)) argv.push_back(std::move(a));
  argv.insert(argv.end(), {"--format", "json"});
  const ChildResult done = runChild(argv);

  SanitizerReport r = parseSanitizerOutput(tool, done.output, done.exitCode);
  r.params = checked;
  const VariantInfo* variant = variantOf(checked);
  if (tool == SanitizerTool::Racecheck && r.clean && !checked.barrier && variant &&
      variant->globalMemorySteps)
    r.notes.push_back(Message("sanitizer.global-race-unseen"));
  else if (tool == SanitizerTool::Racecheck && r.clean && runMayRace(checked))
    r.notes.push_back(Message("sanitizer.clean-not-proof"));
  return r;
}

}  // namespace rlab
