// [SECTION] What a kernel may call
// [SECTION] Reading the object file
// [SECTION] Lines from the debug information
// [SECTION] The check and the link

#include "lessons/engine/exercise/object_check.hpp"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "kernels/sim/runtime.hpp"
#include "lessons/engine/exercise/fault_words.hpp"
#include "lessons/engine/system/process.hpp"

#include "kernels/sim/cuda_surface.def"  // its sentences

namespace rlab {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] What a kernel may call
// ============================================================================================

namespace {

// The C math library's functions, which CUDA offers in device code (its Math API) and g++
// calls where it does not compute them inline; each in double and float.
constexpr const char* kMathFunctions[] = {
    "acos",   "acosh",    "asin",    "asinh",   "atan",      "atan2",     "atanh",  "cbrt",
    "ceil",   "copysign", "cos",     "cosh",    "erf",       "erfc",      "exp",    "exp10",
    "exp2",   "expm1",    "fabs",    "fdim",    "floor",     "fma",       "fmax",   "fmin",
    "fmod",   "frexp",    "hypot",   "ilogb",   "j0",        "j1",        "jn",     "ldexp",
    "lgamma", "llrint",   "llround", "log",     "log10",     "log1p",     "log2",   "logb",
    "lrint",  "lround",   "modf",    "nan",     "nearbyint", "nextafter", "pow",    "remainder",
    "remquo", "rint",     "round",   "scalbln", "scalbn",    "sin",       "sincos", "sinh",
    "sqrt",   "tan",      "tanh",    "tgamma",  "trunc",     "y0",        "y1",     "yn"};

// The C library's names for what CUDA has in device code under the same name, sent at the link
// to the simulator's (the device heap, a failed assert, the clock): name, the simulator's.
constexpr std::pair<const char*, const char*> kRedirected[] = {
    {"malloc", "rlab_device_malloc"},
    {"free", "rlab_device_free"},
    {"_Znwm", "rlab_device_malloc"},                 // new
    {"_Znam", "rlab_device_malloc"},                 // new[]
    {"_ZnwmRKSt9nothrow_t", "rlab_device_malloc"},   // new (nothrow)
    {"_ZnamRKSt9nothrow_t", "rlab_device_malloc"},   // new[] (nothrow)
    {"_ZnwmSt11align_val_t", "rlab_device_malloc"},  // new, aligned: the heap's 16 bytes
    {"_ZnamSt11align_val_t", "rlab_device_malloc"},  //
    {"_ZdlPv", "rlab_device_free"},                  // delete
    {"_ZdaPv", "rlab_device_free"},                  // delete[]
    {"_ZdlPvm", "rlab_device_free"},                 // sized delete
    {"_ZdaPvm", "rlab_device_free"},                 //
    {"_ZdlPvSt11align_val_t", "rlab_device_free"},   //
    {"_ZdaPvSt11align_val_t", "rlab_device_free"},   //
    {"_ZdlPvmSt11align_val_t", "rlab_device_free"},  //
    {"_ZdaPvmSt11align_val_t", "rlab_device_free"},  //
    {"_ZdlPvRKSt9nothrow_t", "rlab_device_free"},    //
    {"_ZdaPvRKSt9nothrow_t", "rlab_device_free"},    //
    {"__assert_fail", "rlab_device_assert_fail"},    // <cassert>'s assert, included again
    {"clock", "rlab_device_clock"},                  // CUDA's device clock()
};

// What the compiler itself calls in code that is device code: unwinding through the kernel (the
// simulator ends a failed launch's threads with an exception), thread-local access (__shared__),
// the stack protector, virtual functions.
constexpr const char* kCompilerSupport[] = {
    "__tls_get_addr",   "_GLOBAL_OFFSET_TABLE_", "_Unwind_Resume", "__gxx_personality_v0",
    "__stack_chk_fail", "__cxa_pure_virtual",    "memcpy",         "memset",
    "memmove"};

// Host-only C++ machinery, each with what CUDA says about it.
constexpr std::pair<const char*, const char*> kHostMachinery[] = {
    {"__cxa_throw", "throw is host code: CUDA device code has no exceptions"},
    {"__cxa_allocate_exception", "throw is host code: CUDA device code has no exceptions"},
    {"__cxa_rethrow", "throw is host code: CUDA device code has no exceptions"},
    {"__cxa_begin_catch", "catch is host code: CUDA device code has no exceptions"},
    {"__cxa_end_catch", "catch is host code: CUDA device code has no exceptions"},
    {"__cxa_guard_acquire",
     "a static variable initialised by code when first reached: CUDA allows device code only "
     "static variables with constant initialisers"},
    {"__cxa_thread_atexit",
     "a __shared__ or thread_local variable of a type with a destructor: CUDA does not allow "
     "__shared__ variables with constructors or destructors"},
    {"__cxa_atexit",
     "a variable with a destructor that outlives the kernel: CUDA does not allow one in device "
     "code"},
    {"__dynamic_cast", "dynamic_cast needs run-time type information, which device code lacks"},
};

std::string demangled(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;  // a C name ("s" is no mangled "short")
  int status = 0;
  char* readable = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  std::string name = readable ? readable : symbol;
  std::free(readable);
  // Without its parameters: "std::vector<int>::push_back", not the whole signature.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
      if (depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  return name;
}

enum class Verdict { Allowed, Redirected, Refused };

// What the kernel may do with an undefined symbol, and the sentence where it may not.
Verdict judge(const std::string& symbol, std::string& sentence) {
  if (symbol.starts_with("_ZN4rlab3sim6detail")) return Verdict::Allowed;  // the simulator's
  if (symbol.starts_with("__tsan_")) return Verdict::Allowed;  // the race detector's hooks
  if (symbol.starts_with("_ZTVN10__cxxabiv1")) return Verdict::Allowed;  // classes' vtables
  for (const char* name : kCompilerSupport)
    if (symbol == name) return Verdict::Allowed;
  // libgcc's helpers for what the machine has no instruction for (__popcountdi2, __divti3):
  // "__" a lower-case operation, a machine mode and the operand count.
  static const std::regex libgccHelper("__[a-z]+(qi|hi|si|di|ti|sf|df|xf|tf)[1-4]");
  if (std::regex_match(symbol, libgccHelper)) return Verdict::Allowed;
  for (const char* name : kMathFunctions)
    if (symbol == name || symbol == std::string(name) + "f") return Verdict::Allowed;
  for (const auto& [name, ours] : kRedirected)
    if (symbol == name) return Verdict::Redirected;
  for (const auto& [name, why] : kHostMachinery)
    if (symbol == name) {
      sentence = why;
      return Verdict::Refused;
    }
  if (symbol.starts_with("_ZTI") || symbol.starts_with("_ZTS")) {
    sentence = "typeid needs run-time type information, which device code lacks";
    return Verdict::Refused;
  }
  std::string host = RLAB_HOST_FUNCTION_SENTENCE("\x01");
  host.replace(host.find('\x01'), 1, demangled(symbol));
  sentence = host;
  return Verdict::Refused;
}

// ============================================================================================
// [SECTION] Reading the object file
// ============================================================================================

struct Section {
  std::string name;
  uint64_t size = 0, flags = 0;
  uint32_t type = 0, info = 0;
  const unsigned char* data = nullptr;
};

struct Symbol {
  std::string name;
  uint16_t section = 0;
  unsigned char type = 0;
  uint64_t value = 0, size = 0;
};

struct ObjectFile {
  std::string bytes;
  std::vector<Section> sections;
  std::vector<Symbol> symbols;

  bool read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    bytes = all.str();
    if (bytes.size() < sizeof(Elf64_Ehdr)) return false;
    const auto* image = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto& header = *reinterpret_cast<const Elf64_Ehdr*>(image);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_REL || header.e_shoff == 0 ||
        header.e_shoff + uint64_t(header.e_shnum) * sizeof(Elf64_Shdr) > bytes.size() ||
        header.e_shstrndx >= header.e_shnum)
      return false;
    const auto* table = reinterpret_cast<const Elf64_Shdr*>(image + header.e_shoff);
    const Elf64_Shdr& names = table[header.e_shstrndx];
    for (unsigned i = 0; i < header.e_shnum; ++i) {
      const Elf64_Shdr& s = table[i];
      Section section;
      if (s.sh_name < names.sh_size && names.sh_offset + names.sh_size <= bytes.size())
        section.name = reinterpret_cast<const char*>(image + names.sh_offset + s.sh_name);
      section.size = s.sh_size;
      section.flags = s.sh_flags;
      section.type = s.sh_type;
      section.info = s.sh_info;
      if (s.sh_type != SHT_NOBITS && s.sh_offset + s.sh_size <= bytes.size())
        section.data = image + s.sh_offset;
      sections.push_back(section);
    }
    for (unsigned i = 0; i < header.e_shnum; ++i) {
      const Elf64_Shdr& s = table[i];
      if (s.sh_type != SHT_SYMTAB || s.sh_link >= header.e_shnum) continue;
      const Elf64_Shdr& strings = table[s.sh_link];
      if (s.sh_offset + s.sh_size > bytes.size() ||
          strings.sh_offset + strings.sh_size > bytes.size())
        return false;
      const auto* entries = reinterpret_cast<const Elf64_Sym*>(image + s.sh_offset);
      for (size_t k = 0; k < s.sh_size / sizeof(Elf64_Sym); ++k) {
        Symbol symbol;
        if (entries[k].st_name < strings.sh_size)
          symbol.name =
              reinterpret_cast<const char*>(image + strings.sh_offset + entries[k].st_name);
        symbol.section = entries[k].st_shndx;
        symbol.type = ELF64_ST_TYPE(entries[k].st_info);
        symbol.value = entries[k].st_value;
        symbol.size = entries[k].st_size;
        symbols.push_back(symbol);
      }
    }
    return !symbols.empty();
  }

