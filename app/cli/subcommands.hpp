// The subcommands, one file each; cli.cpp dispatches to them by name.
#pragma once

#include <iosfwd>

#include "app/cli/cli.hpp"
#include "lessons/engine/exercise/exercises.hpp"

namespace rlab::cli {

using Subcommand = int (*)(const Command& c, std::ostream& out, std::ostream& err, bool colour);

int listCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int runCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int raceCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int benchCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int checkCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int profileCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int recordCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int lessonCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int tourCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int exerciseCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int modelCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int exportCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
int quizCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
// rlab exercise progress (exercise_progress.cpp), which exerciseCommand hands over to.
int exerciseProgressCommand(const Command& c, std::ostream& out, std::ostream& err, bool colour);
// rlab exercise grade (grade.cpp), on the backend the check would use.
int gradeExerciseFile(const Exercise& e, const Command& c, std::ostream& out, std::ostream& err,
                      BackendChoice backend);

}  // namespace rlab::cli
