// A learner's kernel file, compiled for the simulator: the system C++ compiler (the one that
// built Reduction Lab) compiles it after kernels/sim/shim.hpp into a shared object whose one
// visible symbol, rlab_exercise_kernel, returns the kernel the exercise asks for. The compiler's
// messages come back at the learner's own lines.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lessons/engine/exercise/exercises.hpp"

namespace rlab {

struct CompileDiagnostic {
  int line = 0;  // in the learner's file, from 1; 0 where the compiler named none of its lines
  int column = 0;
  std::string severity;  // "error" or "warning"
  std::string message;   // the compiler's words, or the sentence of a refusal
  bool refusal = false;  // a CUDA name the simulator refuses (its sentence, not the compiler's)
  // "fold.cu:12:5: error: 'x' was not declared in this scope"
  std::string text(const std::string& fileName) const;
};

struct CompileResult {
  bool ok = false;
  std::string library;  // the shared object, in the scratch folder
  std::vector<CompileDiagnostic> diagnostics;
  std::string output;  // the compiler's own output, as printed
  Message failure;     // the compiler could not run or was stopped: one sentence
  bool cancelled = false;
  double seconds = 0;
};

// The compiler: $RLAB_CXX, else the C++ compiler this build was made with, else (installed on
// a machine without that one) c++, g++ or clang++ on PATH.
std::string systemCompiler();

// A folder of its own under $TMPDIR, removed with everything in it when this goes.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Compiles `source` (a path) for exercise `e` into `folder`. The shim headers are written
// there from the copies embedded in this build, so the library matches the runner that loads
// it. `keepGoing` false stops the compiler (Cancel).
// `raceHooks`: the race detector's hooks before every load and store (-fsanitize=thread).
CompileResult compileForSimulator(const Exercise& e, const std::string& source,
                                  const std::string& folder,
                                  const std::function<bool()>& keepGoing = {},
                                  bool raceHooks = true);

// The compiler's output read into diagnostics at the learner's lines (pure, for tests).
// `source` and `entry` are the paths the compiler was given for the learner's file and for
// the generated file that includes it; an error in the latter means the kernel the exercise
// asks for is missing or has another signature.
std::vector<CompileDiagnostic> parseCompilerOutput(const std::string& output,
                                                   const std::string& source,
                                                   const std::string& entry, const Exercise& e);

}  // namespace rlab
