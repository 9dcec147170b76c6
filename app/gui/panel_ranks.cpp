// allreduce: the G buffers after the step on screen, one row per GPU. Each chunk is coloured by
// how many ranks' inputs it already holds and labelled with them (0+3, all); the step's copies
// are arrows from the sending chunk to the receiving one with their bytes, solid where the
// receiver combines them, dashed where it copies them over; a ring's copy from the last GPU to
// the first goes around the rows. Small n: every element in a cell; larger n: one box per chunk
// with its first and last values (in every chunk, or in none where they do not all fit).
// Also the verdict rank by rank, which the result panel shows.
#include <algorithm>
#include <cmath>

#include "app/gui/panels.hpp"
#include "app/gui/strings.hpp"
#include "app/gui/theme.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

namespace {

constexpr long long kCellLimit = 64;  // elements per GPU drawn as cells up to here

int popcount(unsigned mask) {
  int count = 0;
  for (; mask; mask &= mask - 1) ++count;
  return count;
}

// The ranks a chunk holds, "0+3", "0-2+6+7", or "all" in the UI's language.
std::string heldText(unsigned mask, int gpus) {
  return gpus > 1 && mask == (1u << gpus) - 1 ? tr("all") : ranksText(mask, gpus);
}

bool overlaps(const ImVec4& a, const ImVec4& b) {
  return a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
}

std::string bytesText(long long bytes) {
  if (bytes < 1024) return printed(tr("%lld B"), bytes);
  if (bytes < 10000 * 1024) return printed(tr("%.1f KB"), double(bytes) / 1024);
  return printed(tr("%.1f MB"), double(bytes) / (1024 * 1024));
}

ImU32 mix(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, 1));
}

// A chunk's colour: the empty cell's for its own rank only, the colour of a right result once
// it holds all of them, in between by how many it holds.
ImU32 heldColour(unsigned mask, int gpus, const Palette& pal) {
  if (gpus <= 1) return pal.right;
  return mix(pal.cell, pal.right, float(popcount(mask) - 1) / float(gpus - 1));
}

// Text on a chunk: dark once the chunk is mostly the bright colour of a right result.
ImU32 textOn(unsigned mask, int gpus, const Palette& pal) {
  return gpus > 1 && popcount(mask) * 2 > gpus ? IM_COL32(0, 0, 0, 255) : pal.text;
}

void textScaled(ImDrawList* draw, float scale, ImVec2 at, ImU32 colour, const std::string& text) {
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale, at, colour, text.c_str());
}

ImVec2 sizeScaled(float scale, const std::string& text) {
  const ImVec2 s = ImGui::CalcTextSize(text.c_str());
  return ImVec2(s.x * scale, s.y * scale);
}

void arrowHead(ImDrawList* draw, ImVec2 tip, bool down, float size, ImU32 colour) {
  const float dy = down ? -size : size;
  draw->AddTriangleFilled(ImVec2(tip.x - size * 0.6f, tip.y + dy),
                          ImVec2(tip.x + size * 0.6f, tip.y + dy), tip, colour);
}

void dashedLine(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, float dash) {
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  for (float at = 0; at < length; at += dash * 2) {
    const float t0 = at / length, t1 = std::min(length, at + dash) / length;
    draw->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                  ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), colour, thickness);
  }
}

int chunkOf(const Trace& t, long long begin) {
  const auto& starts = t.chunkStarts;
  const auto at = std::upper_bound(starts.begin(), starts.end(), begin);
  return std::clamp(int(at - starts.begin()) - 1, 0, int(starts.size()) - 2);
}

// A chunk's first and last values, "1 .. 125".
std::string spanText(const double* values, long long begin, long long end, ElementType type) {
  return formatValue(values[begin], type) +
         (end - begin > 1 ? " .. " + formatValue(values[end - 1], type) : "");
}

// A ring's copy from one end of the column of rows to the other (GPU G-1 to GPU 0): drawn as
// a straight arrow it would cross every row between them.
bool wrapsAround(const Transfer& x, int gpus) {
  return gpus > 2 && ((x.from == gpus - 1 && x.to == 0) || (x.from == 0 && x.to == gpus - 1));
}

