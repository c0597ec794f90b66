// The full Craftax game's floor recipes (craftax 1.6.1's world_gen_configs):
// six smooth floors made of noise layers and three dungeons made of rooms and
// corridors, with the blocks, thresholds and chances of each. Floor k of a game
// is kFloorKinds[k] (Craftax splices its generators' outputs in this order).
#pragma once

#include <cstdint>

#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kNumOres = 5;

// Craftax's SmoothGenConfig.
struct SmoothConfig {
  int8_t default_block;
  int8_t sea_block;
  int8_t coast_block;
  int8_t mountain_block;
  int8_t path_block;
  int8_t inner_mountain_block;
  // Ore k turns a cell of block ore_from[k] into ores[k] with ore_chances[k],
  // in order k = 0..4, each on what the ones before left.
  int8_t ore_from[kNumOres];
  int8_t ores[kNumOres];
  float ore_chances[kNumOres];
  int8_t tree_requirement;
  int8_t tree;
  int8_t lava;
  int8_t player_spawn;
  int8_t valid_ladder;
  bool ladder_up;
  bool ladder_down;
  // The fade of water and mountains near the start: distance / strength,
  // clipped to [0, max].
  float water_strength;
  float water_max;
  float mountain_strength;
  float mountain_max;
  float default_light;
  float water_threshold;
  float sand_threshold;
  float tree_threshold_uniform;
  float tree_threshold_perlin;
};

// The rows follow SmoothConfig's fields: blocks (default, sea, coast, mountain,
// path, inner mountain), ores, trees, lava, spawn and ladders, then the fades,
// light and thresholds.
// clang-format off
constexpr SmoothConfig kOverworld = {
    kGrass, kWater, kSand, kStone, kPath, kPath,
    {kStone, kStone, kStone, kStone, kStone},
    {kCoal, kIron, kDiamond, kOutOfBounds, kOutOfBounds},
    {0.03f, 0.02f, 0.001f, 0.0f, 0.0f},
    kGrass, kTree, kLava, kGrass, kPath, false, true,
    5, 1, 5, 1, 1.0f, 0.7f, 0.6f, 0.8f, 0.5f};

constexpr SmoothConfig kGnomishMines = {
    kPath, kWater, kPath, kStone, kStone, kStone,
    {kStone, kStone, kStone, kStone, kStone},
    {kCoal, kIron, kDiamond, kSapphire, kRuby},
    {0.04f, 0.02f, 0.005f, 0.0025f, 0.0025f},
    kPath, kStalagmite, kLava, kPath, kPath, true, true,
    5, 1, 17, 1.5f, 0.0f, 0.7f, 0.6f, 0.8f, 0.5f};

constexpr SmoothConfig kTrollMines = {
    kPath, kWater, kPath, kStone, kStone, kStone,
    {kStone, kStone, kStone, kStone, kStone},
    {kCoal, kIron, kDiamond, kSapphire, kRuby},
    {0.04f, 0.03f, 0.01f, 0.01f, 0.01f},
    kPath, kStalagmite, kLava, kPath, kPath, true, true,
    5, 1, 17, 1.5f, 0.0f, 0.7f, 0.6f, 0.8f, 0.5f};

constexpr SmoothConfig kFireLevel = {
    kFireGrass, kLava, kSand, kStone, kStone, kStone,
    {kStone, kStone, kStone, kStone, kStone},
    {kCoal, kIron, kDiamond, kSapphire, kRuby},
    {0.05f, 0.0f, 0.0f, 0.0f, 0.025f},
    kFireGrass, kFireTree, kLava, kFireGrass, kFireGrass, true, true,
    5, 1, 5, 1, 1.0f, 0.5f, 0.6f, 0.8f, 0.5f};

constexpr SmoothConfig kIceLevel = {
    kIceGrass, kWater, kIceGrass, kStone, kStone, kStone,
    {kStone, kStone, kStone, kStone, kStone},
    {kCoal, kIron, kDiamond, kSapphire, kRuby},
    {0.0f, 0.0f, 0.005f, 0.02f, 0.0f},
    kIceGrass, kIceShrub, kWater, kIceGrass, kIceGrass, true, true,
    5, 1, 17, 1.5f, 0.0f, 0.5f, 0.6f, 0.4f, 0.5f};

// The boss floor: walls for mountains, graves for trees (some become Grave2 /
// Grave3 as "ores"), the necromancer on the start cell, no ladders.
constexpr SmoothConfig kBossLevel = {
    kPath, kPath, kPath, kWall, kWall, kWall,
    {kWall, kGrave, kGrave, kWall, kWall},
    {kWallMoss, kGrave2, kGrave3, kSapphire, kRuby},
    {0.1f, 0.333f, 0.5f, 0.0f, 0.0f},
    kPath, kGrave, kWall, kNecromancer, kPath, false, false,
    5, 1, 10, 10, 0.0f, 0.7f, 0.6f, 0.95f, -1.0f};
// clang-format on

// Craftax's DungeonConfig.
struct DungeonConfig {
  int8_t special_block;                // in room 0, at (2, 2) from its corner
  int8_t fountain_block;               // in about half the rooms
  int8_t rare_path_replacement_block;  // on 10% of the free path cells
};

constexpr DungeonConfig kDungeon = {kPath, kFountain, kPath};
constexpr DungeonConfig kSewers = {kEnchantmentTableIce, kWater, kWater};
constexpr DungeonConfig kVaults = {kEnchantmentTableFire, kFountain, kPath};

// What makes floor k: a smooth config or a dungeon config.
struct FloorKind {
  const SmoothConfig* smooth;
  const DungeonConfig* dungeon;
};

// clang-format off
constexpr FloorKind kFloorKinds[kLevels] = {
    {&kOverworld, nullptr}, {nullptr, &kDungeon},    {&kGnomishMines, nullptr},
    {nullptr, &kSewers},    {nullptr, &kVaults},     {&kTrollMines, nullptr},
    {&kFireLevel, nullptr}, {&kIceLevel, nullptr},   {&kBossLevel, nullptr},
};
// clang-format on

// An ore's block is never a later ore's requirement in these configs, so one
// uniform per cell decides all five draws (OreRule, worldgen_smooth.h).
constexpr bool OresDoNotChain(const SmoothConfig& c) {
  for (int i = 0; i < kNumOres; ++i) {
    for (int j = i + 1; j < kNumOres; ++j) {
      if (c.ore_chances[j] > 0.0f && c.ores[i] == c.ore_from[j]) return false;
    }
  }
  return true;
}
static_assert(OresDoNotChain(kOverworld) && OresDoNotChain(kGnomishMines) &&
                  OresDoNotChain(kTrollMines) && OresDoNotChain(kFireLevel) &&
                  OresDoNotChain(kIceLevel) && OresDoNotChain(kBossLevel),
              "an ore that a later ore draw could replace needs a draw of its own");

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
