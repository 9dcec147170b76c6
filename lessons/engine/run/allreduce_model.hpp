// The cost of an all-reduce past one machine (rlab model allreduce): the α-β-γ model of
// Thakur, Rabenseifner and Gropp ("Optimization of Collective Communication Operations in
// MPICH", 2005) for recursive doubling, the ring and Rabenseifner's reduce-scatter +
// all-gather, and a pipelined double binary tree (Sanders, Speck and Träff, 2009), on one level
// of links or on two (GPUs in a node joined by one link, nodes by another). A message of m
// bytes costs α + m·β on a link; combining m bytes costs m·γ. No GPU is needed: the figures are
// the model's, for machines this one is not. The chapter (lessons/allreduce) writes the same
// formulas; tests/allreduce_model_test.cpp recomputes them.
#pragma once

#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"

namespace rlab {

struct LinkCost {
  double alpha = 0;  // seconds per message
  double beta = 0;   // seconds per byte
};

struct AllReduceMachine {
  int gpus = 8;
  int perNode = 0;  // GPUs in a node, joined by `inside`; 0 or gpus: one level (`inside` only)
  LinkCost inside, between;
  double gamma = 0;  // seconds to combine one byte
  std::string name;  // the preset's, or "your figures"
};

enum class AllReduceAlgorithm { RecursiveDoubling, Ring, Rabenseifner, DoubleBinaryTree };
inline constexpr AllReduceAlgorithm kAllReduceAlgorithms[] = {
    AllReduceAlgorithm::RecursiveDoubling, AllReduceAlgorithm::Ring,
    AllReduceAlgorithm::Rabenseifner, AllReduceAlgorithm::DoubleBinaryTree};
const char* name(AllReduceAlgorithm a);  // "recursive doubling", "ring", ...

// One level: p GPUs, `bytes` on each, over one kind of link.
double allReduceSeconds(AllReduceAlgorithm a, int p, double bytes, LinkCost link, double gamma);
// The machine's all-reduce with `across` between its nodes: where it has nodes, a ring
// reduce-scatter inside each node, `across` between the nodes on the node's 1/perNode of the
// bytes, a ring all-gather inside; else `across` over `inside` alone.
double allReduceSeconds(AllReduceAlgorithm across, const AllReduceMachine& m, double bytes);

// nccl-tests' bus bandwidth of an all-reduce of `bytes` per GPU in `seconds`: the algorithm
// bandwidth bytes / seconds times 2 (p - 1) / p, which a ring at its links' speed reaches at
// any p. In GB/s.
double busGBs(double bytes, double seconds, int p);

// The named machines (figures are nominal, not measured): "hgx-h100" (8 H100 per node, NVLink 4
// inside, 400 Gb/s InfiniBand per GPU between nodes), "hgx-h100-one-node", "ethernet-100g".
std::vector<std::string> allReducePresets();
// The preset of that name for `gpus` GPUs; throws std::invalid_argument for another name.
AllReduceMachine allReducePreset(const std::string& name, int gpus);

struct AllReduceModelRow {
  double bytes = 0;
  std::vector<double> seconds;  // per kAllReduceAlgorithms
  int best = 0;                 // the index of the fastest
};
// The table for sizes from 8 bytes to 4 GiB, by factors of 4.
std::vector<AllReduceModelRow> allReduceModelTable(const AllReduceMachine& m);

// In words, for both front ends: an algorithm's name, the machine in one sentence (its GPUs,
// levels and figures), where the fastest changes ("from 8 B recursive doubling, from 4 MiB
// Rabenseifner"), a size ("4 MiB") and a figure as short as it reads ("450", "2.5").
Message allReduceAlgorithmText(AllReduceAlgorithm a);
Message allReduceMachineText(const AllReduceMachine& m);
Message allReduceCrossovers(const std::vector<AllReduceModelRow>& rows);
// "4 KiB", "288 KiB", "1.5 GiB": three significant digits at most (the model's sizes are exact).
std::string byteSizeText(double bytes);
std::string shortNumber(double v);

}  // namespace rlab
