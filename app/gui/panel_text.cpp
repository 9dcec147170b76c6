// The lesson's text in the chosen language: Markdown drawn with wrapping that suits Latin and
// CJK alike, "try it" links that set the controls and run, the step narration tied to the
// player, "predict, then run" questions answered by a real run, and folded answers.
#include <cfloat>
#include <cstdlib>
#include <map>
#include <sstream>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/texts/chapter_check.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

using Kind = text::Block::Kind;

}  // namespace

// The backend stays the learner's unless the link names one.
void runTryLink(App& app, const std::string& chapter, const std::string& query) {
  UiState& ui = app.ui;
  try {
    Params p = paramsFromQuery(chapter, query);
    if (query.find("backend=") == std::string::npos) p.backend = ui.params.backend;
    ui.params = p;
    ui.valuesText[0] = '\0';
    std::string values;
    for (double v : p.values) values += (values.empty() ? "" : ",") + formatValue(v, p.type);
    values.copy(ui.valuesText.data(), ui.valuesText.size() - 1);
    ui.valuesText[std::min(values.size(), ui.valuesText.size() - 1)] = '\0';
    ui.rerunWanted = true;
    ui.step = 0;
    if (p.memory) {  // a link to the memory view: the simulator counts the sectors
      ui.params.backend = BackendChoice::Sim;
      ui.requestTab = ViewTab::Memory;
      ui.step = 1;
    }
    app.requestRun();  // also where n is above the automatic re-run's limit
  } catch (const ParamError& e) {
    ui.status = say(e.message());
    ui.statusIsError = true;
  }
}

bool suggestionButton(App& app, const std::string& label, const std::string& chapter,
                      const std::string& link) {
  const bool pressed = ImGui::Button(label.c_str());
  noteWidget(app.ui, "suggestion:" + link);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", commandLineFor(chapter, link).c_str());
  if (pressed) runTryLink(app, chapter, link);
  return pressed;
}

