// Shared memory: which bytes of the worker thread are a kernel's __shared__ variables, and what
// the source calls them, so that launch() can poison exactly those at every block's start and
// the onBarrier callback can name them. Found in the ELF symbol table of the module (program or
// dlopen'ed library) that holds the kernel, and in that module's thread-local storage.
//
// __shared__ is `static thread_local`, and every block runs on the worker thread, so a kernel's
// shared memory is the worker's copy of the kernel's static thread-local variables. The
// compiler names those after the function: the Itanium ABI spells `s` in `k<int>` as
// `_ZZ<encoding of k<int>>E1s`. So the symbol table of the module that holds the kernel says
// exactly which thread-local bytes are its shared memory; a read before a write then shows a
// poison byte, and nothing else on the worker (any other thread-local) is touched.
// A module without a symbol table (stripped) cannot say which of its thread-locals are shared
// memory, and poisoning them all would poison the program's own: launch() refuses its kernels.

#include "kernels/sim/detail/shared_memory.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cxxabi.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

namespace rlab::sim::detail {

namespace {

// Where the kernel's module lives in this process, and the worker's copy of its TLS.
struct LoadedModule {
  std::string file;
  uintptr_t bias = 0;
  unsigned char* tls = nullptr;  // this thread's TLS block of the module
  size_t tlsBytes = 0;
  size_t tlsModule = 0;  // the dynamic linker's number for the module's TLS block
};

// A library loaded with dlopen (a learner's kernel) gets each thread's copy of its TLS block
// only when that thread first touches one of its thread-locals, so the worker has none before
// the module's first kernel has run there: without one the first block of the first launch
// would go unpoisoned. glibc's __tls_get_addr, which every access from such a library goes
// through, allocates it; asked for offset 0, it returns the block's start.
struct TlsIndex {
  unsigned long module, offset;
};
extern "C" void* __tls_get_addr(TlsIndex*);

unsigned char* allocateTlsBlock(size_t module) {
  TlsIndex index{module, 0};
  return static_cast<unsigned char*>(__tls_get_addr(&index));
}

std::optional<LoadedModule> moduleHolding(const void* address) {
  struct Search {
    uintptr_t address;
    std::optional<LoadedModule> found;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        bool holds = false;
        LoadedModule module;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz)
            holds = true;
          if (ph.p_type == PT_TLS) {
            module.tls = static_cast<unsigned char*>(info->dlpi_tls_data);
            module.tlsBytes = ph.p_memsz;
            module.tlsModule = info->dlpi_tls_modid;
          }
        }
        if (!holds) return 0;
        const bool mainProgram = !info->dlpi_name || !*info->dlpi_name;
        module.file = mainProgram ? "/proc/self/exe" : info->dlpi_name;
        module.bias = info->dlpi_addr;
        s->found = std::move(module);
        return 1;
      },
      &search);
  return search.found;
}

// The source name in what follows a static local's prefix: "1s" is `s`, "5total_0" the second
// `total` of the function (the Itanium ABI's <source-name> and discriminator).
std::string sourceName(std::string_view rest) {
  size_t digits = 0, length = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
    length = length * 10 + size_t(rest[digits++] - '0');
  if (digits == 0 || digits + length > rest.size()) return "";
  return std::string(rest.substr(digits, length));
}

