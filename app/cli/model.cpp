// rlab model allreduce: the all-reduce's cost at a scale this machine is not
// (lessons/engine/run/allreduce_model.hpp), as a table of times by algorithm and size with the
// fastest and its bus bandwidth, the sizes where the fastest changes, and as JSON.
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/subcommands.hpp"
#include "app/cli/terminal.hpp"
#include "lessons/engine/run/allreduce_model.hpp"

namespace rlab::cli {

namespace {

std::string bytesText(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) bytes /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%g %s", bytes, units[unit]);
  return text;
}

std::string timeText(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.1f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Message algorithmName(AllReduceAlgorithm a) {
  switch (a) {
    case AllReduceAlgorithm::RecursiveDoubling:
      return Message("model.recursive-doubling");
    case AllReduceAlgorithm::Ring:
      return Message("model.ring");
    case AllReduceAlgorithm::Rabenseifner:
      return Message("model.rabenseifner");
    case AllReduceAlgorithm::DoubleBinaryTree:
      return Message("model.double-binary-tree");
  }
  return {};
}

Message linkText(const LinkCost& link) {
  return Message("model.link",
                 {{"alpha", number(link.alpha * 1e6)}, {"bandwidth", number(1 / link.beta / 1e9)}});
}

// The machine in one sentence: its GPUs, its levels and their figures.
Message machineText(const AllReduceMachine& m) {
  const Message levels =
      m.perNode > 1 && m.perNode < m.gpus
          ? Message("model.two-levels", {{"perNode", m.perNode},
                                         {"nodes", m.gpus / m.perNode},
                                         {"inside", linkText(m.inside)},
                                         {"between", linkText(m.between)}})
          : Message("model.one-level", {{"link", linkText(m.perNode == 1 ? m.between : m.inside)}});
  return Message("model.machine", {{"gpus", m.gpus},
                                   {"name", m.name},
                                   {"levels", levels},
                                   {"combine", number(1 / m.gamma / 1e9)}});
}

}  // namespace

int modelCommand(const Command& c, std::ostream& out, std::ostream&, bool) {
  const AllReduceMachine& m = c.model;
  const std::vector<AllReduceModelRow> rows = allReduceModelTable(m);
  if (c.format == Format::Json) {
    nlohmann::json table = nlohmann::json::array();
    for (const AllReduceModelRow& row : rows) {
      nlohmann::json seconds, bus;
      for (size_t k = 0; k < row.seconds.size(); ++k) {
        seconds[name(kAllReduceAlgorithms[k])] = row.seconds[k];
        bus[name(kAllReduceAlgorithms[k])] = busGBs(row.bytes, row.seconds[k], m.gpus);
      }
      table.push_back({{"bytes", row.bytes},
                       {"seconds", seconds},
                       {"bus_gbs", bus},
                       {"fastest", name(kAllReduceAlgorithms[size_t(row.best)])}});
    }
    out << nlohmann::json{{"gpus", m.gpus},
                          {"per_node", m.perNode},
                          {"machine", m.name},
                          {"inside",
                           {{"alpha_s", m.inside.alpha}, {"beta_s_per_byte", m.inside.beta}}},
                          {"between",
                           {{"alpha_s", m.between.alpha}, {"beta_s_per_byte", m.between.beta}}},
                          {"gamma_s_per_byte", m.gamma},
                          {"rows", table}}
               .dump()
        << "\n";
    return 0;
  }
  auto say = [&](const Message& message) { return render(message, c.language); };
  printWrapped(say(machineText(m)), "", "", c.terminal.width, out);
  out << "\n";
  Table t;
  t.header.push_back(say(Message("model.size")));
  for (AllReduceAlgorithm a : kAllReduceAlgorithms) t.header.push_back(say(algorithmName(a)));
  t.header.push_back(say(Message("model.fastest")));
  t.header.push_back(say(Message("model.bus-bandwidth")));
  for (const AllReduceModelRow& row : rows) {
    std::vector<std::string> cells = {bytesText(row.bytes)};
    for (double s : row.seconds) cells.push_back(timeText(s));
    cells.push_back(say(algorithmName(kAllReduceAlgorithms[size_t(row.best)])));
    cells.push_back(
        number(std::round(busGBs(row.bytes, row.seconds[size_t(row.best)], m.gpus) * 10) / 10));
    t.rows.push_back(std::move(cells));
  }
  t.namesLeft = true;
  printTable(t, "", c.terminal.width, out);
  // Where the fastest changes: the crossovers.
  std::vector<Message> changes;
  for (size_t k = 0; k < rows.size(); ++k)
    if (k == 0 || rows[k].best != rows[k - 1].best)
      changes.push_back(
          Message("model.from-size",
                  {{"size", bytesText(rows[k].bytes)},
                   {"algorithm", algorithmName(kAllReduceAlgorithms[size_t(rows[k].best)])}}));
  out << "\n";
  printWrapped(say(Message("model.crossovers", {{"changes", changes}})), "", "", c.terminal.width,
               out);
  if (m.perNode > 1 && m.perNode < m.gpus)
    printWrapped(say(Message("model.note")), "", "", c.terminal.width, out);
  return 0;
}

}  // namespace rlab::cli
