// A new game of the full Craftax (craftax 1.6.1's generate_world): nine floors
// (worldgen_smooth.h, worldgen_dungeon.h, in the order of kFloorKinds), the
// player at the centre of the overworld, empty mob and projectile slots as
// Craftax fills them, a random potion mapping and a fresh state_rng.
//
// The worlds come from the env's own Philox stream, not from JAX's random
// numbers, so a seed gives another world than Craftax's for the same seed; by
// design. What is Craftax's is the recipe: the thresholds, noise scales,
// chances and placement rules of each floor, and so the distribution of
// worlds (tests/families/test_craftax_full_worldgen*.py compare it with
// Craftax's own generator). As in classic_worldgen.h, gradient angles come
// from a table of 1024 even angles, and a draw Craftax takes for every cell
// but uses only on some is taken only where it can change the cell (one
// draw stands for a cell's five ore draws). Each floor is made from a Philox
// stream of its own, keyed by a word the game takes from the env's stream
// (FloorStreamKey); the potions and state_rng come from the env's stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/random.h"
#include "envs/craftax/classic_step.h"
#include "envs/craftax/classic_worldgen.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/worldgen_dungeon.h"
#include "envs/craftax/full/worldgen_smooth.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Craftax's get_new_full_inventory (god mode); the empty one is all zeros.
inline void FillGodModeInventory(Inventory& inv) {
  inv.wood = inv.stone = inv.coal = inv.iron = inv.diamond = inv.sapling = 99;
  inv.pickaxe = inv.sword = 4;
  inv.bow = 1;
  inv.arrows = inv.torches = inv.ruby = inv.sapphire = inv.books = 99;
  for (int32_t& a : inv.armour) a = 2;
  for (int32_t& potion : inv.potions) potion = 99;
}

// Empty slots as Craftax makes them: health 1, the rest zero (already).
template <int N>
inline void EmptyMobs(Mobs<N>& mobs) {
  for (auto& level : mobs.health) {
    for (float& h : level) h = 1.0f;
  }
}

// Everything of a new game but its floors, on a zeroed state.
template <class Draws>
inline void StartGame(Draws& draws, const FullParams& p, FullState& s) {
  s.monsters_killed[0] = 10;  // the overworld's ladder starts open
  s.player_position[0] = s.player_position[1] = kMapSize / 2;
  s.player_direction = kUp;
  s.player_health = 9.0f;
  s.player_food = s.player_drink = s.player_energy = s.player_mana = 9;
  s.player_dexterity = s.player_strength = s.player_intelligence = 1;
  if (p.god_mode) FillGodModeInventory(s.inventory);
  EmptyMobs(s.melee_mobs);
  EmptyMobs(s.passive_mobs);
  EmptyMobs(s.ranged_mobs);
  EmptyMobs(s.mob_projectiles);
  EmptyMobs(s.player_projectiles);
  for (auto& level : s.mob_projectile_directions) {
    for (auto& d : level) d[0] = d[1] = 1;
  }
  for (auto& level : s.player_projectile_directions) {
    for (auto& d : level) d[0] = d[1] = 1;
  }
  // A uniform permutation of the six potions (Fisher-Yates).
  for (int i = 0; i < kNumPotions; ++i) s.potion_mapping[i] = i;
  for (int i = kNumPotions - 1; i > 0; --i) {
    const int j = static_cast<int>(draws.UniformInt(static_cast<uint32_t>(i + 1)));
    const int32_t t = s.potion_mapping[i];
    s.potion_mapping[i] = s.potion_mapping[j];
    s.potion_mapping[j] = t;
  }
  s.boss_timesteps_to_spawn_this_round = kBossFightSpawnTurns;
  s.light_level = LightLevel(0, p.day_length);
  s.state_rng[0] = draws.NextWord();
  s.state_rng[1] = draws.NextWord();
  s.timestep = 0;
}

// The stream floor `level` of a game is made from: Philox keyed by the game's
// floor_key and the floor, so a floor is the same whenever it is made.
inline uint64_t FloorStreamKey(uint64_t floor_key, int level) {
  return SplitMix64(floor_key ^ (static_cast<uint64_t>(level + 1) * 0xD1B54A32D192ED03ULL));
}

// Makes floor `level` (map, item map, light map, ladders, an empty mob map)
// unless it is made already.
inline void MakeFloor(const FullParams& p, int level, FullState& s) {
  const uint32_t bit = 1u << level;
  if ((s.floors_made & bit) != 0) return;
  Rng stream(FloorStreamKey(s.floor_key, level));
  WorldDraws draws(stream);
  std::memset(s.mob_map[level], 0, sizeof s.mob_map[level]);
  if (kFloorKinds[level].smooth != nullptr) {
    GenerateSmoothFloor(draws, *kFloorKinds[level].smooth, p.always_diamond, level, s);
  } else {
    GenerateDungeonFloor(draws, *kFloorKinds[level].dungeon, level, s);
  }
  s.floors_made |= bit;
}

inline void MakeAllFloors(const FullParams& p, FullState& s) {
  for (int level = 0; level < kLevels; ++level) MakeFloor(p, level, s);
}

// A new game from the env's stream `rng` (which goes on past its draws): the
// overworld now, every other floor when the player first goes down to it
// (a random agent seldom leaves the overworld, and the other eight floors
// were most of a reset's cost). The floors do not depend on when they are
// made.
inline void StartFullWorld(Rng& rng, const FullParams& p, FullState& s) {
  // All fields after the four per-floor maps start at zero; a floor's maps
  // are written whole when it is made.
  constexpr size_t kRest = offsetof(FullState, down_ladders);
  std::memset(reinterpret_cast<char*>(&s) + kRest, 0, sizeof(FullState) - kRest);
  s.floor_key = rng.NextU64();
  MakeFloor(p, 0, s);
  WorldDraws draws(rng);
  StartGame(draws, p, s);
}

// A new game with all nine floors made (the test hooks' worlds).
inline void GenerateFullWorld(Rng& rng, const FullParams& p, FullState& s) {
  StartFullWorld(rng, p, s);
  MakeAllFloors(p, s);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
