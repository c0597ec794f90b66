// minigrid 3.2.0's RoomGrid (core/roomgrid.py): num_rows x num_cols square
// rooms sharing walls, one candidate door cell per shared wall, and the
// helpers its tasks build layouts with (doors, objects kept off the agent's
// start, connecting every room). Sides: 0 right, 1 down, 2 left, 3 up.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

class RoomGrid {
 public:
  enum Link : uint8_t { kNoLink = 0, kDoorLink = 1, kOpenWall = 2 };
  struct Room {
    Pos top;
    Pos door_pos[4];
    uint8_t links[4] = {kNoLink, kNoLink, kNoLink, kNoLink};
    bool locked = false;
  };

  RoomGrid() = default;
  RoomGrid(int room_size, int num_rows, int num_cols)
      : room_size_(room_size), rows_(num_rows), cols_(num_cols), rooms_(num_rows * num_cols) {}
  int width() const { return (room_size_ - 1) * cols_ + 1; }
  int height() const { return (room_size_ - 1) * rows_ + 1; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  Room& At(int i, int j) { return rooms_[j * cols_ + i]; }
  // A side that may take a new door: a neighbour there, and no door yet.
  bool FreeSide(int i, int j, int side) {
    return HasNeighbor(i, j, side) && At(i, j).links[side] == kNoLink;
  }
  bool HasNeighbor(int i, int j, int side) const {
    return (side == 0 && i < cols_ - 1) || (side == 1 && j < rows_ - 1) || (side == 2 && i > 0) ||
           (side == 3 && j > 0);
  }
  static void Neighbor(int* i, int* j, int side) {
    *i += side == 0 ? 1 : side == 2 ? -1 : 0;
    *j += side == 1 ? 1 : side == 3 ? -1 : 0;
  }

  // RoomGrid._gen_grid: walls, door cells, the agent in the middle room facing east.
  void Generate(World& w, Rng& rng) {
    for (int j = 0; j < rows_; ++j) {
      for (int i = 0; i < cols_; ++i) {
        Room& r = At(i, j);
        r = Room{};
        r.top = Pos{i * (room_size_ - 1), j * (room_size_ - 1)};
        w.grid.WallRect(r.top.x, r.top.y, room_size_, room_size_);
      }
    }
    for (int j = 0; j < rows_; ++j) {
      for (int i = 0; i < cols_; ++i) {
        Room& r = At(i, j);
        const int xl = r.top.x + 1, yl = r.top.y + 1;
        const int xm = r.top.x + room_size_ - 1, ym = r.top.y + room_size_ - 1;
        if (i < cols_ - 1) r.door_pos[0] = Pos{xm, World::RandInt(rng, yl, ym)};
        if (j < rows_ - 1) r.door_pos[1] = Pos{World::RandInt(rng, xl, xm), ym};
        if (i > 0) r.door_pos[2] = At(i - 1, j).door_pos[0];
        if (j > 0) r.door_pos[3] = At(i, j - 1).door_pos[1];
      }
    }
    w.agent = Pos{(cols_ / 2) * (room_size_ - 1) + room_size_ / 2,
                  (rows_ / 2) * (room_size_ - 1) + room_size_ / 2};
    w.dir = 0;
  }

  // add_door; side < 0: a random side with a neighbour and no door yet,
  // color < 0: random, locked < 0: random.
  Pos AddDoor(World& w, Rng& rng, int i, int j, int side, int color, int locked) {
    Room& r = At(i, j);
    if (side < 0) {
      bool any = false;
      for (int k = 0; k < 4; ++k) any = any || FreeSide(i, j, k);
      if (!any) throw LayoutDeadEnd("a room with no wall left for a door");
      do {
        side = World::RandInt(rng, 0, 4);
      } while (!FreeSide(i, j, side));
    }
    if (color < 0) color = World::RandColor(rng);
    if (locked < 0) locked = World::RandBool(rng) ? 1 : 0;
    r.locked = locked != 0;
    const Pos p = r.door_pos[side];
    w.grid.Set(p.x, p.y, MakeDoor(static_cast<uint8_t>(color), locked != 0));
    r.links[side] = kDoorLink;
    int ni = i, nj = j;
    Neighbor(&ni, &nj, side);
    At(ni, nj).links[(side + 2) % 4] = kDoorLink;
    return p;
  }

  // place_in_room / add_object: kind < 0 or color < 0 draw them (key, ball, box).
  Pos AddObject(World& w, Rng& rng, int i, int j, int kind, int color) {
    static constexpr uint8_t kKinds[3] = {kKey, kBall, kBox};
    if (kind < 0) kind = kKinds[World::RandInt(rng, 0, 3)];
    if (color < 0) color = World::RandColor(rng);
    return PlaceInRoom(w, rng, i, j, MakeObj(static_cast<uint8_t>(kind), color));
  }
  Pos PlaceInRoom(World& w, Rng& rng, int i, int j, const Cell& obj) {
    const Pos top = At(i, j).top;
    const Pos start = w.agent;  // reject_next_to: not on or beside the agent
    return w.PlaceObj(rng, obj, top, {room_size_, room_size_}, [start](Pos p) {
      return std::abs(p.x - start.x) + std::abs(p.y - start.y) < 2;
    });
  }

  void RemoveWall(World& w, int i, int j, int side) {
    Room& r = At(i, j);
    const int s = room_size_;
    for (int k = 1; k < s - 1; ++k) {
      if (side == 0) w.grid.Remove(r.top.x + s - 1, r.top.y + k);
      if (side == 1) w.grid.Remove(r.top.x + k, r.top.y + s - 1);
      if (side == 2) w.grid.Remove(r.top.x, r.top.y + k);
      if (side == 3) w.grid.Remove(r.top.x + k, r.top.y);
    }
    r.links[side] = kOpenWall;
    int ni = i, nj = j;
    Neighbor(&ni, &nj, side);
    At(ni, nj).links[(side + 2) % 4] = kOpenWall;
  }

  // place_agent in room (i, j) (i or j < 0: random), until it does not face
  // an object other than a wall.
  void PlaceAgent(World& w, Rng& rng, int i, int j) {
    if (i < 0) i = World::RandInt(rng, 0, cols_);
    if (j < 0) j = World::RandInt(rng, 0, rows_);
    const Pos top = At(i, j).top;
    for (int64_t misses = 0;; ++misses) {
      if (misses == kMissesBeforeCheck && !CanStandFacingNothing(w, top, room_size_)) {
        throw LayoutDeadEnd("no cell of the agent's room where it faces no object");
      }
      w.PlaceAgent(rng, top, {room_size_, room_size_});
      if (FacesNothing(w.CellAt(w.Front()))) return;
    }
  }

  // What place_agent accepts in front of the agent: nothing, or a wall.
  static bool FacesNothing(const Cell& front) { return front.IsNone() || front.type == kWall; }
  // Whether some empty cell of the size x size room at `top` has a direction
  // in which the agent would face nothing.
  static bool CanStandFacingNothing(const World& w, Pos top, int size) {
    const int x_end = std::min(top.x + size, w.grid.width());
    const int y_end = std::min(top.y + size, w.grid.height());
    return World::AnyCell(top, x_end, y_end, [&](Pos p) {
      if (!w.grid.Get(p.x, p.y).IsNone()) return false;
      for (int d = 0; d < 4; ++d) {
        if (FacesNothing(w.CellAt(Pos{p.x + kDirX[d], p.y + kDirY[d]}))) return true;
      }
      return false;
    });
  }

  // connect_all: unlocked doors of random colours (from `colors`, all six
  // if empty) between random rooms until every room is reachable.
  void ConnectAll(World& w, Rng& rng, const std::vector<int>& colors = {}) {
    const int si = w.agent.x / (room_size_ - 1), sj = w.agent.y / (room_size_ - 1);
    for (int iter = 0;; ++iter) {
      if (iter > 5000) throw LayoutDeadEnd("connect_all failed to join every room");
      if (Reachable(si, sj) == rows_ * cols_) return;
      const int i = World::RandInt(rng, 0, cols_);
      const int j = World::RandInt(rng, 0, rows_);
      const int k = World::RandInt(rng, 0, 4);
      Room& r = At(i, j);
      if (!HasNeighbor(i, j, k) || r.links[k] != kNoLink) continue;
      int ni = i, nj = j;
      Neighbor(&ni, &nj, k);
      if (r.locked || At(ni, nj).locked) continue;
      const int color =
          colors.empty() ? World::RandColor(rng) : colors[World::RandInt(rng, 0, colors.size())];
      AddDoor(w, rng, i, j, k, color, 0);
    }
  }

 private:
  int Reachable(int si, int sj) {
    seen_.assign(rooms_.size(), 0);
    stack_.assign(1, sj * cols_ + si);
    int n = 0;
    while (!stack_.empty()) {
      const int r = stack_.back();
      stack_.pop_back();
      if (seen_[r]) continue;
      seen_[r] = 1;
      ++n;
      for (int k = 0; k < 4; ++k) {
        if (rooms_[r].links[k] == kNoLink) continue;
        int i = r % cols_, j = r / cols_;
        Neighbor(&i, &j, k);
        stack_.push_back(j * cols_ + i);
      }
    }
    return n;
  }

  int room_size_ = 7, rows_ = 1, cols_ = 1;
  std::vector<Room> rooms_;
  std::vector<uint8_t> seen_;
  std::vector<int> stack_;
};

}  // namespace envpool_x::minigrid
