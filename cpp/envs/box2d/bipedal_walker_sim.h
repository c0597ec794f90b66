// BipedalWalker's physics, matching gymnasium 1.4.0's bipedal_walker.py with
// render_mode=None, on Box2D 2.3's C++.
//
// As gymnasium does, one world lives as long as the sim: a reset destroys the
// last episode's bodies (in gymnasium's order) and builds new ones in it. Random
// numbers come from a Draws (draws.h), asked for in gymnasium's order (the
// clouds' draws included, though nothing is drawn), so that the parity tests
// replay gymnasium's. Expressions keep gymnasium's float64 evaluation order;
// the action terms are float32, as numpy computes them from a float32 action.
// What only gymnasium's render() reads is kept too (bipedal_walker_render.h):
// the clouds, the lidar rays' ends, the scroll and the steps since the reset.
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envs/box2d/box2d_global.h"
#include "envs/box2d/draws.h"

namespace envpool_x::box2d {

// The constants a pool may change per env (docs/params.md): gymnasium's
// module constants (MOTORS_TORQUE, SPEED_HIP, SPEED_KNEE, FRICTION), its
// fixture definitions' values and its world's default gravity.
struct BipedalWalkerParams {
  bool hardcore = false;
  double gravity = -10.0;
  double motors_torque = 80.0;
  double speed_hip = 4.0;
  double speed_knee = 6.0;
  double terrain_friction = 2.5;  // FRICTION: every ground body
  double leg_friction = 0.2;      // LEG_FD and LOWER_FD
  double hull_density = 5.0;      // HULL_FD
  double leg_density = 1.0;       // LEG_FD and LOWER_FD
};

class BipedalWalkerSim : public b2ContactListener {
 public:
  static constexpr double kFps = 50.0, kScale = 30.0;
  static constexpr double kLidarRange = 160 / kScale;
  static constexpr double kInitialRandom = 5.0;
  static constexpr double kLegDown = -8 / kScale, kLegW = 8 / kScale, kLegH = 34 / kScale;
  static constexpr double kViewportW = 600.0, kViewportH = 400.0;
  static constexpr double kTerrainStep = 14 / kScale;
  static constexpr int kTerrainLength = 200, kTerrainGrass = 10, kTerrainStartpad = 20;
  static constexpr double kTerrainHeight = kViewportH / kScale / 4;
  static constexpr int kObsSize = 24;

  explicit BipedalWalkerSim(const BipedalWalkerParams& p)
      : p_(p), world_(b2Vec2(0.0f, static_cast<float>(p.gravity))) {
    EnsureBox2DReady();
    terrain_.reserve(kTerrainLength * 2);
  }

  // New constants (hardcore stays): gravity and the motors' act from the next
  // step, the frictions and densities from the next Build.
  void SetParams(const BipedalWalkerParams& p) {
    p_ = p;
    world_.SetGravity(b2Vec2(0.0f, static_cast<float>(p_.gravity)));
  }

