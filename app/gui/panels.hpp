// One panel per file; each draws inside the window the layout in app.cpp opened for it.
#pragma once

#include <string>

#include "app/gui/app.hpp"

namespace rlab::gui {

void drawLessonsPanel(App& app);   // lesson list, variants, lesson text
void drawControlsPanel(App& app);  // parameters, backend, Run
void drawPlayerPanel(App& app);    // scrubber, play/pause, step buttons, speed
void drawArrayPanel(App& app);     // the array after this step
void drawLessonView(App& app);     // the lesson's own picture
void drawResultPanel(App& app);    // result, expected, verdict, timings
void drawSourcePanel(App& app);    // the kernel that ran
void drawTimingPanel(App& app);    // log-log chart from rlab bench's engine
void drawRacePanel(App& app);      // run K times, histogram, open a wrong run
void drawTextPanel(App& app);      // the lesson's text: links, narration, predictions
void drawNarration(App& app);      // the text's sentence for the step on screen

// Small helpers the panels share.
void helpMarker(const char* text);
void noteWidget(UiState& ui, const std::string& name);  // remember where it was drawn
// Text wrapped to the window, in the current text colour (or the disabled one): Latin breaks
// at spaces, Japanese and Chinese between characters, where ImGui's own wrapping breaks them
// only after 、 and 。 and lets the rest run past the edge.
void wrappedText(const std::string& text, bool disabled = false);

}  // namespace rlab::gui