namespace {

// A span's colour: links, emphasis and code each their own, else the text's.
ImU32 spanColour(const text::Span& span, const Palette& pal) {
  return !span.link.empty() ? pal.accent
         : span.emphasis    ? IM_COL32(255, 226, 150, 255)
         : span.code        ? IM_COL32(170, 220, 255, 255)
                            : ImGui::GetColorU32(ImGuiCol_Text);
}

// A word of a link, drawn at `at` to `end`: underlined, its place noted, and under the mouse the
// hand, its target (a try link's command line) as a tooltip. True when it was clicked.
bool linkWord(App& app, ImDrawList* list, const text::Span& span, const std::string& chapter,
              ImVec2 at, ImVec2 end, ImU32 colour) {
  list->AddLine(ImVec2(at.x, end.y), end, colour);
  app.ui.widgetRects[span.link] = ImVec4(at.x, at.y, end.x, end.y);
  if (!ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(at, end)) return false;
  ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  const std::string tip =
      span.link.rfind("try:", 0) == 0 ? commandLineFor(chapter, span.link) : span.link;
  ImGui::SetTooltip("%s", tip.c_str());
  return ImGui::IsMouseClicked(0);
}

// Inline text, wrapped to `width`: words break at spaces, CJK characters anywhere. Draws it
// when `draw` (and runs a clicked try link), else only measures; its height either way.
float layoutInline(App& app, const text::Inline& spans, const std::string& chapter, float width,
                   bool draw, float scale = 1) {
  const Palette& pal = palette(app.ui.view.presenter);
  // Measuring may happen outside any window (the stage sizes its strips first): no window's
  // draw list or cursor then.
  ImDrawList* list = draw ? ImGui::GetWindowDrawList() : nullptr;
  const ImVec2 origin = draw ? ImGui::GetCursorScreenPos() : ImVec2(0, 0);
  const float size = ImGui::GetFontSize() * scale;
  const float lineHeight = size * 1.35f;
  float x = 0, y = 0;
  const std::string* clicked = nullptr;
  bool spaceCarried = false;  // the span before ended with a space: the next word keeps its gap
  // Code gets one chip per line it spans, not one per word: drawn under the text (channel 0)
  // once its line or its span ends.
  if (draw) list->ChannelsSplit(2);
  for (const text::Span& span : spans) {
    ImFont* font = span.code && codeFont() ? codeFont() : ImGui::GetFont();
    const float space = font->CalcTextSizeA(size, FLT_MAX, 0, " ").x;
    const ImU32 colour = spanColour(span, pal);
    const std::string& s = span.text;
    bool first = true;
    float chipStart = -1, chipEnd = 0, chipY = 0;
    auto closeChip = [&] {
      if (!draw || chipStart < 0) return;
      list->ChannelsSetCurrent(0);
      list->AddRectFilled(ImVec2(chipStart - 2, chipY - 1), ImVec2(chipEnd + 2, chipY + size + 1),
                          ImGui::GetColorU32(ImGuiCol_FrameBg), 3);
      list->ChannelsSetCurrent(1);
      chipStart = -1;
    };
    if (draw) list->ChannelsSetCurrent(1);
    for (const text::Word& piece : text::words(s)) {
      if (piece.newline) {
        closeChip();
        x = 0;
        y += lineHeight;
        continue;
      }
      const bool spaced = piece.spaceBefore || (first && spaceCarried);
      first = false;
      const size_t start = piece.begin, i = piece.end;
      const char* word = s.c_str() + start;
      const float w = font->CalcTextSizeA(size, FLT_MAX, 0, word, s.c_str() + i).x;
      float gap = spaced && x > 0 ? space : 0;
      if (x > 0 && x + gap + w > width) {
        closeChip();
        x = 0;
        y += lineHeight;
        gap = 0;
      }
      x += gap;
      const ImVec2 at(origin.x + x, origin.y + y + (lineHeight - size) * 0.5f);
      const ImVec2 end(at.x + w, at.y + size);
      x += w;
      if (!draw) continue;
      if (span.code) {
        if (chipStart < 0) chipStart = at.x, chipY = at.y;
        chipEnd = end.x;
      }
      list->AddText(font, size, at, colour, word, s.c_str() + i);
      if (span.strong)
        list->AddText(font, size, ImVec2(at.x + 0.7f, at.y), colour, word, s.c_str() + i);
      if (!span.link.empty() && linkWord(app, list, span, chapter, at, end, colour))
        clicked = &span.link;
    }
    closeChip();
    if (!s.empty()) spaceCarried = s.back() == ' ';
  }
  if (!draw) return y + lineHeight;
  list->ChannelsMerge();
  ImGui::Dummy(ImVec2(width, y + lineHeight));
  if (clicked && clicked->rfind("try:", 0) == 0) runTryLink(app, chapter, *clicked);
  return y + lineHeight;
}

void drawInline(App& app, const text::Inline& spans, const std::string& chapter, float scale = 1) {
  layoutInline(app, spans, chapter, std::max(ImGui::GetContentRegionAvail().x, 50.f), true, scale);
}

void drawBlocks(App& app, const std::vector<text::Block>& blocks, const std::string& chapter);

// The answer of a prediction, from the run on screen once it is the run asked for.
void answerPrediction(App& app, const text::Block& b, Prediction& p, const std::string& chapter) {
  const auto& trace = app.ui.trace;
  if (!p.waiting || !trace || app.runBusy()) return;
  Params asked;
  try {
    asked = resolve(predictionRuns(chapter, b).front()).params;
  } catch (const ParamError&) {
    return;
  }
  const Params& ran = trace->params;
  if (ran.lesson != asked.lesson || ran.variant != asked.variant || ran.n != asked.n ||
      ran.block != asked.block || ran.barrier != asked.barrier || ran.syncwarp != asked.syncwarp ||
      ran.schedule != asked.schedule)
    return;
  p.waiting = false;
  const double typed = std::strtod(p.answer.data(), nullptr);
  if (b.predictKind == "idle") {
    const auto& last = trace->steps.back();
    const double idle = double(ran.block) - double(last.active.size());
    p.right = typed == idle;
    p.verdict = printed(tr("In the last step %zu of %d threads worked, so %s did nothing."),
                        last.active.size(), ran.block, formatValue(idle, ElementType::Int).c_str());
  } else {
    p.right = typed == trace->result;
    const std::string result = formatValue(trace->result, ran.type);
    const std::string device = say(trace->device);
    const char* where = trace->backend == BackendChoice::Gpu ? device.c_str() : tr("the simulator");
    const std::string expected = formatValue(trace->expected, ran.type);
    p.verdict =
        !trace->singleAnswer
            ? printed(tr("The run gave %s on %s; the host's loop, left to right, gives %s."),
                      result.c_str(), where, expected.c_str())
        : trace->correct
            ? printed(tr("The run gave %s (the right sum) on %s."), result.c_str(), where)
            : printed(tr("The run gave %s (not the right answer, %s) on %s."), result.c_str(),
                      expected.c_str(), where);
  }
  p.verdict = printed(p.right ? tr("Yes. %s") : tr("Not quite. %s"), p.verdict.c_str());
}

void drawPrediction(App& app, const text::Block& b, const std::string& chapter) {
  UiState& ui = app.ui;
  Prediction& p = ui.predictions[&b];
  ImGui::PushID(&b);
  ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s", tr("Predict, then run"));
  drawInline(app, b.spans, chapter);
  if (b.predictKind == "faster") {
    std::vector<Params> runs;
    try {
      runs = predictionRuns(chapter, b);
    } catch (const ParamError& e) {
      wrappedText(say(e.message()));
    }
    for (int k = 0; k < int(runs.size()); ++k) {
      if (k) ImGui::SameLine();
      ImGui::RadioButton(resolve(runs[size_t(k)]).params.variant.c_str(), &p.choice, k);
    }
    if (!ui.gpuUsable) {
      wrappedText(
          tr("This question needs a GPU: the simulator's times are CPU times "
             "and say nothing about which kernel is faster on a GPU. Try it "
             "on a machine with an NVIDIA GPU."));
    } else if (p.choice >= 0 && ImGui::Button(trId("Time both on this GPU"))) {
      app.startFasterPrediction(&b, chapter);
    }
  } else {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::InputText("##answer", p.answer.data(), p.answer.size(),
                     ImGuiInputTextFlags_CharsDecimal);
    ImGui::SameLine();
    if (ImGui::Button(trId("Run and check")) && p.answer[0]) {
      p.waiting = true;
      p.verdict.clear();
      runTryLink(app, chapter, predictionQueries(b).front());
    }
    noteWidget(ui, "predict:" + b.query);
    answerPrediction(app, b, p, chapter);
  }
  if (p.waiting) ImGui::TextDisabled("%s", tr("running..."));
  if (!p.verdict.empty()) {
    const Palette& pal = palette(ui.view.presenter);
    ImGui::PushStyleColor(ImGuiCol_Text, p.right ? pal.right : pal.wrong);
    wrappedText(p.verdict);
    ImGui::PopStyleColor();
    for (const auto& reason : b.children) {  // the reason opens with the answer
      ImGui::SetNextItemOpen(true, ImGuiCond_Once);
      drawBlocks(app, {reason}, chapter);
    }
  }
  ImGui::PopID();
  ImGui::Spacing();
}

// The narration of the run on screen: in the teacher's chapter shown, else in the lesson's.
const text::Block* narrationOnScreen(const UiState& ui) {
  if (!ui.trace) return nullptr;
  const bool simulated = ui.trace->backend != BackendChoice::Gpu;
  if (const OwnChapter* own = ui.ownChapterShown())
    if (const text::Block* steps = narrationIn(own->doc, own->name, ui.trace->params, simulated))
      return steps;
  return narrationFor(ui.trace->params, simulated, ui.language);
}

void drawSteps(App& app, const text::Block& b, const std::string& chapter) {
  UiState& ui = app.ui;
  const bool onScreen = narrationOnScreen(ui) == &b;
  ImGui::PushID(&b);
  ImGui::TextColored(ImVec4(0.6f, 0.85f, 1, 1), "%s", tr("Step by step"));
  ImGui::SameLine();
  if (!onScreen && ImGui::SmallButton(trId("show this run"))) runTryLink(app, chapter, b.query);
  for (size_t k = 0; k < b.items.size(); ++k) {
    ImGui::PushID(int(k));
    const bool current = onScreen && int(k) == ui.step;
    if (ImGui::Selectable(("##step" + std::to_string(k)).c_str(), current,
                          ImGuiSelectableFlags_AllowItemOverlap,
                          ImVec2(0, ImGui::GetTextLineHeight())) &&
        onScreen)
      app.stepTo(int(k));
    ImGui::SameLine();
    ImGui::Text("%zu", k);
    ImGui::SameLine();
    drawInline(app, b.items[k], chapter);
    ImGui::PopID();
  }
  ImGui::PopID();
  ImGui::Spacing();
}

void drawTable(App& app, const text::Block& b, const std::string& chapter) {
  size_t columns = 0;
  for (const auto& row : b.rows) columns = std::max(columns, row.size());
  if (!columns) return;
  ImGui::PushID(&b);
  if (ImGui::BeginTable("##table", int(columns),
                        ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
    for (size_t r = 0; r < b.rows.size(); ++r) {
      ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
      for (size_t c = 0; c < b.rows[r].size(); ++c) {
        ImGui::TableSetColumnIndex(int(c));
        drawInline(app, b.rows[r][c], chapter);
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopID();
  ImGui::Spacing();
}

void drawBlock(App& app, const text::Block& b, const std::string& chapter) {
  switch (b.kind) {
    case Kind::Heading:
      ImGui::Spacing();
      drawInline(app, b.spans, chapter, b.level <= 2 ? 1.25f : 1.1f);
      break;
    case Kind::Paragraph:
      drawInline(app, b.spans, chapter);
      ImGui::Spacing();
      break;
    case Kind::Code: {
      ImGui::PushID(&b);
      const float lines = float(std::count(b.code.begin(), b.code.end(), '\n') + 1);
      ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
      ImGui::BeginChild(
          "##code",
          ImVec2(0, lines * ImGui::GetTextLineHeight() + ImGui::GetStyle().WindowPadding.y * 2 +
                        ImGui::GetStyle().ScrollbarSize),
          false, ImGuiWindowFlags_HorizontalScrollbar);
      if (codeFont()) ImGui::PushFont(codeFont());
      std::istringstream code(b.code);
      for (std::string line; std::getline(code, line);)
        drawCodeLine(line, palette(app.ui.view.presenter));
      if (codeFont()) ImGui::PopFont();
      ImGui::EndChild();
      ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::Spacing();
      break;
    }
    case Kind::List: {
      int number = 1;
      for (const auto& item : b.children) {
        const std::string bullet = b.ordered ? std::to_string(number++) + "." : "\xE2\x80\xA2";
        ImGui::TextUnformatted(bullet.c_str());
        ImGui::SameLine();
        ImGui::BeginGroup();
        drawBlocks(app, item.children, chapter);
        ImGui::EndGroup();
      }
      ImGui::Spacing();
      break;
    }
    case Kind::ListItem:
    case Kind::Quote:
      ImGui::Indent();
      drawBlocks(app, b.children, chapter);
      ImGui::Unindent();
      break;
    case Kind::Table:
      drawTable(app, b, chapter);
      break;
    case Kind::Rule:
      ImGui::Separator();
      break;
    case Kind::Details: {
      const std::string label = text::plain(b.spans) + "##" + std::to_string(uintptr_t(&b));
      if (ImGui::TreeNode(label.c_str())) {
        drawBlocks(app, b.children, chapter);
        ImGui::TreePop();
      }
      break;
    }
    case Kind::Steps:
      drawSteps(app, b, chapter);
      break;
    case Kind::Predict:
      drawPrediction(app, b, chapter);
      break;
  }
}

void drawBlocks(App& app, const std::vector<text::Block>& blocks, const std::string& chapter) {
  for (const auto& b : blocks) drawBlock(app, b, chapter);
}

}  // namespace

void drawTextPanel(App& app) {
  UiState& ui = app.ui;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  if (ImGui::BeginCombo("##language", nativeName(ui.language))) {
    for (Language l : kLanguages)
      if (ImGui::Selectable(nativeName(l), l == ui.language) && l != ui.language) {
        ui.language = l;
        ui.fontsWanted = true;
      }
    ImGui::EndCombo();
  }
  noteWidget(ui, "language");
  ImGui::SameLine();
  if (!ui.chapterProblems.empty()) {  // a teacher's chapter refused: why, line by line
    wrappedText(
        tr("The chapter was refused. Mend these lines and open it again (File > Open "
           "chapter):"));
    for (const std::string& problem : ui.chapterProblems)
      wrappedText(problem, palette(ui.view.presenter).wrong);
    ImGui::Separator();
  }
  if (const OwnChapter* own = ui.ownChapterShown()) {  // a teacher's chapter, in its language
    if (ImGui::SmallButton(trId("back to the lesson"))) ui.chapter.clear();
    ImGui::BeginChild("##text");
    drawInline(app, {{own->doc.title, "", false, false, true}}, own->name, 1.45f);
    drawBlocks(app, own->doc.blocks, own->name);
    ImGui::EndChild();
    return;
  }
  const auto& ids = chapterIds();
  const bool showBasics = ui.chapter == kBasicsChapter;
  if (ImGui::SmallButton(showBasics ? trId("back to the lesson") : trId("the basics first")))
    ui.chapter = showBasics ? "" : kBasicsChapter;
  const std::string chapter = ui.chapter.empty() ? ui.params.lesson : ui.chapter;
  if (std::find(ids.begin(), ids.end(), chapter) == ids.end()) return;
  const text::Document* doc = text::chapter(chapter, ui.language);
  if (!doc) {
    wrappedText(printed(tr("This chapter has no text in %s yet; here it is in English."),
                        nativeName(ui.language)));
    doc = text::chapter(chapter, Language::En);
  }
  if (!doc) return;
  ImGui::BeginChild("##text");
  drawInline(app, {{doc->title, "", false, false, true}}, chapter, 1.45f);
  drawBlocks(app, doc->blocks, chapter);
  ImGui::EndChild();
}

void drawMarkdown(App& app, const std::string& markdown) {
  // Kept parsed: blocks are the keys of folded state and predictions, so they must not move.
  static std::map<std::string, text::Document> parsed;
  auto found = parsed.find(markdown);
  if (found == parsed.end()) found = parsed.emplace(markdown, text::parse(markdown)).first;
  const text::Document& doc = found->second;
  const std::string& chapter = app.ui.params.lesson;
  if (!doc.title.empty()) drawInline(app, {{doc.title, "", false, false, true}}, chapter, 1.3f);
  drawBlocks(app, doc.blocks, chapter);
}

void drawNarration(App& app) {
  UiState& ui = app.ui;
  if (!ui.trace || !ui.trace->exercise.empty()) return;  // the learner's kernel: no narration
  const text::Block* steps = narrationOnScreen(ui);
  if (!steps || ui.step >= int(steps->items.size())) return;
  drawInline(app, steps->items[size_t(ui.step)], ui.trace->params.lesson);
}

size_t narrationReadingLength(const UiState& ui) {
  if (!ui.trace || !ui.trace->exercise.empty()) return 0;
  const text::Block* steps = narrationOnScreen(ui);
  if (!steps || ui.step >= int(steps->items.size())) return 0;
  size_t length = 0;
  for (const text::Span& span : steps->items[size_t(ui.step)])
    for (size_t i = 0; i < span.text.size(); ++i) {
      const unsigned char byte = static_cast<unsigned char>(span.text[i]);
      if ((byte & 0xc0) == 0x80) continue;  // a UTF-8 continuation: not a character of its own
      length += byte >= 0xe2 ? 2 : 1;       // from U+2000 on: CJK and its punctuation
    }
  return length;
}

float narrationHeight(App& app, float width) {
  UiState& ui = app.ui;
  if (!ui.trace || !ui.trace->exercise.empty()) return 0;
  const text::Block* steps =
      narrationFor(ui.trace->params, ui.trace->backend != BackendChoice::Gpu, ui.language);
  if (!steps || ui.step >= int(steps->items.size())) return 0;
  return layoutInline(app, steps->items[size_t(ui.step)], ui.trace->params.lesson, width, false);
}

}  // namespace rlab::gui