  // Each relocation of an executable or init-array section: (target section, offset, symbol,
  // addend).
  struct Relocation {
    size_t section;
    uint64_t offset;
    size_t symbol;
    int64_t addend;
  };
  std::vector<Relocation> relocations() const {
    std::vector<Relocation> out;
    for (const Section& s : sections) {
      if (s.type != SHT_RELA || !s.data || s.info >= sections.size()) continue;
      const auto* entries = reinterpret_cast<const Elf64_Rela*>(s.data);
      for (size_t k = 0; k < s.size / sizeof(Elf64_Rela); ++k)
        out.push_back({s.info, entries[k].r_offset, size_t(ELF64_R_SYM(entries[k].r_info)),
                       entries[k].r_addend});
    }
    return out;
  }
};

// g++'s -fsanitize=thread adds to every object a constructor of priority 99 that calls
// __tsan_init (the race detector's, which does nothing): the one code a kernel's object runs
// when it is loaded that the learner did not write.
template <class File>
bool isRaceHooksStart(const File& file, size_t section, uint64_t address) {
  for (const auto& s : file.symbols)
    if (s.section == section && s.value == address &&
        (s.name == "_sub_I_00099_0" || s.name == "tsan.module_ctor"))
      return true;
  return false;
}

bool isInitialiserSection(const std::string& name) {
  return name.starts_with(".init_array") || name.starts_with(".ctors") ||
         name.starts_with(".preinit_array");
}

