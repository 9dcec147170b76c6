// rlab list: the lessons, their variants and limits.
#include <ostream>

#include "app/cli/subcommands.hpp"
#include "app/cli/views.hpp"

namespace rlab::cli {

int listCommand(const Command& c, std::ostream& out, std::ostream&, bool) {
  if (c.format == Format::Json)
    out << lessonsJson().dump(2) << "\n";
  else
    printLessonList(out, c.terminal.width);
  return 0;
}

}  // namespace rlab::cli
