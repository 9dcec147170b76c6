#include "lessons/engine/system/installation.hpp"

#include <sys/stat.h>

#include "lessons/engine/system/process.hpp"

#ifndef RLAB_DATA_SUBDIR
#define RLAB_DATA_SUBDIR "share/reduction-lab"
#endif
#ifndef RLAB_LIBEXEC_SUBDIR
#define RLAB_LIBEXEC_SUBDIR "libexec/reduction-lab"
#endif

namespace rlab {

std::vector<std::string> installationPrefixes() {
  const std::string self = runningExecutable();
  if (self.empty()) return {};
  const std::string folder = folderOf(self);
  return {folder + "/..", folder + "/../.."};
}

std::string dataFile(const std::string& relative) {
  for (const std::string& prefix : installationPrefixes()) {
    const std::string path = prefix + "/" RLAB_DATA_SUBDIR "/" + relative;
    struct stat info {};
    if (stat(path.c_str(), &info) == 0) return path;
  }
  return "";
}

std::string helperProgram(const std::string& name) {
  for (const std::string& prefix : installationPrefixes()) {
    const std::string path = prefix + "/" RLAB_LIBEXEC_SUBDIR "/" + name;
    if (isExecutableFile(path)) return path;
  }
  return "";
}

std::string siblingProgram(const std::string& name) {
  const std::string self = runningExecutable();
  if (self.empty()) return "";
  const std::string folder = folderOf(self);
  for (const std::string& path :
       {folder + "/" + name, folder + "/../app/cli/" + name, folder + "/../cli/" + name,
        folder + "/../gui/" + name, folder + "/../app/gui/" + name})
    if (isExecutableFile(path)) return path;
  return "";
}

std::string dataFolders() {
  std::string list;
  for (const std::string& prefix : installationPrefixes())
    list += (list.empty() ? "" : " or ") + prefix + "/" RLAB_DATA_SUBDIR;
  return list.empty() ? "(the running program could not be found)" : list;
}

}  // namespace rlab
