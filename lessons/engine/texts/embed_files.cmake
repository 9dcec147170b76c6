# Writes OUT: each file in FILES as a raw string, keyed by its path relative to ROOT, behind
# `const std::string* FUNCTION(const std::string& path)` in NAMESPACE, declared in HEADER.
# The defaults give the core's rlab::embeddedFile (kernels and lesson texts); the app embeds
# its strings files the same way under another name. With LIST_FUNCTION, also
# `std::vector<std::string> LIST_FUNCTION()`: every path, in order (the core's recordings are
# found so). FILES arrives separated by '|' (a ';' would split the command line).
string(REPLACE "|" ";" FILES "${FILES}")
if(NOT HEADER)
  set(HEADER lessons/engine/texts/embedded.hpp)
endif()
if(NOT NAMESPACE)
  set(NAMESPACE rlab)
endif()
if(NOT FUNCTION)
  set(FUNCTION embeddedFile)
endif()
set(body "// Generated at build time by lessons/engine/texts/embed_files.cmake.\n#include \"${HEADER}\"\n\n#include <map>\n\nnamespace ${NAMESPACE} {\n\nconst std::string* ${FUNCTION}(const std::string& path) {\n  static const std::map<std::string, std::string> files = {\n")
foreach(file ${FILES})
  file(READ ${file} text)
  file(RELATIVE_PATH relative ${ROOT} ${file})
  string(APPEND body "      {\"${relative}\", R\"rlab_file(${text})rlab_file\"},\n")
endforeach()
string(APPEND body "  };\n  const auto found = files.find(path);\n  return found == files.end() ? nullptr : &found->second;\n}\n")
if(LIST_FUNCTION)
  string(APPEND body "\nstd::vector<std::string> ${LIST_FUNCTION}() {\n  return {\n")
  foreach(file ${FILES})
    file(RELATIVE_PATH relative ${ROOT} ${file})
    string(APPEND body "      \"${relative}\",\n")
  endforeach()
  string(APPEND body "  };\n}\n")
endif()
string(APPEND body "\n}  // namespace ${NAMESPACE}\n")
file(WRITE ${OUT} "${body}")
