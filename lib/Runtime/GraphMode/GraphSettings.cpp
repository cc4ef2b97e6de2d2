//===- GraphSettings.cpp - Graph mode: which programs use it --------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The graph mode of each program (sdfgrtSetGraphMode): update (the
// default), rebuild or off, per program name or for every program. A call
// reads it once, when it begins (sdfgrtBeginGraphCall); while no setting
// differs from the default, without taking the lock.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "GraphMode/GraphMode.h"

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>

using namespace sdfgrt;

namespace {

/// The graph mode of each program (sdfgrtSetGraphMode).
struct GraphModeSettings {
  std::mutex mutex;
  std::atomic<bool> anySetting{false};
  int32_t defaultMode = kGraphModeUpdate;
  std::unordered_map<std::string, int32_t> programs;

  int32_t modeOf(const char *program) {
    if (!anySetting.load(std::memory_order_acquire))
      return kGraphModeUpdate;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = programs.find(program);
    return it == programs.end() ? defaultMode : it->second;
  }
};

GraphModeSettings &graphModeSettings() {
  static GraphModeSettings *instance = new GraphModeSettings;
  return *instance;
}

} // namespace

int32_t sdfgrt::graphModeOf(const char *program) {
  return graphModeSettings().modeOf(program);
}

void sdfgrtSetGraphMode(const char *program, int32_t mode) {
  GraphModeSettings &settings = graphModeSettings();
  std::lock_guard<std::mutex> lock(settings.mutex);
  if (mode != kGraphModeUpdate && mode != kGraphModeRebuild)
    mode = kGraphModeOff;
  if (!program) {
    settings.programs.clear();
    settings.defaultMode = mode;
  } else {
    settings.programs[program] = mode;
  }
  // Back to the defaults: calls need not take the lock.
  settings.anySetting.store(!settings.programs.empty() ||
                                settings.defaultMode != kGraphModeUpdate,
                            std::memory_order_release);
}