// ============================================================================================
// [SECTION] Lines from the debug information
// ============================================================================================

// The learner's line of each (section, offset): addr2line walks inlined calls from the innermost
// out, and the first line in the learner's file is where their code was.
std::map<std::pair<std::string, uint64_t>, int> learnerLines(
    const std::string& object, const std::string& source,
    const std::set<std::pair<std::string, uint64_t>>& places) {
  std::map<std::pair<std::string, uint64_t>, int> lines;
  std::map<std::string, std::vector<uint64_t>> bySection;
  for (const auto& [section, offset] : places) bySection[section].push_back(offset);
  for (const auto& [section, offsets] : bySection) {
    std::vector<std::string> arguments = {"-e", object, "-i", "-a", "-j", section};
    for (uint64_t offset : offsets) {
      char text[32];
      std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(offset));
      arguments.push_back(text);
    }
    for (const auto& [offset, line] : firstLinesIn(runAddr2line(arguments), source))
      lines[{section, offset}] = line;
  }
  return lines;
}

// The line of the first `__shared__` declaration naming `variable` in the learner's file.
int declarationLine(const std::string& source, const std::string& variable) {
  std::ifstream in(source);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = line.substr(0, line.find("//"));
    const size_t shared = line.find("__shared__");
    if (shared == std::string::npos) continue;
    for (size_t at = line.find(variable, shared); at != std::string::npos;
         at = line.find(variable, at + 1)) {
      const bool before =
          at == 0 || !(std::isalnum((unsigned char)line[at - 1]) || line[at - 1] == '_');
      const size_t after = at + variable.size();
      const bool behind =
          after >= line.size() || !(std::isalnum((unsigned char)line[after]) || line[after] == '_');
      if (before && behind) return number;
    }
  }
  return 0;
}

}  // namespace

