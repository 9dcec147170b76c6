// rlab quiz: the same seed gives the same questions and answers, in every language; each lesson
// gives three kinds of question or more; every answer of 200 questions is worked out again from
// `rlab run --format json` of the question's own command line, by code of this test's own; the
// Moodle XML is well formed with the elements Moodle's importer reads; GIFT escapes its special
// characters; piped answers earn the score they should; bad options are one line and exit 2.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lessons/engine/quiz/quiz.hpp"
#include "lessons/engine/registry.hpp"
#include "tests/cli_driver.hpp"

using nlohmann::json;
using rlab::AnswerKind;
using rlab::Language;
using rlab::Question;
using rlab::Quiz;
using rlab::QuizKind;

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The question's run through rlab's own front end, as `rlab run ... --format json` prints it.
json runJson(const Question& q) {
  std::vector<std::string> args = words(q.command);
  REQUIRE(args.size() > 2);
  REQUIRE(args[0] == "rlab");
  args.erase(args.begin());
  args.insert(args.end(), {"--format", "json"});
  const Outcome o = rlabWith(args);
  REQUIRE(o.code == 0);
  return json::parse(o.out);
}

std::set<int> staleReaders(const json& step) {
  std::set<int> readers;
  for (const json& c : step.value("combines", json::array()))
    if (c["target"]["stale"].get<bool>() ||
        (c.contains("source") && c["source"]["stale"].get<bool>()))
      readers.insert(c["thread"].get<int>());
  return readers;
}

// The answer a question's kind reads from the run's JSON, worked out here and not by the quiz.
json answerFromRun(const Question& q, const json& run) {
  const std::string kind = rlab::name(q.kind);
  const json& step = run["steps"][size_t(q.step)];
  if (kind == "element-value" || kind == "thread-value" || kind == "warp-total" ||
      kind == "block-total" || kind == "running-total")
    return step["values"][size_t(q.index)];
  if (kind == "working") return step["active"];
  if (kind == "working-count") return step["active"].size();
  if (kind == "partner")  // "reads another cell as well": never the cell itself
    for (const json& pair : step["pairs"])
      if (pair[1] == q.index && pair[0] != q.index) return pair[0];
  if (kind == "result") return run["result"];
  if (kind == "how-far-off")
    return run["expected"].get<long long>() - run["result"].get<long long>();
  if (kind == "active-warps") return step["active_warps"].size();
  if (kind == "bank-conflict") return step["bank_conflict_degree"];
  if (kind == "idle-lanes") {
    int working = 0;
    for (const json& t : step["active"]) working += t.get<int>() / 32 == q.index ? 1 : 0;
    return 32 - working;
  }
  if (kind == "atomic-found")
    for (const json& a : run["atomic_order"])
      if (a["thread"] == q.index) return a["before"];
  if (kind == "atomic-landed") return run["atomic_order"][size_t(q.index - 1)]["thread"];
  if (kind == "block-partial") return run["block_partials"][size_t(q.index)];
  if (kind == "gathered") return step["gathers"][size_t(q.index)]["elements"];
  if (kind == "chunk-holds") {
    json ranks = json::array();
    const unsigned mask = step["contains"][size_t(q.index)][size_t(q.chunk)].get<unsigned>();
    for (int r = 0; r < run["gpus"].get<int>(); ++r)
      if (mask & (1u << r)) ranks.push_back(r);
    return ranks;
  }
  if (kind == "transfer-to")
    for (const json& x : step["transfers"])
      if (x["from"] == q.index) return "GPU " + std::to_string(x["to"].get<int>());
  return nullptr;
}

// What the quiz says the answer is, in the JSON's terms: a number, the set, the right choice.
json answerOfQuiz(const Question& q) {
  if (q.answerKind == AnswerKind::Number) return q.answer;
  if (q.answerKind == AnswerKind::Set) return q.answerSet;
  return rlab::english(q.choices[size_t(q.rightChoice)]);
}

json sortedIfList(json j) {
  if (j.is_array()) std::sort(j.begin(), j.end());
  return j;
}

// A small XML reader: tags nest and close in order, entities are XML's own, and each element's
// name, attributes and text are kept, so that the questions can be looked into.
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  std::vector<XmlElement> children;
  const XmlElement* child(const std::string& n) const {
    for (const XmlElement& c : children)
      if (c.name == n) return &c;
    return nullptr;
  }
};

bool entitiesValid(const std::string& text) {
  for (size_t at = text.find('&'); at != std::string::npos; at = text.find('&', at + 1)) {
    bool known = false;
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      known |= text.compare(at, std::string(e).size(), e) == 0;
    if (!known) return false;
  }
  return text.find('<') == std::string::npos;
}

