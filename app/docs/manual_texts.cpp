#include "app/docs/manual_texts.hpp"

#include "lessons/engine/exercise/exercises.hpp"
#include "lessons/engine/registry.hpp"
#include "lessons/engine/texts/texts.hpp"

namespace rlab::docs {

namespace {

std::string lessonList() {
  std::string out;
  for (const LessonInfo& lesson : lessons()) {
    std::string variants;
    if (lesson.variants.size() > 1)
      for (const VariantInfo& v : lesson.variants)
        variants += (variants.empty() ? " (variants: " : ", ") + v.id;
    out += ".TP\n.B " + roff(lesson.id) + "\n" + roff(text::lessonTitle(lesson.id, Language::En)) +
           (variants.empty() ? "" : roff(variants) + ")") + "\n";
  }
  return out;
}

std::string exerciseList() {
  std::string out;
  for (const Exercise& e : exercises())
    out +=
        ".TP\n.B " + roff(e.id) + "\n" + roff("lesson " + e.lesson + ": " + e.signature()) + "\n";
  return out;
}

std::string chapterList() {
  std::string out;
  for (const std::string& id : chapterIds()) out += (out.empty() ? "" : ", ") + id;
  return roff(out);
}

const char* const kChapterFormat =
    "A chapter is one Markdown file (CommonMark with tables, UTF-8). Its first line is\n"
    ".B #\n"
    "and the title. On top of plain Markdown:\n"
    ".IP \\(bu 2\n"
    "a link whose target starts with\n"
    ".B try:\n"
    "sets the controls and runs, e.g.\n"
    ".B [thread 4 late](try:lesson=barrier&n=8&barrier=off&schedule=stall:4:2:1)\n"
    "(the keys are rlab run's options; a teacher's chapter names the lesson in every link);\n"
    ".IP \\(bu 2\n"
    ".B <!\\-\\- steps: QUERY \\-\\->\n"
    "followed by a list: item k is said at step k of exactly that run (step 0 is the input);\n"
    ".IP \\(bu 2\n"
    ".B <!\\-\\- predict: result|faster|idle QUERY \\-\\->\n"
    "followed by a paragraph, the question; the app answers it with a run;\n"
    ".IP \\(bu 2\n"
    ".B <details><summary>Question</summary>\n"
    "\\&... \n"
    ".B </details>\n"
    "folds an answer away.\n"
    ".PP\n"
    "Checking a chapter reads its format, resolves every try link and prediction as rlab run\n"
    "would, and runs every narrated run on the simulator to count its steps against the list.\n"
    "A problem is reported as FILE:LINE: and the reason.\n";

ManualText titled(const char* name, const char* summary, const std::string& version,
                  const std::string& date) {
  ManualText t;
  t.name = name;
  t.summary = summary;
  t.version = version;
  t.date = date;
  return t;
}

}  // namespace

ManualText rlabText(const std::string& version, const std::string& date) {
  ManualText t = titled("rlab",
                        "GPU parallel reduction lessons in a terminal: run, race, time and check "
                        "the kernels",
                        version, date);
  t.beforeOptions = {
      {"DESCRIPTION",
       ".B rlab\n"
       "runs the real CUDA kernels of Reduction Lab's lessons and prints the array after every\n"
       "step, the threads that worked in it, the result against a host reference, and timings.\n"
       "Without a working CUDA device the same kernel source runs on a CPU simulator of CUDA\n"
       "threads, deterministically: a schedule such as\n"
       ".B stall:4:2:1\n"
       "replays a race exactly. The desktop app,\n"
       ".BR reduction\\-lab (1),\n"
       "shows the same lessons.\n"
       ".PP\n"
       "Bad input is one line on standard error naming the option and what is allowed, exit\n"
       "status 2, and nothing on standard output.\n"},
      {"LESSONS", lessonList()},
  };
  t.afterOptions = {
      {"CHAPTERS",
       "The course's chapters are " + chapterList() +
           " (rlab lesson prints one). A teacher's own chapter is a Markdown file in the same "
           "format:\n.B rlab lesson FILE.md\nprints it and\n.B rlab lesson \\-\\-check FILE.md\n"
           "checks it.\n.PP\n" +
           kChapterFormat},
      {"EXERCISES", exerciseList()},
      {"ENVIRONMENT",
       ".TP\n.B LANG\\fR, \\fBLC_ALL\\fR, \\fBLC_MESSAGES\n"
       "The texts' language when --lang is not given: ja_* Japanese, zh_* Chinese, else "
       "English.\n"
       ".TP\n.B NO_COLOR\nSet: no colours, even on a terminal.\n"
       ".TP\n.B RLAB_CXX\n"
       "The C++ compiler that compiles a learner's kernel for the simulator (default: the one "
       "Reduction Lab was built with, else c++, g++ or clang++ on PATH).\n"
       ".TP\n.B RLAB_EXERCISE_RUNNER\n"
       "The exercise runner to use instead of the installation's "
       "(libexec/reduction\\-lab/rlab\\-exercise\\-runner).\n"
       ".TP\n.B RLAB_EXECUTABLE\n"
       "The rlab that rlab check runs under compute\\-sanitizer (default: this one).\n"
       ".TP\n.B RLAB_NCCL\nThe NCCL library for the allreduce lesson's nccl variant.\n"
       ".TP\n.B TMPDIR\nWhere an exercise is compiled (a folder of its own, removed after).\n"
       ".TP\n.B XDG_DATA_HOME\n"
       "Where the learner's exercise files and progress go (default: ~/.local/share).\n"
       ".TP\n.B RLAB_EXERCISE_DIR\nWhere the learner's exercise files live instead.\n"},
      {"FILES",
       ".TP\n.I ~/.local/share/reduction\\-lab/exercises/ID/ID.cu\n"
       "The learner's file of exercise ID, which rlab exercise start writes, rlab exercise check "
       "checks when no FILE is given, and the app opens.\n"
       ".TP\n.I ~/.local/share/reduction\\-lab/progress.json\n"
       "Each exercise's mark (done, tried or not started), written after every start and full "
       "check, here and in the app; rlab exercise progress prints it.\n"
       ".TP\n.I PREFIX/libexec/reduction\\-lab/rlab\\-exercise\\-runner\n"
       "Runs a learner's compiled kernel in a process of its own.\n"
       ".TP\n.I PREFIX/share/reduction\\-lab/\n"
       "The fonts list and the manual. Both are found from the program's own place, so a "
       "relocated installation works.\n"},
      {"EXIT STATUS",
       ".TP\n.B 0\nDone (a race with wrong runs, a check that found hazards and a failed "
       "exercise check are done too).\n"
       ".TP\n.B 1\nA kernel could not finish, a run failed under the sanitizer, or a chapter "
       "check found problems.\n"
       ".TP\n.B 2\nBad input, or no GPU where one was required.\n"},
      {"EXAMPLES",
       ".TP\n.B rlab run barrier \\-\\-no\\-barrier \\-\\-schedule stall:4:2:1\n"
       "The seeds' figure: thread 4 is late, the sum of 1..8 comes out 21, 15 short.\n"
       ".TP\n.B rlab race barrier \\-\\-no\\-barrier \\-\\-witness\n"
       "The smallest schedule that makes the run wrong.\n"
       ".TP\n.B rlab exercise start fold\\-any\\-length && rlab exercise check "
       "fold\\-any\\-length\n"
       "Write a kernel yourself (in ~/.local/share/reduction\\-lab/exercises/fold\\-any\\-length/, "
       "where the app opens it too) and check it; a pass names the next exercise.\n"
       ".TP\n.B rlab exercise progress\n"
       "Your path through the course: each lesson's exercises, done or not, and the next one.\n"
       ".TP\n.B rlab tour \\-\\-lang ja\nEvery lesson once, in Japanese.\n"},
      {"SEE ALSO", ".BR reduction\\-lab (1)\n"},
  };
  return t;
}

ManualText appText(const std::string& version, const std::string& date) {
  ManualText t =
      titled("reduction-lab", "watch real GPU reduction kernels work, step by step", version, date);
  t.beforeOptions = {
      {"DESCRIPTION",
       ".B reduction\\-lab\n"
       "is the desktop app of Reduction Lab, a course on GPU parallel reduction: lessons on the "
       "left, the step player and the array after each step in the middle, the controls, the "
       "result and the kernel source on the right. On a machine whose CUDA device works it "
       "runs the lessons' kernels there; otherwise on the CPU simulator, and says why.\n"
       ".PP\n"
       "File \\(-> Open chapter opens a teacher's own chapter, a Markdown file in the lesson "
       "format (see CHAPTERS), beside the built\\-in lessons; Help \\(-> Manual opens the "
       "manual.\n"},
  };
  t.afterOptions = {
      {"KEYS",
       ".TP\n.B Space\nPlay or pause the steps.\n"
       ".TP\n.B Left\\fR, \\fBRight\\fR, \\fBHome\\fR, \\fBEnd\nStep back, forward, to the "
       "first or the last step.\n"
       ".TP\n.B P\nPresenter mode: large type and high contrast for a projector.\n"
       ".TP\n.B Ctrl+= \\fRand\\fB Ctrl+\\-\nLarger or smaller text.\n"},
      {"CHAPTERS", kChapterFormat},
      {"ENVIRONMENT",
       ".TP\n.B LANG\\fR, \\fBLC_ALL\\fR, \\fBLC_MESSAGES\n"
       "The language when --lang is not given: ja_* Japanese, zh_* Chinese, else English.\n"
       ".TP\n.B RLAB_EXERCISE_DIR\nWhere the learner's exercise files live.\n"
       ".TP\n.B XDG_CONFIG_HOME\\fR, \\fBXDG_DATA_HOME\n"
       "Where the settings, the exercise files and the progress go (default: ~/.config and "
       "~/.local/share).\n"
       ".TP\n.B RLAB_CXX\\fR, \\fBRLAB_EXERCISE_RUNNER\\fR, \\fBRLAB_EXECUTABLE\nAs for "
       ".BR rlab (1).\n"},
      {"FILES",
       ".TP\n.I ~/.config/reduction\\-lab/settings.json\n"
       "The lesson, the controls and the mode, remembered for the next class (--reset-settings "
       "forgets them).\n"
       ".TP\n.I ~/.local/share/reduction\\-lab/exercises/\nThe learner's exercise files, "
       "ID/ID.cu for exercise ID, shared with rlab (a file the app kept as ID.cu there before "
       "is moved into ID/).\n"
       ".TP\n.I ~/.local/share/reduction\\-lab/progress.json\n"
       "Which exercises the learner passed and tried, shared with rlab: the lesson list marks "
       "each one.\n"
       ".TP\n.I PREFIX/share/reduction\\-lab/fonts.txt\n"
       "The fonts the app draws with (DejaVu; Noto Sans CJK for Japanese and Chinese).\n"
       ".TP\n.I PREFIX/share/reduction\\-lab/manual/\nThe manual that Help opens.\n"},
      {"EXIT STATUS",
       ".TP\n.B 0\nClosed, or the screenshot was written.\n"
       ".TP\n.B 1\nNo display, or a file could not be written.\n"
       ".TP\n.B 2\nBad input, or a chapter that does not pass its check.\n"},
      {"SEE ALSO", ".BR rlab (1)\n"},
  };
  return t;
}

}  // namespace rlab::docs