// "s" of "_ZN2ns1sE" or of a plain "s": what the source calls a variable at namespace scope.
std::string lastComponent(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;  // a C name, or one at global scope: as it is
  int status = 0;
  char* readable = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  std::string name = readable ? readable : symbol;
  std::free(readable);
  const size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

// The symbols of one ELF file that matter here: functions (to name a kernel by its address)
// and thread-local variables (offsets into the module's TLS block).
class SymbolTable {
 public:
  explicit SymbolTable(const std::string& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && size_t(st.st_size) >= sizeof(ElfW(Ehdr))) {
      void* map = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED) {
        read(static_cast<const unsigned char*>(map), size_t(st.st_size));
        ::munmap(map, size_t(st.st_size));
      }
    }
    ::close(fd);
  }

  bool empty() const { return functions_.empty(); }

  // The name of the function whose code holds `offset` (an address less the load bias).
  const std::string* functionAt(uintptr_t offset) const {
    auto after =
        std::upper_bound(functions_.begin(), functions_.end(), offset,
                         [](uintptr_t value, const Function& f) { return value < f.start; });
    if (after == functions_.begin()) return nullptr;
    const Function& f = *std::prev(after);
    return offset < f.start + std::max<uint64_t>(f.size, 1) ? &f.name : nullptr;
  }

  // The thread-local variables whose names start with `prefix`: (offset in the TLS block, size).
  struct Found {
    uint64_t offset, size;
    std::string name;  // as the source spells it
  };
  std::vector<Found> threadLocalsNamed(std::string_view prefix) const {
    std::vector<Found> found;
    for (const auto& v : threadLocals_)
      if (std::string_view(v.name).substr(0, prefix.size()) == prefix)
        found.push_back(
            {v.offset, v.size, sourceName(std::string_view(v.name).substr(prefix.size()))});
    return found;
  }

  // The thread-local variable called exactly `name`, and the other names it has (the aliases
  // the exercise compiler gives each `extern __shared__` array), as the source spells them.
  std::optional<Found> threadLocal(std::string_view name, std::vector<std::string>* aliases) const {
    for (const auto& v : threadLocals_) {
      if (v.name != name) continue;
      if (aliases)
        for (const auto& other : threadLocals_)
          if (other.offset == v.offset && other.name != name)
            aliases->push_back(lastComponent(other.name));
      return Found{v.offset, v.size, v.name};
    }
    return std::nullopt;
  }

 private:
  struct Function {
    uint64_t start, size;
    std::string name;
  };
  struct ThreadLocal {
    uint64_t offset, size;
    std::string name;
  };

  void read(const unsigned char* image, size_t bytes) {
    const auto& header = *reinterpret_cast<const ElfW(Ehdr)*>(image);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_shoff == 0 ||
        header.e_shoff + uint64_t(header.e_shnum) * sizeof(ElfW(Shdr)) > bytes)
      return;
    const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(image + header.e_shoff);
    for (unsigned i = 0; i < header.e_shnum; ++i) {
      const ElfW(Shdr)& table = sections[i];
      if (table.sh_type != SHT_SYMTAB || table.sh_link >= header.e_shnum) continue;
      const ElfW(Shdr)& strings = sections[table.sh_link];
      if (table.sh_offset + table.sh_size > bytes || strings.sh_offset + strings.sh_size > bytes)
        return;
      const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(image + table.sh_offset);
      const char* names = reinterpret_cast<const char*>(image + strings.sh_offset);
      for (size_t k = 0; k < table.sh_size / sizeof(ElfW(Sym)); ++k) {
        const ElfW(Sym)& sym = symbols[k];
        if (sym.st_name >= strings.sh_size || sym.st_shndx == SHN_UNDEF) continue;
        const char* name = names + sym.st_name;
        if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC)
          functions_.push_back({sym.st_value, sym.st_size, name});
        else if (ELF64_ST_TYPE(sym.st_info) == STT_TLS)
          threadLocals_.push_back({sym.st_value, sym.st_size, name});
      }
    }
    std::sort(functions_.begin(), functions_.end(),
              [](const Function& a, const Function& b) { return a.start < b.start; });
  }

  std::vector<Function> functions_;
  std::vector<ThreadLocal> threadLocals_;
};

// What a static local of `function` is called begins with this: "_ZZ", the function's
// encoding (its mangled name less "_Z", or length and name for an extern "C" one), then "E".
std::string staticLocalPrefix(const std::string& function) {
  if (function.rfind("_Z", 0) == 0) return "_ZZ" + function.substr(2) + "E";
  return "_ZZ" + std::to_string(function.size()) + function + "E";
}

}  // namespace

namespace {

struct KernelShared {
  std::vector<ByteRange> variables;
  ByteRange dynamic;     // the module's buffer for extern __shared__, if it has one
  std::string stripped;  // the module's file, where it has thread-locals and no symbols
};

const KernelShared& sharedOf(const void* kernel) {
  static std::map<const void*, KernelShared> kernels;
  static std::map<std::string, SymbolTable> tables;
  auto known = kernels.find(kernel);
  if (known != kernels.end()) return known->second;
  static const KernelShared none;
  auto module = moduleHolding(kernel);
  if (!module) return none;
  if (module->tlsBytes && !module->tls) module->tls = allocateTlsBlock(module->tlsModule);
  KernelShared& found = kernels[kernel];
  if (!module->tlsBytes) return found;  // the module has no thread-locals at all
  auto table = tables.find(module->file);
  if (table == tables.end()) table = tables.emplace(module->file, module->file).first;
  const std::string* name =
      table->second.functionAt(reinterpret_cast<uintptr_t>(kernel) - module->bias);
  if (!name) {  // named as the user knows it, not as the table was read
    std::error_code unknown;
    const std::filesystem::path program = std::filesystem::read_symlink(module->file, unknown);
    found.stripped = module->file == "/proc/self/exe" && !unknown ? program.string() : module->file;
    return found;
  }
  for (const auto& v : table->second.threadLocalsNamed(staticLocalPrefix(*name)))
    if (v.offset + v.size <= module->tlsBytes)
      found.variables.push_back({module->tls + v.offset, module->tls + v.offset + v.size, v.name});
  std::vector<std::string> aliases;
  if (auto buffer = table->second.threadLocal(kDynamicSharedSymbol, &aliases);
      buffer && !aliases.empty() && buffer->offset + buffer->size <= module->tlsBytes) {
    std::string names;
    for (const std::string& alias : aliases) names += (names.empty() ? "" : ", ") + alias;
    found.dynamic = {module->tls + buffer->offset, module->tls + buffer->offset + buffer->size,
                     names};
  }
  return found;
}

}  // namespace

const std::vector<ByteRange>& sharedVariablesOf(const void* kernel) {
  return sharedOf(kernel).variables;
}

const ByteRange& dynamicSharedOf(const void* kernel) {
  return sharedOf(kernel).dynamic;
}

const std::string& strippedModuleOf(const void* kernel) {
  return sharedOf(kernel).stripped;
}

}  // namespace rlab::sim::detail
