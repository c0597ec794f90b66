// The full Craftax game's fixed tables (craftax 1.6.1's constants.py): the
// achievements and their rewards, and per floor which mobs live there, how
// often they spawn, their health, damage, defence and what they collide with.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Craftax's Achievement values (not in name order: Craftax numbers them so).
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
  kAchMakeArrow = 22,
  kAchMakeTorch = 23,
  kAchPlaceTorch = 24,
  kAchMakeDiamondSword = 25,
  kAchMakeIronArmour = 26,
  kAchMakeDiamondArmour = 27,
  kAchEnterGnomishMines = 28,
  kAchEnterDungeon = 29,
  kAchEnterSewers = 30,
  kAchEnterVault = 31,
  kAchEnterTrollMines = 32,
  kAchEnterFireRealm = 33,
  kAchEnterIceRealm = 34,
  kAchEnterGraveyard = 35,
  kAchDefeatGnomeWarrior = 36,
  kAchDefeatGnomeArcher = 37,
  kAchDefeatOrcSoldier = 38,
  kAchDefeatOrcMage = 39,
  kAchDefeatLizard = 40,
  kAchDefeatKobold = 41,
  kAchDefeatTroll = 42,
  kAchDefeatDeepThing = 43,
  kAchDefeatPigman = 44,
  kAchDefeatFireElemental = 45,
  kAchDefeatFrostTroll = 46,
  kAchDefeatIceElemental = 47,
  kAchDamageNecromancer = 48,
  kAchDefeatNecromancer = 49,
  kAchEatBat = 50,
  kAchEatSnail = 51,
  kAchFindBow = 52,
  kAchFireBow = 53,
  kAchCollectSapphire = 54,
  kAchLearnFireball = 55,
  kAchCastFireball = 56,
  kAchLearnIceball = 57,
  kAchCastIceball = 58,
  kAchCollectRuby = 59,
  kAchMakeDiamondPickaxe = 60,
  kAchOpenChest = 61,
  kAchDrinkPotion = 62,
  kAchEnchantSword = 63,
  kAchEnchantArmour = 64,
  kAchDefeatKnight = 65,
  kAchDefeatArcher = 66,
};

// The reward of each achievement (Craftax's ACHIEVEMENT_REWARD_MAP): 1 for
// the basic ones (values up to 24), 3 intermediate, 8 very advanced, else 5.
ENVPOOL_X_HD inline int AchievementReward(int a) {
  if (a <= 24) return 1;
  switch (a) {
    case kAchCollectSapphire:
    case kAchCollectRuby:
    case kAchMakeDiamondPickaxe:
    case kAchMakeDiamondSword:
    case kAchMakeIronArmour:
    case kAchMakeDiamondArmour:
    case kAchEnterGnomishMines:
    case kAchEnterDungeon:
    case kAchDefeatGnomeWarrior:
    case kAchDefeatGnomeArcher:
    case kAchDefeatOrcSoldier:
    case kAchDefeatOrcMage:
    case kAchEatBat:
    case kAchEatSnail:
    case kAchFindBow:
    case kAchFireBow:
    case kAchOpenChest:
    case kAchDrinkPotion:
      return 3;
    case kAchEnterFireRealm:
    case kAchEnterIceRealm:
    case kAchEnterGraveyard:
    case kAchDefeatPigman:
    case kAchDefeatFireElemental:
    case kAchDefeatFrostTroll:
    case kAchDefeatIceElemental:
    case kAchDamageNecromancer:
    case kAchDefeatNecromancer:
      return 8;
    default:
      return 5;
  }
}

// The achievement for entering each floor (LEVEL_ACHIEVEMENT_MAP; floor 0: none).
constexpr int kLevelAchievement[kLevels] = {0,
                                            kAchEnterDungeon,
                                            kAchEnterGnomishMines,
                                            kAchEnterSewers,
                                            kAchEnterVault,
                                            kAchEnterTrollMines,
                                            kAchEnterFireRealm,
                                            kAchEnterIceRealm,
                                            kAchEnterGraveyard};

// The achievement for killing a mob, by class (passive, melee, ranged) and
// type (MOB_ACHIEVEMENT_MAP; 0 where Craftax has none).
constexpr int kMobAchievement[3][8] = {
    {kAchEatCow, kAchEatBat, kAchEatSnail, 0, 0, 0, 0, 0},
    {kAchDefeatZombie, kAchDefeatGnomeWarrior, kAchDefeatOrcSoldier, kAchDefeatLizard,
     kAchDefeatKnight, kAchDefeatTroll, kAchDefeatPigman, kAchDefeatFrostTroll},
    {kAchDefeatSkeleton, kAchDefeatGnomeArcher, kAchDefeatOrcMage, kAchDefeatKobold,
     kAchDefeatArcher, kAchDefeatDeepThing, kAchDefeatFireElemental, kAchDefeatIceElemental},
};

// The mob type of each class on each floor (FLOOR_MOB_MAPPING: passive, melee, ranged).
constexpr int32_t kFloorMobType[kLevels][3] = {{0, 0, 0}, {2, 2, 2}, {1, 1, 1},
                                               {2, 3, 3}, {2, 4, 4}, {1, 5, 5},
                                               {1, 6, 6}, {1, 7, 7}, {0, 0, 0}};

// Spawn chances per floor (FLOOR_MOB_SPAWN_CHANCE: passive, melee, ranged, melee at night).
constexpr float kFloorSpawnChance[kLevels][4] = {
    {0.1f, 0.02f, 0.05f, 0.1f}, {0.1f, 0.06f, 0.05f, 0.0f}, {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f}, {0.1f, 0.06f, 0.05f, 0.0f}, {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f}, {0.0f, 0.06f, 0.05f, 0.0f}, {0.1f, 0.06f, 0.05f, 0.0f}};

