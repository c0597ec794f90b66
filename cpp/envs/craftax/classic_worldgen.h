// A Craftax-Classic world from the env's own seed stream. Same recipe as
// Craftax 1.6.1's generator (Perlin noise layers for water, sand, mountains,
// paths, caves, trees and lava; random ores; one diamond always; the player
// at the centre on grass), drawn from our Rng, so worlds differ from
// Craftax's for the same seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/random.h"
#include "envs/craftax/classic_state.h"
#include "envs/craftax/classic_step.h"

namespace envpool_x {
namespace craftax {

// The env's stream as a world's draws: the four 32-bit words of each Philox
// block in turn (a world takes a few thousand); the stream goes on after the
// last block read once the world is made.
class WorldDraws {
 public:
  explicit WorldDraws(Rng& rng) : rng_(rng), key_(rng.key()), counter_(rng.counter()) {}
  ~WorldDraws() { rng_ = Rng(key_, counter_); }
  WorldDraws(const WorldDraws&) = delete;
  WorldDraws& operator=(const WorldDraws&) = delete;

  uint32_t NextWord() {
    if (used_ == 4) {
      block_ = PhiloxBlock(counter_++, key_);
      used_ = 0;
    }
    return block_.v[used_++];
  }
  // A uniform in [0, 1) with 24 random bits.
  float Uniform() { return static_cast<float>(NextWord() >> 8) * (1.0f / 16777216.0f); }
  // A uniform integer in [0, n) (multiply-shift; n < 2^32).
  uint32_t UniformInt(uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(NextWord()) * n) >> 32);
  }

 private:
  Rng& rng_;
  uint64_t key_;
  uint64_t counter_;
  Philox4x32 block_{};
  int used_ = 4;
};

// Perlin's gradients: unit vectors at kGradientAngles even angles (Craftax
// draws the angle uniformly; a table spares the trigonometry per world).
constexpr int kGradientAngles = 1024;
struct GradientTable {
  float x[kGradientAngles];
  float y[kGradientAngles];
  GradientTable() {
    for (int k = 0; k < kGradientAngles; ++k) {
      const double angle = 6.283185307179586 * k / kGradientAngles;
      x[k] = static_cast<float>(std::cos(angle));
      y[k] = static_cast<float>(std::sin(angle));
    }
  }
};

// Perlin noise over an N x N map with res_x x res_y gradient cells, scaled to
// [0, 1] (N is the map's size: 64 here, 48 for the full game's floors; Draws
// is anything with NextWord()).
// Per gradient row i and map column y, the terms that do not depend on the
// map row are tabled first, so the loop over a row reads contiguous arrays
// (and vectorizes); every value is computed as u * gx + v * gy in this order.
template <class Draws, int N>
inline void PerlinNoise(Draws& draws, int res_x, int res_y, float (*out)[N]) {
  static const GradientTable table;
  float gx[N + 1][N + 1];
  float gy[N + 1][N + 1];
  for (int i = 0; i <= res_x; ++i) {
    for (int j = 0; j <= res_y; ++j) {
      const uint32_t k = draws.NextWord() % kGradientAngles;
      gx[i][j] = table.x[k];
      gy[i][j] = table.y[k];
    }
  }
  auto fade = [](float t) { return t * t * t * (t * (t * 6 - 15) + 10); };
  const int cell_x = N / res_x;
  const int cell_y = N / res_y;
  float fade_v[N];
  // Per gradient row i, column y (in cell j, at offset v): gx and v * gy of
  // the cell's left corner (j) and right corner (j + 1).
  static thread_local float left_gx[N + 1][N], left_vgy[N + 1][N], right_gx[N + 1][N],
      right_vgy[N + 1][N];
  for (int y = 0; y < N; ++y) {
    const int j = y / cell_y;
    const float v = static_cast<float>(y % cell_y) / cell_y;
    fade_v[y] = fade(v);
    for (int i = 0; i <= res_x; ++i) {
      left_gx[i][y] = gx[i][j];
      left_vgy[i][y] = v * gy[i][j];
      right_gx[i][y] = gx[i][j + 1];
      right_vgy[i][y] = (v - 1) * gy[i][j + 1];
    }
  }
  for (int x = 0; x < N; ++x) {
    const int i = x / cell_x;
    const float u = static_cast<float>(x % cell_x) / cell_x;
    const float fade_u = fade(u);
    const float* g00 = left_gx[i];
    const float* h00 = left_vgy[i];
    const float* g10 = left_gx[i + 1];
    const float* h10 = left_vgy[i + 1];
    const float* g01 = right_gx[i];
    const float* h01 = right_vgy[i];
    const float* g11 = right_gx[i + 1];
    const float* h11 = right_vgy[i + 1];
    float* row = out[x];
    for (int y = 0; y < N; ++y) {
      const float n00 = u * g00[y] + h00[y];
      const float n10 = (u - 1) * g10[y] + h10[y];
      const float n01 = u * g01[y] + h01[y];
      const float n11 = (u - 1) * g11[y] + h11[y];
      const float n0 = n00 + fade_u * (n10 - n00);
      const float n1 = n01 + fade_u * (n11 - n01);
      row[y] = n0 + fade_v[y] * (n1 - n0);
    }
  }
  // The extremes per column first (a pass that vectorizes), then of those:
  // the same lo and hi as one scan (a minimum does not depend on the order).
  float col_lo[N], col_hi[N];
  for (int y = 0; y < N; ++y) col_lo[y] = col_hi[y] = out[0][y];
  for (int x = 1; x < N; ++x) {
    for (int y = 0; y < N; ++y) {
      col_lo[y] = out[x][y] < col_lo[y] ? out[x][y] : col_lo[y];
      col_hi[y] = out[x][y] > col_hi[y] ? out[x][y] : col_hi[y];
    }
  }
  float lo = col_lo[0], hi = col_hi[0];
  for (int y = 1; y < N; ++y) {
    lo = col_lo[y] < lo ? col_lo[y] : lo;
    hi = col_hi[y] > hi ? col_hi[y] : hi;
  }
  const float range = hi - lo;
  for (int x = 0; x < N; ++x) {
    for (int y = 0; y < N; ++y) out[x][y] = (out[x][y] - lo) / range;
  }
}

