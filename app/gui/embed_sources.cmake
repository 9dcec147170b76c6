# Writes kernel_sources.cpp: each kernels/*.cuh as a raw string, keyed by its path.
# FILES arrives separated by '|' (a ';' would split the command line).
string(REPLACE "|" ";" FILES "${FILES}")
set(body "// Generated from kernels/*.cuh at build time.\n#include <map>\n#include <string>\n\nnamespace rlab::gui {\n\nconst std::map<std::string, std::string>& kernelSources() {\n  static const std::map<std::string, std::string> sources = {\n")
foreach(file ${FILES})
  file(READ ${file} text)
  file(RELATIVE_PATH relative ${ROOT} ${file})
  string(APPEND body "      {\"${relative}\", R\"rlab_source(${text})rlab_source\"},\n")
endforeach()
string(APPEND body "  };\n  return sources;\n}\n\n}  // namespace rlab::gui\n")
file(WRITE ${OUT} "${body}")
