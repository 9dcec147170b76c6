// What the barrier kernel prints with --printf, worked out on the host: for the simulator's
// tests and the GPU's.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "lessons/engine/run/params.hpp"

// What the kernel prints, worked out on the host with the barrier on: at each level, before
// anyone combines, every thread that is a multiple of 3 prints the value its element holds
// then. The global tree runs over n, the shared one over the whole block (the identity past n,
// where no thread prints).
inline std::vector<std::string> expectedPrintfLines(const rlab::Params& p) {
  const rlab::Resolved r = rlab::resolve(p);
  std::vector<double> a = rlab::makeInput(r);
  const bool shared = r.params.variant == "shared";
  const long long width = shared ? r.params.block : r.params.n;
  a.resize(size_t(width), 0);  // sum's identity
  std::vector<std::string> lines;
  int level = 1;
  for (long long i = 1; i < width; i *= 2, ++level) {
    for (long long t = 0; t < std::min<long long>(width, r.params.n); t += 3) {
      char line[128];
      std::snprintf(line, sizeof line, "thread %lld, level %d: %s[%lld] = %.10g", t, level,
                    shared ? "s" : "a", t, a[size_t(t)]);
      lines.push_back(line);
    }
    for (long long t = 0; t + i < width; t += 2 * i) a[size_t(t)] += a[size_t(t + i)];
  }
  return lines;
}
