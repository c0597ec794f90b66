// Craftax-Classic-Symbolic-v1 and Craftax-Classic-Pixels-v1: Craftax 1.6.1's
// Classic game (a 2-D Crafter) with its symbolic observation or its pixel view
// (classic_pixels.h, at 7 pixels a cell, scaled to [0, 1]). The game is the
// plain functions of classic_step.h over a ClassicState; worlds come from
// classic_worldgen.h. Both draw render()'s frame: the pixel view at
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
#include "envs/craftax/classic_obs.h"
#include "envs/craftax/classic_pixels.h"
#include "envs/craftax/classic_state_io.h"
#include "envs/craftax/classic_step.h"
#include "envs/craftax/classic_worldgen.h"

namespace envpool_x {

template <bool kPixels>
class CraftaxClassicEnv {
 public:
  static constexpr const char* kName = kPixels ? "CraftaxClassicPixels" : "CraftaxClassic";
  static constexpr bool kCheap = false;
  static constexpr int kObsBlockPixels = 7;  // Craftax's BLOCK_PIXEL_SIZE_AGENT

  static Config DefaultConfig() {
    const craftax::ClassicParams p;
    return Config{{"day_length", int64_t{p.day_length}},
                  {"always_diamond", p.always_diamond},
                  {"zombie_health", int64_t{p.zombie_health}},
                  {"cow_health", int64_t{p.cow_health}},
                  {"skeleton_health", int64_t{p.skeleton_health}},
                  {"mob_despawn_distance", int64_t{p.mob_despawn_distance}},
                  {"spawn_cow_chance", double{p.spawn_cow_chance}},
                  {"spawn_zombie_base_chance", double{p.spawn_zombie_base_chance}},
                  {"spawn_zombie_night_chance", double{p.spawn_zombie_night_chance}},
                  {"spawn_skeleton_chance", double{p.spawn_skeleton_chance}},
                  {"render_tile_size", int64_t{16}}};
  }

  static craftax::ClassicParams Params(const Config& config) {
    craftax::ClassicParams p;
    auto positive = [&](const char* key) {
      const int64_t v = config.Int(key);
      if (v < 1 || v > (int64_t{1} << 30)) {
        throw ValueError(std::string("Craftax ") + key + " must be in [1, 2**30], got " +
                         std::to_string(v));
      }
      return static_cast<int32_t>(v);
    };
    auto chance = [&](const char* key) {
      const double v = config.Double(key);
      if (!(v >= 0.0 && v <= 1.0)) {
        throw ValueError(std::string("Craftax ") + key + " must be in [0, 1], got " +
                         std::to_string(v));
      }
      return static_cast<float>(v);
    };
    p.day_length = positive("day_length");
    p.always_diamond = config.Bool("always_diamond");
    p.zombie_health = positive("zombie_health");
    p.cow_health = positive("cow_health");
    p.skeleton_health = positive("skeleton_health");
    p.mob_despawn_distance = positive("mob_despawn_distance");
    p.spawn_cow_chance = chance("spawn_cow_chance");
    p.spawn_zombie_base_chance = chance("spawn_zombie_base_chance");
    p.spawn_zombie_night_chance = chance("spawn_zombie_night_chance");
    p.spawn_skeleton_chance = chance("spawn_skeleton_chance");
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    Params(config);
    craftax::CheckBlockPixels(static_cast<int>(config.Int("render_tile_size")), "render_tile_size");
    EnvSpec spec;
    if constexpr (kPixels) {
      const int side = (craftax::kViewRows + craftax::kInventoryRows) * kObsBlockPixels;
      spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {side, side, 3}, {0.0}, {1.0}});
    } else {
      spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {craftax::kObsSize}, {0.0}, {1.0}});
    }
    spec.info.push_back(
        ArraySpec{"achievements", DType::kInt8, {craftax::kNumAchievements}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = craftax::kNumActions;
    return spec;
  }

  CraftaxClassicEnv(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        achievements_(InfoField<int8_t>(spec, "achievements")),
        p_(Params(config)),
        render_block_(static_cast<int>(config.Int("render_tile_size"))) {
    if constexpr (kPixels) {
      textures_ = craftax::FindPixelTextures(kObsBlockPixels);
    }
  }

  // render(): the pixel view at render_tile_size, rounded to uint8.
  std::array<int, 2> RenderSize() const {
    return {(craftax::kViewRows + craftax::kInventoryRows) * render_block_,
            craftax::kViewCols * render_block_};
  }
  void Render(uint8_t* rgb) {
    const auto textures = craftax::FindPixelTextures(render_block_);
    std::vector<float> frame(size_t(textures->Rows()) * textures->Cols() * 3);
    craftax::DrawPixels(s_, *textures, frame.data());
    for (size_t i = 0; i < frame.size(); ++i) {
      const float v = std::nearbyint(frame[i]);
      rgb[i] = static_cast<uint8_t>(v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
    }
  }

  void SetMaxEpisodeSteps(int steps) { p_.max_timesteps = steps > 0 ? steps : p_.max_timesteps; }

  void Reset(Rng& rng, const StepOutput& out) {
    craftax::GenerateClassicWorld(rng, p_, s_);
    Write(out);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    StepParts(DiscreteAction(action), rng, out, craftax::NoLaps{});
  }

  // The step, calling laps(part) as each part ends (classic_profile.h).
  template <class Laps>
  void StepParts(int32_t action, Rng& rng, const StepOutput& out, Laps laps) {
    craftax::StepDraws draws(rng);
    laps(craftax::kPartDraws);
    *out.reward = craftax::ClassicStep(s_, action, draws, p_, laps);
    draws.NextStateRng(s_);
    // Death and lava end the game; the time limit is the pool's truncation.
    *out.terminated =
        s_.health <= 0 || craftax::BlockAt(s_, s_.player_x, s_.player_y) == craftax::kLava;
    Write(out);
    laps(craftax::kPartObs);
  }

  std::vector<double> GetState() const { return craftax::PackState(s_); }
  void SetState(const std::vector<double>& values) { craftax::UnpackState(values, s_); }

 private:
  void Write(const StepOutput& out) {
    if constexpr (kPixels) {
      // Craftax's observation: the pixels / 255 (as XLA evaluates it: times 1 / 255).
      const size_t size = size_t(textures_->Rows()) * textures_->Cols() * 3;
      WriteFloatRow(out[obs_], size, out.stream_rows, [&](float* obs) {
        craftax::DrawPixels(s_, *textures_, obs);
        for (size_t i = 0; i < size; ++i) obs[i] *= 1.0f / 255.0f;
      });
    } else {
      craftax::WriteSymbolicObs(s_, out[obs_]);
    }
    int8_t* a = out[achievements_];
    for (int i = 0; i < craftax::kNumAchievements; ++i) a[i] = s_.achievements[i];
  }

  OutputField<float> obs_;
  OutputField<int8_t> achievements_;
  craftax::ClassicParams p_;
  craftax::ClassicState s_{};
  int render_block_;
  std::shared_ptr<const craftax::PixelTextures> textures_;  // the observation's (pixels only)
};

using CraftaxClassic = CraftaxClassicEnv<false>;
using CraftaxClassicPixels = CraftaxClassicEnv<true>;

}  // namespace envpool_x
