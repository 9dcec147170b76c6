#include "lessons/engine/run/allreduce_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rlab {

namespace {

int floorLog2(int p) {
  int steps = 0;
  while ((2 << steps) <= p) ++steps;
  return steps;
}

// Recursive doubling and Rabenseifner's halving-doubling run on the largest power of two q <= p:
// the r = p - q others first hand their bytes to a partner, which combines them, and get the
// result back at the end: two messages of n bytes and one combine more.
double foldIn(int p, double n, LinkCost link, double gamma) {
  const int q = 1 << floorLog2(p);
  return p == q ? 0 : 2 * link.alpha + 2 * n * link.beta + n * gamma;
}

// A pipelined double binary tree with k chunks: each tree reduces and then broadcasts half the
// bytes, in chunks of n / 2k; a GPU is an inner node of one tree at most, and its link takes one
// chunk a step, so a reduce or a broadcast is h + 2k steps of α + (n / 2k) β (h: the trees'
// height). The best k is near sqrt(h n β / 4α).
double doubleBinaryTree(int p, double n, LinkCost link, double gamma) {
  const int h = std::max(1, floorLog2(p));
  auto time = [&](double k) { return 2 * (h + 2 * k) * (link.alpha + n / (2 * k) * link.beta); };
  const double most = std::max(1.0, std::floor(n / 8));  // a chunk holds 4 bytes at least
  const double best = link.alpha > 0 ? std::sqrt(h * n * link.beta / (4 * link.alpha)) : most;
  const double lower = std::clamp(std::floor(best), 1.0, most);
  const double upper = std::clamp(std::ceil(best), 1.0, most);
  return std::min(time(lower), time(upper)) + n * gamma;
}

// A ring's reduce-scatter and all-gather, the halves of its all-reduce.
double ringReduceScatter(int p, double n, LinkCost link, double gamma) {
  return (p - 1) * link.alpha + (p - 1) / double(p) * n * (link.beta + gamma);
}
double ringAllGather(int p, double n, LinkCost link) {
  return (p - 1) * link.alpha + (p - 1) / double(p) * n * link.beta;
}

}  // namespace

const char* name(AllReduceAlgorithm a) {
  switch (a) {
    case AllReduceAlgorithm::RecursiveDoubling:
      return "recursive doubling";
    case AllReduceAlgorithm::Ring:
      return "ring";
    case AllReduceAlgorithm::Rabenseifner:
      return "Rabenseifner";
    case AllReduceAlgorithm::DoubleBinaryTree:
      return "double binary tree";
  }
  return "";
}

double allReduceSeconds(AllReduceAlgorithm a, int p, double n, LinkCost link, double gamma) {
  if (p < 2) return 0;
  const int steps = floorLog2(p), q = 1 << steps;
  switch (a) {
    case AllReduceAlgorithm::RecursiveDoubling:
      return steps * (link.alpha + n * link.beta + n * gamma) + foldIn(p, n, link, gamma);
    case AllReduceAlgorithm::Ring:
      return ringReduceScatter(p, n, link, gamma) + ringAllGather(p, n, link);
    case AllReduceAlgorithm::Rabenseifner:
      return 2 * steps * link.alpha + 2 * (q - 1) / double(q) * n * link.beta +
             (q - 1) / double(q) * n * gamma + foldIn(p, n, link, gamma);
    case AllReduceAlgorithm::DoubleBinaryTree:
      return doubleBinaryTree(p, n, link, gamma);
  }
  return 0;
}

double allReduceSeconds(AllReduceAlgorithm across, const AllReduceMachine& m, double n) {
  const int g = m.perNode;
  if (g <= 0 || g >= m.gpus) return allReduceSeconds(across, m.gpus, n, m.inside, m.gamma);
  if (g == 1) return allReduceSeconds(across, m.gpus, n, m.between, m.gamma);
  const int nodes = m.gpus / g;
  return ringReduceScatter(g, n, m.inside, m.gamma) +
         allReduceSeconds(across, nodes, n / g, m.between, m.gamma) + ringAllGather(g, n, m.inside);
}

double busGBs(double bytes, double seconds, int p) {
  if (seconds <= 0 || p < 2) return 0;
  return bytes / seconds * 2 * (p - 1) / p / 1e9;
}

std::vector<std::string> allReducePresets() {
  return {"hgx-h100"};
}

AllReduceMachine allReducePreset(const std::string& name, int gpus) {
  if (name != "hgx-h100") throw std::invalid_argument("no such preset: " + name);
  AllReduceMachine m;
  m.name = name;
  m.gpus = gpus;
  m.perNode = 8;
  // NVLink 4: 450 GB/s each way per H100; about 2 µs a message through NCCL's kernels.
  m.inside = {2e-6, 1 / 450e9};
  // One 400 Gb/s InfiniBand NDR port per GPU: 50 GB/s each way; about 5 µs a message.
  m.between = {5e-6, 1 / 50e9};
  // Combining: read two, write one at HBM3's 3 TB/s, about 1 TB/s of result.
  m.gamma = 1 / 1000e9;
  return m;
}

std::vector<AllReduceModelRow> allReduceModelTable(const AllReduceMachine& m) {
  std::vector<AllReduceModelRow> rows;
  for (int power = 3; power <= 32; ++power) {
    AllReduceModelRow row;
    row.bytes = std::ldexp(1.0, power);
    for (AllReduceAlgorithm a : kAllReduceAlgorithms)
      row.seconds.push_back(allReduceSeconds(a, m, row.bytes));
    row.best = int(std::min_element(row.seconds.begin(), row.seconds.end()) - row.seconds.begin());
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string byteSizeText(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) bytes /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", bytes, units[unit]);
  return text;
}

std::string shortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Message allReduceAlgorithmText(AllReduceAlgorithm a) {
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

namespace {

Message linkText(const LinkCost& link) {
  return Message("model.link", {{"alpha", shortNumber(link.alpha * 1e6)},
                                {"bandwidth", shortNumber(1 / link.beta / 1e9)}});
}

}  // namespace

Message allReduceMachineText(const AllReduceMachine& m) {
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
                                   {"combine", shortNumber(1 / m.gamma / 1e9)}});
}

Message allReduceCrossovers(const std::vector<AllReduceModelRow>& rows) {
  std::vector<Message> changes;
  for (size_t k = 0; k < rows.size(); ++k)
    if (k == 0 || rows[k].best != rows[k - 1].best)
      changes.push_back(Message(
          "model.from-size",
          {{"size", byteSizeText(rows[k].bytes)},
           {"algorithm", allReduceAlgorithmText(kAllReduceAlgorithms[size_t(rows[k].best)])}}));
  return Message("model.crossovers", {{"changes", changes}});
}

}  // namespace rlab
