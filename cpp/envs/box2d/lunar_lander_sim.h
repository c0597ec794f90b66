// LunarLander's physics, matching gymnasium 1.4.0's lunar_lander.py, on
// Box2D 2.3's C++; with `particles` (gymnasium's env has a render_mode) the
// engines' exhaust particles are bodies of the world too, as gymnasium makes
// them. They collide with the ground only, never with the lander, so they do
// not change its motion.
//
// The random draws (terrain, initial push, wind phases, engine dispersion) come
// in as arguments, so that the pool env (lunar_lander.h) draws them from its
// own stream and the parity tests feed the ones gymnasium drew. Every
// expression keeps gymnasium's float64 evaluation order; values cross into
// Box2D as float32, as pybox2d converts them.
#pragma once

#include <Box2D/Box2D.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "envs/box2d/box2d_global.h"

namespace envpool_x::box2d {

struct LunarLanderParams {
  bool continuous = false;
  double gravity = -10.0;
  bool enable_wind = false;
  double wind_power = 15.0;
  double turbulence_power = 1.5;
  double main_engine_power = 13.0;  // gymnasium's MAIN_ENGINE_POWER
  double side_engine_power = 0.6;   // gymnasium's SIDE_ENGINE_POWER
  bool particles = false;           // the exhaust particles (only drawn, never observed)
};

// The draws gymnasium makes in reset(), in its order (wind phases only with
// enable_wind).
struct LunarLanderResetDraws {
  std::array<double, 12> heights;  // uniform(0, H / 2), CHUNKS + 1 of them
  double force_x, force_y;         // uniform(-INITIAL_RANDOM, INITIAL_RANDOM)
  int64_t wind_idx = 0, torque_idx = 0;
};

class LunarLanderSim : public b2ContactListener {
 public:
  static constexpr double kFps = 50.0;
  static constexpr double kScale = 30.0;
  static constexpr double kLegAway = 20.0, kLegDown = 18.0, kLegW = 2.0, kLegH = 8.0;
  static constexpr double kLegSpringTorque = 40.0;
  static constexpr double kSideEngineHeight = 14.0, kSideEngineAway = 12.0;
  static constexpr double kMainEngineYLocation = 4.0;
  static constexpr double kViewportW = 600.0, kViewportH = 400.0;
  static constexpr int kChunks = 11;

  explicit LunarLanderSim(const LunarLanderParams& params) : p_(params) { EnsureBox2DReady(); }

  // New constants; a world already built takes the new gravity at once.
  void SetParams(const LunarLanderParams& params) {
    p_ = params;
    if (world_) world_->SetGravity(b2Vec2(0.0f, static_cast<float>(p_.gravity)));
  }

