// The full Craftax game (craftax 1.6.1's `craftax`): sizes, enumerations,
// parameters and the state of one game, as plain data so that the CPU env and
// a later GPU kernel share it. The layout follows Craftax's EnvState field by
// field (nine floors of 48 x 48 cells), so that a packed state
// (full/state_io.h) is Craftax's pytree leaves in order.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kLevels = 9;
constexpr int kMapSize = 48;
constexpr int kMaxMeleeMobs = 3;
constexpr int kMaxPassiveMobs = 3;
constexpr int kMaxRangedMobs = 2;
constexpr int kMaxMobProjectiles = 3;
constexpr int kMaxPlayerProjectiles = 3;
constexpr int kMaxPlants = 10;
constexpr int kNumAchievements = 67;
constexpr int kNumActions = 43;
constexpr int kNumBlockTypes = 37;
constexpr int kNumItemTypes = 5;
constexpr int kNumPotions = 6;
constexpr int kNumArmour = 4;
constexpr int kNumSpells = 2;

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
  kWall = 17,
  kDarkness = 18,
  kWallMoss = 19,
  kStalagmite = 20,
  kSapphire = 21,
  kRuby = 22,
  kChest = 23,
  kFountain = 24,
  kFireGrass = 25,
  kIceGrass = 26,
  kGravel = 27,
  kFireTree = 28,
  kIceShrub = 29,
  kEnchantmentTableFire = 30,
  kEnchantmentTableIce = 31,
  kNecromancer = 32,
  kGrave = 33,
  kGrave2 = 34,
  kGrave3 = 35,
  kNecromancerVulnerable = 36,
};

// Craftax's ItemType: what lies on a cell of the item map.
enum ItemKind : int8_t {
  kItemNone = 0,
  kItemTorch = 1,
  kItemLadderDown = 2,
  kItemLadderUp = 3,
  kItemLadderDownBlocked = 4,
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
  kRest = 17,
  kDescend = 18,
  kAscend = 19,
  kMakeDiamondPickaxe = 20,
  kMakeDiamondSword = 21,
  kMakeIronArmour = 22,
  kMakeDiamondArmour = 23,
  kShootArrow = 24,
  kMakeArrow = 25,
  kCastFireball = 26,
  kCastIceball = 27,
  kPlaceTorch = 28,
  kDrinkPotionRed = 29,
  kDrinkPotionGreen = 30,
  kDrinkPotionBlue = 31,
  kDrinkPotionPink = 32,
  kDrinkPotionCyan = 33,
  kDrinkPotionYellow = 34,
  kReadBook = 35,
  kEnchantSword = 36,
  kEnchantArmour = 37,
  kMakeTorch = 38,
  kLevelUpDexterity = 39,
  kLevelUpStrength = 40,
  kLevelUpIntelligence = 41,
  kEnchantBow = 42,
};

// Craftax's MobType (the middle index of its per-floor mob tables).
enum MobClass : int { kPassive = 0, kMelee = 1, kRanged = 2, kProjectile = 3 };

// Craftax's EnvParams.
struct FullParams {
  int32_t max_timesteps = 100000;
  int32_t day_length = 300;
  bool always_diamond = false;
  int32_t mob_despawn_distance = 14;
  int32_t max_attribute = 5;
  bool god_mode = false;
};

// One class of mobs on every floor (Craftax's Mobs): slots, alive where
// mask is set. Dead slots keep their last values, as in Craftax.
template <int N>
struct Mobs {
  int32_t position[kLevels][N][2];
  float health[kLevels][N];
  bool mask[kLevels][N];
  int32_t attack_cooldown[kLevels][N];
  int32_t type_id[kLevels][N];
};

struct Inventory {
  int32_t wood;
  int32_t stone;
  int32_t coal;
  int32_t iron;
  int32_t diamond;
  int32_t sapling;
  int32_t pickaxe;
  int32_t sword;
  int32_t bow;
  int32_t arrows;
  int32_t armour[kNumArmour];
  int32_t torches;
  int32_t ruby;
  int32_t sapphire;
  int32_t potions[kNumPotions];
  int32_t books;
};

