// The MiniGrid world: the grid, the agent, minigrid 3.2.0's seven actions,
// its egocentric view encoding and the random helpers its generators use
// (minigrid_env.py), drawing from our own seed stream.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/random.h"
#include "envs/minigrid/world.h"

namespace envpool_x::minigrid {

enum Action : int32_t {
  kLeft = 0,
  kRight = 1,
  kForward = 2,
  kPickup = 3,
  kDrop = 4,
  kToggle = 5,
  kDone = 6,
};
constexpr int kNumActions = 7;

// minigrid's DIR_TO_VEC: 0 east (+x), 1 south (+y), 2 west, 3 north.
constexpr int kDirX[4] = {1, 0, -1, 0};
constexpr int kDirY[4] = {0, 1, 0, -1};

struct Pos {
  int x = -1;
  int y = -1;
  bool operator==(const Pos& o) const { return x == o.x && y == o.y; }
};

// A layout drawn so far leaves no place for what comes next (every cell of a
// room taken, every wall of a room already holding a door). minigrid samples
// on forever there; our generators throw this instead and the layout is
// drawn again, a bounded number of times (MiniGridEnv, BabyAIEnv).
struct LayoutDeadEnd : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Rejection sampling keeps minigrid's draws: after this many misses in a row
// the candidates are checked once, and LayoutDeadEnd thrown if there are none
// (otherwise sampling goes on, and ends with probability one).
constexpr int64_t kMissesBeforeCheck = 1024;

// What one base step did (the tasks that add rules look at it).
struct StepEvent {
  float reward = 0.0f;
  bool terminated = false;
  Pos fwd;        // the cell in front before the step
  Cell fwd_cell;  // its content before the step
};

class World {
 public:
  Grid grid;
  Pos agent;
  int dir = 0;
  Cell carrying;  // type kEmpty: nothing
  int step_count = 0;
  int max_steps = 0;
  bool see_through_walls = false;
  int view_size = 7;

  Pos Front() const { return Pos{agent.x + kDirX[dir], agent.y + kDirY[dir]}; }
  const Cell& CellAt(Pos p) const {
    static const Cell kOutside = MakeWall();  // slice() pads with walls
    return grid.Inside(p.x, p.y) ? grid.Get(p.x, p.y) : kOutside;
  }

  // minigrid's _reward(): 1 - 0.9 * step_count / max_steps.
  float SuccessReward() const {
    if (max_steps <= 0) return 1.0f;
    return static_cast<float>(1.0 - 0.9 * (static_cast<double>(step_count) / max_steps));
  }

  // MiniGridEnv.step without the observation (step_count counts this step).
  StepEvent Step(int action) {
    ++step_count;
    StepEvent ev;
    ev.fwd = Front();
    ev.fwd_cell = CellAt(ev.fwd);
    const Cell& fwd = ev.fwd_cell;
    switch (action) {
      case kLeft:
        dir = (dir + 3) % 4;
        break;
      case kRight:
        dir = (dir + 1) % 4;
        break;
      case kForward:
        if (fwd.CanOverlap()) agent = ev.fwd;
        if (fwd.type == kGoal) {
          ev.terminated = true;
          ev.reward = SuccessReward();
        } else if (fwd.type == kLava) {
          ev.terminated = true;
        }
        break;
      case kPickup:
        if (fwd.CanPickup() && carrying.IsNone()) {
          carrying = fwd;
          grid.Remove(ev.fwd.x, ev.fwd.y);
        }
        break;
      case kDrop:
        if (fwd.IsNone() && !carrying.IsNone()) {
          grid.Set(ev.fwd.x, ev.fwd.y, carrying);
          carrying = Cell{};
        }
        break;
      case kToggle:
        Toggle(ev.fwd);
        break;
      default:  // kDone
        break;
    }
    return ev;
  }

  // WorldObj.toggle of the object at p: doors open/close (a locked one opens
  // with a key of its colour), a box turns into what it contains.
  void Toggle(Pos p) {
    if (!grid.Inside(p.x, p.y)) return;
    Cell& c = grid.At(p.x, p.y);
    if (c.type == kDoor) {
      if (c.state == kLocked) {
        if (carrying.type == kKey && carrying.color == c.color) c.state = kOpen;
      } else {
        c.state = c.state == kOpen ? kClosed : kOpen;
      }
    } else if (c.type == kBox) {
      c = MakeObj(c.inner_type, c.inner_color);
    }
  }

