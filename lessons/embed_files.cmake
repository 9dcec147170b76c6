# Writes embedded_files.cpp: each file in FILES as a raw string, keyed by its path relative to
# ROOT. FILES arrives separated by '|' (a ';' would split the command line).
string(REPLACE "|" ";" FILES "${FILES}")
set(body "// Generated at build time from the kernels and lesson texts.\n#include \"lessons/embedded.hpp\"\n\n#include <map>\n\nnamespace rlab {\n\nconst std::string* embeddedFile(const std::string& path) {\n  static const std::map<std::string, std::string> files = {\n")
foreach(file ${FILES})
  file(READ ${file} text)
  file(RELATIVE_PATH relative ${ROOT} ${file})
  string(APPEND body "      {\"${relative}\", R\"rlab_file(${text})rlab_file\"},\n")
endforeach()
string(APPEND body "  };\n  const auto found = files.find(path);\n  return found == files.end() ? nullptr : &found->second;\n}\n\n}  // namespace rlab\n")
file(WRITE ${OUT} "${body}")
