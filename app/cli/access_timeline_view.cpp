// rlab exercise run --timeline: the learner's kernel's loads and stores (run/access_timeline.hpp)
// as text, a stretch between barriers at a time, a line (or a few) per thread; and as JSON.
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/terminal.hpp"
#include "app/cli/terminal_style.hpp"
#include "app/cli/views.hpp"
#include "lessons/engine/run/access_timeline.hpp"

namespace rlab::cli {

namespace {

// `items` after `head`, each kept whole, on as many lines of `width` columns as they need; the
// lines after the first indented as far as the first item.
void printItems(const std::string& head, const std::vector<std::string>& items, int width,
                std::ostream& out) {
  const int indent = visibleColumns(head);
  std::string line = head;
  int used = indent;
  bool first = true;
  for (const std::string& item : items) {
    const int wide = visibleColumns(item);
    if (!first && used + 3 + wide > width) {
      out << line << "\n";
      line = std::string(size_t(indent), ' ');
      used = indent;
      first = true;
    }
    if (!first) {
      line += " · ";
      used += 3;
    }
    line += item;
    used += wide;
    first = false;
  }
  out << line << "\n";
}

}  // namespace

void printAccessTimelineText(const Trace& t, std::ostream& out, bool colour, Language language,
                             int width) {
  const AccessTimeline tl = buildAccessTimeline(t);
  out << "\n";
  if (!tl.available) {
    printWrapped(render(tl.why, language), "", "", width, out);
    return;
  }
  printWrapped(render(tl.summary, language), "", "", width, out);
  size_t nameWidth = 0;
  for (const AccessRow& row : tl.rows)
    nameWidth = std::max(nameWidth, size_t(visibleColumns(render(row.name, language))));
  for (size_t c = 0; c < tl.columns.size(); ++c) {
    out << "\n"
        << (colour ? kChanged : "") << "── " << render(tl.columns[c].title, language) << " ──"
        << (colour ? kReset : "") << "\n";
    for (size_t r = 0; r < tl.rows.size(); ++r) {
      const std::vector<size_t>& cell = tl.rows[r].cells[c];
      if (cell.empty()) continue;
      std::vector<std::string> items;
      std::string line;  // the line of the access before: said once for a run of them
      for (size_t index : cell) {
        const bool raced = tl.raced(index);
        MemoryAccess a = t.accesses[index];
        if (a.line == line && !raced) a.line.clear();
        line = t.accesses[index].line;
        const std::string text = render(accessText(a), language);
        items.push_back(!raced ? text : colour ? kWrong + text + kReset : "!" + text);
      }
      const std::string name = render(tl.rows[r].name, language);
      printItems("  " + name + std::string(nameWidth - size_t(visibleColumns(name)) + 2, ' '),
                 items, width, out);
    }
  }
  if (!tl.race.empty()) {
    out << "\n" << (colour ? kWrong : "");
    printWrapped(render(tl.race, language), colour ? "" : "! ", colour ? "" : "  ", width, out);
    out << (colour ? kReset : "");
  }
  out << "\n";
}

nlohmann::json accessTimelineJson(const Trace& t) {
  nlohmann::json j;
  j["accesses_left_out"] = t.accessesLeft;
  j["race"] = t.raceFirstTick < 0 ? nlohmann::json()
                                  : nlohmann::json{{"first_tick", t.raceFirstTick},
                                                   {"second_tick", t.raceSecondTick}};
  nlohmann::json accesses = nlohmann::json::array();
  for (const MemoryAccess& a : t.accesses)
    accesses.push_back({{"tick", a.tick},
                        {"launch", a.launch},
                        {"block", a.block},
                        {"thread", a.thread},
                        {"after_barriers", a.phase},
                        {"kind", name(a.kind)},
                        {"array", a.array},
                        {"shared", a.shared},
                        {"element", a.element},
                        {"value", a.valueKnown ? nlohmann::json(a.value) : nlohmann::json()},
                        {"line", a.line.empty() ? nlohmann::json() : nlohmann::json(a.line)}});
  j["accesses"] = std::move(accesses);
  return j;
}

}  // namespace rlab::cli