// Parses `xml` (after its <?xml ...?> line) into `root`; an empty string where it is well formed,
// else what is wrong.
std::string parseXml(const std::string& xml, XmlElement& root) {
  size_t at = xml.rfind("?>", 100);
  if (xml.rfind("<?xml", 0) != 0 || at == std::string::npos) return "no XML declaration";
  std::vector<XmlElement> open;
  open.push_back({"#document", {}, "", {}});
  for (at += 2; at < xml.size();) {
    const size_t lt = xml.find('<', at);
    const std::string text = xml.substr(at, lt == std::string::npos ? std::string::npos : lt - at);
    if (!entitiesValid(text)) return "bad text: " + text;
    open.back().text += text;
    if (lt == std::string::npos) break;
    const size_t gt = xml.find('>', lt);
    if (gt == std::string::npos) return "a tag that does not end";
    std::string tag = xml.substr(lt + 1, gt - lt - 1);
    at = gt + 1;
    if (tag[0] == '/') {
      if (open.size() < 2 || open.back().name != tag.substr(1))
        return "</" + tag.substr(1) + "> closes nothing open";
      XmlElement done = std::move(open.back());
      open.pop_back();
      open.back().children.push_back(std::move(done));
      continue;
    }
    XmlElement e;
    std::istringstream parts(tag);
    parts >> e.name;
    for (std::string attribute; parts >> attribute;) {
      const size_t eq = attribute.find("=\"");
      if (eq == std::string::npos || attribute.back() != '"') return "bad attribute " + attribute;
      e.attributes[attribute.substr(0, eq)] = attribute.substr(eq + 2, attribute.size() - eq - 3);
    }
    open.push_back(std::move(e));
  }
  if (open.size() != 1) return "<" + open.back().name + "> is never closed";
  if (open.front().children.size() != 1) return "not one root element";
  root = open.front().children.front();
  return "";
}

// What Moodle's importer reads of each question, missing: "question 3: no <questiontext>".
std::vector<std::string> moodleProblems(const XmlElement& quiz) {
  std::vector<std::string> problems;
  if (quiz.name != "quiz") problems.push_back("the root is <" + quiz.name + ">");
  int number = 0;
  for (const XmlElement& q : quiz.children) {
    const std::string type = q.attributes.count("type") ? q.attributes.at("type") : "";
    if (type == "category") continue;
    const std::string where = "question " + std::to_string(++number) + ": ";
    if (type != "numerical" && type != "multichoice" && type != "shortanswer")
      problems.push_back(where + "type '" + type + "'");
    for (const char* part : {"name", "questiontext", "generalfeedback"})
      if (!q.child(part) || !q.child(part)->child("text"))
        problems.push_back(where + "no <" + part + "><text>");
    const XmlElement* text = q.child("questiontext");
    if (text && (!text->attributes.count("format") || text->attributes.at("format") != "html"))
      problems.push_back(where + "the question text is not html");
    int right = 0, answers = 0;
    for (const XmlElement& a : q.children) {
      if (a.name != "answer") continue;
      ++answers;
      right += a.attributes.count("fraction") && a.attributes.at("fraction") == "100";
      if (!a.child("text") || !a.child("feedback"))
        problems.push_back(where + "an answer lacks text or feedback");
    }
    if (right < 1) problems.push_back(where + "no answer with fraction 100");
    if (type == "multichoice" && answers < 2) problems.push_back(where + "one choice");
  }
  return problems;
}

}  // namespace

TEST_CASE("quiz: the same seed gives the same questions and answers, in every language") {
  const Quiz first = rlab::makeQuiz(1207, 30), again = rlab::makeQuiz(1207, 30);
  REQUIRE(first.questions.size() == 30);
  REQUIRE(again.questions.size() == 30);
  for (size_t k = 0; k < first.questions.size(); ++k) {
    const Question &a = first.questions[k], &b = again.questions[k];
    CAPTURE(a.command);
    CHECK(a.command == b.command);
    CHECK(a.kind == b.kind);
    CHECK(a.text == b.text);
    CHECK(a.answer == b.answer);
    CHECK(a.answerSet == b.answerSet);
    CHECK(a.choices == b.choices);
    CHECK(a.rightChoice == b.rightChoice);
    CHECK(a.reason == b.reason);
  }
  // Another seed asks other questions.
  CHECK(rlab::makeQuiz(1208, 30).questions.front().command != first.questions.front().command);
  // The bank in each language: the same runs, kinds, choices' letters and answers; other words.
  std::map<Language, json> banks;
  for (Language l : rlab::kLanguages) banks[l] = json::parse(rlab::quizJson(first, l));
  for (size_t k = 0; k < first.questions.size(); ++k) {
    const json& en = banks[Language::En]["questions"][k];
    for (Language l : {Language::Ja, Language::Zh}) {
      const json& other = banks[l]["questions"][k];
      for (const char* field : {"command", "kind", "step", "index", "answer", "answer_text"})
        CHECK(other[field] == en[field]);
      CHECK(other["text"] != en["text"]);
    }
  }
  // rlab quiz itself, twice, in Japanese.
  const std::vector<std::string> args = {"quiz",     "--seed", "1207",   "--count", "12",
                                         "--format", "json",   "--lang", "ja"};
  const Outcome one = rlabWith(args), two = rlabWith(args);
  CHECK(one.code == 0);
  CHECK(one.out == two.out);
  CHECK(json::parse(one.out)["questions"][0]["command"] == first.questions[0].command);
}

