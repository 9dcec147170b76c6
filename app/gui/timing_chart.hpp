// The timing panel's chart (timing_chart.cpp): time or GB/s against n, log-log, one line per
// kernel of the bench's rows, with its legend.
#pragma once

#include "app/gui/panels.hpp"

namespace rlab::gui {

// The chart of ui.bench in `height` pixels: the plot with its axes' labels in margins of their
// own, the legend beside it (in as many columns as its height needs) where that leaves the plot
// half the width, else under it; past the height, the chart scrolls within it.
void drawTimingChart(UiState& ui, float height, const Palette& pal);

}  // namespace rlab::gui
