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
  printWrapped(say(allReduceMachineText(m)), "", "", c.terminal.width, out);
  out << "\n";
  Table t;
  t.header.push_back(say(Message("model.size")));
  for (AllReduceAlgorithm a : kAllReduceAlgorithms)
    t.header.push_back(say(allReduceAlgorithmText(a)));
  t.header.push_back(say(Message("model.fastest")));
  t.header.push_back(say(Message("model.bus-bandwidth")));
  for (const AllReduceModelRow& row : rows) {
    std::vector<std::string> cells = {byteSizeText(row.bytes)};
    for (double s : row.seconds) cells.push_back(timeText(s));
    cells.push_back(say(allReduceAlgorithmText(kAllReduceAlgorithms[size_t(row.best)])));
    cells.push_back(shortNumber(
        std::round(busGBs(row.bytes, row.seconds[size_t(row.best)], m.gpus) * 10) / 10));
    t.rows.push_back(std::move(cells));
  }
  t.namesLeft = true;
  printTable(t, "", c.terminal.width, out);
  out << "\n";
  printWrapped(say(allReduceCrossovers(rows)), "", "", c.terminal.width, out);
  if (m.perNode > 1 && m.perNode < m.gpus)
    printWrapped(say(Message("model.note")), "", "", c.terminal.width, out);
  return 0;
}

}  // namespace rlab::cli