  // Builds a fresh world as gymnasium's reset() does, up to (not including)
  // the no-op step that reset() ends with.
  void Build(const LunarLanderResetDraws& d) {
    world_.reset();
    world_.emplace(b2Vec2(0.0f, static_cast<float>(p_.gravity)));
    world_->SetContactListener(this);
    game_over_ = false;
    has_prev_shaping_ = false;
    leg_contact_ = {false, false};
    particles_.clear();  // went with the old world
    wind_idx_ = d.wind_idx;
    torque_idx_ = d.torque_idx;

    const double w = kViewportW / kScale;
    const double h = kViewportH / kScale;
    std::array<double, kChunks + 1> height = d.heights;
    std::array<double, kChunks>& chunk_x = chunk_x_;
    for (int i = 0; i < kChunks; ++i) chunk_x[i] = w / (kChunks - 1) * i;
    helipad_y_ = h / 4;
    for (int k = -2; k <= 2; ++k) height[kChunks / 2 + k] = helipad_y_;
    std::array<double, kChunks>& smooth_y = smooth_y_;
    for (int i = 0; i < kChunks; ++i) {
      // height[-1] is Python's last element.
      const double prev = height[i == 0 ? kChunks : i - 1];
      smooth_y[i] = 0.33 * (prev + height[i] + height[i + 1]);
    }

    b2BodyDef moon_def;  // static
    moon_ = world_->CreateBody(&moon_def);
    b2EdgeShape bottom;
    bottom.Set(b2Vec2(0.0f, 0.0f), b2Vec2(static_cast<float>(w), 0.0f));
    b2FixtureDef bottom_fixture;
    bottom_fixture.shape = &bottom;
    moon_->CreateFixture(&bottom_fixture);
    for (int i = 0; i < kChunks - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(Vec(chunk_x[i], smooth_y[i]), Vec(chunk_x[i + 1], smooth_y[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.density = 0.0f;
      fd.friction = 0.1f;
      moon_->CreateFixture(&fd);
    }

    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    b2BodyDef lander_def;
    lander_def.type = b2_dynamicBody;
    lander_def.position = Vec(initial_x, initial_y);
    lander_def.angle = 0.0f;
    lander_ = world_->CreateBody(&lander_def);
    static constexpr int kPoly[6][2] = {{-14, 17}, {-17, 0}, {-17, -10},
                                        {17, -10}, {17, 0},  {14, 17}};
    b2Vec2 verts[6];
    for (int i = 0; i < 6; ++i) verts[i] = Vec(kPoly[i][0] / kScale, kPoly[i][1] / kScale);
    b2PolygonShape hull;
    hull.Set(verts, 6);
    b2FixtureDef hull_fixture;
    hull_fixture.shape = &hull;
    hull_fixture.density = 5.0f;
    hull_fixture.friction = 0.1f;
    hull_fixture.filter.categoryBits = 0x0010;
    hull_fixture.filter.maskBits = 0x001;
    hull_fixture.restitution = 0.0f;
    lander_->CreateFixture(&hull_fixture);
    lander_->ApplyForceToCenter(Vec(d.force_x, d.force_y), true);

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : 1;
      b2BodyDef leg_def;
      leg_def.type = b2_dynamicBody;
      leg_def.position = Vec(initial_x - i * kLegAway / kScale, initial_y);
      leg_def.angle = static_cast<float>(i * 0.05);
      b2Body* leg = world_->CreateBody(&leg_def);
      b2PolygonShape box;
      box.SetAsBox(static_cast<float>(kLegW / kScale), static_cast<float>(kLegH / kScale));
      b2FixtureDef fd;
      fd.shape = &box;
      fd.density = 1.0f;
      fd.restitution = 0.0f;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      leg->CreateFixture(&fd);
      b2RevoluteJointDef rjd;
      rjd.bodyA = lander_;
      rjd.bodyB = leg;
      // pybox2d's revoluteJointDef(bodyA=, bodyB=) sets the reference angle.
      rjd.referenceAngle = static_cast<float>(static_cast<double>(leg->GetAngle()) -
                                              static_cast<double>(lander_->GetAngle()));
      rjd.localAnchorA = b2Vec2(0.0f, 0.0f);
      rjd.localAnchorB = Vec(i * kLegAway / kScale, kLegDown / kScale);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(kLegSpringTorque);
      rjd.motorSpeed = static_cast<float>(+0.3 * i);
      rjd.lowerAngle = static_cast<float>(i == -1 ? +0.9 - 0.5 : -0.9);
      rjd.upperAngle = static_cast<float>(i == -1 ? +0.9 : -0.9 + 0.5);
      world_->CreateJoint(&rjd);
      legs_[k] = leg;
    }
  }

  // One step. Discrete: action[0] in {0..3} (as a float); continuous: two
  // values, clipped to [-1, 1] here as gymnasium does. d0, d1: the two
  // uniform(-1, 1) draws gymnasium makes every step.
  void Step(const float* action, double d0, double d1, float* obs, double* reward,
            bool* terminated) {
    // What gymnasium's render() after the last step did to the particles:
    // a step's frame is drawn as if every earlier one had been (Fade).
    if (p_.particles) {
      for (Particle& q : particles_) q.ttl = Fade(q.ttl);
      CleanParticles();
    }
    if (p_.enable_wind && !(leg_contact_[0] || leg_contact_[1])) {
      const double wind_mag = std::tanh(std::sin(0.02 * static_cast<double>(wind_idx_)) +
                                        std::sin(M_PI * 0.01 * static_cast<double>(wind_idx_))) *
                              p_.wind_power;
      ++wind_idx_;
      lander_->ApplyForceToCenter(Vec(wind_mag, 0.0), true);
      const double torque_mag =
          std::tanh(std::sin(0.02 * static_cast<double>(torque_idx_)) +
                    std::sin(M_PI * 0.01 * static_cast<double>(torque_idx_))) *
          p_.turbulence_power;
      ++torque_idx_;
      lander_->ApplyTorque(static_cast<float>(torque_mag), true);
    }
    double a0 = 0.0, a1 = 0.0;
    int discrete = 0;
    if (p_.continuous) {
      a0 = static_cast<double>(std::fmin(std::fmax(action[0], -1.0f), 1.0f));
      a1 = static_cast<double>(std::fmin(std::fmax(action[1], -1.0f), 1.0f));
    } else {
      discrete = static_cast<int>(action[0]);
    }
    const double angle = lander_->GetAngle();
    const double tip0 = std::sin(angle), tip1 = std::cos(angle);
    const double side0 = -tip1, side1 = tip0;
    d0 /= kScale;
    d1 /= kScale;

    double m_power = 0.0;
    if ((p_.continuous && a0 > 0.0) || (!p_.continuous && discrete == 2)) {
      m_power = p_.continuous ? (std::fmin(std::fmax(a0, 0.0), 1.0) + 1.0) * 0.5 : 1.0;
      const double ox = tip0 * (kMainEngineYLocation / kScale + 2 * d0) + side0 * d1;
      const double oy = -tip1 * (kMainEngineYLocation / kScale + 2 * d0) - side1 * d1;
      const b2Vec2 pos = lander_->GetPosition();
      const double px = pos.x + ox, py = pos.y + oy;
      if (p_.particles) {
        AddParticle(3.5, px, py, m_power)
            ->ApplyLinearImpulse(
                Vec(ox * p_.main_engine_power * m_power, oy * p_.main_engine_power * m_power),
                Vec(px, py), true);
      }
      lander_->ApplyLinearImpulse(
          Vec(-ox * p_.main_engine_power * m_power, -oy * p_.main_engine_power * m_power),
          Vec(px, py), true);
    }
    double s_power = 0.0;
    if ((p_.continuous && std::fabs(a1) > 0.5) ||
        (!p_.continuous && (discrete == 1 || discrete == 3))) {
      double direction;
      if (p_.continuous) {
        direction = a1 > 0.0 ? 1.0 : -1.0;
        s_power = std::fmin(std::fmax(std::fabs(a1), 0.5), 1.0);
      } else {
        direction = discrete - 2;
        s_power = 1.0;
      }
      const double lateral = 3 * d1 + direction * kSideEngineAway / kScale;
      const double ox = tip0 * d0 + side0 * lateral;
      const double oy = -tip1 * d0 - side1 * lateral;
      const b2Vec2 pos = lander_->GetPosition();
      const double px = pos.x + ox - tip0 * 17 / kScale;
      const double py = pos.y + oy + tip1 * kSideEngineHeight / kScale;
      if (p_.particles) {
        AddParticle(0.7, px, py, s_power)
            ->ApplyLinearImpulse(
                Vec(ox * p_.side_engine_power * s_power, oy * p_.side_engine_power * s_power),
                Vec(px, py), true);
      }
      lander_->ApplyLinearImpulse(
          Vec(-ox * p_.side_engine_power * s_power, -oy * p_.side_engine_power * s_power),
          Vec(px, py), true);
    }

    world_->Step(static_cast<float>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    const double half_w = kViewportW / kScale / 2, half_h = kViewportH / kScale / 2;
    double s[8];
    s[0] = (pos.x - half_w) / half_w;
    s[1] = (pos.y - (helipad_y_ + kLegDown / kScale)) / half_h;
    s[2] = vel.x * half_w / kFps;
    s[3] = vel.y * half_h / kFps;
    s[4] = lander_->GetAngle();
    s[5] = 20.0 * lander_->GetAngularVelocity() / kFps;
    s[6] = leg_contact_[0] ? 1.0 : 0.0;
    s[7] = leg_contact_[1] ? 1.0 : 0.0;
    for (int i = 0; i < 8; ++i) obs[i] = static_cast<float>(s[i]);

    const double shaping = -100 * std::sqrt(s[0] * s[0] + s[1] * s[1]) -
                           100 * std::sqrt(s[2] * s[2] + s[3] * s[3]) - 100 * std::fabs(s[4]) +
                           10 * s[6] + 10 * s[7];
    double r = has_prev_shaping_ ? shaping - prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    r -= m_power * 0.30;
    r -= s_power * 0.03;
    bool done = false;
    if (game_over_ || std::fabs(s[0]) >= 1.0) {
      done = true;
      r = -100;
    }
    if (!lander_->IsAwake()) {
      done = true;
      r = +100;
    }
    *reward = r;
    *terminated = done;
  }

  // Whether Build ran: before, there is no world to step.
  bool built() const { return world_.has_value(); }

  // An exhaust particle: its body and time to live (gymnasium's ttl, the
  // engine's power, which its render() lowers by 0.15).
  struct Particle {
    b2Body* body;
    double ttl;
  };
  static double Fade(double ttl) { return ttl - 0.15; }
  // What the renderer reads (lunar_lander_render.h).
  const std::vector<Particle>& particles() const { return particles_; }
  const std::array<double, kChunks>& chunk_x() const { return chunk_x_; }
  const std::array<double, kChunks>& smooth_y() const { return smooth_y_; }
  double helipad_y() const { return helipad_y_; }
  const b2Body* lander() const { return lander_; }
  const b2Body* leg(int i) const { return legs_[i]; }

  // For the parity tests: the lander's and legs' positions, angles and
  // velocities, in the order lander, left leg, right leg (6 values each).
  std::array<float, 18> Bodies() const {
    std::array<float, 18> out{};
    const b2Body* bodies[3] = {lander_, legs_[0], legs_[1]};
    for (int b = 0; b < 3; ++b) {
      const b2Vec2 p = bodies[b]->GetPosition(), v = bodies[b]->GetLinearVelocity();
      float* o = out.data() + 6 * b;
      o[0] = p.x;
      o[1] = p.y;
      o[2] = bodies[b]->GetAngle();
      o[3] = v.x;
      o[4] = v.y;
      o[5] = bodies[b]->GetAngularVelocity();
    }
    return out;
  }

  // b2ContactListener: gymnasium's ContactDetector.
  void BeginContact(b2Contact* contact) override {
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    if (a == lander_ || b == lander_) game_over_ = true;
    for (int i = 0; i < 2; ++i) {
      if (a == legs_[i] || b == legs_[i]) leg_contact_[i] = true;
    }
  }
  void EndContact(b2Contact* contact) override {
    const b2Body* a = contact->GetFixtureA()->GetBody();
    const b2Body* b = contact->GetFixtureB()->GetBody();
    for (int i = 0; i < 2; ++i) {
      if (a == legs_[i] || b == legs_[i]) leg_contact_[i] = false;
    }
  }

 private:
  // pybox2d's conversion of a Python float pair to b2Vec2.
  static b2Vec2 Vec(double x, double y) {
    return b2Vec2(static_cast<float>(x), static_cast<float>(y));
  }

  // gymnasium's _create_particle: a small disc colliding with the ground
  // only, appended to the list, whose expired head is then cleaned.
  b2Body* AddParticle(double density, double x, double y, double ttl) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = Vec(x, y);
    def.angle = 0.0f;
    b2Body* body = world_->CreateBody(&def);
    b2CircleShape disc;
    disc.m_radius = static_cast<float>(2 / kScale);
    disc.m_p = b2Vec2(0.0f, 0.0f);
    b2FixtureDef fd;
    fd.shape = &disc;
    fd.density = static_cast<float>(density);
    fd.friction = 0.1f;
    fd.filter.categoryBits = 0x0100;
    fd.filter.maskBits = 0x001;
    fd.restitution = 0.3f;
    body->CreateFixture(&fd);
    particles_.push_back(Particle{body, ttl});
    CleanParticles();
    return body;
  }
  // gymnasium's _clean_particles(False): expired particles from the head on.
  void CleanParticles() {
    size_t k = 0;
    while (k < particles_.size() && particles_[k].ttl < 0)
      world_->DestroyBody(particles_[k++].body);
    particles_.erase(particles_.begin(), particles_.begin() + static_cast<std::ptrdiff_t>(k));
  }

  LunarLanderParams p_;
  std::optional<b2World> world_;
  b2Body* moon_ = nullptr;
  b2Body* lander_ = nullptr;
  std::array<b2Body*, 2> legs_{nullptr, nullptr};
  std::array<bool, 2> leg_contact_{false, false};
  bool game_over_ = false;
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0.0;
  double helipad_y_ = 0.0;
  std::array<double, kChunks> chunk_x_{}, smooth_y_{};
  std::vector<Particle> particles_;  // oldest first
  int64_t wind_idx_ = 0, torque_idx_ = 0;
};

}  // namespace envpool_x::box2d
