// CarRacing's car (gymnasium 1.4.0's car_dynamics.py): a four-fixture hull,
// four wheels on revolute joints, and the tyre forces computed by hand each
// step (engine, brakes, friction limited by the road or the grass).
//
// Expressions keep car_dynamics.py's float64 order; values cross into Box2D
// as float32, as pybox2d converts them. Skid marks (particles) are not kept:
// gymnasium draws them only in the human / rgb_array views, never in the
// 96x96 state.
#pragma once

#include <Box2D/Box2D.h>

#include <array>
#include <cmath>

namespace envpool_x::box2d {

namespace car {
inline constexpr double kSize = 0.02;
inline constexpr double kEnginePower = 100000000 * kSize * kSize;
inline constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
inline constexpr double kFrictionLimit = 1000000 * kSize * kSize;
inline constexpr double kWheelR = 27, kWheelW = 14;
inline constexpr int kWheelPos[4][2] = {{-55, 80}, {55, 80}, {-55, -82}, {55, -82}};
}  // namespace car

// The car's constants a pool may change per env (docs/params.md); the
// defaults are car_dynamics.py's (BRAKE_FORCE is a local of its step, 0.6 the
// grass's share of FRICTION_LIMIT, road_friction each road tile's).
struct CarConstants {
  double engine_power = car::kEnginePower;
  double wheel_moment_of_inertia = car::kWheelMomentOfInertia;
  double friction_limit = car::kFrictionLimit;
  double brake_force = 15.0;  // radians per second
  double grass_friction = 0.6;
  double road_friction = 1.0;
};

struct Wheel {
  b2Body* body = nullptr;
  b2RevoluteJoint* joint = nullptr;
  double gas = 0, brake = 0, steer = 0, phase = 0, omega = 0;
  int tiles = 0;  // road tiles under the wheel (gymnasium's w.tiles set)
};

class Car {
 public:
  b2Body* hull = nullptr;
  std::array<Wheel, 4> wheels;
  CarConstants constants;

