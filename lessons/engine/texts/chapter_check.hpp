// A chapter checked as the course checks its own (tests/texts_test.cpp uses this too): the
// format, every try link and prediction resolved as rlab run would resolve it, and every
// narration's list counted against the steps of its run on the simulator. A teacher's own
// chapter is a Markdown file in the same format, read here and checked the same way;
// `rlab lesson --check`, `reduction-lab --chapter` and the app's File menu use it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lessons/engine/texts/texts.hpp"

namespace rlab {

// Every problem of the chapter, in line order. `chapter` is the lesson a try link may leave
// unnamed: the chapter's own id for the course's chapters; for a teacher's file, whose links
// name their lesson, its file name. `keepGoing` is asked before each narrated run; false stops
// the check (what was found so far is returned).
std::vector<text::Problem> checkChapter(const text::Document& doc, const std::string& chapter,
                                        const std::function<bool()>& keepGoing = {});

// A teacher's chapter: the file read and parsed (not yet checked). Throws ParamError in one
// sentence when it cannot be read, is empty, is larger than 1 MiB or is not UTF-8 (with the
// line).
text::Document readChapterFile(const std::string& path);

// "FILE:LINE: reason" (or "FILE: reason" for the whole file), as compilers write them, the reason
// in `language`.
std::string problemLine(const std::string& file, const text::Problem& problem,
                        Language language = Language::En);

}  // namespace rlab
