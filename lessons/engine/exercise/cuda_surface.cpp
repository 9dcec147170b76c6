// The simulator's CUDA table (kernels/sim/cuda_surface.def) as data, and the sentences and the
// manual's list made from it.

#include "lessons/engine/exercise/cuda_surface.hpp"

#include <cctype>
#include <set>

namespace rlab {

namespace {

CudaSurface readTable() {
  CudaSurface s;
#define RLAB_CUDA_OFFERED(group, names) s.offered.push_back({group, names});
#define RLAB_CUDA_NOT_OFFERED(group, name) \
  s.refused.push_back({group, #name, RLAB_NOT_OFFERED_SENTENCE(#name), false});
#define RLAB_CG_NOT_OFFERED(name)                                          \
  s.refused.push_back({"Cooperative groups", "cooperative_groups::" #name, \
                       RLAB_NOT_OFFERED_SENTENCE("cooperative_groups::" #name), false});
#define RLAB_CUDA_REMOVED(group, name, why) \
  s.refused.push_back({group, #name, RLAB_REMOVED_SENTENCE(#name, why), true});
#define RLAB_CUDA_HEADER(name, offered) s.headers.push_back({name, offered});
#include "kernels/sim/cuda_surface.def"
  return s;
}

bool isWordCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// "`a`, `b`": one more item of a list in the manual's words.
void appendListed(std::string& list, const char* open, const std::string& item, const char* close) {
  if (!list.empty()) list += ", ";
  list += open;
  list += item;
  list += close;
}

std::string headerList(bool offered) {
  std::string list;
  for (const CudaHeader& h : cudaSurface().headers)
    if (h.offered == offered)  // a folder: "<cuda/...>"
      appendListed(list, "`<", h.name + (h.name.back() == '/' ? "..." : ""), ">`");
  return list;
}

}  // namespace

const CudaSurface& cudaSurface() {
  static const CudaSurface surface = readTable();
  return surface;
}

std::string headerRefusal(const std::string& name, bool onGpu) {
  for (const CudaHeader& h : cudaSurface().headers) {
    const bool folder = !h.name.empty() && h.name.back() == '/';
    const bool matches = folder ? name.rfind(h.name, 0) == 0 : name == h.name;
    if (!matches) continue;
    if (h.offered || onGpu) return "";
    std::string sentence = RLAB_NOT_OFFERED_SENTENCE("<\x01>");
    sentence.replace(sentence.find('\x01'), 1, name);
    return sentence;
  }
  // One place for the sentence: the table's, with the name put in.
  std::string sentence = RLAB_HOST_HEADER_SENTENCE("\x01");
  sentence.replace(sentence.find('\x01'), 1, name);
  return sentence;
}

bool offeredName(const std::string& identifier) {
  static const std::set<std::string> words = [] {
    std::set<std::string> all;
    for (const CudaOffered& o : cudaSurface().offered)
      for (size_t i = 0; i < o.names.size();) {
        if (!isWordCharacter(o.names[i])) {
          ++i;
          continue;
        }
        size_t j = i;
        while (j < o.names.size() && isWordCharacter(o.names[j])) ++j;
        all.insert(o.names.substr(i, j - i));
        i = j;
      }
    return all;
  }();
  return words.count(identifier) > 0;
}

std::string cudaSurfaceMarkdown() {
  const CudaSurface& s = cudaSurface();
  std::string md = "| | offered, with CUDA's signatures and meaning |\n|---|---|\n";
  for (const CudaOffered& o : s.offered) md += "| " + o.group + " | " + o.names + " |\n";
  md += "| Headers | " + headerList(true) + " |\n";

  md += "\n| | refused at the line that uses it: CUDA, but not on the simulator |\n|---|---|\n";
  std::string group, names;
  auto flush = [&] {
    if (!names.empty()) md += "| " + group + " | " + names + " |\n";
    names.clear();
  };
  for (const CudaRefused& r : s.refused) {
    if (r.removed) continue;
    if (r.group != group) flush();
    group = r.group;
    appendListed(names, "`", r.name, "`");
  }
  flush();
  md += "| Headers | " + headerList(false) + " |\n";

  md += "\n| gone from CUDA | refused, with what to use |\n|---|---|\n";
  for (const CudaRefused& r : s.refused) {
    if (!r.removed) continue;
    // "…: since CUDA 9 …; use __shfl_sync": the reason, and what to use as code.
    std::string why = r.sentence.substr(r.sentence.find(": ") + 2);
    if (const size_t use = why.rfind("use "); use != std::string::npos) {
      why.insert(use + 4, "`");
      why += "`";
    }
    md += "| `" + r.name + "` | " + why + " |\n";
  }
  return md;
}

}  // namespace rlab