// ============================================================================================
// [SECTION] The check and the link
// ============================================================================================

namespace {

using Place = std::pair<std::string, uint64_t>;          // section, offset
using Reported = std::set<std::pair<int, std::string>>;  // (line, sentence): each once

// The undefined names a kernel may not use, each with its sentence; on the way, the extern
// __shared__ arrays and the names the link redirects go into `check`.
std::map<std::string, std::string> refusedNames(const ObjectFile& file, ObjectCheck& check) {
  std::map<std::string, std::string> refused;
  std::set<std::string> redirected;
  for (const Symbol& s : file.symbols) {
    if (s.name.empty() || s.section != SHN_UNDEF) continue;
    if (s.type == STT_TLS) {
      check.dynamicShared.push_back(s.name);
      continue;
    }
    std::string sentence;
    const Verdict verdict = judge(s.name, sentence);
    if (verdict == Verdict::Redirected) redirected.insert(s.name);
    if (verdict == Verdict::Refused) refused[s.name] = sentence;
  }
  check.redirected.assign(redirected.begin(), redirected.end());
  return refused;
}

// Where each refused name is used: the relocations that name it, and the code the loader would
// run.
struct Uses {
  std::vector<std::pair<std::string, Place>> found;  // sentence, place
  std::vector<Place> initialisers;                   // where the code the loader runs starts
  std::set<std::string> placed;
};

Uses usesOf(const ObjectFile& file, const std::map<std::string, std::string>& refused) {
  Uses uses;
  for (const auto& r : file.relocations()) {
    if (r.symbol >= file.symbols.size() || r.section >= file.sections.size()) continue;
    const Section& target = file.sections[r.section];
    const Symbol& symbol = file.symbols[r.symbol];
    if (isInitialiserSection(target.name) && symbol.section < file.sections.size() &&
        !isRaceHooksStart(file, symbol.section, symbol.value + uint64_t(r.addend))) {
      uses.initialisers.push_back(
          {file.sections[symbol.section].name, symbol.value + uint64_t(r.addend)});
      continue;
    }
    auto sentence = refused.find(symbol.name);
    if (!(target.flags & SHF_EXECINSTR) || symbol.section != SHN_UNDEF || sentence == refused.end())
      continue;
    uses.found.push_back({sentence->second, {target.name, r.offset}});
    uses.placed.insert(symbol.name);
  }
  return uses;
}

// Each use at the learner's line, and each initialiser at the first of theirs.
void reportUses(const std::string& object, const std::string& source, const Uses& uses,
                Reported& reported) {
  // An initialiser's first bytes may belong to no line of the learner's (the prologue the race
  // detector's hooks add is the end of the compiler's own file): its line is the first of theirs
  // among its first bytes.
  constexpr uint64_t kInitialiserBytes = 16;
  std::set<Place> places;
  for (const auto& [sentence, place] : uses.found) places.insert(place);
  for (const auto& [section, start] : uses.initialisers)
    for (uint64_t k = 0; k < kInitialiserBytes; ++k) places.insert({section, start + k});
  const auto lines = learnerLines(object, source, places);
  for (const auto& [sentence, place] : uses.found) {
    auto line = lines.find(place);
    reported.insert({line == lines.end() ? 0 : line->second, sentence});
  }
  for (const auto& [section, start] : uses.initialisers) {
    int first = 0;
    for (uint64_t k = 0; k < kInitialiserBytes && first == 0; ++k)
      if (auto line = lines.find({section, start + k}); line != lines.end()) first = line->second;
    reported.insert({first,
                     "a variable at namespace scope is initialised by code when the kernel is "
                     "loaded (a constructor, or a value computed at run time); CUDA initialises "
                     "__device__ variables with constants only"});
  }
}

// __shared__ variables larger than a block's shared memory: nvcc (ptxas) refuses them.
void reportOversizedShared(const ObjectFile& file, const std::string& source, Reported& reported) {
  for (const Symbol& s : file.symbols)
    if (s.type == STT_TLS && s.section != SHN_UNDEF && s.size > sim::kSharedMemoryPerBlock) {
      std::string name = demangled(s.name);
      const size_t colons = name.rfind("::");
      const std::string variable = colons == std::string::npos ? name : name.substr(colons + 2);
      reported.insert({declarationLine(source, variable),
                       "__shared__ " + variable + " takes " + std::to_string(s.size) +
                           " bytes; a block has at most " +
                           std::to_string(sim::kSharedMemoryPerBlock) +
                           " bytes of shared memory, and nvcc refuses more"});
    }
}

}  // namespace

