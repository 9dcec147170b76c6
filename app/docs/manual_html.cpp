#include "app/docs/manual_html.hpp"

#include <md4c-html.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace rlab::docs {

namespace fs = std::filesystem;

namespace {

std::string pageName(const std::string& markdownName) {
  if (markdownName == "README.md") return "index.html";
  return markdownName.substr(0, markdownName.size() - 3) + ".html";
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text)
    out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

}  // namespace

std::string manualPageHtml(const std::string& markdown) {
  std::string body;
  md_html(
      markdown.data(), MD_SIZE(markdown.size()),
      [](const MD_CHAR* text, MD_SIZE size, void* out) {
        static_cast<std::string*>(out)->append(text, size);
      },
      &body, MD_FLAG_TABLES | MD_FLAG_NOINDENTEDCODEBLOCKS, 0);
  // Links to the other pages: README.md is the index, x.md is x.html.
  body = std::regex_replace(body, std::regex(R"re(href="README\.md(#[^"]*)?")re"),
                            "href=\"index.html$1\"");
  body = std::regex_replace(body, std::regex(R"re(href="([A-Za-z0-9_-]+)\.md(#[^"]*)?")re"),
                            "href=\"$1.html$2\"");
  std::string title = "Reduction Lab";
  std::smatch heading;
  if (std::regex_search(markdown, heading, std::regex(R"(^# (.+)$)", std::regex::multiline)))
    title = heading[1].str();
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         escaped(title) +
         "</title>\n<style>\n"
         "body { max-width: 50em; margin: 2em auto; padding: 0 1em; font-family: sans-serif;\n"
         "       line-height: 1.5; color: #1e293b; }\n"
         "code, pre { font-family: monospace; background: #f1f5f9; }\n"
         "pre { padding: 0.6em; overflow-x: auto; }\n"
         "table { border-collapse: collapse; } td, th { border: 1px solid #cbd5e1; padding: "
         "0.2em 0.5em; }\n"
         "</style>\n</head>\n<body>\n" +
         body + "</body>\n</html>\n";
}

bool writeManual(const std::string& from, const std::string& to) {
  std::error_code error;
  fs::create_directories(to, error);
  bool ok = true;
  for (const auto& entry : fs::directory_iterator(from, error)) {
    if (entry.path().extension() != ".md") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream markdown;
    markdown << in.rdbuf();
    const std::string page = to + "/" + pageName(entry.path().filename().string());
    std::ofstream out(page, std::ios::binary);
    out << manualPageHtml(markdown.str());
    if (!in || !out) {
      std::cerr << "rlab-docs: could not make " << page << " from " << entry.path().string()
                << ".\n";
      ok = false;
    }
  }
  if (error) {
    std::cerr << "rlab-docs: " << from << " cannot be read: " << error.message() << ".\n";
    ok = false;
  }
  return ok;
}

}  // namespace rlab::docs
