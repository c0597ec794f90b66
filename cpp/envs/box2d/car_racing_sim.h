// CarRacing's world, matching gymnasium 1.4.0's car_racing.py: the road tiles
// (sensors), the car, the contact listener (road friction, the reward for
// each new tile, lap completion), the step's reward and termination.
//
// One world for the env's life, as gymnasium keeps one: a reset destroys the
// last episode's bodies in gymnasium's order (tiles, then the car), since the
// broad phase reuses its nodes and the order shows in later episodes. The
// observation is drawn by CarRacingRenderer from what this class exposes.
#pragma once

#include <Box2D/Box2D.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/box2d/box2d_global.h"
#include "envs/box2d/car_dynamics.h"
#include "envs/box2d/car_racing_track.h"
#include "envs/box2d/draws.h"

namespace envpool_x::box2d {

struct CarRacingParams {
  bool continuous = true;
  double lap_complete_percent = 0.95;
  bool domain_randomize = false;
  CarConstants car;  // the per-env parameters
};

class CarRacingSim : public b2ContactListener {
 public:
  static constexpr double kFps = 50.0;

  explicit CarRacingSim(const CarRacingParams& p)
      : p_(p), world_(std::make_unique<b2World>(b2Vec2(0.0f, 0.0f))) {
    EnsureBox2DReady();
    world_->SetContactListener(this);
    car_.constants = p_.car;
  }

  // New car constants (the rest stays); the next step uses them.
  void SetParams(const CarConstants& c) {
    p_.car = c;
    car_.constants = c;
  }