ObjectCheck checkKernelObject(const std::string& object, const std::string& source) {
  ObjectCheck check;
  ObjectFile file;
  if (!file.read(object)) {
    check.failure = Message("compile.object-unreadable", {{"object", object}});
    return check;
  }
  const std::map<std::string, std::string> refused = refusedNames(file, check);
  const Uses uses = usesOf(file, refused);
  Reported reported;
  reportUses(object, source, uses, reported);
  for (const auto& [name, sentence] : refused)
    if (!uses.placed.count(name)) reported.insert({0, sentence});
  reportOversizedShared(file, source, reported);

  for (const auto& [line, sentence] : reported) {
    CompileDiagnostic d;
    d.line = line;
    d.severity = "error";
    d.message = sentence;
    check.refusals.push_back(d);
  }
  return check;
}

std::vector<std::string> kernelLinkOptions(const ObjectCheck& check) {
  std::vector<std::string> options;
  for (const std::string& name : check.redirected)
    for (const auto& [from, to] : kRedirected)
      if (name == from) options.push_back(std::string("-Wl,--defsym=") + from + "=" + to);
  for (const std::string& array : check.dynamicShared)
    options.push_back("-Wl,--defsym=" + array + "=" + sim::kDynamicSharedSymbol);
  return options;
}

std::string deviceLibraryDefinitions() {
  return std::string(
             "// CUDA's device functions that the C library has too, and the buffer every extern\n"
             "// __shared__ array of this file starts at (the launch's dynamic shared memory):\n"
             "// the link sends the learner's calls and arrays here.\n"
             "#define RLAB_HIDDEN extern \"C\" __attribute__((visibility(\"hidden\"), used))\n"
             "RLAB_HIDDEN void* rlab_device_malloc(size_t bytes) {\n"
             "  return ::rlab::sim::detail::deviceMalloc(bytes);\n"
             "}\n"
             "RLAB_HIDDEN void rlab_device_free(void* pointer) {\n"
             "  ::rlab::sim::detail::deviceFree(pointer);\n"
             "}\n"
             "RLAB_HIDDEN void rlab_device_assert_fail(const char* expression, const char* file,\n"
             "                                         unsigned line, const char*) {\n"
             "  ::rlab::sim::detail::failAssertion(expression, file, int(line));\n"
             "}\n"
             "RLAB_HIDDEN long rlab_device_clock() {\n"
             "  return long(clock64());\n"
             "}\n"
             "__attribute__((visibility(\"hidden\"), used)) alignas(16) thread_local unsigned "
             "char ") +
         sim::kDynamicSharedSymbol + "[" + std::to_string(sim::kSharedMemoryPerBlock) + "];\n";
}

}  // namespace rlab
