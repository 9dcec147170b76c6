// A scratch folder of a test's own. ctest runs each test case as its own process, several at a
// time, so a fixed name under /tmp would be shared and emptied under another test's feet: the
// folder's name holds the process id and a count, and it goes with the object.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

struct TempFolder {
  explicit TempFolder(const std::string& name) {
    static std::atomic<int> count{0};
    path = std::filesystem::temp_directory_path() /
           ("rlab-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  std::filesystem::path operator/(const std::string& file) const { return path / file; }
  std::string str() const { return path.string(); }

  std::filesystem::path path;
};

// A file of a test's own, holding `text`, in a scratch folder of its own.
struct TextFile {
  explicit TextFile(const std::string& name, const std::string& text)
      : folder("exercise-file"), path((folder / name).string()) {
    std::ofstream(path) << text;
  }
  TempFolder folder;
  std::string path;
};
