#include <unistd.h>

#include <iostream>

#include "app/cli/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool colour = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  return rlab::cli::main(args, std::cout, std::cerr, colour);
}