TEST_CASE("quiz: every lesson gives three kinds of question or more") {
  for (const rlab::LessonInfo& lesson : rlab::lessons()) {
    CAPTURE(lesson.id);
    const Quiz quiz = rlab::makeQuiz(31, 24, lesson.id);
    std::set<std::string> kinds;
    for (const Question& q : quiz.questions) {
      CHECK(q.run.lesson == lesson.id);
      kinds.insert(rlab::name(q.kind));
    }
    std::string list;
    for (const std::string& k : kinds) list += k + " ";
    CAPTURE(list);
    CHECK(kinds.size() >= 3);
  }
}

TEST_CASE("quiz: a cell's value is asked where it says something, rarely where it is 0") {
  // Where a step shows a new array, most of its cells may hold nothing yet (the threads of a
  // grid-stride loop over a small array): the question picks a cell out of the step's crowd.
  int asked = 0, zero = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed)
    for (const Question& q : rlab::makeQuiz(seed, 10).questions)
      if (q.kind == QuizKind::ThreadValue || q.kind == QuizKind::WarpTotal ||
          q.kind == QuizKind::ElementValue || q.kind == QuizKind::BlockTotal) {
        ++asked;
        zero += q.answer == 0 ? 1 : 0;
      }
  MESSAGE(zero << " of " << asked << " cell values asked are 0");
  CHECK(asked >= 50);
  CHECK(zero * 20 <= asked);  // 15 of 97 before the crowd was left out
}

TEST_CASE("quiz: every answer of 200 questions comes out of rlab run --format json of its run") {
  std::set<std::string> kinds;
  int checked = 0;
  for (uint64_t seed : {1u, 2u, 3u, 4u}) {
    const Quiz quiz = rlab::makeQuiz(seed, 50);
    for (const Question& q : quiz.questions) {
      CAPTURE(q.command);
      CAPTURE(rlab::name(q.kind));
      CAPTURE(q.step);
      CAPTURE(q.index);
      const json run = runJson(q);
      const json fromRun = answerFromRun(q, run);
      if (q.kind == rlab::QuizKind::StaleReader) {
        // The reader asked about read a stale value there; no other choice did.
        const std::set<int> readers = staleReaders(run["steps"][size_t(q.step)]);
        CHECK(readers.count(q.index) == 1);
        CHECK(answerOfQuiz(q) == "thread " + std::to_string(q.index));
        for (size_t k = 0; k < q.choices.size(); ++k)
          if (int(k) != q.rightChoice)
            CHECK(readers.count(std::stoi(q.choices[k].arg("thread"))) == 0);
      } else {
        CHECK(sortedIfList(fromRun) == sortedIfList(answerOfQuiz(q)));
      }
      CHECK(rlab::judge(q, rlab::answerText(q)).right);
      kinds.insert(rlab::name(q.kind));
      ++checked;
    }
  }
  CHECK(checked == 200);
  CHECK(kinds.size() >= 12);
}

