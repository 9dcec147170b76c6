// Where Reduction Lab's programs and runtime files are, found from the running executable, so
// that an installed, relocated or packaged copy and a build folder all work with no path of
// the build machine baked in:
//   installed:  PREFIX/bin/rlab and reduction-lab, PREFIX/libexec/reduction-lab/ (the exercise
//               runner), PREFIX/share/reduction-lab/ (fonts list, manual)
//   build:      BUILD/app/cli/rlab, BUILD/app/gui/reduction-lab, BUILD/tests/..., with
//               BUILD/libexec/reduction-lab/ and BUILD/share/reduction-lab/ laid out the same
//               way by CMake.
// The folder names come from CMake's GNUInstallDirs (RLAB_DATA_SUBDIR, RLAB_LIBEXEC_SUBDIR).
#pragma once

#include <string>
#include <vector>

namespace rlab {

// The folders that may be the installation's prefix: the running executable's folder's
// parent (installed: PREFIX/bin/..), then its grandparent (the build folder's programs sit one
// folder deeper).
std::vector<std::string> installationPrefixes();

// PREFIX/share/reduction-lab/RELATIVE for the first prefix where that exists, else "".
std::string dataFile(const std::string& relative);
// PREFIX/libexec/reduction-lab/NAME for the first prefix where that is executable, else "".
std::string helperProgram(const std::string& name);
// Another program of the installation: beside the running one (PREFIX/bin), else the build
// folder's (BUILD/app/cli/NAME or BUILD/app/gui/NAME); "" where there is none.
std::string siblingProgram(const std::string& name);

// Where they are looked for, in words, for a sentence that says what was not found.
std::string dataFolders();

}  // namespace rlab
