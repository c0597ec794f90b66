// Craftax-Symbolic-v1 and Craftax-Pixels-v1: Craftax 1.6.1's full game (nine
// floors, dungeons, spells, enchantments, the necromancer) with its symbolic
// observation or its pixel view (at 10 pixels a cell, scaled to [0, 1]). The
// game is the plain functions of full/step.h over a FullState; worlds come
// from full/worldgen.h. Both draw render()'s frame: the pixel view at
// render_tile_size pixels a cell.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/stream_rows.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/pixels.h"
#include "envs/craftax/full/prefetch.h"
#include "envs/craftax/full/state_io.h"
#include "envs/craftax/full/step.h"
#include "envs/craftax/full/symbolic_obs.h"
#include "envs/craftax/full/worldgen.h"

namespace envpool_x {

template <bool kPixels>
class CraftaxFullEnv {
 public:
  static constexpr const char* kName = kPixels ? "CraftaxPixels" : "CraftaxSymbolic";
  static constexpr bool kCheap = false;
  static constexpr int kObsBlockPixels = 10;  // Craftax's BLOCK_PIXEL_SIZE_AGENT

  static Config DefaultConfig() {
    const craftax::full::FullParams p;
    return Config{{"day_length", int64_t{p.day_length}},
                  {"always_diamond", p.always_diamond},
                  {"mob_despawn_distance", int64_t{p.mob_despawn_distance}},
                  {"max_attribute", int64_t{p.max_attribute}},
                  {"god_mode", p.god_mode},
                  {"render_tile_size", int64_t{16}}};
  }

  static craftax::full::FullParams Params(const Config& config) {
    craftax::full::FullParams p;
    auto positive = [&](const char* key) {
      const int64_t v = config.Int(key);
      if (v < 1 || v > (int64_t{1} << 30)) {
        throw ValueError(std::string("Craftax ") + key + " must be in [1, 2**30], got " +
                         std::to_string(v));
      }
      return static_cast<int32_t>(v);
    };
    p.day_length = positive("day_length");
    p.always_diamond = config.Bool("always_diamond");
    p.mob_despawn_distance = positive("mob_despawn_distance");
    p.max_attribute = positive("max_attribute");
    p.god_mode = config.Bool("god_mode");
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    Params(config);
    craftax::full::CheckFullBlockPixels(static_cast<int>(config.Int("render_tile_size")),
                                        "render_tile_size");
    EnvSpec spec;
    if constexpr (kPixels) {
      const int rows = (craftax::full::kViewRows + craftax::full::kInventoryRows) * kObsBlockPixels;
      const int cols = craftax::full::kViewCols * kObsBlockPixels;
      spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {rows, cols, 3}, {0.0}, {1.0}});
    } else {
      spec.obs.push_back(
          ArraySpec{"obs", DType::kFloat32, {craftax::full::kSymbolicObsSize}, {0.0}, {1.0}});
    }
    spec.info.push_back(
        ArraySpec{"achievements", DType::kInt8, {craftax::full::kNumAchievements}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = craftax::full::kNumActions;
    return spec;
  }

  CraftaxFullEnv(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        achievements_(InfoField<int8_t>(spec, "achievements")),
        p_(Params(config)),
        render_block_(static_cast<int>(config.Int("render_tile_size"))) {
    if constexpr (kPixels) {
      textures_ = craftax::full::FindFullTextures(kObsBlockPixels);
    }
  }

  // render(): the pixel view at render_tile_size, rounded to uint8.
  std::array<int, 2> RenderSize() const {
    return {(craftax::full::kViewRows + craftax::full::kInventoryRows) * render_block_,
            craftax::full::kViewCols * render_block_};
  }
  void Render(uint8_t* rgb) {
    const auto textures = craftax::full::FindFullTextures(render_block_);
    const auto size = RenderSize();
    std::vector<float> frame(size_t(size[0]) * size[1] * 3);
    craftax::full::DrawFullPixels(s_, *textures, frame.data());
    for (size_t i = 0; i < frame.size(); ++i) {
      const float v = std::nearbyint(frame[i]);
      rgb[i] = static_cast<uint8_t>(v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
    }
  }

  void SetMaxEpisodeSteps(int steps) { p_.max_timesteps = steps > 0 ? steps : p_.max_timesteps; }

  void Reset(Rng& rng, const StepOutput& out) {
    craftax::full::StartFullWorld(rng, p_, s_);
    Write(out);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    StepParts(DiscreteAction(action), rng, out, craftax::NoLaps{});
  }

  // The step, calling laps(part) as each part ends (the profiler's).
  template <class Laps>
  void StepParts(int32_t action, Rng& rng, const StepOutput& out, Laps laps) {
    // The floor a descent would reach is made first (the step itself is
    // host-and-device code; making a floor is host code).
    if (action == craftax::full::kDescend) {
      craftax::full::MakeFloor(p_, craftax::full::LevelRead(s_.player_level + 1), s_);
    }
    craftax::full::PrefetchView(s_);
    craftax::full::StreamDraws draws(rng);  // drawn as the step needs them
    laps(craftax::kPartDraws);
    *out.reward = craftax::full::FullStep(s_, action, draws, p_, laps);
    s_.state_rng[0] = draws.NextWord();
    s_.state_rng[1] = draws.NextWord();
    // Death and beating the necromancer end the game; the time limit is the
    // pool's truncation.
    *out.terminated = s_.player_health <= 0.0f || craftax::full::HasBeatenBoss(s_);
    Write(out);
    laps(craftax::kPartObs);
  }

  // Packs every floor, the ones not made yet included (made on a copy).
  std::vector<double> GetState() const {
    if (s_.floors_made == craftax::full::kAllFloorsMade) return craftax::full::PackState(s_);
    auto whole = std::make_unique<craftax::full::FullState>(s_);
    craftax::full::MakeAllFloors(p_, *whole);
    return craftax::full::PackState(*whole);
  }
  void SetState(const std::vector<double>& values) { craftax::full::UnpackState(values, s_); }

 private:
  void Write(const StepOutput& out) {
    if constexpr (kPixels) {
      // Craftax's observation: the pixels / 255 (as XLA evaluates it: times 1 / 255).
      const size_t size = size_t(textures_->Rows()) * textures_->Cols() * 3;
      WriteFloatRow(out[obs_], size, out.stream_rows, [&](float* obs) {
        craftax::full::DrawFullPixels(s_, *textures_, obs);
        for (size_t i = 0; i < size; ++i) obs[i] *= 1.0f / 255.0f;
      });
    } else {
      WriteFloatRow(out[obs_], craftax::full::kSymbolicObsSize, out.stream_rows,
                    [&](float* obs) { craftax::full::WriteSymbolicObs(s_, obs); });
    }
    int8_t* a = out[achievements_];
    for (int i = 0; i < craftax::full::kNumAchievements; ++i) a[i] = s_.achievements[i];
  }

  OutputField<float> obs_;
  OutputField<int8_t> achievements_;
  craftax::full::FullParams p_;
  int render_block_;
  // Inline (145 KiB), so that the memory check's sizeof(Env) counts it.
  craftax::full::FullState s_{};
  std::shared_ptr<const craftax::full::FullTextures> textures_;  // the observation's
};

using CraftaxSymbolic = CraftaxFullEnv<false>;
using CraftaxPixels = CraftaxFullEnv<true>;

}  // namespace envpool_x
