// Craftax-Classic (craftax 1.6.1's craftax_classic): game constants, the
// per-episode parameters and the state of one game, as plain data so the CPU
// env and a future GPU kernel share it. Sizes are Craftax's StaticEnvParams
// defaults (a 64x64 map, 3 zombies, 3 cows, 2 skeletons, 3 arrows, 10 plants).
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace envpool_x {
namespace craftax {

constexpr int kMapSize = 64;
constexpr int kMaxZombies = 3;
constexpr int kMaxCows = 3;
constexpr int kMaxSkeletons = 2;
constexpr int kMaxArrows = 3;
constexpr int kMaxPlants = 10;
constexpr int kNumAchievements = 22;
constexpr int kNumActions = 17;
constexpr int kNumBlockTypes = 17;
constexpr int kViewRows = 7;  // the symbolic view: 7 x 9 cells around the player
constexpr int kViewCols = 9;
constexpr int kNumMobKinds = 4;  // zombie, cow, skeleton, arrow
constexpr int kInventorySize = 12;
constexpr int kObsSize =
    kViewRows * kViewCols * (kNumBlockTypes + kNumMobKinds) + kInventorySize + 4 + 4 + 2;

enum Block : int8_t {
  kInvalid = 0,
  kOutOfBounds = 1,
  kGrass = 2,
  kWater = 3,
  kStone = 4,
  kTree = 5,
  kWood = 6,
  kPath = 7,
  kCoal = 8,
  kIron = 9,
  kDiamond = 10,
  kCraftingTable = 11,
  kFurnace = 12,
  kSand = 13,
  kLava = 14,
  kPlant = 15,
  kRipePlant = 16,
};

enum Action : int32_t {
  kNoop = 0,
  kLeft = 1,
  kRight = 2,
  kUp = 3,
  kDown = 4,
  kDo = 5,
  kSleep = 6,
  kPlaceStone = 7,
  kPlaceTable = 8,
  kPlaceFurnace = 9,
  kPlacePlant = 10,
  kMakeWoodPickaxe = 11,
  kMakeStonePickaxe = 12,
  kMakeIronPickaxe = 13,
  kMakeWoodSword = 14,
  kMakeStoneSword = 15,
  kMakeIronSword = 16,
};

enum Achievement : int {
  kAchCollectWood = 0,
  kAchPlaceTable = 1,
  kAchEatCow = 2,
  kAchCollectSapling = 3,
  kAchCollectDrink = 4,
  kAchMakeWoodPickaxe = 5,
  kAchMakeWoodSword = 6,
  kAchPlacePlant = 7,
  kAchDefeatZombie = 8,
  kAchCollectStone = 9,
  kAchPlaceStone = 10,
  kAchEatPlant = 11,
  kAchDefeatSkeleton = 12,
  kAchMakeStonePickaxe = 13,
  kAchMakeStoneSword = 14,
  kAchWakeUp = 15,
  kAchPlaceFurnace = 16,
  kAchCollectCoal = 17,
  kAchCollectIron = 18,
  kAchCollectDiamond = 19,
  kAchMakeIronPickaxe = 20,
  kAchMakeIronSword = 21,
};

// Craftax's achievement names, in its order (info keys "Achievements/<name>").
constexpr const char* kAchievementNames[kNumAchievements] = {
    "collect_wood",      "place_table",        "eat_cow",          "collect_sapling",
    "collect_drink",     "make_wood_pickaxe",  "make_wood_sword",  "place_plant",
    "defeat_zombie",     "collect_stone",      "place_stone",      "eat_plant",
    "defeat_skeleton",   "make_stone_pickaxe", "make_stone_sword", "wake_up",
    "place_furnace",     "collect_coal",       "collect_iron",     "collect_diamond",
    "make_iron_pickaxe", "make_iron_sword"};

// Inventory slots, in the order of the observation.
enum Item : int {
  kWoodItem = 0,
  kStoneItem,
  kCoalItem,
  kIronItem,
  kDiamondItem,
  kSaplingItem,
  kWoodPickaxe,
  kStonePickaxe,
  kIronPickaxe,
  kWoodSword,
  kStoneSword,
  kIronSword,
};

// Craftax's EnvParams (the dynamic ones a step reads).
struct ClassicParams {
  int32_t max_timesteps = 10000;
  int32_t day_length = 300;
  bool always_diamond = true;
  int32_t zombie_health = 5;
  int32_t cow_health = 3;
  int32_t skeleton_health = 3;
  int32_t mob_despawn_distance = 14;
  float spawn_cow_chance = 0.1f;
  float spawn_zombie_base_chance = 0.02f;
  float spawn_zombie_night_chance = 0.1f;
  float spawn_skeleton_chance = 0.05f;
};

// One kind of mob (Craftax's Mobs): slots, alive where mask is set. Positions
// of dead slots keep changing as in Craftax (they matter to its quirks).
template <int N>
struct MobSlots {
  int32_t x[N];
  int32_t y[N];
  int32_t health[N];
  int32_t cooldown[N];
  bool mask[N];
};

static_assert(kMapSize == 64, "a row of the mob map is one 64-bit word");

struct ClassicState {
  int8_t map[kMapSize][kMapSize];
  // Craftax's mob_map (a bool a cell) as one bit a cell, a 64-bit word a row:
  // an eighth of the bytes, so that thousands of envs' states stay closer to
  // the caches (MobAt and SetMob read and write it).
  uint64_t mob_rows[kMapSize];
  int32_t player_x;
  int32_t player_y;
  int32_t player_direction;
  int32_t health;
  int32_t food;
  int32_t drink;
  int32_t energy;
  bool is_sleeping;
  float recover;
  float hunger;
  float thirst;
  float fatigue;
  int32_t inventory[kInventorySize];
  MobSlots<kMaxZombies> zombies;
  MobSlots<kMaxCows> cows;
  MobSlots<kMaxSkeletons> skeletons;
  MobSlots<kMaxArrows> arrows;
  int32_t arrow_dx[kMaxArrows];
  int32_t arrow_dy[kMaxArrows];
  int32_t plant_x[kMaxPlants];
  int32_t plant_y[kMaxPlants];
  int32_t plant_age[kMaxPlants];
  bool plant_mask[kMaxPlants];
  float light_level;
  bool achievements[kNumAchievements];
  int32_t timestep;
  // Craftax's state_rng: the JAX key of the night's static noise in the
  // pixel view (a fresh key each step; nothing else reads it).
  uint32_t state_rng[2];
};

ENVPOOL_X_HD inline int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }
ENVPOOL_X_HD inline int32_t Max(int32_t a, int32_t b) { return a > b ? a : b; }

// The move of actions 1-4 (Craftax's DIRECTIONS; every other action: none).
ENVPOOL_X_HD inline int32_t ActionDx(int32_t action) {
  return action == kUp ? -1 : (action == kDown ? 1 : 0);
}
ENVPOOL_X_HD inline int32_t ActionDy(int32_t action) {
  return action == kLeft ? -1 : (action == kRight ? 1 : 0);
}

// A read of map[i] as Craftax's (JAX) indexing does it: a negative index
// counts from the end, then the index is clamped into the map.
ENVPOOL_X_HD inline int ReadIndex(int32_t i) {
  if (i < 0) i += kMapSize;
  return i < 0 ? 0 : (i >= kMapSize ? kMapSize - 1 : i);
}
// A write to map[i] as JAX's scatter does it: a negative index counts from
// the end; outside the map the write is dropped (returns -1).
ENVPOOL_X_HD inline int WriteIndex(int32_t i) {
  if (i < 0) i += kMapSize;
  return (i < 0 || i >= kMapSize) ? -1 : i;
}
ENVPOOL_X_HD inline bool InBounds(int32_t x, int32_t y) {
  return x >= 0 && x < kMapSize && y >= 0 && y < kMapSize;
}
ENVPOOL_X_HD inline int8_t BlockAt(const ClassicState& s, int32_t x, int32_t y) {
  return s.map[ReadIndex(x)][ReadIndex(y)];
}
ENVPOOL_X_HD inline bool MobAt(const ClassicState& s, int32_t x, int32_t y) {
  return ((s.mob_rows[ReadIndex(x)] >> ReadIndex(y)) & 1) != 0;
}
ENVPOOL_X_HD inline void SetBlock(ClassicState& s, int32_t x, int32_t y, int8_t b) {
  const int i = WriteIndex(x);
  const int j = WriteIndex(y);
  if (i >= 0 && j >= 0) s.map[i][j] = b;
}
ENVPOOL_X_HD inline void SetMob(ClassicState& s, int32_t x, int32_t y, bool v) {
  const int i = WriteIndex(x);
  const int j = WriteIndex(y);
  if (i >= 0 && j >= 0) {
    const uint64_t bit = uint64_t{1} << j;
    s.mob_rows[i] = v ? (s.mob_rows[i] | bit) : (s.mob_rows[i] & ~bit);
  }
}

ENVPOOL_X_HD inline bool IsSolid(int8_t b) {
  return b == kWater || b == kStone || b == kTree || b == kCoal || b == kIron || b == kDiamond ||
         b == kCraftingTable || b == kFurnace || b == kPlant || b == kRipePlant;
}
ENVPOOL_X_HD inline bool InMob(const ClassicState& s, int32_t x, int32_t y) {
  return MobAt(s, x, y) || (x == s.player_x && y == s.player_y);
}
// Where a mob (or the player) may move: in the map, not solid, no mob, no lava.
ENVPOOL_X_HD inline bool IsFreeCell(const ClassicState& s, int32_t x, int32_t y) {
  const int8_t b = BlockAt(s, x, y);
  return InBounds(x, y) && !IsSolid(b) && !InMob(s, x, y) && b != kLava;
}

}  // namespace craftax
}  // namespace envpool_x