// Where every copy of the step moves the same bytes (a ring, a butterfly), the header says so
// once, and the arrows need no labels of their own.
bool sameBytesEach(const StepSnapshot& s) {
  bool sameBytes = true;
  for (const Transfer& x : s.transfers) sameBytes &= x.bytes == s.transfers.front().bytes;
  return sameBytes;
}

// The header says what moved.
void drawCopiesHeader(const UiState& ui, const StepSnapshot& s, int gpus, long long n,
                      bool sameBytes) {
  long long moved = 0;
  for (const Transfer& x : s.transfers) moved += x.bytes;
  // Wrapped: in a narrow window the copies' size is the part that must not be cut off.
  if (ui.step == 0 && gpus == 1)
    wrappedText(printed(tr("the input: one GPU, %lld values: nothing to exchange"), n));
  else if (ui.step == 0)
    wrappedText(printed(tr("the input: %d GPUs, %lld values each"), gpus, n));
  else if (sameBytes && s.transfers.size() > 1)
    wrappedText(printed(tr("%s   (%zu copies of %s each)"), say(s.label).c_str(),
                        s.transfers.size(), bytesText(s.transfers.front().bytes).c_str()));
  else
    wrappedText(
        printed(s.transfers.size() == 1 ? tr("%s   (%zu copy, %s)") : tr("%s   (%zu copies, %s)"),
                say(s.label).c_str(), s.transfers.size(), bytesText(moved).c_str()));
}

// Room around the rows for copies that wrap around: above the first row and right of the
// chunks, the same for every step of the run so that the rows stay where they are.
bool anyCopyWrapsAround(const Trace& t, int gpus) {
  bool wraps = false;
  for (const StepSnapshot& step : t.steps)
    for (const Transfer& x : step.transfers) wraps |= wrapsAround(x, gpus);
  return wraps;
}

constexpr float kGapShare = 0.8f;    // the gap under a row, as a share of the row
constexpr float kSmallText = 0.75f;  // the chunks' labels under the rows

// Where the rows and their chunks are drawn for the step on screen.
struct RankLayout {
  const Trace& t;
  const StepSnapshot& s;
  int gpus = 0, chunks = 0;
  long long n = 0;
  // The space left in the window, where it starts; the first row's corner.
  ImVec2 start = {}, avail = {}, origin = {};
  float font = 0;
  float topMargin = 0, gutter = 0;  // above the first row, right of the chunks: for wrapping
  float label = 0, width = 0;       // the GPUs' names, then the chunks
  float row = 0, gap = 0;           // a row's height, and the gap under it
  bool cells = false;               // every element in a cell of its own
  float cell = 0;                   // ... this wide
  // Where chunk c starts: by elements when every element has its cell, else equal boxes.
  float chunkX(int c) const {
    return origin.x + label +
           (cells ? width * float(t.chunkStarts[size_t(c)]) / float(n) : width * c / chunks);
  }
  float rowTop(int r) const { return origin.y + r * (row + gap); }
  // Around the rows: above the first row, and below the last row's small labels; the gutter's
  // middle, right of the chunks.
  float top() const { return start.y + topMargin * 0.4f; }
  float bottom() const { return rowTop(gpus - 1) + row + sizeScaled(kSmallText, "0").y + 4; }
  float right() const { return origin.x + label + width + gutter * 0.5f; }
};

