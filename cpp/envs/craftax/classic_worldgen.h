// A Craftax-Classic world from the env's own seed stream. Same recipe as
// Craftax 1.6.1's generator (Perlin noise layers for water, sand, mountains,
// paths, caves, trees and lava; random ores; one diamond always; the player
// at the centre on grass), drawn from our Rng, so worlds differ from
// Craftax's for the same seed.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/random.h"
#include "envs/craftax/classic_state.h"
#include "envs/craftax/classic_step.h"

namespace envpool_x {
namespace craftax {

// Perlin noise over the map with res_x x res_y gradient cells, scaled to [0, 1].
inline void PerlinNoise(Rng& rng, int res_x, int res_y, float out[kMapSize][kMapSize]) {
  float gx[kMapSize + 1][kMapSize + 1];
  float gy[kMapSize + 1][kMapSize + 1];
  for (int i = 0; i <= res_x; ++i) {
    for (int j = 0; j <= res_y; ++j) {
      const double angle = 6.283185307179586 * rng.Uniform();
      gx[i][j] = static_cast<float>(std::cos(angle));
      gy[i][j] = static_cast<float>(std::sin(angle));
    }
  }
  auto fade = [](float t) { return t * t * t * (t * (t * 6 - 15) + 10); };
  const int cell_x = kMapSize / res_x;
  const int cell_y = kMapSize / res_y;
  float lo = 1e9f, hi = -1e9f;
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const int i = x / cell_x;
      const int j = y / cell_y;
      const float u = static_cast<float>(x % cell_x) / cell_x;
      const float v = static_cast<float>(y % cell_y) / cell_y;
      const float n00 = u * gx[i][j] + v * gy[i][j];
      const float n10 = (u - 1) * gx[i + 1][j] + v * gy[i + 1][j];
      const float n01 = u * gx[i][j + 1] + (v - 1) * gy[i][j + 1];
      const float n11 = (u - 1) * gx[i + 1][j + 1] + (v - 1) * gy[i + 1][j + 1];
      const float n0 = n00 + fade(u) * (n10 - n00);
      const float n1 = n01 + fade(u) * (n11 - n01);
      const float n = n0 + fade(v) * (n1 - n0);
      out[x][y] = n;
      lo = n < lo ? n : lo;
      hi = n > hi ? n : hi;
    }
  }
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) out[x][y] = (out[x][y] - lo) / (hi - lo);
  }
}

// A fresh game: the world, the player at the centre with full intrinsics.
inline void GenerateClassicWorld(Rng& rng, const ClassicParams& p, ClassicState& s) {
  static thread_local float water[kMapSize][kMapSize], mountain[kMapSize][kMapSize],
      paths[kMapSize][kMapSize], trees[kMapSize][kMapSize];
  const int cx = kMapSize / 2;
  const int cy = kMapSize / 2;
  PerlinNoise(rng, kMapSize / 16, kMapSize / 16, water);
  PerlinNoise(rng, kMapSize / 16, kMapSize / 16, mountain);
  PerlinNoise(rng, kMapSize / 8, kMapSize / 2, paths);
  PerlinNoise(rng, kMapSize / 4, kMapSize / 4, trees);
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      // Near the player (Manhattan distance < 5) water and mountains fade out.
      const float near = std::fmin(static_cast<float>(Abs(x - cx) + Abs(y - cy)) / 5.0f, 1.0f);
      const float w = water[x][y] + near - 1.0f;
      const float m = mountain[x][y] + 0.05f + near - 1.0f;
      int8_t b = w > 0.7f ? kWater : kGrass;
      if (w < 0.75f && w > 0.6f && b != kWater) b = kSand;
      if (m > 0.7f) {
        b = kStone;
        if (paths[x][y] > 0.8f || paths[y][x] > 0.8f) b = kPath;
        if (m > 0.85f && w > 0.4f) b = kPath;  // caves
      }
      if (b == kStone && rng.Uniform() < 0.04) b = kCoal;
      if (b == kStone && rng.Uniform() < 0.03) b = kIron;
      if (b == kStone && m > 0.8f && rng.Uniform() < 0.005) b = kDiamond;
      if (b == kGrass && trees[x][y] > 0.5f && rng.Uniform() > 0.8) b = kTree;
      if (m > 0.85f && trees[x][y] > 0.7f) b = kLava;
      s.map[x][y] = b;
      s.mob_map[x][y] = false;
    }
  }
  s.map[cx][cy] = kGrass;
  // One diamond on a stone cell (Craftax's always_diamond), when there is stone.
  int stones = 0;
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) stones += s.map[x][y] == kStone;
  }
  if (stones > 0 && p.always_diamond) {
    int pick = static_cast<int>(rng.UniformInt(static_cast<uint64_t>(stones)));
    for (int x = 0; x < kMapSize && pick >= 0; ++x) {
      for (int y = 0; y < kMapSize && pick >= 0; ++y) {
        if (s.map[x][y] == kStone && pick-- == 0) s.map[x][y] = kDiamond;
      }
    }
  }
  s.player_x = cx;
  s.player_y = cy;
  s.player_direction = kUp;
  s.health = s.food = s.drink = s.energy = 9;
  s.is_sleeping = false;
  s.recover = s.hunger = s.thirst = s.fatigue = 0.0f;
  for (int32_t& item : s.inventory) item = 0;
  // Empty mob slots as Craftax fills them (their health matters to its quirks).
  s.zombies = MobSlots<kMaxZombies>{};
  for (int i = 0; i < kMaxZombies; ++i) s.zombies.health[i] = 1;
  s.cows = MobSlots<kMaxCows>{};
  for (int i = 0; i < kMaxCows; ++i) s.cows.health[i] = p.cow_health;
  s.skeletons = MobSlots<kMaxSkeletons>{};
  s.arrows = MobSlots<kMaxArrows>{};
  for (int i = 0; i < kMaxArrows; ++i) s.arrow_dx[i] = s.arrow_dy[i] = 1;
  for (int i = 0; i < kMaxPlants; ++i) {
    s.plant_x[i] = s.plant_y[i] = s.plant_age[i] = 0;
    s.plant_mask[i] = false;
  }
  for (bool& a : s.achievements) a = false;
  s.timestep = 0;
  s.light_level = LightLevel(0, p.day_length);
  NewStateRng(rng, s);
}

}  // namespace craftax
}  // namespace envpool_x
