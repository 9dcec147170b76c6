// A crash or hang of the exercise runner in the learner's words (fault_words.hpp).
#include "lessons/engine/exercise/fault_words.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/box.hpp"
#include "lessons/engine/exercise/check.hpp"
#include "lessons/engine/system/process.hpp"

namespace rlab {

namespace fs = std::filesystem;

// The learner's line among the library offsets the runner reported: addr2line walks each
// address's inlined calls from the innermost out, so the first line in the learner's file is
// where their code was (a crash inside a shim function inlined into theirs names their call).
std::string learnerLine(const std::string& library, const std::string& source,
                        const std::string& pcs) {
  std::vector<std::string> addresses;
  std::istringstream list(pcs);
  bool first = true;
  for (std::string pc; std::getline(list, pc, ',');) {
    if (pc.empty() || pc == "-") {
      first = false;
      continue;
    }
    unsigned long long offset = std::strtoull(pc.c_str(), nullptr, 16);
    if (!first && offset > 0) --offset;  // a return address: the call is the byte before
    first = false;
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", offset);
    addresses.push_back(text);
  }
  if (addresses.empty()) return "";
  std::vector<std::string> arguments = {"-e", library, "-a", "-i"};
  arguments.insert(arguments.end(), addresses.begin(), addresses.end());
  const std::map<uint64_t, int> lines = firstLinesIn(runAddr2line(arguments), source);
  for (const std::string& address : addresses)  // the innermost call first
    if (const auto found = lines.find(std::strtoull(address.c_str(), nullptr, 16));
        found != lines.end())
      return fs::path(source).filename().string() + ":" + std::to_string(found->second);
  return "";
}

std::map<uint64_t, int> firstLinesIn(const std::string& output, const std::string& source) {
  std::map<uint64_t, int> lines;
  std::istringstream out(output);
  uint64_t current = 0;
  bool found = true;
  for (std::string line; std::getline(out, line);) {
    if (line.starts_with("0x")) {
      current = std::stoull(line, nullptr, 16);
      found = false;
      continue;
    }
    if (found) continue;
    const std::string where = line.substr(0, line.find(" ("));  // " (discriminator 2)"
    const size_t colon = where.rfind(':');
    if (colon == std::string::npos ||
        fs::path(where.substr(0, colon)).lexically_normal().string() != source)
      continue;
    const int number = std::atoi(where.c_str() + colon + 1);
    if (number <= 0) continue;
    lines[current] = number;
    found = true;
  }
  return lines;
}

std::map<std::string, std::string> learnerLines(const std::string& library,
                                                const std::string& source,
                                                const std::vector<std::string>& offsets) {
  std::map<std::string, std::string> lines;
  if (offsets.empty()) return lines;
  std::vector<std::string> arguments = {"-e", library, "-a", "-i"};
  arguments.insert(arguments.end(), offsets.begin(), offsets.end());
  const std::map<uint64_t, int> numbers = firstLinesIn(runAddr2line(arguments), source);
  const std::string name = fs::path(source).filename().string();
  for (const std::string& offset : offsets)
    if (const auto found = numbers.find(std::strtoull(offset.c_str(), nullptr, 16));
        found != numbers.end())
      lines[offset] = name + ":" + std::to_string(found->second);
  return lines;
}

namespace {

// Who ran when the kernel crashed or hung: "thread 3 of block 1"; empty: nobody simulated.
Message whoRan(const std::vector<std::string>& f, size_t running) {
  if (f.size() <= running + 2 || f[running] != "1") return {};
  return Message("check.thread-of-block", {{"thread", f[running + 2]}, {"block", f[running + 1]}});
}

}  // namespace

// @crash SIGNAL CASE RUNNING BLOCK THREAD ADDRESS WRITE FENCE NAME INDEX COUNT HEAP PCS
Message crashText(const std::vector<std::string>& f, const std::string& where) {
  const int signal = std::atoi(f[1].c_str());
  Message who = whoRan(f, 3);
  if (who.empty()) who = Message("check.outside-threads");
  if (signal == SIGXCPU)
    return Message(
        "check.cpu-limit",
        {{"seconds", kBoxCpuSeconds},
         {"who", where.empty() ? who : Message("check.who-at", {{"who", who}, {"line", where}})}});
  if (!where.empty()) who = Message("check.who-at", {{"who", who}, {"line", where}});
  if (signal == SIGSYS || signal == SIGXFSZ)
    return Message("check.box-stopped",
                   {{"who", who},
                    {"deed", signal == SIGSYS ? boxDeed(f[9]) : boxDeed("write")},
                    {"why", Message("box.why")}});
  const bool heapFull = std::atoll(f[12].c_str()) > 0;
  if (signal == SIGSEGV && f[8] == "1") {
    const std::string name = f[9];
    const long long index = std::atoll(f[10].c_str()), count = std::atoll(f[11].c_str());
    const char* id = f[7] == "1"   ? (index < 0 ? "check.wrote-before" : "check.wrote-past")
                     : f[7] == "0" ? (index < 0 ? "check.read-before" : "check.read-past")
                                   : (index < 0 ? "check.touched-before" : "check.touched-past");
    return Message(id, {{"who", who},
                        {"element", name + "[" + std::to_string(index) + "]"},
                        {"buffer", name},
                        {"count", count},
                        {"last", count - 1}});
  }
  const unsigned long long address = std::strtoull(f[6].c_str(), nullptr, 16);
  const std::vector<MessageArg> args = {{"who", who}, {"address", f[6]}, {"signal", f[1]}};
  switch (signal) {
    case SIGSEGV:
      if (address < 65536 && heapFull)
        return Message(
            "check.null-pointer-heap",
            {{"who", who}, {"address", f[6]}, {"mebibytes", int(sim::kDeviceHeapBytes >> 20)}});
      return Message(address < 65536 ? "check.null-pointer" : "check.no-buffer", args);
    case SIGFPE:
      return Message("check.divided-by-zero", args);
    case SIGBUS:
      return Message("check.misaligned", args);
    case SIGILL:
      return Message("check.illegal-instruction", args);
    case SIGABRT:
      return Message("check.aborted", args);
    default:
      return Message("check.signal", args);
  }
}

// @hang MILLISECONDS CASE RUNNING BLOCK THREAD PCS
Message hangText(const std::vector<std::string>& f, const std::string& where) {
  const std::string seconds = printedNumber("%g", std::atof(f[1].c_str()) / 1000);
  const Message who = whoRan(f, 3);
  if (who.empty()) return Message("check.hang-between", {{"seconds", seconds}});
  if (where.empty()) return Message("check.hang-running", {{"seconds", seconds}, {"who", who}});
  return Message("check.hang-at", {{"seconds", seconds}, {"who", who}, {"line", where}});
}

std::string runnerFaultText(const std::string& reportLine, const std::string& library,
                            const std::string& file) {
  const std::vector<std::string> f = splitReportLine(reportLine);
  if (!((f[0] == "@crash" && f.size() >= 14) || (f[0] == "@hang" && f.size() >= 7))) return "";
  const std::string where =
      learnerLine(library, fs::absolute(file).lexically_normal().string(), f.back());
  return english(f[0] == "@hang" ? hangText(f, where)
                                 : Message("check.crashed", {{"what", crashText(f, where)}}));
}

}  // namespace rlab