  // gymnasium's reset() up to (not including) its closing zero-action step.
  void Build(Draws& draws) {
    Destroy();
    world_.SetContactListener(this);
    game_over_ = false;
    has_prev_shaping_ = false;
    contact_ = {false, false};
    GenerateTerrain(draws);
    steps_ = 0;
    for (Cloud& cloud : clouds_) {  // gymnasium's _generate_clouds
      const double x = draws.Uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      for (int a = 0; a < 5; ++a) {
        const double ux = draws.Uniform(0, 5 * kTerrainStep);
        const double uy = draws.Uniform(0, 5 * kTerrainStep);
        cloud.p[a] = {x + 15 * kTerrainStep * std::sin(3.14 * 2 * a / 5) + ux,
                      y + 5 * kTerrainStep * std::cos(3.14 * 2 * a / 5) + uy};
      }
      cloud.x1 = cloud.x2 = cloud.p[0][0];
      for (const auto& q : cloud.p) {
        cloud.x1 = std::min(cloud.x1, q[0]);
        cloud.x2 = std::max(cloud.x2, q[0]);
      }
    }
    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;
    hull_ = Dynamic(init_x, init_y, 0.0);
    static constexpr int kHull[5][2] = {{-30, 9}, {6, 9}, {34, 1}, {34, -8}, {-30, -8}};
    b2Vec2 verts[5];
    for (int i = 0; i < 5; ++i) verts[i] = Vec(kHull[i][0] / kScale, kHull[i][1] / kScale);
    b2PolygonShape hull;
    hull.Set(verts, 5);
    AddFixture(hull_, hull, p_.hull_density, 0.1);
    hull_->ApplyForceToCenter(Vec(draws.Uniform(-kInitialRandom, kInitialRandom), 0), true);
    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2Body* leg = Dynamic(init_x, init_y - kLegH / 2 - kLegDown, i * 0.05);
      b2PolygonShape upper;
      upper.SetAsBox(static_cast<float>(kLegW / 2), static_cast<float>(kLegH / 2));
      AddFixture(leg, upper, p_.leg_density, p_.leg_friction);
      joints_[2 * k] = Joint(hull_, leg, kLegDown, kLegH / 2, i, -0.8, 1.1);
      legs_[2 * k] = leg;
      b2Body* lower = Dynamic(init_x, init_y - kLegH * 3 / 2 - kLegDown, i * 0.05);
      b2PolygonShape lower_box;
      lower_box.SetAsBox(static_cast<float>(0.8 * kLegW / 2), static_cast<float>(kLegH / 2));
      AddFixture(lower, lower_box, p_.leg_density, p_.leg_friction);
      joints_[2 * k + 1] = Joint(leg, lower, -kLegH / 2, kLegH / 2, 1, -1.6, -0.1);
      legs_[2 * k + 1] = lower;
    }
  }

  // One step with a float32 action of 4 motor commands.
  void Step(const float* action, float* obs, double* reward, bool* terminated) {
    const double speed[4] = {p_.speed_hip, p_.speed_knee, p_.speed_hip, p_.speed_knee};
    for (int j = 0; j < 4; ++j) {
      const float a = action[j];
      const float sign = a > 0.0f ? 1.0f : (a < 0.0f ? -1.0f : 0.0f);
      joints_[j]->SetMotorSpeed(static_cast<float>(speed[j]) * sign);
      joints_[j]->SetMaxMotorTorque(static_cast<float>(p_.motors_torque) * Clip01(std::fabs(a)));
    }
    world_.Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    double s[kObsSize];
    s[0] = hull_->GetAngle();
    s[1] = 2.0 * hull_->GetAngularVelocity() / kFps;
    s[2] = 0.3 * vel.x * (kViewportW / kScale) / kFps;
    s[3] = 0.3 * vel.y * (kViewportH / kScale) / kFps;
    for (int k = 0; k < 2; ++k) {
      double* o = s + 4 + 5 * k;
      o[0] = joints_[2 * k]->GetJointAngle();
      o[1] = joints_[2 * k]->GetJointSpeed() / p_.speed_hip;
      o[2] = joints_[2 * k + 1]->GetJointAngle() + 1.0;
      o[3] = joints_[2 * k + 1]->GetJointSpeed() / p_.speed_knee;
      o[4] = contact_[k] ? 1.0 : 0.0;
    }
    for (int i = 0; i < 10; ++i) {
      Lidar lidar;
      Ray& ray = rays_[i];
      ray.p1 = pos;
      ray.p2 = {pos.x + std::sin(1.5 * i / 10.0) * kLidarRange,
                pos.y - std::cos(1.5 * i / 10.0) * kLidarRange};
      world_.RayCast(&lidar, pos, Vec(ray.p2[0], ray.p2[1]));
      if (lidar.hit) ray.p2 = {lidar.point.x, lidar.point.y};
      s[14 + i] = lidar.fraction;
    }
    scroll_ = pos.x - kViewportW / kScale / 5;
    ++steps_;
    for (int i = 0; i < kObsSize; ++i) obs[i] = static_cast<float>(s[i]);

    double shaping = 130 * static_cast<double>(pos.x) / kScale;
    shaping -= 5.0 * std::fabs(s[0]);
    const double r64 = has_prev_shaping_ ? shaping - prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    // numpy 2: a Python float minus a float32 is a float32 (NEP 50).
    float r = static_cast<float>(r64);
    const float torque_cost = static_cast<float>(0.00035 * p_.motors_torque);
    for (int j = 0; j < 4; ++j) r -= torque_cost * Clip01(std::fabs(action[j]));
    *reward = r;
    *terminated = false;
    if (game_over_ || pos.x < 0) {
      *reward = -100;
      *terminated = true;
    }
    if (pos.x > (kTerrainLength - kTerrainGrass) * kTerrainStep) *terminated = true;
  }