// A stone cell's ore: coal below kCoalBelow, iron below kIronBelow, diamond
// below kDiamondBelow (Craftax's chances 4%, 3% and 0.5%, each of what the
// ones before leave).
constexpr float kCoalBelow = 0.04f;
constexpr float kIronBelow = kCoalBelow + (1.0f - kCoalBelow) * 0.03f;
constexpr float kDiamondBelow = kIronBelow + (1.0f - kIronBelow) * 0.005f;

// A fresh game: the world, the player at the centre with full intrinsics.
inline void GenerateClassicWorld(Rng& stream, const ClassicParams& p, ClassicState& s) {
  static thread_local float water[kMapSize][kMapSize], mountain[kMapSize][kMapSize],
      paths[kMapSize][kMapSize], trees[kMapSize][kMapSize];
  const int cx = kMapSize / 2;
  const int cy = kMapSize / 2;
  WorldDraws rng(stream);
  PerlinNoise(rng, kMapSize / 16, kMapSize / 16, water);
  PerlinNoise(rng, kMapSize / 16, kMapSize / 16, mountain);
  PerlinNoise(rng, kMapSize / 8, kMapSize / 2, paths);
  PerlinNoise(rng, kMapSize / 4, kMapSize / 4, trees);
  // Near the player (Manhattan distance < 5) water and mountains fade out:
  // water and mountain become w and m in place (a pass that vectorizes).
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const float d = static_cast<float>(Abs(x - cx) + Abs(y - cy)) / 5.0f;
      const float near = d < 1.0f ? d : 1.0f;
      water[x][y] = water[x][y] + near - 1.0f;
      mountain[x][y] = mountain[x][y] + 0.05f + near - 1.0f;
    }
  }
  int row_stones[kMapSize];  // stone cells per row, for the diamond
  for (int x = 0; x < kMapSize; ++x) {
    row_stones[x] = 0;
    for (int y = 0; y < kMapSize; ++y) {
      const float w = water[x][y];
      const float m = mountain[x][y];
      int8_t b = w > 0.7f ? kWater : (w > 0.6f ? kSand : kGrass);
      if (m > 0.7f) {
        const bool path = paths[x][y] > 0.8f || paths[y][x] > 0.8f;
        const bool cave = m > 0.85f && w > 0.4f;
        b = path || cave ? kPath : kStone;
      }
      if (b == kStone) {
        // Craftax's three ore draws as one: coal at 4%, iron at 3% of the
        // rest, deep in the mountains diamond at 0.5% of what remains.
        const float u = rng.Uniform();
        const bool diamond = m > 0.8f && u < kDiamondBelow;
        b = u < kCoalBelow ? kCoal : (u < kIronBelow ? kIron : (diamond ? kDiamond : kStone));
      } else if (b == kGrass && trees[x][y] > 0.5f) {
        b = rng.Uniform() > 0.8f ? kTree : kGrass;
      }
      if (m > 0.85f && trees[x][y] > 0.7f) b = kLava;
      s.map[x][y] = b;
      row_stones[x] += b == kStone;
    }
  }
  row_stones[cx] -= s.map[cx][cy] == kStone;
  s.map[cx][cy] = kGrass;
  std::memset(s.mob_rows, 0, sizeof s.mob_rows);
  // One diamond on a stone cell (Craftax's always_diamond), when there is stone.
  int stones = 0;
  for (int x = 0; x < kMapSize; ++x) stones += row_stones[x];
  if (stones > 0 && p.always_diamond) {
    int pick = static_cast<int>(rng.UniformInt(static_cast<uint32_t>(stones)));
    int x = 0;
    while (pick >= row_stones[x]) pick -= row_stones[x++];
    for (int y = 0; y < kMapSize; ++y) {
      if (s.map[x][y] == kStone && pick-- == 0) s.map[x][y] = kDiamond;
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
  s.state_rng[0] = rng.NextWord();
  s.state_rng[1] = rng.NextWord();
}

}  // namespace craftax
}  // namespace envpool_x