  // Car.__init__: the hull, then each wheel and its joint.
  void Build(b2World* world, double angle, double x, double y) {
    using namespace car;
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position = b2Vec2(static_cast<float>(x), static_cast<float>(y));
    hull_def.angle = static_cast<float>(angle);
    hull = world->CreateBody(&hull_def);
    static constexpr int kPoly1[4][2] = {{-60, 130}, {60, 130}, {60, 110}, {-60, 110}};
    static constexpr int kPoly2[4][2] = {{-15, 120}, {15, 120}, {20, 20}, {-20, 20}};
    static constexpr int kPoly3[8][2] = {{25, 20},   {50, -10},  {50, -40},  {20, -90},
                                         {-20, -90}, {-50, -40}, {-50, -10}, {-25, 20}};
    static constexpr int kPoly4[4][2] = {{-50, -120}, {50, -120}, {50, -90}, {-50, -90}};
    AddHullFixture(kPoly1, 4);
    AddHullFixture(kPoly2, 4);
    AddHullFixture(kPoly3, 8);
    AddHullFixture(kPoly4, 4);

    for (int k = 0; k < 4; ++k) {
      const int wx = kWheelPos[k][0], wy = kWheelPos[k][1];
      const double front_k = 1.0;
      b2BodyDef def;
      def.type = b2_dynamicBody;
      def.position = b2Vec2(static_cast<float>(x + wx * kSize), static_cast<float>(y + wy * kSize));
      def.angle = static_cast<float>(angle);
      Wheel& w = wheels[k];
      w = Wheel{};
      w.body = world->CreateBody(&def);
      const double poly[4][2] = {
          {-kWheelW, kWheelR}, {kWheelW, kWheelR}, {kWheelW, -kWheelR}, {-kWheelW, -kWheelR}};
      b2Vec2 verts[4];
      for (int i = 0; i < 4; ++i) {
        verts[i] = b2Vec2(static_cast<float>(poly[i][0] * front_k * kSize),
                          static_cast<float>(poly[i][1] * front_k * kSize));
      }
      b2PolygonShape shape;
      shape.Set(verts, 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 0.1f;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0f;
      w.body->CreateFixture(&fd);

      b2RevoluteJointDef rjd;
      rjd.bodyA = hull;
      rjd.bodyB = w.body;
      // pybox2d sets the reference angle from the bodies' angles.
      rjd.referenceAngle = static_cast<float>(static_cast<double>(w.body->GetAngle()) -
                                              static_cast<double>(hull->GetAngle()));
      rjd.localAnchorA = b2Vec2(static_cast<float>(wx * kSize), static_cast<float>(wy * kSize));
      rjd.localAnchorB = b2Vec2(0.0f, 0.0f);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float>(180 * 900 * kSize * kSize);
      rjd.motorSpeed = 0.0f;
      rjd.lowerAngle = -0.4f;
      rjd.upperAngle = 0.4f;
      w.joint = static_cast<b2RevoluteJoint*>(world->CreateJoint(&rjd));
    }
  }

  // Car.destroy: the hull (and with it the joints), then the wheels.
  void Destroy(b2World* world) {
    world->DestroyBody(hull);
    hull = nullptr;
    for (Wheel& w : wheels) {
      world->DestroyBody(w.body);
      w.body = nullptr;
    }
  }

  void Gas(double gas) {
    gas = std::fmin(std::fmax(gas, 0.0), 1.0);
    for (int k = 2; k < 4; ++k) {
      double diff = gas - wheels[k].gas;
      if (diff > 0.1) diff = 0.1;  // gradually increase, but stop immediately
      wheels[k].gas += diff;
    }
  }
  void Brake(double b) {
    for (Wheel& w : wheels) w.brake = b;
  }
  void Steer(double s) {
    wheels[0].steer = s;
    wheels[1].steer = s;
  }

  // Car.step(dt), skid marks left out.
  void Step(double dt) {
    using namespace car;
    for (Wheel& w : wheels) {
      const double angle = w.joint->GetJointAngle();
      const double dir = Sign(w.steer - angle);
      const double val = std::fabs(w.steer - angle);
      w.joint->SetMotorSpeed(static_cast<float>(dir * std::fmin(50.0 * val, 3.0)));

      const CarConstants& c = constants;
      double friction_limit = c.friction_limit * c.grass_friction;
      if (w.tiles > 0) {
        friction_limit = std::fmax(friction_limit, c.friction_limit * c.road_friction);
      }

      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0.0f, 1.0f));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1.0f, 0.0f));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf = static_cast<double>(forw.x) * v.x + static_cast<double>(forw.y) * v.y;
      const double vs = static_cast<double>(side.x) * v.x + static_cast<double>(side.y) * v.y;

      w.omega +=
          dt * c.engine_power * w.gas / c.wheel_moment_of_inertia / (std::fabs(w.omega) + 5.0);
      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        const double bdir = -Sign(w.omega);
        double bval = c.brake_force * w.brake;
        if (std::fabs(bval) > std::fabs(w.omega)) bval = std::fabs(w.omega);
        w.omega += bdir * bval;
      }
      w.phase += w.omega * dt;

      const double wheel_rad = 1.0 * kWheelR * kSize;
      const double vr = w.omega * wheel_rad;
      double f_force = -vf + vr;
      double p_force = -vs;
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);
      if (std::fabs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;
        f_force *= force;
        p_force *= force;
      }
      w.omega -= dt * f_force * wheel_rad / c.wheel_moment_of_inertia;
      w.body->ApplyForceToCenter(b2Vec2(static_cast<float>(p_force * side.x + f_force * forw.x),
                                        static_cast<float>(p_force * side.y + f_force * forw.y)),
                                 true);
    }
  }

  // np.sign: +0.0 for either zero.
  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

 private:
  void AddHullFixture(const int (*poly)[2], int n) {
    b2Vec2 verts[8];
    for (int i = 0; i < n; ++i) {
      verts[i] = b2Vec2(static_cast<float>(poly[i][0] * car::kSize),
                        static_cast<float>(poly[i][1] * car::kSize));
    }
    b2PolygonShape shape;
    shape.Set(verts, n);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = 1.0f;
    hull->CreateFixture(&fd);
  }
};

}  // namespace envpool_x::box2d