  // Whether Build ran: before, there is no walker to step.
  bool built() const { return !terrain_.empty(); }

  // What the renderer reads (bipedal_walker_render.h).
  struct Cloud {
    std::array<std::array<double, 2>, 5> p;
    double x1, x2;  // the least and greatest x
  };
  struct Ray {  // a lidar ray: from the hull to the ground hit, or its full length
    b2Vec2 p1;
    std::array<double, 2> p2;
  };
  const std::array<Cloud, kTerrainLength / 20>& clouds() const { return clouds_; }
  const std::array<Ray, 10>& rays() const { return rays_; }
  const std::vector<b2Body*>& terrain() const { return terrain_; }
  const std::array<double, kTerrainLength>& terrain_x() const { return terrain_x_; }
  const std::array<double, kTerrainLength>& terrain_y() const { return terrain_y_; }
  const b2Body* hull() const { return hull_; }
  const b2Body* leg(int i) const { return legs_[i]; }
  double scroll() const { return scroll_; }
  int64_t steps() const { return steps_; }  // since the reset, its own step included

  // For the parity tests: every terrain body's vertices (x, y, ...) as Box2D
  // keeps them (polygons after Set's hull), in creation order.
  std::vector<float> TerrainVertices() const {
    std::vector<float> out;
    for (const b2Body* body : terrain_) {
      for (const b2Fixture* f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
        if (f->GetType() == b2Shape::e_polygon) {
          const auto* p = static_cast<const b2PolygonShape*>(f->GetShape());
          for (int i = 0; i < p->m_count; ++i) {
            out.push_back(p->m_vertices[i].x);
            out.push_back(p->m_vertices[i].y);
          }
        } else if (f->GetType() == b2Shape::e_edge) {
          const auto* e = static_cast<const b2EdgeShape*>(f->GetShape());
          out.insert(out.end(), {e->m_vertex1.x, e->m_vertex1.y, e->m_vertex2.x, e->m_vertex2.y});
        }
      }
    }
    return out;
  }

  void BeginContact(b2Contact* contact) override {
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    if (a == hull_ || b == hull_) game_over_ = true;
    for (int k = 0; k < 2; ++k) {
      if (a == legs_[2 * k + 1] || b == legs_[2 * k + 1]) contact_[k] = true;
    }
  }
  void EndContact(b2Contact* contact) override {
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    for (int k = 0; k < 2; ++k) {
      if (a == legs_[2 * k + 1] || b == legs_[2 * k + 1]) contact_[k] = false;
    }
  }

 private:
  // gymnasium's LidarCallback: the closest ground fixture along the ray.
  struct Lidar : b2RayCastCallback {
    float fraction = 1.0f;
    bool hit = false;
    b2Vec2 point;
    float32 ReportFixture(b2Fixture* fixture, const b2Vec2& p, const b2Vec2&, float32 f) override {
      if ((fixture->GetFilterData().categoryBits & 1) == 0) return -1;
      fraction = f;
      hit = true;
      point = p;
      return f;
    }
  };