// The window's type scaled for the rows to fit, then the rows laid out in the space left;
// `wraps`: with room around them for copies that wrap around (anyCopyWrapsAround).
RankLayout layOutRows(const Trace& t, const StepSnapshot& s, bool wraps) {
  RankLayout l{t, s};
  const int gpus = l.gpus = t.gpus;
  l.chunks = int(t.chunkStarts.size()) - 1;
  const long long n = l.n = t.params.n;
  l.start = ImGui::GetCursorScreenPos();
  l.avail = ImVec2(ImGui::GetContentRegionAvail().x,
                   std::max(40.f, ImGui::GetContentRegionAvail().y - 4));
  // Eight rows in a short window (presenter mode, 1280x800): smaller type, not a scrollbar.
  const float needed =
      ImGui::GetFontSize() * (1.15f * (gpus + (gpus - 1) * kGapShare) + 0.9f + (wraps ? 0.6f : 0));
  ImGui::SetWindowFontScale(std::clamp(l.avail.y / needed, 0.6f, 1.f));
  const float font = l.font = ImGui::GetFontSize();
  l.topMargin = wraps ? font * 0.6f : 0;
  l.gutter = wraps ? font * 1.2f : 0;
  l.origin = ImVec2(l.start.x, l.start.y + l.topMargin);
  l.label = ImGui::CalcTextSize(printed(tr("GPU %d"), gpus - 1).c_str()).x + font * 0.6f;
  l.width = std::max(font * 4, l.avail.x - l.label - 2 - l.gutter);
  // Rows with a gap under each for the chunk labels and the arrows; the window scrolls where
  // eight rows do not fit.
  l.row = std::clamp((l.avail.y - l.topMargin) / (gpus + (gpus - 1) * kGapShare + 0.9f),
                     font * 1.15f, font * 2.4f);
  l.gap = std::max(l.row * kGapShare, font * kSmallText + 2);
  l.cells = n <= kCellLimit && l.width / float(n) >= font * 1.4f;
  l.cell = l.cells ? l.width / float(n) : 0;
  return l;
}

// Small type drawn so far: a byte count that would cover one goes to the arrow's other side,
// or is left out (the lesson view lists every copy).
struct SmallLabels {
  ImDrawList* draw;
  std::vector<ImVec4> drawn = {};
  bool place(ImVec2 at, ImU32 colour, const std::string& text, bool backed, float scale) {
    const ImVec2 size = sizeScaled(scale, text);
    const ImVec4 box(at.x - 1, at.y, at.x + size.x + 1, at.y + size.y);
    for (const ImVec4& other : drawn)
      if (overlaps(box, other)) return false;
    drawn.push_back(box);
    if (backed)
      draw->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.z, box.w), IM_COL32(0, 0, 0, 160));
    textScaled(draw, scale, at, colour, text);
    return true;
  }
};

// What the chunks say, decided once for the step: every cell's value at one size, or none;
// every box's first and last values, or none; never some chunks with values and some without.
struct ChunkText {
  float valueScale = 1;
  bool boxValues = true;
  bool cellValues = false;
};

ChunkText fitChunkText(const RankLayout& l) {
  const Trace& t = l.t;
  const StepSnapshot& s = l.s;
  const int gpus = l.gpus, chunks = l.chunks;
  ChunkText fit;
  float& valueScale = fit.valueScale;
  for (int r = 0; r < gpus; ++r) {
    const double* values = s.values.data() + size_t(r) * size_t(l.n);
    for (int c = 0; c < chunks; ++c) {
      const long long begin = t.chunkStarts[size_t(c)], end = t.chunkStarts[size_t(c) + 1];
      if (end <= begin) continue;
      if (l.cells) {
        for (long long i = begin; i < end; ++i)
          valueScale = std::min(
              valueScale,
              (l.cell - 4) / std::max(1.f, sizeScaled(1, formatValue(values[i], t.params.type)).x));
      } else {
        const std::string both = heldText(s.contains[size_t(r)][size_t(c)], gpus) + "  " +
                                 spanText(values, begin, end, t.params.type);
        const float boxWidth = l.chunkX(c + 1) - l.chunkX(c);
        valueScale = std::min(valueScale, (boxWidth - 8) / std::max(1.f, sizeScaled(1, both).x));
      }
    }
  }
  if (!l.cells && valueScale < 0.6f) {  // the ranks alone, at the size they need
    fit.boxValues = false;
    valueScale = 1;
    for (int r = 0; r < gpus; ++r)
      for (int c = 0; c < chunks; ++c)
        valueScale = std::min(
            valueScale,
            (l.chunkX(c + 1) - l.chunkX(c) - 6) /
                std::max(1.f, sizeScaled(1, heldText(s.contains[size_t(r)][size_t(c)], gpus)).x));
  }
  fit.cellValues = l.cells && valueScale >= 0.5f;
  return fit;
}

