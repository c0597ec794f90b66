// MiniGrid-LavaCrossingS{9N1,9N2,9N3,11N5}-v0 and -SimpleCrossing* (minigrid
// 3.2.0's envs/crossing.py): num_crossings rivers of lava (or wall) across
// the room, each with one opening on a path from the agent at (1, 1) to the
// goal in the opposite corner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/lava_gap.h"

namespace envpool_x::minigrid {

struct CrossingTask : TaskBase {
  static constexpr const char* kName = "MiniGridCrossing";
  static Config Defaults() {
    return Config{{"size", int64_t{9}},
                  {"num_crossings", int64_t{1}},
                  {"obstacle_type", std::string("lava")}};
  }
  explicit CrossingTask(const Config& config) : obstacle(ObstacleFromConfig(config, kName)) {
    const int64_t size = config.Int("size");
    if (size < 5 || size > 127 || size % 2 == 0) {
      throw ValueError("MiniGridCrossing size must be odd and in [5, 127], got " +
                       std::to_string(size));
    }
    width = height = static_cast<int>(size);
    num_crossings = static_cast<int>(config.Int("num_crossings"));
    const int rivers = 2 * ((width - 3) / 2);
    if (num_crossings < 0 || num_crossings > rivers) {
      throw ValueError("MiniGridCrossing num_crossings must be in [0, " + std::to_string(rivers) +
                       "] for size " + std::to_string(size) + ", got " +
                       std::to_string(num_crossings));
    }
  }
  const std::vector<std::string>& Missions() const { return LavaGapTask::MissionList(); }

  template <typename T>
  static void Shuffle(std::vector<T>* v, Rng& rng) {  // uniform permutation
    for (int i = static_cast<int>(v->size()) - 1; i > 0; --i) {
      std::swap((*v)[i], (*v)[World::RandInt(rng, 0, i + 1)]);
    }
  }

  int Generate(World& w, Rng& rng) const {
    w.grid.WallRect(0, 0, width, height);
    w.agent = Pos{1, 1};
    w.dir = 0;
    w.grid.Set(width - 2, height - 2, MakeGoal());
    // (vertical?, index): columns and rows that may hold a river.
    std::vector<std::pair<bool, int>> rivers;
    for (int i = 2; i < height - 2; i += 2) rivers.push_back({true, i});
    for (int j = 2; j < width - 2; j += 2) rivers.push_back({false, j});
    Shuffle(&rivers, rng);
    std::vector<int> cols = {0}, rows = {0};  // river limits, walls included
    for (int k = 0; k < num_crossings; ++k)
      (rivers[k].first ? cols : rows).push_back(rivers[k].second);
    std::sort(cols.begin() + 1, cols.end());
    std::sort(rows.begin() + 1, rows.end());
    for (size_t r = 1; r < rows.size(); ++r) w.grid.HorzWall(1, rows[r], width - 2, obstacle);
    for (size_t c = 1; c < cols.size(); ++c) w.grid.VertWall(cols[c], 1, height - 2, obstacle);
    cols.push_back(height - 1);
    rows.push_back(width - 1);
    // One opening per river, on a monotone path: true crosses a column.
    std::vector<uint8_t> path(cols.size() - 2, 1);
    path.resize(path.size() + rows.size() - 2, 0);
    Shuffle(&path, rng);
    int room_i = 0, room_j = 0;
    for (const uint8_t across_column : path) {
      if (across_column) {
        const int x = cols[room_i + 1];
        w.grid.Remove(x, World::RandInt(rng, rows[room_j] + 1, rows[room_j + 1]));
        ++room_i;
      } else {
        const int y = rows[room_j + 1];
        w.grid.Remove(World::RandInt(rng, cols[room_i] + 1, cols[room_i + 1]), y);
        ++room_j;
      }
    }
    return obstacle.type == kLava ? 0 : 1;
  }
  int num_crossings = 1;
  Cell obstacle;
};

using MiniGridCrossing = MiniGridEnv<CrossingTask>;

}  // namespace envpool_x::minigrid
