// The learner's source, read as a C++ preprocessor would see its lines: comments and string
// literals skipped, #include directives and the `asm` keyword found with their lines.

#include "lessons/engine/exercise/source_check.hpp"

#include <cctype>
#include <regex>

#include "lessons/engine/exercise/cuda_surface.hpp"

namespace rlab {

namespace {

bool isWordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isWord(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

CompileDiagnostic refusal(int line, int column, std::string message) {
  CompileDiagnostic d;
  d.line = line;
  d.column = column;
  d.severity = "error";
  d.message = std::move(message);
  return d;
}

// The rest of an #include directive (after the word), as the learner wrote it.
void checkInclude(const std::string& rest, int line, int column, bool onGpu,
                  std::vector<CompileDiagnostic>& out) {
  size_t at = rest.find_first_not_of(" \t");
  if (at == std::string::npos) return;  // the compiler says what is wrong
  const char open = rest[at];
  const char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
  const size_t end = close ? rest.find(close, at + 1) : std::string::npos;
  if (!close || end == std::string::npos) {
    out.push_back(refusal(line, column,
                          "an #include that names no header (a macro?) cannot be checked; write "
                          "the header's name in <> or \"\""));
    return;
  }
  const std::string name = rest.substr(at + 1, end - at - 1);
  const std::string sentence = headerRefusal(name, onGpu);
  const bool cudaHeader = sentence.empty() || sentence.find(" is CUDA,") != std::string::npos;
  if (open == '"' && !cudaHeader) {
    out.push_back(refusal(line, column,
                          "\"" + name +
                              "\" cannot be included: the check compiles this one file on its "
                              "own, so what the kernel needs belongs in it"));
    return;
  }
  if (!sentence.empty()) out.push_back(refusal(line, column, sentence));
}

}  // namespace

std::vector<CompileDiagnostic> checkKernelSource(const std::string& text, bool onGpu) {
  std::vector<CompileDiagnostic> out;
  int line = 1;
  size_t lineStart = 0;
  bool atLineStart = true;  // only blanks so far on this line
  auto column = [&](size_t at) { return int(at - lineStart) + 1; };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = ++i;
      atLineStart = true;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {  // to the end of the line
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      for (i += 2;
           i < text.size() && !(text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/'); ++i)
        if (text[i] == '\n') {
          ++line;
          lineStart = i + 1;
        }
      i += 2;
      continue;
    }
    if (c == '"' || c == '\'') {  // a literal: skip it, escapes included
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
      atLineStart = false;
      continue;
    }
    if (c == '#' && atLineStart) {
      size_t word = text.find_first_not_of(" \t", i + 1);
      if (word != std::string::npos && text.compare(word, 7, "include") == 0) {
        const size_t end = text.find('\n', word);
        const std::string rest =
            text.substr(word + 7, end == std::string::npos ? std::string::npos : end - word - 7);
        checkInclude(rest, line, column(i), onGpu, out);
      }
      while (i < text.size() && text[i] != '\n') ++i;  // the directive's line
      continue;
    }
    if (isWordStart(c)) {
      size_t j = i;
      while (j < text.size() && isWord(text[j])) ++j;
      const std::string word = text.substr(i, j - i);
      if (!onGpu && (word == "asm" || word == "__asm" || word == "__asm__"))
        out.push_back(refusal(line, column(i),
                              "inline assembly (" + word +
                                  ") is PTX, which only a GPU runs; the simulator does not offer "
                                  "it; check on a GPU with --backend gpu"));
      i = j;
      atLineStart = false;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\r') atLineStart = false;
    ++i;
  }
  return out;
}

namespace {

std::string withoutComments(const std::string& text) {
  std::string code;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
      code += ' ';
      continue;
    }
    code += text[i];
  }
  return code;
}

}  // namespace

bool declaresExternShared(const std::string& text) {
  static const std::regex dynamic(R"(\bextern\s+__shared__\b)");
  return std::regex_search(withoutComments(text), dynamic);
}

Message cooperativeGroupsMissing(const std::string& text) {
  const std::string code = withoutComments(text);
  // cg::reduce(group, value, op): a call whose first argument is a name (the kernel, also
  // called reduce, is declared with a type there).
  static const std::regex reduceCall(R"(\breduce\s*\(\s*[A-Za-z_]\w*\s*,)");
  const bool block = code.find("this_thread_block") != std::string::npos;
  const bool reduce = std::regex_search(code, reduceCall);
  if (block && reduce) return {};
  return Message("rule.no-cooperative-groups",
                 {{"missing", block    ? "cg::reduce"
                              : reduce ? "cg::this_thread_block()"
                                       : "cg::this_thread_block() / cg::reduce"}});
}

}  // namespace rlab
