// One dungeon floor of the full game (Craftax's generate_dungeon): the
// dungeon, the sewers and the vaults. Eight rooms in distinct 16 x 16 chunks,
// each with torches in its corners, a chest and maybe a fountain, joined by
// L-shaped corridors; walls away from any path become darkness, 10% of walls
// are mossy. Draws as in worldgen_smooth.h.
#pragma once

#include <cstdint>
#include <cstring>

#include "envs/craftax/full/state.h"
#include "envs/craftax/full/worldgen_cells.h"
#include "envs/craftax/full/worldgen_configs.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kRooms = 8;
constexpr int kMinRoom = 5;
constexpr int kMaxRoom = 10;  // exclusive; also the padding around the map
constexpr int kChunk = 16;
constexpr int kChunksPerSide = kMapSize / kChunk;
constexpr int kPadded = kMapSize + 2 * kMaxRoom;

// A dungeon is built on the map padded by kMaxRoom cells on each side (rooms
// may run off the map's far edges; what lies in the padding is cut off).
struct PaddedDungeon {
  int8_t map[kPadded][kPadded];
  int8_t items[kPadded][kPadded];
  int32_t rooms[kRooms][2];  // each room's corner, in padded coordinates
};

template <class Draws>
inline void PlaceRooms(Draws& draws, const DungeonConfig& c, PaddedDungeon& d) {
  std::memset(d.map, kInvalid, sizeof d.map);
  std::memset(d.items, kItemNone, sizeof d.items);
  for (int x = kMaxRoom; x < kMaxRoom + kMapSize; ++x) {
    std::memset(&d.map[x][kMaxRoom], kWall, kMapSize);
  }
  int sizes[kRooms][2];
  for (auto& size : sizes) {
    for (int& v : size) v = kMinRoom + static_cast<int>(draws.UniformInt(kMaxRoom - kMinRoom));
  }
  bool taken[kChunksPerSide * kChunksPerSide] = {};
  for (int r = 0; r < kRooms; ++r) {
    // A uniform pick among the chunks still free.
    int k = static_cast<int>(draws.UniformInt(kChunksPerSide * kChunksPerSide - r));
    int chunk = 0;
    while (taken[chunk] || k-- > 0) ++chunk;
    taken[chunk] = true;
    const int px = (chunk % kChunksPerSide) * kChunk + kMaxRoom +
                   static_cast<int>(draws.UniformInt(kChunk - kMinRoom));
    const int py = (chunk / kChunksPerSide) * kChunk + kMaxRoom +
                   static_cast<int>(draws.UniformInt(kChunk - kMinRoom));
    d.rooms[r][0] = px;
    d.rooms[r][1] = py;
    const int sx = sizes[r][0];
    const int sy = sizes[r][1];
    for (int x = 0; x < sx; ++x) std::memset(&d.map[px + x][py], kPath, sy);
    d.items[px][py] = d.items[px + sx - 1][py] = kItemTorch;
    d.items[px][py + sy - 1] = d.items[px + sx - 1][py + sy - 1] = kItemTorch;
    // The chest and the fountain lie off the room's border (the fountain may
    // take the chest's cell).
    const int chest_x = 1 + static_cast<int>(draws.UniformInt(sx - 2));
    const int chest_y = 1 + static_cast<int>(draws.UniformInt(sy - 2));
    d.map[px + chest_x][py + chest_y] = kChest;
    const int fountain_x = 1 + static_cast<int>(draws.UniformInt(sx - 2));
    const int fountain_y = 1 + static_cast<int>(draws.UniformInt(sy - 2));
    if (draws.Uniform() > 0.5f) d.map[px + fountain_x][py + fountain_y] = c.fountain_block;
  }
}

// Corridors: room i's row from its corner to the column of a room picked
// among rooms 0..i-1 and 7, then that column to the picked room's row (both
// ends included); only walls are dug.
template <class Draws>
inline void DigCorridors(Draws& draws, PaddedDungeon& d) {
  bool included[kRooms] = {};
  included[kRooms - 1] = true;
  for (int i = 0; i < kRooms; ++i) {
    int count = 0;
    for (bool in : included) count += in;
    int k = static_cast<int>(draws.UniformInt(static_cast<uint32_t>(count)));
    int sink = 0;
    while (!included[sink] || k-- > 0) ++sink;
    const int32_t* from = d.rooms[i];
    const int32_t* to = d.rooms[sink];
    const int y_lo = Min(from[1], to[1]), y_hi = Max(from[1], to[1]);
    for (int y = y_lo; y <= y_hi && from[1] != to[1]; ++y) {
      if (d.map[from[0]][y] == kWall) d.map[from[0]][y] = kPath;
    }
    const int x_lo = Min(from[0], to[0]), x_hi = Max(from[0], to[0]);
    for (int x = x_lo; x <= x_hi && from[0] != to[0]; ++x) {
      if (d.map[x][to[1]] == kWall) d.map[x][to[1]] = kPath;
    }
    included[i] = true;
  }
}

// Floor `level` of s (map, item map, light map, ladders) from config c.
template <class Draws>
inline void GenerateDungeonFloor(Draws& draws, const DungeonConfig& c, int level, FullState& s) {
  static thread_local PaddedDungeon d;
  PlaceRooms(draws, c, d);
  DigCorridors(draws, d);
  d.map[d.rooms[0][0] + 2][d.rooms[0][1] + 2] = c.special_block;

  int8_t (*map)[kMapSize] = s.map[level];
  int8_t (*items)[kMapSize] = s.item_map[level];
  for (int x = 0; x < kMapSize; ++x) {
    std::memcpy(items[x], &d.items[x + kMaxRoom][kMaxRoom], kMapSize);
  }
  // Walls next to no path (4-neighbourhood) become darkness; of the rest,
  // each cell draws "rare" at 10%: a rare wall is mossy, a rare free path
  // cell (no item) becomes the config's replacement (no draw where that is
  // path itself: the outcome is the same).
  auto open = [&](int x, int y) { return d.map[x + kMaxRoom][y + kMaxRoom] != kWall; };
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const int8_t b = d.map[x + kMaxRoom][y + kMaxRoom];
      const bool near_path = b != kWall || (x > 0 && open(x - 1, y)) ||
                             (x + 1 < kMapSize && open(x + 1, y)) || (y > 0 && open(x, y - 1)) ||
                             (y + 1 < kMapSize && open(x, y + 1));
      int8_t out = b;
      if (!near_path) {
        out = kDarkness;
      } else if (b == kWall) {
        out = draws.Uniform() < 0.1f ? kWallMoss : kWall;
      } else if (b == kPath && items[x][y] == kItemNone && c.rare_path_replacement_block != kPath) {
        out = draws.Uniform() < 0.1f ? c.rare_path_replacement_block : int8_t{kPath};
      }
      map[x][y] = out;
    }
  }
  float (*light)[kMapSize] = s.light_map[level];
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) light[x][y] = 1.0f;
  }
  // Ladders: two independent picks among the path cells; the up one wins a tie.
  const BlockCells paths(map, kPath);
  int32_t* down = s.down_ladders[level];
  int32_t* up = s.up_ladders[level];
  paths.Pick(draws, map, down);
  items[down[0]][down[1]] = kItemLadderDown;
  paths.Pick(draws, map, up);
  items[up[0]][up[1]] = kItemLadderUp;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