TEST_CASE("quiz: the Moodle XML is well formed and has what Moodle's importer reads") {
  const Quiz quiz = rlab::makeQuiz(5, 40);
  for (Language l : rlab::kLanguages) {
    XmlElement root;
    const std::string xml = rlab::quizMoodleXml(quiz, l);
    CHECK(parseXml(xml, root) == "");
    CHECK(moodleProblems(root) == std::vector<std::string>{});
    int questions = 0;
    for (const XmlElement& q : root.children) questions += q.attributes.at("type") != "category";
    CHECK(questions == 40);
  }
  // The checks bite: a tag left open, a bare ampersand, an answer's grade taken away.
  XmlElement root;
  const std::string xml = rlab::quizMoodleXml(quiz, Language::En);
  CHECK(parseXml(xml.substr(0, xml.rfind("</quiz>")), root) != "");
  std::string ampersand = xml;
  ampersand.insert(ampersand.find("<text>") + 6, "&");
  CHECK(parseXml(ampersand, root) != "");
  std::string ungraded = xml;
  for (size_t at; (at = ungraded.find("fraction=\"100\"")) != std::string::npos;)
    ungraded.replace(at, 14, "fraction=\"0\"");
  REQUIRE(parseXml(ungraded, root) == "");
  CHECK(!moodleProblems(root).empty());
  CHECK(rlab::xmlEscaped("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;");
}

TEST_CASE("quiz: GIFT escapes its special characters") {
  CHECK(rlab::giftEscaped("~=#{}:\\") == "\\~\\=\\#\\{\\}\\:\\\\");
  CHECK(rlab::giftEscaped("--values=3,1 stall:4:2:1") == "--values\\=3,1 stall\\:4\\:2\\:1");
  const Quiz quiz = rlab::makeQuiz(6, 30);
  const std::string gift = rlab::quizGift(quiz, Language::En);
  std::istringstream in(gift);
  int questions = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("::", 0) != 0) continue;
    ++questions;
    CAPTURE(line);
    // Unescaped, only the name's two pairs of colons and the one answer block's braces stay.
    std::string bare;
    for (size_t k = 0; k < line.size(); ++k) {
      if (line[k] == '\\')
        ++k;
      else
        bare += line[k];
    }
    CHECK(std::count(bare.begin(), bare.end(), ':') == 4);
    CHECK(std::count(bare.begin(), bare.end(), '{') == 1);
    CHECK(std::count(bare.begin(), bare.end(), '}') == 1);
    CHECK(bare.back() == '}');
    CHECK(bare.find("####") != std::string::npos);  // the reason, as general feedback
  }
  CHECK(questions == 30);
}

TEST_CASE("quiz: answers piped in earn their score, and a line that is no answer asks again") {
  const Quiz quiz = rlab::makeQuiz(77, 4, "barrier");
  // Right, wrong, something unreadable and then right, and right.
  std::string answers;
  for (size_t k = 0; k < quiz.questions.size(); ++k) {
    const Question& q = quiz.questions[k];
    std::string wrong = q.answerKind == AnswerKind::Number ? std::to_string(q.answer + 1)
                        : q.answerKind == AnswerKind::Set
                            ? rlab::answerText(q) + ", 999"
                            : rlab::choiceLetter((q.rightChoice + 1) % int(q.choices.size()));
    if (k == 2) answers += "???\n";
    answers += (k == 1 ? wrong : rlab::answerText(q)) + "\n";
  }
  std::istringstream typed(answers);
  std::ostringstream out, err;
  rlab::cli::Terminal terminal{false, 80, nullptr, &typed, {}, {}};
  CHECK(rlab::cli::main({"quiz", "barrier", "--seed", "77", "--count", "4", "--lang", "en"}, out,
                        err, terminal) == 0);
  const std::string text = out.str();
  CHECK(text.find("Score: 3 of 4.") != std::string::npos);
  CHECK(text.find("rlab quiz barrier --seed 77 --count 4") != std::string::npos);
  CHECK(text.find("Wrong: the answer is") != std::string::npos);
  CHECK(text.find("Type ") != std::string::npos);  // what an answer looks like, then again
  CHECK(text.find("The run: rlab run barrier --variant") != std::string::npos);  // wrapped after
  // The real program, answers ended at once: the score so far, no questions answered.
  const std::string command =
      std::string(RLAB_CLI_BINARY) + " quiz folding --seed 3 --count 2 --lang en < /dev/null 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string shown;
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) shown.append(buffer, got);
  CHECK(pclose(pipe) == 0);
  CHECK(shown.find("The answers ended before the quiz did.") != std::string::npos);
  CHECK(shown.find("Score: 0 of 0.") != std::string::npos);
}

TEST_CASE("quiz: typed answers are read as their kind asks, and bad options are one line, exit 2") {
  Question set;
  set.answerKind = AnswerKind::Set;
  set.answerSet = {0, 4, 8};
  CHECK(rlab::judge(set, "8 4, 0").right);
  CHECK(rlab::judge(set, "0、4，8").right);
  CHECK(!rlab::judge(set, "0 4").right);
  CHECK(!rlab::judge(set, "0 four").readable);
  Question choice;
  choice.answerKind = AnswerKind::Choice;
  choice.choices = {rlab::verbatim("x"), rlab::verbatim("y")};
  choice.rightChoice = 1;
  CHECK(rlab::judge(choice, " B ").right);
  CHECK(!rlab::judge(choice, "c").readable);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"quiz", "--count", "0"},
                                               {"quiz", "--count", "201"},
                                               {"quiz", "--format", "pdf"},
                                               {"quiz", "nosuch"},
                                               {"quiz", "--seed", "x1"}}) {
    CAPTURE(args[1]);
    const Outcome o = rlabWith(args);
    CHECK(o.code == 2);
    CHECK(o.out.empty());
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
  }
  CHECK(rlabWith({"quiz", "--format", "pdf"}).err.find("moodle") != std::string::npos);
}