// A row per GPU: its name, then its chunks coloured by the ranks they hold, with their values
// (ChunkText) and, under them in small type, the ranks or the last row's element ranges.
void drawRows(ImDrawList* draw, const RankLayout& l, const ChunkText& fit,
              const StepSnapshot* previous, SmallLabels& labels, const Palette& pal) {
  const Trace& t = l.t;
  const StepSnapshot& s = l.s;
  const int gpus = l.gpus;
  const float font = l.font, row = l.row, cell = l.cell;
  for (int r = 0; r < gpus; ++r) {
    const float y = l.rowTop(r);
    draw->AddText(ImVec2(l.origin.x, y + (row - font) / 2), pal.text,
                  printed(tr("GPU %d"), r).c_str());
    const double* values = s.values.data() + size_t(r) * size_t(l.n);
    for (int c = 0; c < l.chunks; ++c) {
      const long long begin = t.chunkStarts[size_t(c)], end = t.chunkStarts[size_t(c) + 1];
      if (end <= begin) continue;
      const unsigned mask = s.contains[size_t(r)][size_t(c)];
      const float x0 = l.chunkX(c), x1 = l.chunkX(c + 1);
      const ImU32 fill = heldColour(mask, gpus, pal), ink = textOn(mask, gpus, pal);
      draw->AddRectFilled(ImVec2(x0 + 1, y), ImVec2(x1 - 1, y + row), fill, 3);
      const bool grew = previous && previous->contains.size() == s.contains.size() &&
                        previous->contains[size_t(r)][size_t(c)] != mask;
      draw->AddRect(ImVec2(x0 + 1, y), ImVec2(x1 - 1, y + row), grew ? pal.changed : pal.cellBorder,
                    3, 0, grew ? pal.line * 1.5f : 1);
      const std::string held = heldText(mask, gpus);
      if (l.cells) {
        for (long long i = begin; i < end; ++i) {
          const float cx = l.origin.x + l.label + cell * float(i);
          if (i > begin) draw->AddLine(ImVec2(cx, y + 3), ImVec2(cx, y + row - 3), pal.cellBorder);
          if (!fit.cellValues) continue;
          const std::string text = formatValue(values[i], t.params.type);
          const float scale = std::min(1.f, fit.valueScale);
          const ImVec2 size = sizeScaled(scale, text);
          textScaled(draw, scale, ImVec2(cx + (cell - size.x) / 2, y + (row - size.y) / 2), ink,
                     text);
        }
        // The ranks the chunk holds, under it in small type.
        if (sizeScaled(kSmallText, held).x < x1 - x0 - 2)
          labels.place(ImVec2(x0 + 3, y + row + 1), pal.muted, held, false, kSmallText);
      } else {
        // One box: the ranks it holds, then its first and last values where every box has room.
        const std::string text =
            fit.boxValues ? held + "  " + spanText(values, begin, end, t.params.type) : held;
        const float scale = std::min(1.f, fit.valueScale);
        if (scale >= 0.5f) {
          const ImVec2 size = sizeScaled(scale, text);
          textScaled(draw, scale, ImVec2((x0 + x1 - size.x) / 2, y + (row - size.y) / 2), ink,
                     text);
        }
        const std::string range = printed(tr("[%lld, %lld)"), begin, end);
        if (r == gpus - 1 && sizeScaled(kSmallText, range).x < x1 - x0 - 2)
          labels.place(ImVec2(x0 + 3, y + row + 1), pal.muted, range, false, kSmallText);
      }
    }
  }
}

