#include <unistd.h>

#include <iostream>

#include "app/cli/cli.hpp"
#include "app/cli/terminal.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  rlab::cli::Terminal terminal;
  terminal.colour = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  terminal.width = rlab::cli::terminalWidth();
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) terminal.keys = &std::cin;
  terminal.answers = &std::cin;
  if (isatty(STDOUT_FILENO)) terminal.pager = rlab::cli::showInPager;
  return rlab::cli::main(args, std::cout, std::cerr, terminal);
}