  // gen_obs()'s image: the view_size x view_size view in front of the agent
  // (agent at the bottom centre, facing up), image[i][j] for view column i
  // and row j, with minigrid's visibility (process_vis) unless it sees
  // through walls. `view` is scratch space of view_size^2 cells.
  void EncodeView(uint8_t* image, Cell* view, bool* visible) const {
    const int n = view_size, half = n / 2;
    const int fx = kDirX[dir], fy = kDirY[dir];
    const int rx = -fy, ry = fx;
    // View cell (i, j) is world cell agent + f * (n - 1 - j) + r * (i - half).
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const int x = agent.x + fx * (n - 1 - j) + rx * (i - half);
        const int y = agent.y + fy * (n - 1 - j) + ry * (i - half);
        view[j * n + i] = CellAt(Pos{x, y});
      }
    }
    if (see_through_walls) {
      std::fill(visible, visible + n * n, true);
    } else {
      ProcessVis(view, visible, n);
    }
    view[(n - 1) * n + half] = carrying;  // the agent's own cell shows what it carries
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        uint8_t* px = image + (i * n + j) * 3;
        const Cell& c = view[j * n + i];
        if (!visible[j * n + i]) {
          px[0] = px[1] = px[2] = 0;
        } else if (c.IsNone()) {
          px[0] = kEmpty;
          px[1] = px[2] = 0;
        } else {
          px[0] = c.type;
          px[1] = c.color;
          px[2] = c.type == kDoor ? c.state : 0;
        }
      }
    }
  }

  // Grid.process_vis: light spreads from the agent, row by row away from it,
  // left-to-right then right-to-left, through cells that do not block sight.
  static void ProcessVis(const Cell* view, bool* mask, int n) {
    std::fill(mask, mask + n * n, false);
    mask[(n - 1) * n + n / 2] = true;
    for (int j = n - 1; j >= 0; --j) {
      for (int i = 0; i < n - 1; ++i) {
        if (!mask[j * n + i] || !view[j * n + i].SeeBehind()) continue;
        mask[j * n + i + 1] = true;
        if (j > 0) {
          mask[(j - 1) * n + i + 1] = true;
          mask[(j - 1) * n + i] = true;
        }
      }
      for (int i = n - 1; i >= 1; --i) {
        if (!mask[j * n + i] || !view[j * n + i].SeeBehind()) continue;
        mask[j * n + i - 1] = true;
        if (j > 0) {
          mask[(j - 1) * n + i - 1] = true;
          mask[(j - 1) * n + i] = true;
        }
      }
    }
  }

  // --- The random helpers of MiniGridEnv, on our stream ---
  static int RandInt(Rng& rng, int low, int high) {  // [low, high)
    return low + static_cast<int>(rng.UniformInt(static_cast<uint64_t>(high - low)));
  }
  static bool RandBool(Rng& rng) { return rng.UniformInt(2) == 0; }
  // _rand_color: minigrid's COLOR_NAMES are sorted by name.
  static int RandColor(Rng& rng) { return kColorsByName[RandInt(rng, 0, kNumColors)]; }

  // place_obj: a uniform empty cell of the rectangle, not the agent's, that
  // `reject` (if any) accepts; obj may be "none" (place_agent).
  template <typename Reject>
  Pos PlaceObj(Rng& rng, const Cell& obj, Pos top, Pos size, Reject reject) {
    top.x = std::max(top.x, 0);
    top.y = std::max(top.y, 0);
    const int x_end = std::min(top.x + size.x, grid.width());
    const int y_end = std::min(top.y + size.y, grid.height());
    auto free = [&](Pos p) { return grid.Get(p.x, p.y).IsNone() && !(p == agent) && !reject(p); };
    if (x_end <= top.x || y_end <= top.y) throw LayoutDeadEnd("an object placed outside the grid");
    for (int64_t misses = 0;; ++misses) {
      if (misses == kMissesBeforeCheck && !AnyCell(top, x_end, y_end, free)) {
        throw LayoutDeadEnd("no free cell left for an object");
      }
      const Pos p{RandInt(rng, top.x, x_end), RandInt(rng, top.y, y_end)};
      if (!free(p)) continue;
      grid.Set(p.x, p.y, obj);
      return p;
    }
  }
  template <typename Pred>
  static bool AnyCell(Pos top, int x_end, int y_end, Pred pred) {
    for (int y = top.y; y < y_end; ++y) {
      for (int x = top.x; x < x_end; ++x) {
        if (pred(Pos{x, y})) return true;
      }
    }
    return false;
  }
  Pos PlaceObj(Rng& rng, const Cell& obj, Pos top = {0, 0}, Pos size = {1 << 20, 1 << 20}) {
    return PlaceObj(rng, obj, top, size, [](Pos) { return false; });
  }
  Pos PlaceAgent(Rng& rng, Pos top = {0, 0}, Pos size = {1 << 20, 1 << 20}, bool rand_dir = true) {
    agent = Pos{-1, -1};
    agent = PlaceObj(rng, Cell{}, top, size);
    if (rand_dir) dir = RandInt(rng, 0, 4);
    return agent;
  }

  // Clears everything a generator sets (reset's first lines).
  void BeginReset() {
    grid.Clear();
    agent = Pos{-1, -1};
    dir = 0;
    carrying = Cell{};
    step_count = 0;
  }
};

}  // namespace envpool_x::minigrid
