// The ROM side of the Atari family: what a ROM offers (action sets, modes,
// difficulties), loading it into an ALEInterface, and quieting ALE's logger.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ale/ale_interface.hpp"
#include "core/errors.h"

namespace envpool_x {

namespace atari_detail {

inline void QuietAle() {
  static std::once_flag once;
  std::call_once(once, [] { ale::Logger::setMode(ale::Logger::Error); });
}

// Loads the ROM into `ale`, with errors we can report instead of ALE's
// std::exit on an unknown ROM.
inline void LoadRom(ale::ALEInterface& ale, const std::string& rom_path, const std::string& task) {
  if (rom_path.empty()) {
    throw ValueError("Atari task '" + task +
                     "': rom_path is empty; make the env through envpool_x (which takes the "
                     "ROM from the installed ale-py: pip install 'envpool-x[atari]') or pass "
                     "rom_path");
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(rom_path, ec)) {
    throw ValueError("Atari task '" + task + "': ROM file '" + rom_path + "' does not exist");
  }
  // ALE accepts a ROM whose file name or MD5 it knows (a known name with
  // another MD5 only gets a warning) and exits the process otherwise.
  bool supported = false;
  try {
    std::unique_ptr<ale::RomSettings> by_name(ale::buildRomRLWrapper(rom_path, ""));
    supported = by_name != nullptr || ale::ALEInterface::isSupportedROM(rom_path).has_value();
  } catch (const std::exception& e) {
    throw ValueError("Atari task '" + task + "': cannot read ROM '" + rom_path + "': " + e.what());
  }
  if (!supported) {
    throw ValueError("Atari task '" + task + "': '" + rom_path +
                     "' is not a ROM this ALE supports (unknown file name or MD5)");
  }
  ale.loadROM(rom_path);
}

// What Spec needs from a ROM (number of actions, valid modes/difficulties);
// loading a ROM takes milliseconds, so it is done once per ROM.
struct RomInfo {
  int64_t minimal_actions = 0;
  int64_t legal_actions = 0;
  std::vector<int> modes;
  std::vector<int> difficulties;
};

inline RomInfo GetRomInfo(const std::string& rom_path, const std::string& task) {
  static std::mutex mu;
  static std::map<std::string, RomInfo> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(rom_path);
  if (it != cache.end()) return it->second;
  QuietAle();
  ale::ALEInterface ale;
  LoadRom(ale, rom_path, task);
  RomInfo info;
  info.minimal_actions = static_cast<int64_t>(ale.getMinimalActionSet().size());
  info.legal_actions = static_cast<int64_t>(ale.getLegalActionSet().size());
  for (auto m : ale.getAvailableModes()) info.modes.push_back(static_cast<int>(m));
  for (auto d : ale.getAvailableDifficulties()) info.difficulties.push_back(static_cast<int>(d));
  cache.emplace(rom_path, info);
  return info;
}

// dst[i] = lut[cur[i]], or with prev the max of lut[prev[i]] and lut[cur[i]].
// Consecutive frames mostly agree, so runs of 8 equal indices take one lookup
// per pixel instead of two.
inline void ApplyPalette(const uint8_t* lut, const uint8_t* prev, const uint8_t* cur, uint8_t* dst,
                         size_t n) {
  size_t i = 0;
  if (prev != nullptr) {
    for (; i + 8 <= n; i += 8) {
      uint64_t a, b;
      std::memcpy(&a, prev + i, 8);
      std::memcpy(&b, cur + i, 8);
      if (a == b) {
        for (size_t j = i; j < i + 8; ++j) dst[j] = lut[cur[j]];
      } else {
        for (size_t j = i; j < i + 8; ++j) dst[j] = std::max(lut[prev[j]], lut[cur[j]]);
      }
    }
    for (; i < n; ++i) dst[i] = std::max(lut[prev[i]], lut[cur[i]]);
    return;
  }
  for (; i < n; ++i) dst[i] = lut[cur[i]];
}

inline std::string JoinInts(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

}  // namespace atari_detail

}  // namespace envpool_x
