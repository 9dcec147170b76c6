// The toolkit's include folders and the C headers, for NVRTC (nvrtc_headers.hpp).

#include "lessons/engine/exercise_runner/nvrtc_headers.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

// Set by lessons/engine/exercise_runner/CMakeLists.txt: the include folder of the toolkit this
// build was configured with.
#ifndef RLAB_CUDA_INCLUDE_DIR
#define RLAB_CUDA_INCLUDE_DIR ""
#endif

namespace rlab::exercise {

namespace {

namespace fs = std::filesystem;

// The toolkit's include folder: where this build's nvcc had it, then $CUDA_PATH, $CUDA_HOME,
// /usr/local/cuda, and beside the NVRTC library that was loaded (lib64/../include, or the
// targets/<arch>/lib/../include of a toolkit's layout).
std::vector<std::string> includeCandidates(const void* nvrtcLibrary) {
  std::vector<std::string> candidates = {RLAB_CUDA_INCLUDE_DIR};
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable); root && *root)
      candidates.push_back(std::string(root) + "/include");
  candidates.push_back("/usr/local/cuda/include");
  Dl_info info{};
  if (nvrtcLibrary && dladdr(nvrtcLibrary, &info) && info.dli_fname) {
    const fs::path library = fs::path(info.dli_fname).parent_path();
    candidates.push_back((library / "../include").lexically_normal().string());
    candidates.push_back((library / "../../include").lexically_normal().string());
  }
  return candidates;
}

// What device code may use of each C header: printf, assert, memcpy, memset and the math
// functions are NVRTC's own already. Where the toolkit's headers are found, the integers, limits
// and sizes are libcu++'s (which <cooperative_groups.h> includes too, so the two must agree);
// without them, ours.
std::string integers(bool toolkit) {
  const char* const names[] = {"int8_t",   "int16_t",  "int32_t",  "int64_t",  "uint8_t",
                               "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t"};
  std::string text = "#pragma once\n";
  if (toolkit) {
    text += "#include <cuda/std/cstdint>\n";
  } else {
    text +=
        "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
        "typedef long long int64_t; typedef unsigned char uint8_t; typedef unsigned short "
        "uint16_t;\n"
        "typedef unsigned int uint32_t; typedef unsigned long long uint64_t;\n"
        "typedef long intptr_t; typedef unsigned long uintptr_t;\n"
        "#define INT8_MIN (-128)\n#define INT8_MAX 127\n#define UINT8_MAX 255\n"
        "#define INT16_MIN (-32768)\n#define INT16_MAX 32767\n#define UINT16_MAX 65535\n"
        "#define INT32_MIN (-2147483647 - 1)\n#define INT32_MAX 2147483647\n"
        "#define UINT32_MAX 4294967295u\n"
        "#define INT64_MIN (-9223372036854775807LL - 1)\n"
        "#define INT64_MAX 9223372036854775807LL\n"
        "#define UINT64_MAX 18446744073709551615ULL\n";
  }
  text += "namespace std {";
  for (const char* name : names) text += std::string(" using ::") + name + ";";
  return text + " }\n";
}

std::string limits(bool toolkit) {
  if (toolkit) return "#pragma once\n#include <cuda/std/climits>\n";
  return "#pragma once\n"
         "#define CHAR_BIT 8\n#define SCHAR_MIN (-128)\n#define SCHAR_MAX 127\n"
         "#define UCHAR_MAX 255\n#define CHAR_MIN SCHAR_MIN\n#define CHAR_MAX SCHAR_MAX\n"
         "#define SHRT_MIN (-32768)\n#define SHRT_MAX 32767\n#define USHRT_MAX 65535\n"
         "#define INT_MIN (-2147483647 - 1)\n#define INT_MAX 2147483647\n"
         "#define UINT_MAX 4294967295u\n"
         "#define LONG_MIN (-9223372036854775807L - 1)\n#define LONG_MAX 9223372036854775807L\n"
         "#define ULONG_MAX 18446744073709551615UL\n"
         "#define LLONG_MIN (-9223372036854775807LL - 1)\n"
         "#define LLONG_MAX 9223372036854775807LL\n"
         "#define ULLONG_MAX 18446744073709551615ULL\n";
}

// libcu++'s <cuda/std/cfloat> leaves FLT_MAX and the others to the host's <float.h>.
const char* const kFloats =
    "#pragma once\n"
    "#ifndef FLT_MAX\n"
    "#define FLT_RADIX 2\n#define FLT_MANT_DIG 24\n#define DBL_MANT_DIG 53\n"
    "#define FLT_DIG 6\n#define DBL_DIG 15\n"
    "#define FLT_MAX 3.40282346638528859812e+38F\n#define FLT_MIN 1.17549435082228750797e-38F\n"
    "#define FLT_EPSILON 1.1920928955078125e-07F\n"
    "#define DBL_MAX 1.79769313486231570815e+308\n#define DBL_MIN 2.22507385850720138309e-308\n"
    "#define DBL_EPSILON 2.22044604925031308085e-16\n"
    "#endif\n";

std::string sizes(bool toolkit) {
  std::string text = "#pragma once\n";
  text += toolkit ? "#include <cuda/std/cstddef>\n"
                  : "typedef decltype(sizeof(0)) size_t;\n"
                    "typedef decltype((char*)0 - (char*)0) ptrdiff_t;\n";
  return text +
         "#ifndef NULL\n#define NULL 0\n#endif\n"
         "namespace std { using ::size_t; using ::ptrdiff_t; }\n";
}

}  // namespace

NvrtcHeaders nvrtcHeaders(const void* nvrtcLibrary) {
  NvrtcHeaders h;
  for (const std::string& folder : includeCandidates(nvrtcLibrary)) {
    std::error_code error;
    if (folder.empty()) continue;
    if (!fs::is_regular_file(folder + "/cooperative_groups.h", error)) {
      h.searched += (h.searched.empty() ? "" : ", ") + folder;
      continue;
    }
    h.options.push_back("-I" + folder);
    // CUDA 13 keeps libcu++ (<cuda/std/...>, which the cooperative groups include) apart.
    if (fs::is_directory(folder + "/cccl", error)) h.options.push_back("-I" + folder + "/cccl");
    h.searched.clear();
    break;
  }
  const bool toolkit = !h.options.empty();
  const std::string nothingMore = "#pragma once\n";
  const std::pair<const char*, std::string> headers[] = {{"cstdint", integers(toolkit)},
                                                         {"stdint.h", integers(toolkit)},
                                                         {"climits", limits(toolkit)},
                                                         {"limits.h", limits(toolkit)},
                                                         {"cfloat", kFloats},
                                                         {"float.h", kFloats},
                                                         {"cstddef", sizes(toolkit)},
                                                         {"stddef.h", sizes(toolkit)},
                                                         {"cstdio", nothingMore},
                                                         {"stdio.h", nothingMore},
                                                         {"cassert", nothingMore},
                                                         {"assert.h", nothingMore},
                                                         {"cmath", nothingMore},
                                                         {"math.h", nothingMore},
                                                         {"cstring", nothingMore},
                                                         {"string.h", nothingMore}};
  for (const auto& [name, text] : headers) {
    h.names.push_back(name);
    h.texts.push_back(text);
  }
  return h;
}

}  // namespace rlab::exercise