// The copies of this step: from the sender's chunk to the receiver's, each sender at its own
// place along the chunk so that swaps in both directions stay apart. A copy from the last row
// to the first (or back) leaves its row on the outer side, runs down the gutter right of the
// chunks and comes into the other row from the outer side too. Each is labelled with its bytes
// unless `bytesInHeader`.
void drawCopies(ImDrawList* draw, const RankLayout& l, SmallLabels& labels, bool bytesInHeader,
                bool presenter, const Palette& pal) {
  const int gpus = l.gpus;
  const float font = l.font, row = l.row;
  // Copies' byte counts: as large as the rows' own type in presenter mode, to read from afar.
  const float bytesScale = presenter ? 1.f : 0.85f;
  const float right = l.right(), top = l.top(), bottom = l.bottom();
  for (const Transfer& x : l.s.transfers) {
    if (x.from < 0 || x.from >= gpus || x.to < 0 || x.to >= gpus || x.from == x.to) continue;
    const int c = chunkOf(l.t, x.begin);
    const float x0 = l.chunkX(c), x1 = l.chunkX(c + 1);
    const float ax = x0 + (x1 - x0) * (0.3f + 0.65f * (x.from + 0.5f) / gpus);
    const ImU32 colour = x.combined ? pal.accent : pal.worked;
    const float thick = pal.line * 1.5f, head = std::max(6.f, font * 0.45f);
    auto segment = [&](ImVec2 a, ImVec2 b) {
      if (x.combined)
        draw->AddLine(a, b, colour, thick);
      else
        dashedLine(draw, a, b, colour, thick, font * 0.3f);
    };
    const bool around = wrapsAround(x, gpus);
    // Down the column: from the sender's bottom edge into the receiver's top edge; around the
    // rows the other way.
    const bool down = around ? x.to < x.from : x.to > x.from;
    const ImVec2 from(ax, down ? l.rowTop(x.from) + row : l.rowTop(x.from)),
        to(ax, down ? l.rowTop(x.to) : l.rowTop(x.to) + row);
    const ImVec2 shaft(to.x, down ? to.y - head : to.y + head);
    if (around) {
      const float leave = x.from == 0 ? top : bottom, arrive = x.to == 0 ? top : bottom;
      segment(from, ImVec2(ax, leave));
      segment(ImVec2(ax, leave), ImVec2(right, leave));
      segment(ImVec2(right, leave), ImVec2(right, arrive));
      segment(ImVec2(right, arrive), ImVec2(ax, arrive));
      segment(ImVec2(ax, arrive), shaft);
    } else {
      segment(from, shaft);
    }
    arrowHead(draw, to, down, head, colour);
    if (bytesInHeader) continue;  // the header gave their size
    const std::string bytes = (x.combined ? "+" : "") + bytesText(x.bytes);
    const float by = down ? from.y + 1 : from.y - sizeScaled(bytesScale, bytes).y - 1;
    if (!labels.place(ImVec2(ax + 4, by), colour, bytes, true, bytesScale))
      labels.place(ImVec2(ax - 4 - sizeScaled(bytesScale, bytes).x, by), colour, bytes, true,
                   bytesScale);
  }
}

}  // namespace

void drawRanks(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const Trace& t = *ui.trace;
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  const StepSnapshot* previous = ui.step > 0 ? &t.steps[size_t(ui.step - 1)] : nullptr;
  const int gpus = t.gpus, chunks = int(t.chunkStarts.size()) - 1;
  const long long n = t.params.n;
  if (gpus < 1 || chunks < 1 || s.values.size() < size_t(gpus * n) ||
      s.contains.size() < size_t(gpus)) {
    wrappedText(tr("This step holds no buffers to draw."), true);
    return;
  }
  const bool sameBytes = sameBytesEach(s);
  drawCopiesHeader(ui, s, gpus, n, sameBytes);
  const bool wraps = anyCopyWrapsAround(t, gpus);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const RankLayout l = layOutRows(t, s, wraps);
  SmallLabels labels{draw};
  const ChunkText fit = fitChunkText(l);
  drawRows(draw, l, fit, previous, labels, pal);
  drawCopies(draw, l, labels, sameBytes && s.transfers.size() > 1, ui.view.presenter, pal);
  ImGui::Dummy(
      ImVec2(l.avail.x,
             std::max(l.rowTop(gpus - 1) + l.row + l.gap, wraps ? l.bottom() + 4 : 0) - l.start.y));
  noteWidget(app.ui, "ranks");
  ImGui::SetWindowFontScale(1);
}

