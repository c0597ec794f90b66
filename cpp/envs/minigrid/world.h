// MiniGrid's world objects and grid (minigrid 3.2.0's core/world_object.py and
// core/grid.py): a cell is a plain 5-byte value, so that a grid is one flat
// array, copied and encoded without allocation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"

namespace envpool_x::minigrid {

// minigrid's OBJECT_TO_IDX; kEmpty also stands for "no object" (None).
enum ObjType : uint8_t {
  kUnseen = 0,
  kEmpty = 1,
  kWall = 2,
  kFloor = 3,
  kDoor = 4,
  kKey = 5,
  kBall = 6,
  kBox = 7,
  kGoal = 8,
  kLava = 9,
  kAgent = 10,
  kNumObjTypes = 11,
};

// minigrid's COLOR_TO_IDX (COLOR_NAMES is in this order too).
enum Color : uint8_t { kRed = 0, kGreen = 1, kBlue = 2, kPurple = 3, kYellow = 4, kGrey = 5 };
constexpr int kNumColors = 6;
inline const char* ColorName(int c) {
  static const char* const kNames[kNumColors] = {"red",    "green",  "blue",
                                                 "purple", "yellow", "grey"};
  return kNames[c];
}
// The colours in the order of their names (blue, green, grey, purple, red,
// yellow): minigrid draws from sorted(names) in LockedRoom and MultiRoom.
constexpr uint8_t kColorsByName[kNumColors] = {kBlue, kGreen, kGrey, kPurple, kRed, kYellow};
inline const char* ObjName(int t) {
  static const char* const kNames[kNumObjTypes] = {
      "unseen", "empty", "wall", "floor", "door", "key", "ball", "box", "goal", "lava", "agent"};
  return kNames[t];
}

// A door's state as encoded: 0 open, 1 closed, 2 locked.
enum DoorState : uint8_t { kOpen = 0, kClosed = 1, kLocked = 2 };

// One grid cell. A box keeps what it contains (inner_*), revealed by toggle.
struct Cell {
  uint8_t type = kEmpty;
  uint8_t color = 0;
  uint8_t state = 0;  // doors only
  uint8_t inner_type = kEmpty;
  uint8_t inner_color = 0;

  bool IsNone() const { return type == kEmpty; }
  bool CanOverlap() const {
    return type == kEmpty || type == kGoal || type == kFloor || type == kLava ||
           (type == kDoor && state == kOpen);
  }
  bool CanPickup() const { return type == kKey || type == kBall || type == kBox; }
  bool SeeBehind() const { return type != kWall && !(type == kDoor && state != kOpen); }
  bool operator==(const Cell& o) const {
    return type == o.type && color == o.color && state == o.state && inner_type == o.inner_type &&
           inner_color == o.inner_color;
  }
};

inline Cell MakeObj(uint8_t type, uint8_t color, uint8_t state = 0) {
  return Cell{type, color, state, kEmpty, 0};
}
inline Cell MakeWall() { return MakeObj(kWall, kGrey); }
inline Cell MakeGoal() { return MakeObj(kGoal, kGreen); }
inline Cell MakeLava() { return MakeObj(kLava, kRed); }
inline Cell MakeDoor(uint8_t color, bool locked) {
  return MakeObj(kDoor, color, locked ? kLocked : kClosed);
}

// A width x height grid of cells, column x, row y (minigrid's (i, j)).
class Grid {
 public:
  Grid() = default;
  Grid(int width, int height) { Resize(width, height); }
  void Resize(int width, int height) {
    width_ = width;
    height_ = height;
    cells_.assign(static_cast<size_t>(width) * height, Cell{});
  }
  void Clear() { cells_.assign(cells_.size(), Cell{}); }
  int width() const { return width_; }
  int height() const { return height_; }
  bool Inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  const Cell& Get(int x, int y) const { return cells_[static_cast<size_t>(y) * width_ + x]; }
  Cell& At(int x, int y) { return cells_[static_cast<size_t>(y) * width_ + x]; }
  void Set(int x, int y, const Cell& c) { At(x, y) = c; }
  void Remove(int x, int y) { At(x, y) = Cell{}; }

  // minigrid's horz_wall / vert_wall: length < 0 runs to the grid's edge.
  void HorzWall(int x, int y, int length = -1, Cell obj = MakeWall()) {
    if (length < 0) length = width_ - x;
    for (int i = 0; i < length; ++i) Set(x + i, y, obj);
  }
  void VertWall(int x, int y, int length = -1, Cell obj = MakeWall()) {
    if (length < 0) length = height_ - y;
    for (int j = 0; j < length; ++j) Set(x, y + j, obj);
  }
  void WallRect(int x, int y, int w, int h) {
    HorzWall(x, y, w);
    HorzWall(x, y + h - 1, w);
    VertWall(x, y, h);
    VertWall(x + w - 1, y, h);
  }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<Cell> cells_;
};

// Checks one encoded cell of a loaded state (the test hook), naming what is wrong.
inline Cell CellFromCodes(double type, double color, double state, double inner_type,
                          double inner_color) {
  auto code = [](double v, int n, const char* what) {
    const int i = static_cast<int>(v);
    if (!(v >= 0 && v < n && i == v)) {
      throw ValueError(std::string("MiniGrid state: bad ") + what + " code " + std::to_string(v));
    }
    return static_cast<uint8_t>(i);
  };
  Cell c;
  c.type = code(type, kNumObjTypes, "object type");
  c.color = code(color, kNumColors, "color");
  c.state = code(state, 3, "door state");
  c.inner_type = code(inner_type, kNumObjTypes, "box content type");
  c.inner_color = code(inner_color, kNumColors, "box content color");
  if (c.type == kUnseen || c.type == kAgent) throw ValueError("MiniGrid state: unseen/agent cell");
  return c;
}

}  // namespace envpool_x::minigrid