struct FullState {
  int8_t map[kLevels][kMapSize][kMapSize];
  int8_t item_map[kLevels][kMapSize][kMapSize];
  bool mob_map[kLevels][kMapSize][kMapSize];
  float light_map[kLevels][kMapSize][kMapSize];
  int32_t down_ladders[kLevels][2];
  int32_t up_ladders[kLevels][2];
  bool chests_opened[kLevels];
  int32_t monsters_killed[kLevels];

  int32_t player_position[2];
  int32_t player_level;
  int32_t player_direction;

  float player_health;
  int32_t player_food;
  int32_t player_drink;
  int32_t player_energy;
  int32_t player_mana;
  bool is_sleeping;
  bool is_resting;

  float player_recover;
  float player_hunger;
  float player_thirst;
  float player_fatigue;
  float player_recover_mana;

  int32_t player_xp;
  int32_t player_dexterity;
  int32_t player_strength;
  int32_t player_intelligence;

  Inventory inventory;

  Mobs<kMaxMeleeMobs> melee_mobs;
  Mobs<kMaxPassiveMobs> passive_mobs;
  Mobs<kMaxRangedMobs> ranged_mobs;

  Mobs<kMaxMobProjectiles> mob_projectiles;
  int32_t mob_projectile_directions[kLevels][kMaxMobProjectiles][2];
  Mobs<kMaxPlayerProjectiles> player_projectiles;
  int32_t player_projectile_directions[kLevels][kMaxPlayerProjectiles][2];

  int32_t growing_plants_positions[kMaxPlants][2];
  int32_t growing_plants_age[kMaxPlants];
  bool growing_plants_mask[kMaxPlants];

  int32_t potion_mapping[kNumPotions];
  bool learned_spells[kNumSpells];

  int32_t sword_enchantment;
  int32_t bow_enchantment;
  int32_t armour_enchantments[kNumArmour];

  int32_t boss_progress;
  int32_t boss_timesteps_to_spawn_this_round;

  float light_level;
  bool achievements[kNumAchievements];
  // Craftax's state_rng (a raw uint32[2] JAX key): only the pixel view's
  // night noise reads it; a fresh one each step.
  uint32_t state_rng[2];
  int32_t timestep;

  // Ours, not Craftax's (not packed by state_io.h): a game's floors are made
  // from (floor_key, floor) when the player first goes down to them
  // (worldgen.h's MakeFloor); bit l of floors_made says floor l is made.
  uint64_t floor_key;
  uint32_t floors_made;
};
constexpr uint32_t kAllFloorsMade = (1u << kLevels) - 1;

ENVPOOL_X_HD inline int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }
ENVPOOL_X_HD inline int32_t Max(int32_t a, int32_t b) { return a > b ? a : b; }

// A read at index i as JAX's gather does it: a negative index counts from the
// end, then the index is clamped into the map.
ENVPOOL_X_HD inline int ReadIndex(int32_t i) {
  if (i < 0) i += kMapSize;
  return i < 0 ? 0 : (i >= kMapSize ? kMapSize - 1 : i);
}
// A write at index i as JAX's scatter does it: a negative index counts from
// the end; outside the map the write is dropped (returns -1).
ENVPOOL_X_HD inline int WriteIndex(int32_t i) {
  if (i < 0) i += kMapSize;
  return (i < 0 || i >= kMapSize) ? -1 : i;
}
// A read of a per-floor array at floor i as JAX's gather does it (a
// negative index counts from the end, then the index is clamped).
ENVPOOL_X_HD inline int LevelRead(int32_t i) {
  if (i < 0) i += kLevels;
  return i < 0 ? 0 : (i >= kLevels ? kLevels - 1 : i);
}

// Craftax's DIRECTIONS has 16 rows; JAX reads row i after counting a negative
// i from the end and clamping, so only rows 1..4 move (tables.h's
// DirectionDx / DirectionDy take the row).
ENVPOOL_X_HD inline int32_t DirectionRow(int32_t i) {
  constexpr int32_t kRows = 16;
  if (i < 0) i += kRows;
  return i < 0 ? 0 : (i >= kRows ? kRows - 1 : i);
}

ENVPOOL_X_HD inline bool InBounds(int32_t x, int32_t y) {
  return x >= 0 && x < kMapSize && y >= 0 && y < kMapSize;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