// The result panel's verdict for an all-reduce: the run is right only where every GPU holds the
// whole result, so one verdict for the run and one for each GPU, a chip each, wrapped onto as
// many lines as the panel needs.
void drawRankVerdicts(App& app) {
  UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const Trace& t = *ui.trace;
  const int gpus = t.gpus;
  const ImVec4 verdictColour = ImGui::ColorConvertU32ToFloat4(t.correct ? pal.right : pal.wrong);
  ImGui::SetWindowFontScale(1.8f);
  ImGui::TextColored(verdictColour, "%s", t.correct ? tr("CORRECT") : tr("WRONG"));
  ImGui::SetWindowFontScale(1.0f);

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (int r = 0; r < gpus; ++r) {
    const bool known = size_t(r) < t.rankResults.size() && size_t(r) < t.rankWrongElements.size();
    const long long wrong = known ? t.rankWrongElements[size_t(r)] : t.params.n;
    const std::string text = !known       ? printed(tr("GPU %d: no result"), r)
                             : wrong == 0 ? printed(tr("GPU %d right"), r)
                                          : printed(tr("GPU %d: %lld wrong"), r, wrong);
    const ImVec2 size(ImGui::CalcTextSize(text.c_str()).x + style.FramePadding.x * 2,
                      ImGui::GetFrameHeight());
    if (r > 0 && ImGui::GetItemRectMax().x + style.ItemSpacing.x + size.x <= right)
      ImGui::SameLine();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y),
                        wrong == 0 ? pal.right : pal.wrong, size.y * 0.3f);
    draw->AddText(ImVec2(at.x + style.FramePadding.x, at.y + style.FramePadding.y),
                  wrong == 0 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255), text.c_str());
    ImGui::Dummy(size);
    noteWidget(ui, "rank verdict " + std::to_string(r) + (wrong == 0 ? ": right" : ": wrong"));
  }
  ImGui::Text(tr("element 0: %s on GPU 0, expected %s"),
              formatValue(t.result, t.params.type).c_str(),
              formatValue(t.expected, t.params.type).c_str());
}

// The lesson view: what the picture means, then this step's copies one by one and the bytes
// each GPU sent and received so far.
void drawRanksDetails(App& app) {
  const UiState& ui = app.ui;
  const Palette& pal = palette(ui.view.presenter);
  const Trace& t = *ui.trace;
  const int gpus = t.gpus;
  wrappedText(
      tr("Each GPU holds its own buffer, cut into chunks. A chunk's colour says how many GPUs' "
         "inputs it already holds; once every chunk on every GPU holds all of them, the "
         "all-reduce is done. The Array window draws this step's copies as arrows."));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.accent));
  ImGui::TextUnformatted(tr("solid: combined"));
  ImGui::PopStyleColor();
  ImGui::SameLine(0, ImGui::GetFontSize());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.worked));
  ImGui::TextUnformatted(tr("dashed: copied over"));
  ImGui::PopStyleColor();
  const StepSnapshot& s = t.steps[size_t(ui.step)];
  ImGui::Spacing();
  if (s.transfers.empty()) ImGui::TextDisabled("%s", tr("No copies in this step."));
  for (const Transfer& x : s.transfers) {
    const std::string line =
        printed(x.combined ? tr("GPU %d -> GPU %d: elements %lld..%lld, %s, combined")
                           : tr("GPU %d -> GPU %d: elements %lld..%lld, %s, copied over"),
                x.from, x.to, x.begin, x.end - 1, bytesText(x.bytes).c_str());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(x.combined ? pal.accent : pal.worked), "%s",
                       line.c_str());
  }
  ImGui::Spacing();
  std::vector<long long> sent(size_t(std::max(gpus, 0))), received(sent.size());
  for (int k = 1; k <= ui.step && size_t(k) < t.steps.size(); ++k)
    for (const Transfer& x : t.steps[size_t(k)].transfers)
      if (x.from >= 0 && x.from < gpus && x.to >= 0 && x.to < gpus) {
        sent[size_t(x.from)] += x.bytes;
        received[size_t(x.to)] += x.bytes;
      }
  ImGui::TextUnformatted(tr("Up to this step:"));
  for (int r = 0; r < gpus; ++r)
    ImGui::Text(tr("GPU %d sent %s, received %s"), r, bytesText(sent[size_t(r)]).c_str(),
                bytesText(received[size_t(r)]).c_str());
}

}  // namespace rlab::gui