  static float Clip01(float v) { return std::fmin(std::fmax(v, 0.0f), 1.0f); }
  static b2Vec2 Vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
  }

  // gymnasium's _destroy(): no contact callbacks; terrain in its (reversed)
  // list order, then the hull and the legs.
  void Destroy() {
    if (terrain_.empty()) return;
    world_.SetContactListener(nullptr);
    for (auto it = terrain_.rbegin(); it != terrain_.rend(); ++it) world_.DestroyBody(*it);
    terrain_.clear();
    world_.DestroyBody(hull_);
    for (b2Body* leg : legs_) world_.DestroyBody(leg);
  }

  b2Body* Dynamic(double x, double y, double angle) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = Vec(x, y);
    def.angle = static_cast<float>(angle);
    return world_.CreateBody(&def);
  }

  // The walker's fixtures: category 0x20, colliding with the ground only.
  static void AddFixture(b2Body* body, const b2Shape& shape, double density, double friction) {
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = static_cast<float>(density);
    fd.friction = static_cast<float>(friction);
    fd.restitution = 0.0f;
    fd.filter.categoryBits = 0x0020;
    fd.filter.maskBits = 0x001;
    body->CreateFixture(&fd);
  }

  b2RevoluteJoint* Joint(b2Body* a, b2Body* b, double anchor_a_y, double anchor_b_y, double speed,
                         double lower, double upper) {
    b2RevoluteJointDef rjd;
    rjd.bodyA = a;
    rjd.bodyB = b;
    // pybox2d's revoluteJointDef(bodyA=, bodyB=) sets the reference angle.
    rjd.referenceAngle =
        static_cast<float>(static_cast<double>(b->GetAngle()) - static_cast<double>(a->GetAngle()));
    rjd.localAnchorA = Vec(0, anchor_a_y);
    rjd.localAnchorB = Vec(0, anchor_b_y);
    rjd.enableMotor = true;
    rjd.enableLimit = true;
    rjd.maxMotorTorque = static_cast<float>(p_.motors_torque);
    rjd.motorSpeed = static_cast<float>(speed);
    rjd.lowerAngle = static_cast<float>(lower);
    rjd.upperAngle = static_cast<float>(upper);
    return static_cast<b2RevoluteJoint*>(world_.CreateJoint(&rjd));
  }

  void Static(const b2Shape& shape) {
    b2BodyDef def;
    b2Body* body = world_.CreateBody(&def);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.friction = static_cast<float>(p_.terrain_friction);
    body->CreateFixture(&fd);
    terrain_.push_back(body);
  }

  void Polygon(const double (&p)[4][2]) {
    b2Vec2 v[4];
    for (int i = 0; i < 4; ++i) v[i] = Vec(p[i][0], p[i][1]);
    b2PolygonShape shape;
    shape.Set(v, 4);
    Static(shape);
  }

  void GenerateTerrain(Draws& draws);

  BipedalWalkerParams p_;
  b2World world_;
  std::vector<b2Body*> terrain_;
  b2Body* hull_ = nullptr;
  std::array<b2Body*, 4> legs_{};  // upper, lower (left), upper, lower (right)
  std::array<b2RevoluteJoint*, 4> joints_{};
  std::array<bool, 2> contact_{false, false};  // the lower legs'
  std::array<double, kTerrainLength> terrain_x_{}, terrain_y_{};
  bool game_over_ = false;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  std::array<Cloud, kTerrainLength / 20> clouds_{};
  std::array<Ray, 10> rays_{};
  double scroll_ = 0.0;
  int64_t steps_ = 0;
};

}  // namespace envpool_x::box2d

#include "envs/box2d/bipedal_walker_terrain.h"