// What a mob collides with, by mob type and class (passive, melee, ranged,
// projectile): {ground blocks, water, lava} (MOB_TYPE_COLLISION_MAPPING;
// Craftax comments its rows as floors, but indexes them by the mob's type).
struct Collision {
  bool ground, water, lava;
};
constexpr Collision kLandCreature{false, true, true};
constexpr Collision kFlyingCreature{false, false, false};
constexpr Collision kAquaticCreature{true, false, true};
constexpr Collision kAmphibianCreature{false, false, true};
constexpr Collision kMobCollision[9][4] = {
    {kLandCreature, kLandCreature, kLandCreature, kFlyingCreature},
    {kFlyingCreature, kLandCreature, kLandCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kLandCreature, kFlyingCreature},
    {kLandCreature, kAmphibianCreature, kLandCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kLandCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kAquaticCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kFlyingCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kFlyingCreature, kFlyingCreature},
    {kLandCreature, kLandCreature, kLandCreature, kFlyingCreature}};

// Damage (physical, fire, ice) by mob type and class (MOB_TYPE_DAMAGE_MAPPING:
// only melee mobs and projectiles do damage).
constexpr float kMobDamage[8][4][3] = {
    {{0, 0, 0}, {2, 0, 0}, {0, 0, 0}, {2, 0, 0}}, {{0, 0, 0}, {4, 0, 0}, {0, 0, 0}, {4, 0, 0}},
    {{0, 0, 0}, {3, 0, 0}, {0, 0, 0}, {0, 3, 0}}, {{0, 0, 0}, {5, 0, 0}, {0, 0, 0}, {0, 0, 3}},
    {{0, 0, 0}, {6, 0, 0}, {0, 0, 0}, {5, 0, 0}}, {{0, 0, 0}, {6, 1, 1}, {0, 0, 0}, {4, 3, 3}},
    {{0, 0, 0}, {3, 5, 0}, {0, 0, 0}, {3, 5, 0}}, {{0, 0, 0}, {4, 0, 5}, {0, 0, 0}, {4, 0, 5}}};

// A new mob's health by type and class (MOB_TYPE_HEALTH_MAPPING).
constexpr float kMobHealth[9][4] = {{3, 5, 3, 0},   {4, 7, 5, 0},   {6, 9, 6, 0},
                                    {8, 11, 8, 0},  {0, 12, 12, 0}, {0, 20, 4, 0},
                                    {0, 20, 14, 0}, {0, 24, 16, 0}, {0, 0, 0, 0}};

// Defence (physical, fire, ice) by type and class (MOB_TYPE_DEFENSE_MAPPING).
constexpr float kMobDefense[9][4][3] = {{},
                                        {},
                                        {},
                                        {},
                                        {{0, 0, 0}, {0.5f, 0, 0}, {0.5f, 0, 0}, {0, 0, 0}},
                                        {{0, 0, 0}, {0.2f, 0, 0}, {0, 0, 0}, {0, 0, 0}},
                                        {{0, 0, 0}, {0.9f, 1.0f, 0}, {0.9f, 1.0f, 0}, {0, 0, 0}},
                                        {{0, 0, 0}, {0.9f, 0, 1.0f}, {0.9f, 0, 1.0f}, {0, 0, 0}},
                                        {}};

// The projectile each ranged mob type shoots (RANGED_MOB_TYPE_TO_PROJECTILE_TYPE_MAPPING).
enum Projectile : int32_t {
  kArrow = 0,
  kDagger = 1,
  kFireball = 2,
  kIceball = 3,
  kArrow2 = 4,
  kSlimeball = 5,
  kFireball2 = 6,
  kIceball2 = 7,
};
constexpr int32_t kRangedProjectile[8] = {kArrow,  kArrow,     kFireball,  kDagger,
                                          kArrow2, kSlimeball, kFireball2, kIceball2};

constexpr int kMonstersKilledToClearLevel = 8;
constexpr float kBossFightExtraDamage = 0.5f;
constexpr int32_t kBossFightSpawnTurns = 7;

// Craftax's DIRECTIONS (16 rows; an action past 4 moves nothing).
ENVPOOL_X_HD inline int32_t DirectionDx(int32_t i) { return i == kUp ? -1 : (i == kDown ? 1 : 0); }
ENVPOOL_X_HD inline int32_t DirectionDy(int32_t i) {
  return i == kLeft ? -1 : (i == kRight ? 1 : 0);
}

// CLOSE_BLOCKS: the eight cells around a position, in Craftax's order.
constexpr int32_t kCloseBlocks[8][2] = {{0, -1},  {0, 1},  {-1, 0}, {1, 0},
                                        {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

ENVPOOL_X_HD inline bool IsSolidBlock(int8_t b) {
  switch (b) {
    case kStone:
    case kTree:
    case kCoal:
    case kIron:
    case kDiamond:
    case kCraftingTable:
    case kFurnace:
    case kPlant:
    case kRipePlant:
    case kWall:
    case kWallMoss:
    case kStalagmite:
    case kRuby:
    case kSapphire:
    case kChest:
    case kFountain:
    case kFireTree:
    case kEnchantmentTableFire:
    case kEnchantmentTableIce:
    case kGrave:
    case kGrave2:
    case kGrave3:
    case kNecromancer:
      return true;
    default:
      return false;
  }
}

// CAN_PLACE_ITEM_BLOCKS: where a torch (or another item) may go.
ENVPOOL_X_HD inline bool CanPlaceItemOn(int8_t b) {
  return b == kGrass || b == kSand || b == kPath || b == kFireGrass || b == kIceGrass;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
