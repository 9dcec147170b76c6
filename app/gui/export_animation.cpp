#include "app/gui/export_animation.hpp"

#include <algorithm>
#include <iostream>

#include "app/gui/animation_file.hpp"
#include "app/gui/panels.hpp"

namespace rlab::gui {

double frameSeconds(const UiState& ui, int stepCount, double secondsPerStep) {
  constexpr double kCharactersPerSecond = 15, kLongest = 12, kVerdict = 3;
  const double reading = double(narrationReadingLength(ui)) / kCharactersPerSecond;
  const double seconds = std::clamp(reading, secondsPerStep, std::max(secondsPerStep, kLongest));
  return ui.step + 1 >= stepCount ? seconds + kVerdict : seconds;
}

int exportAnimation(App& app, const ExportRequest& request,
                    const std::function<std::vector<unsigned char>()>& render) {
  try {
    AnimationWriter writer(request.path, request.width, request.height);
    const int count = std::max(1, app.stepCount());
    for (int step = 0; step < count; ++step) {
      app.stepTo(step);
      writer.add(render(), frameSeconds(app.ui, count, request.secondsPerStep));
      std::cout << "frame " << step + 1 << " " << count << std::endl;
    }
    std::cout << "wrote " << writer.finish() << std::endl;
    return 0;
  } catch (const AnimationError& e) {
    std::cerr << "reduction-lab: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace rlab::gui