  // reset() up to (not including) its step(None).
  void Build(Draws& d) {
    Destroy();
    reward_ = prev_reward_ = 0.0;
    tile_visited_count_ = 0;
    t_ = 0.0;
    new_lap_ = false;
    if (p_.domain_randomize) colors_.Randomize(d);
    track_.Generate(d, colors_.road);
    tiles_.clear();
    for (size_t k = 0; k < track_.polys.size(); ++k) {
      const RoadPoly& poly = track_.polys[k];
      if (poly.tile < 0) continue;
      b2Vec2 verts[4];
      for (int i = 0; i < 4; ++i) {
        verts[i] = b2Vec2(static_cast<float>(poly.v[i][0]), static_cast<float>(poly.v[i][1]));
      }
      b2PolygonShape shape;
      shape.Set(verts, 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      b2BodyDef def;
      b2Body* body = world_->CreateBody(&def);
      body->CreateFixture(&fd);
      // userData: the tile's index + 1 (0 is "not a tile", as None is).
      body->SetUserData(reinterpret_cast<void*>(static_cast<uintptr_t>(tiles_.size() + 1)));
      body->GetFixtureList()->SetSensor(true);
      tiles_.push_back(Tile{body, static_cast<int>(k), false});
    }
    const RoadPoint& start = track_.track[0];
    car_.Build(world_.get(), start.beta, start.x, start.y);
    built_ = true;
  }

  // step(action); action == nullptr is reset()'s step(None). Continuous:
  // steer, gas, brake; discrete: action[0] in 0..4 as a float.
  void Step(const float* action, double* reward, bool* terminated) {
    if (action != nullptr) {
      if (p_.continuous) {
        car_.Steer(-static_cast<double>(action[0]));
        car_.Gas(static_cast<double>(action[1]));
        car_.Brake(static_cast<double>(action[2]));
      } else {
        const int a = static_cast<int>(action[0]);
        car_.Steer(-0.6 * (a == 1) + 0.6 * (a == 2));
        car_.Gas(0.2 * (a == 3));
        car_.Brake(0.8 * (a == 4));
      }
    }
    car_.Step(1.0 / kFps);
    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / kFps;

    double step_reward = 0;
    bool done = false;
    bool lap_finished = false;
    if (action != nullptr) {
      reward_ -= 0.1;
      step_reward = reward_ - prev_reward_;
      prev_reward_ = reward_;
      if (tile_visited_count_ == static_cast<int>(track_.track.size()) || new_lap_) done = true;
      lap_finished = done;
      const b2Vec2 pos = car_.hull->GetPosition();
      if (std::fabs(static_cast<double>(pos.x)) > car_racing::kPlayfield ||
          std::fabs(static_cast<double>(pos.y)) > car_racing::kPlayfield) {
        done = true;
        lap_finished = false;  // gymnasium's info says False when both hold
        step_reward = -100;
      }
    }
    lap_finished_ = lap_finished;
    *reward = step_reward;
    *terminated = done;
  }

  // b2ContactListener: gymnasium's FrictionDetector.
  void BeginContact(b2Contact* contact) override { OnContact(contact, true); }
  void EndContact(b2Contact* contact) override { OnContact(contact, false); }

  // Test hook: marks tiles visited (and counts them), as setting
  // tile.road_visited and tile_visited_count does on gymnasium's env.
  void MarkVisited(const std::vector<int>& tiles) {
    for (int i : tiles) {
      Tile& t = tiles_.at(i);
      if (!t.visited) {
        t.visited = true;
        ++tile_visited_count_;
      }
    }
  }

  // What the renderer and the tests read.
  const Car& car() const { return car_; }
  const CarTrack& track() const { return track_; }
  const CarColors& colors() const { return colors_; }
  double time() const { return t_; }
  double total_reward() const { return reward_; }
  int tile_visited_count() const { return tile_visited_count_; }
  bool new_lap() const { return new_lap_; }
  // The last step ended the episode by finishing the lap (gymnasium's
  // info["lap_finished"] when it terminates; False on the playfield's edge).
  bool lap_finished() const { return lap_finished_; }
  int track_attempts() const { return track_.attempts; }
  // Whether Build ran: before, there is no car or track to step or draw.
  bool built() const { return built_; }

 private:
  struct Tile {
    b2Body* body;
    int poly;  // its index in track_.polys
    bool visited;
  };

  static int TileOf(const b2Body* body) {
    return static_cast<int>(reinterpret_cast<uintptr_t>(body->GetUserData())) - 1;
  }

  void OnContact(b2Contact* contact, bool begin) {
    if (destroying_) return;  // gymnasium's callbacks then touch nothing kept
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    int tile = -1;
    const b2Body* obj = nullptr;
    if (TileOf(a) >= 0) {
      tile = TileOf(a);
      obj = b;
    }
    if (TileOf(b) >= 0) {
      tile = TileOf(b);
      obj = a;
    }
    if (tile < 0) return;
    Tile& t = tiles_[tile];
    track_.polys[t.poly].color = colors_.road;  // tile.color[:] = road_color
    Wheel* wheel = nullptr;
    for (Wheel& w : car_.wheels) {
      if (w.body == obj) wheel = &w;
    }
    if (wheel == nullptr) return;
    if (!begin) {
      --wheel->tiles;
      return;
    }
    ++wheel->tiles;
    if (t.visited) return;
    t.visited = true;
    const double n = static_cast<double>(track_.track.size());
    reward_ += 1000.0 / n;
    ++tile_visited_count_;
    if (tile == 0 && tile_visited_count_ / n > p_.lap_complete_percent) new_lap_ = true;
  }

  // _destroy(): the tiles in order, then the car.
  void Destroy() {
    if (!built_) return;
    destroying_ = true;
    for (const Tile& t : tiles_) world_->DestroyBody(t.body);
    tiles_.clear();
    car_.Destroy(world_.get());
    destroying_ = false;
    built_ = false;
  }

  CarRacingParams p_;
  std::unique_ptr<b2World> world_;
  CarColors colors_;
  CarTrack track_;
  Car car_;
  std::vector<Tile> tiles_;
  bool built_ = false, destroying_ = false, new_lap_ = false, lap_finished_ = false;
  double reward_ = 0, prev_reward_ = 0, t_ = 0;
  int tile_visited_count_ = 0;
};

}  // namespace envpool_x::box2d
