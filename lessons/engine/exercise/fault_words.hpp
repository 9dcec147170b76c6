// A crash or hang of the exercise runner in the learner's words: the learner's line among the
// library offsets the runner reported, and the sentence for its @crash and @hang lines (the
// thread that ran, the buffer and element past whose end it read or wrote, the signal).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lessons/engine/texts/messages.hpp"

namespace rlab {

// "kernel.cu:5": the first of the reported offsets ("0x1a2b,0x1c00", innermost first) that
// addr2line places in `source`, the learner's file, as its name and line; "" where none is.
std::string learnerLine(const std::string& library, const std::string& source,
                        const std::string& pcs);
// addr2line's output with -a and -i (each address, then its lines from the innermost inlined
// call out): for each address, the number of its first line in `source`, where it has one.
std::map<uint64_t, int> firstLinesIn(const std::string& output, const std::string& source);
// learnerLine for each of many single offsets ("0x1a2b") in one call of addr2line: offset ->
// "kernel.cu:5", none for an offset outside `source`.
std::map<std::string, std::string> learnerLines(const std::string& library,
                                                const std::string& source,
                                                const std::vector<std::string>& offsets);
// The sentence for the fields of an @crash line (SIGNAL CASE RUNNING BLOCK THREAD ADDRESS WRITE
// FENCE NAME INDEX COUNT HEAP PCS) and of an @hang line (MILLISECONDS CASE RUNNING BLOCK THREAD
// PCS), `where` the learner's line or "".
Message crashText(const std::vector<std::string>& f, const std::string& where);
Message hangText(const std::vector<std::string>& f, const std::string& where);

}  // namespace rlab
