#include "app/gui/settings.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/strings.hpp"
#include "lessons/engine/registry.hpp"

namespace rlab::gui {

std::string settingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::string folder;
  if (xdg && *xdg == '/')
    folder = xdg;
  else if (home && *home)
    folder = std::string(home) + "/.config";
  else
    return "";
  return folder + "/reduction-lab/settings.json";
}

std::optional<Settings> loadSettings(const std::string& path, std::string& problem) {
  problem.clear();
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    Settings s;
    const auto& p = j.at("params");
    s.params.lesson = p.at("lesson").get<std::string>();
    s.params.variant = p.at("variant").get<std::string>();
    s.params.n = p.at("n").get<int64_t>();
    s.params.block = p.at("block").get<int>();
    s.params.op = parseOp(p.at("op").get<std::string>());
    s.params.type = parseType(p.at("type").get<std::string>());
    s.params.data = p.at("data").get<std::string>();
    s.params.values = p.at("values").get<std::vector<double>>();
    s.params.barrier = p.at("barrier").get<bool>();
    s.params.syncwarp = p.value("syncwarp", true);  // files from before the lastwarp lesson: none
    s.params.perturb = p.at("perturb").get<bool>();
    s.params.printing = p.value("printf", false);  // files from before --printf have none
    s.params.schedule = p.at("schedule").get<std::string>();
    s.params.gpus = p.value("gpus", 0);  // files from before the allreduce lesson have none
    s.params.perThread = p.value("per_thread", 0);  // shared coarsened's; older files: none
    s.params.loadAdd = p.value("load_add", true);
    s.params.backend = parseBackend(p.at("backend").get<std::string>());
    resolve(s.params);  // the same checks as every run: a lesson that is gone, a bad n...
    s.presenter = j.at("presenter").get<bool>();
    s.textScale = j.at("textScale").get<float>();
    s.language = parseLanguage(j.at("language").get<std::string>());
    s.width = j.at("width").get<int>();
    s.height = j.at("height").get<int>();
    if (!(s.textScale >= 0.6f && s.textScale <= 2.5f) || s.width < 320 || s.height < 240 ||
        s.width > 7680 || s.height > 4320)
      throw MessageError(verbatim(tr("a text size or window size is out of range")));
    return s;
  } catch (const std::exception& e) {
    std::string why = say(messageOf(e));  // the JSON library's words as it wrote them
    if (!why.empty() && why.back() == '.') why.pop_back();
    problem = printed(tr("The settings in %s could not be used (%s), so the app starts with its "
                         "defaults and will write new ones."),
                      path.c_str(), why.c_str());
    return std::nullopt;
  }
}

bool saveSettings(const std::string& path, const Settings& s, std::string& problem) {
  nlohmann::json p = {{"lesson", s.params.lesson},
                      {"variant", s.params.variant},
                      {"n", s.params.n},
                      {"block", s.params.block},
                      {"op", name(s.params.op)},
                      {"type", name(s.params.type)},
                      {"data", s.params.data},
                      {"values", s.params.values},
                      {"barrier", s.params.barrier},
                      {"syncwarp", s.params.syncwarp},
                      {"perturb", s.params.perturb},
                      {"printf", s.params.printing},
                      {"schedule", s.params.schedule},
                      {"gpus", s.params.gpus},
                      {"per_thread", s.params.perThread},
                      {"load_add", s.params.loadAdd},
                      {"backend", name(s.params.backend)}};
  const nlohmann::json j = {{"params", p},
                            {"presenter", s.presenter},
                            {"textScale", s.textScale},
                            {"language", code(s.language)},
                            {"width", s.width},
                            {"height", s.height}};
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  // Written beside and renamed over: a crash mid-write never leaves half a file.
  const std::string partial = path + ".new";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << j.dump(2) << "\n";
    if (!out) {
      problem = "The settings could not be written to " + path + ".";
      return false;
    }
  }
  std::filesystem::rename(partial, path, error);
  if (error) {
    problem = "The settings could not be written to " + path + ": " + error.message() + ".";
    return false;
  }
  return true;
}

int64_t valuesPerRank(const Params& p) {
  const LessonInfo* lesson = findLesson(p.lesson);
  const int64_t gpus = p.gpus > 0 ? p.gpus : lesson ? std::max(lesson->defaultGpus, 1) : 1;
  const int64_t count = int64_t(p.values.size());
  return count % gpus == 0 ? count / gpus : 0;
}

Settings settingsOf(const UiState& ui, int width, int height) {
  Settings s;
  s.params = ui.params;
  if (!s.params.values.empty()) s.params.n = valuesPerRank(s.params);  // they agree
  s.presenter = ui.view.presenter;
  s.textScale = ui.view.textScale;
  s.language = ui.language;
  s.width = width;
  s.height = height;
  return s;
}

void applySettings(const Settings& s, UiState& ui) {
  const BackendChoice startedOn = ui.params.backend;
  ui.params = s.params;
  // The GPU only where one works now; the simulator stays the learner's choice.
  if (s.params.backend == BackendChoice::Gpu && !ui.gpuUsable) ui.params.backend = startedOn;
  std::string values;
  for (double v : s.params.values)
    values += (values.empty() ? "" : ",") + formatValue(v, s.params.type);
  values.copy(ui.valuesText.data(), ui.valuesText.size() - 1);
  ui.valuesText[std::min(values.size(), ui.valuesText.size() - 1)] = '\0';
  ui.view.presenter = s.presenter;
  ui.view.textScale = s.textScale;
  ui.language = s.language;
  ui.fontsWanted = true;
  ui.rerunWanted = true;
}

}  // namespace rlab::gui
