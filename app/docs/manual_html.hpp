// The manual (assets/manual/*.md) as HTML pages for the desktop's browser: the app's Help menu
// opens PREFIX/share/reduction-lab/manual/index.html. README.md is the index; links between
// the Markdown files become links between the pages.
#pragma once

#include <string>

namespace rlab::docs {

// One page: the Markdown rendered by md4c-html inside a small HTML document.
std::string manualPageHtml(const std::string& markdown);
// Every .md file of `from` as a page in `to` (README.md as index.html). False, with a sentence
// on stderr, where one could not be read or written.
bool writeManual(const std::string& from, const std::string& to);

}  // namespace rlab::docs
